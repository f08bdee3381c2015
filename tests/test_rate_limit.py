"""The brake on guessing: too many wrong match ids or tokens from one client answer 429 a while."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.serving import rate_limit
from scorekeeper.store.models import GuessWindow, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch

LIMIT, WINDOW = 3, 600
WINDOW_START = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)  # a multiple of WINDOW since the epoch
ROUND_ONE = {"round": 1, "sides": [{"melded_points": 60}, {"melded_points": 50}]}
Guess = Callable[[FlaskClient, str], TestResponse]


def unknown_id(tag: object = "") -> str:
    """Return an id of a match's shape (22 characters) that no match has."""
    return f"unknown-{tag}".ljust(22, "x")


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "GUESS_LIMIT": LIMIT, "GUESS_WINDOW_SECONDS": WINDOW}


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Stop the guard's clock 100 seconds into a window; return a function that sets it to
    that many seconds after the window's start."""
    now = [WINDOW_START + timedelta(seconds=100)]
    monkeypatch.setattr(rate_limit, "utc_now", lambda: now[0])

    def set_to(seconds: float) -> None:
        now[0] = WINDOW_START + timedelta(seconds=seconds)

    return set_to


@pytest.fixture
def match(create_match: CreateMatch) -> StoredMatch:
    return create_match()


def from_address(client: FlaskClient, address: str) -> FlaskClient:
    client.environ_base["REMOTE_ADDR"] = address
    return client


def wrong_guesses(match: StoredMatch) -> dict[str, tuple[Guess, int]]:
    """Return every kind of wrong guess, with the status it answers below the limit."""
    rounds = f"/api/v1/matches/{match.public_id}/rounds"
    return {
        "an unknown id on the API": (lambda c, n: c.get(f"/api/v1/matches/{unknown_id(n)}"), 404),
        "an unknown id on a page": (lambda c, n: c.get(f"/m/{unknown_id(n)}"), 404),
        "a wrong token on the API": (
            lambda c, n: c.post(rounds, json=ROUND_ONE, headers={"Authorization": f"Bearer {n}"}),
            403,
        ),
        "a wrong token on a page": (lambda c, n: c.get(f"/m/{match.public_id}/edit/x{n}"), 403),
    }


def guess_wrong(client: FlaskClient, times: int) -> list[int]:
    return [client.get(f"/api/v1/matches/{unknown_id(n)}").status_code for n in range(times)]


def guess_windows(app: Flask) -> list[tuple[str, int]]:
    with app.app_context():
        rows = db.session.scalars(db.select(GuessWindow))
        return [(row.client, row.failures) for row in rows]


@pytest.mark.parametrize(
    "kind",
    [
        "an unknown id on the API",
        "an unknown id on a page",
        "a wrong token on the API",
        "a wrong token on a page",
    ],
)
def test_a_client_guessing_wrong_too_often_is_refused_until_the_window_ends(
    client: FlaskClient, match: StoredMatch, clock: Callable[[float], None], kind: str
) -> None:
    guess, status = wrong_guesses(match)[kind]

    answers = [guess(client, str(n)) for n in range(LIMIT + 2)]

    assert [answer.status_code for answer in answers] == [status] * LIMIT + [429, 429]
    assert answers[-1].headers["Retry-After"] == str(WINDOW - 100)
    assert "Try again in 9 minutes" in answers[-1].get_data(as_text=True)
    assert answers[-1].headers["Content-Security-Policy"]


def test_the_api_refuses_with_its_json_error_list(client: FlaskClient, clock: object) -> None:
    guess_wrong(client, LIMIT)

    response = client.get(f"/api/v1/matches/{unknown_id()}")

    assert response.status_code == 429
    assert response.json["errors"][0]["message"].startswith("Too many wrong match links")


def test_a_refused_client_is_refused_even_a_right_guess(
    client: FlaskClient, match: StoredMatch, clock: object
) -> None:
    guess_wrong(client, LIMIT + 1)

    assert client.get(f"/m/{match.public_id}").status_code == 429
    assert client.get(f"/api/v1/matches/{match.public_id}").status_code == 429


def test_other_clients_are_not_refused(app: Flask, match: StoredMatch, clock: object) -> None:
    guess_wrong(from_address(app.test_client(), "192.0.2.1"), LIMIT + 1)
    neighbour = from_address(app.test_client(), "192.0.2.2")

    assert neighbour.get(f"/m/{match.public_id}").status_code == 200
    assert neighbour.get(f"/m/{unknown_id()}").status_code == 404


def test_pages_that_name_no_match_are_never_refused(client: FlaskClient, clock: object) -> None:
    guess_wrong(client, LIMIT + 1)

    assert client.get("/").status_code == 200
    assert client.get("/api/v1/presets").status_code == 200


def test_only_failures_at_matches_count_as_guesses(
    app: Flask, client: FlaskClient, match: StoredMatch, clock: object
) -> None:
    rounds = f"/api/v1/matches/{match.public_id}/rounds"
    headers = {"Authorization": f"Bearer {match.edit_token}"}
    edit = f"/m/{match.public_id}/edit/{match.edit_token}"
    for _ in range(LIMIT + 1):
        assert client.get("/no-such-page").status_code == 404
        assert client.post(rounds, json={"round": 9}, headers=headers).status_code == 422
        assert client.post(rounds, json=ROUND_ONE).status_code == 401  # no token, no guess
        # A round not entered yet, asked for by a phone that polls for it or means to edit it.
        assert client.get(f"{rounds}/2").status_code == 404
        changed = headers | {"If-Match": '"1"'}
        assert client.delete(f"{rounds}/2", headers=changed).status_code == 404
        assert client.get(f"{edit}/rounds/2").status_code == 404

    assert client.get(f"/m/{unknown_id()}").status_code == 404
    assert guess_windows(app) == [("127.0.0.1", 1)]


@pytest.fixture
def other_server(app_config: dict[str, Any]) -> Iterator[Flask]:
    """Return a second app server on the same database, as behind a load balancer."""
    other = create_app(app_config)
    yield other
    with other.app_context():
        db.engine.dispose()


def test_servers_on_one_database_share_the_count(
    client: FlaskClient, other_server: Flask, match: StoredMatch, clock: object
) -> None:
    other_client = other_server.test_client()
    guess_wrong(client, LIMIT)

    assert other_client.get(f"/m/{unknown_id()}").status_code == 429
    assert other_client.get(f"/m/{match.public_id}").status_code == 429


def test_a_new_window_forgives_and_forgets_the_old_counts(
    app: Flask, client: FlaskClient, clock: Callable[[float], None]
) -> None:
    guess_wrong(client, LIMIT + 1)
    clock(WINDOW + 1)

    assert guess_wrong(client, 1) == [404]
    assert guess_windows(app) == [("127.0.0.1", 1)]


def test_requests_that_succeed_cost_nothing(
    client: FlaskClient, match: StoredMatch, statements: list[str], clock: object
) -> None:
    rounds = f"/api/v1/matches/{match.public_id}/rounds"
    client.post(rounds, json=ROUND_ONE, headers={"Authorization": f"Bearer {match.edit_token}"})
    client.get(f"/m/{match.public_id}")
    client.get(f"/api/v1/matches/{match.public_id}")

    assert not [sql for sql in statements if "guess_window" in sql]


def test_a_wrong_guess_costs_one_statement(
    client: FlaskClient, statements: list[str], clock: object
) -> None:
    guess_wrong(client, 1)
    statements.clear()

    guess_wrong(client, 1)

    assert len([sql for sql in statements if "guess_window" in sql]) == 1


@pytest.mark.parametrize(
    ("trusted_proxies", "refused"), [(0, True), (1, False)], ids=["direct", "behind a proxy"]
)
def test_behind_a_trusted_proxy_clients_are_told_apart_by_x_forwarded_for(
    app: Flask,  # for its migrated database
    app_config: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    clock: object,
    trusted_proxies: int,
    refused: bool,
) -> None:
    monkeypatch.setitem(app_config, "TRUSTED_PROXIES", trusted_proxies)
    server = create_app(app_config)
    try:
        proxied = server.test_client()
        for n in range(LIMIT + 1):
            proxied.get(f"/m/{unknown_id()}", headers={"X-Forwarded-For": f"198.51.100.{n}"})

        response = proxied.get(f"/m/{unknown_id()}", headers={"X-Forwarded-For": "198.51.100.99"})
    finally:
        with server.app_context():
            db.engine.dispose()

    assert (response.status_code == 429) is refused
