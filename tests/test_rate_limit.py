"""The brake on guessing: wrong match ids or tokens past a limit answer 429, and only they do."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gunicorn_server import JsonClient, Server, bearer, gunicorn, server_database_url
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.serving import rate_limit
from scorekeeper.serving.rate_limit import address_key
from scorekeeper.store.models import WrongGuess, db

pytestmark = pytest.mark.own_app  # each app remembers the refusals its tests provoke

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch

LIMIT, WINDOW = 3, 600
START = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
ROUND_ONE = {"round": 1, "sides": [{"melded_points": 60}, {"melded_points": 50}]}
Guess = Callable[[FlaskClient, str], TestResponse]
Clock = Callable[[float], None]


def unknown_id(tag: object = "") -> str:
    """Return an id of a match's shape (22 characters) that no match has."""
    return f"unknown-{tag}".ljust(22, "x")


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "GUESS_LIMIT": LIMIT, "GUESS_WINDOW_SECONDS": WINDOW}


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Stop the guard's clock at START; return a function that sets it to that many seconds
    after START."""
    now = [START]
    monkeypatch.setattr(rate_limit, "utc_now", lambda: now[0])

    def set_to(seconds: float) -> None:
        now[0] = START + timedelta(seconds=seconds)

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
            lambda c, n: c.post(rounds, json=ROUND_ONE, headers=bearer(n)),
            403,
        ),
        "a wrong token on a page": (lambda c, n: c.get(f"/m/{match.public_id}/edit/x{n}"), 403),
    }


def guess_wrong(client: FlaskClient, times: int) -> list[int]:
    return [client.get(f"/api/v1/matches/{unknown_id(n)}").status_code for n in range(times)]


def guess_tokens(client: FlaskClient, match: StoredMatch, times: int) -> list[int]:
    return [client.get(f"/m/{match.public_id}/edit/x{n}").status_code for n in range(times)]


def counted(app: Flask) -> list[tuple[str, str]]:
    """Return the keys of the wrong guesses stored, one per guess."""
    with app.app_context():
        rows = db.session.scalars(db.select(WrongGuess).order_by(WrongGuess.id))
        return [(row.scope, row.key) for row in rows]


@pytest.fixture
def other_server(app_config: dict[str, Any]) -> Iterator[Flask]:
    """Return a second app server on the same database, as behind a load balancer."""
    other = create_app(app_config)
    yield other
    with other.app_context():
        db.engine.dispose()


@pytest.mark.parametrize(
    "kind",
    [
        "an unknown id on the API",
        "an unknown id on a page",
        "a wrong token on the API",
        "a wrong token on a page",
    ],
)
def test_guessing_wrong_too_often_is_refused_until_the_guesses_age_out(
    client: FlaskClient, match: StoredMatch, clock: Clock, kind: str
) -> None:
    guess, status = wrong_guesses(match)[kind]

    answers = [guess(client, str(n)) for n in range(LIMIT + 2)]

    assert [answer.status_code for answer in answers] == [status] * LIMIT + [429, 429]
    assert answers[-1].headers["Retry-After"] == str(WINDOW)
    assert "Try again in 10 minutes" in answers[-1].get_data(as_text=True)
    assert answers[-1].headers["Content-Security-Policy"]


def test_the_api_refuses_with_its_json_error_list(client: FlaskClient, clock: Clock) -> None:
    guess_wrong(client, LIMIT)

    response = client.get(f"/api/v1/matches/{unknown_id()}")

    assert response.status_code == 429
    assert response.json["errors"][0]["message"].startswith("Too many wrong match links")


def test_a_guesser_never_locks_out_a_right_guess_from_the_same_address(
    client: FlaskClient, match: StoredMatch, clock: Clock
) -> None:
    guess_wrong(client, LIMIT + 1)
    guess_tokens(client, match, LIMIT + 1)
    view = f"/api/v1/matches/{match.public_id}"
    etag = client.get(view).headers["ETag"]

    assert client.get(f"/m/{match.public_id}").status_code == 200
    assert client.get(view, headers={"If-None-Match": etag}).status_code == 304
    assert client.get(f"/m/{match.public_id}/rules.pdf").status_code == 200
    assert client.get(f"/m/{match.public_id}/edit/{match.edit_token}").status_code == 200
    rounds = f"{view}/rounds"
    assert client.post(rounds, json=ROUND_ONE, headers=bearer(match.edit_token)).status_code == 201
    assert client.get(f"/m/{unknown_id()}").status_code == 429


def test_a_refusal_ends_as_the_guesses_age_out_one_by_one_not_at_a_windows_edge(
    client: FlaskClient, other_server: Flask, clock: Clock
) -> None:
    for seconds in (0, 100, 200):
        clock(seconds)
        assert guess_wrong(client, 1) == [404]
    clock(300)
    refused = client.get(f"/m/{unknown_id()}")
    clock(650)  # past where a fixed window begun at 0 would have forgiven everything
    still = client.get(f"/m/{unknown_id()}")

    # The guess at 100 stops counting at 700: from then on, two (at 200 and 300) are left.
    assert (refused.status_code, refused.headers["Retry-After"]) == (429, "400")
    assert (still.status_code, still.headers["Retry-After"]) == (429, "50")
    clock(700)
    assert guess_wrong(client, 1) == [404]
    restarted = other_server.test_client()  # which has refused nobody yet
    assert guess_wrong(restarted, 1) == [429]  # the database remembers the count, not a process


def test_other_addresses_are_not_refused(app: Flask, match: StoredMatch, clock: Clock) -> None:
    guess_wrong(from_address(app.test_client(), "192.0.2.1"), LIMIT + 1)
    neighbour = from_address(app.test_client(), "192.0.2.2")

    assert neighbour.get(f"/m/{match.public_id}").status_code == 200
    assert neighbour.get(f"/m/{unknown_id()}").status_code == 404


def test_guessing_one_matchs_token_is_refused_from_every_address(
    app: Flask, create_match: CreateMatch, clock: Clock
) -> None:
    guessed, other = create_match(), create_match()
    for n in range(LIMIT):
        assert guess_tokens(from_address(app.test_client(), f"192.0.2.{n}"), guessed, 1) == [403]
    newcomer = from_address(app.test_client(), "198.51.100.7")

    refused = newcomer.get(f"/m/{guessed.public_id}/edit/wrong")

    assert refused.status_code == 429
    assert "Too many wrong edit tokens were tried for this match" in refused.text
    assert guess_tokens(newcomer, other, 1) == [403]
    assert newcomer.get(f"/m/{unknown_id()}").status_code == 404
    assert newcomer.get(f"/m/{guessed.public_id}/edit/{guessed.edit_token}").status_code == 200


def test_a_refused_edit_link_still_offers_the_matchs_view_link(
    client: FlaskClient, match: StoredMatch, clock: Clock
) -> None:
    guess_tokens(client, match, LIMIT)

    response = client.get(f"/m/{match.public_id}/edit/an-old-link")

    assert response.status_code == 429
    assert f"/m/{match.public_id}" in response.text


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("192.0.2.1", "192.0.2.1"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:9", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("unknown", "unknown"),
    ],
)
def test_an_ipv6_address_counts_under_its_64_bit_network(address: str, key: str) -> None:
    assert address_key(address) == key


def test_pages_that_name_no_match_are_never_refused(client: FlaskClient, clock: Clock) -> None:
    guess_wrong(client, LIMIT + 1)

    assert client.get("/").status_code == 200
    assert client.get("/api/v1/presets").status_code == 200


def test_only_failures_at_matches_count_as_guesses(
    app: Flask, client: FlaskClient, match: StoredMatch, clock: Clock
) -> None:
    rounds = f"/api/v1/matches/{match.public_id}/rounds"
    headers = bearer(match.edit_token)
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
    assert client.get(f"/m/{match.public_id}/edit/wrong").status_code == 403
    assert counted(app) == [
        ("address", "127.0.0.1"),
        ("address", "127.0.0.1"),
        ("match", match.public_id),
    ]


def test_servers_on_one_database_share_the_count(
    client: FlaskClient, other_server: Flask, match: StoredMatch, clock: Clock
) -> None:
    other_client = other_server.test_client()
    guess_wrong(client, LIMIT)

    assert other_client.get(f"/m/{unknown_id()}").status_code == 429
    assert other_client.get(f"/m/{match.public_id}").status_code == 200


def test_guesses_older_than_the_window_are_forgotten(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    guess_wrong(client, LIMIT + 1)
    clock(WINDOW + 1)

    assert guess_wrong(client, 1) == [404]
    assert counted(app) == [("address", "127.0.0.1")]


def test_requests_that_succeed_cost_nothing(
    client: FlaskClient, match: StoredMatch, statements: list[str], clock: Clock
) -> None:
    rounds = f"/api/v1/matches/{match.public_id}/rounds"
    client.post(rounds, json=ROUND_ONE, headers=bearer(match.edit_token))
    client.get(f"/m/{match.public_id}")
    client.get(f"/api/v1/matches/{match.public_id}")

    assert not [sql for sql in statements if "wrong_guess" in sql]


def test_a_wrong_guess_costs_an_insert_and_a_count(
    client: FlaskClient, statements: list[str], clock: Clock
) -> None:
    guess_wrong(client, 1)
    statements.clear()

    guess_wrong(client, 1)

    assert [sql.split()[0] for sql in statements if "wrong_guess" in sql] == ["INSERT", "SELECT"]


def test_a_refused_guess_costs_this_process_nothing_more(
    client: FlaskClient, statements: list[str], clock: Clock
) -> None:
    guess_wrong(client, LIMIT + 1)
    statements.clear()

    assert guess_wrong(client, 1) == [429]
    assert not [sql for sql in statements if "wrong_guess" in sql]


@pytest.mark.parametrize(
    ("trusted_proxies", "refused"), [(0, True), (1, False)], ids=["direct", "behind a proxy"]
)
def test_behind_a_trusted_proxy_clients_are_told_apart_by_x_forwarded_for(
    app: Flask,  # for its migrated database
    app_config: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    clock: Clock,
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


def statuses(server: Server, match: StoredMatch) -> dict[str, int]:
    """Return the answers to a wrong guess and to right ones, from the same address."""
    client: JsonClient = server.client()
    view = f"/api/v1/matches/{match.public_id}"
    try:
        return {
            "unknown match": client.send("GET", f"/api/v1/matches/{unknown_id()}").status,
            "wrong token": client.send("POST", f"{view}/token", headers=bearer("x")).status,
            "view": client.send("GET", f"/m/{match.public_id}").status,
            "poll": client.send("GET", view).status,
            "edit page": client.send("GET", f"/m/{match.public_id}/edit/{match.edit_token}").status,
            "rules card": client.send("GET", f"/m/{match.public_id}/rules.pdf").status,
        }
    finally:
        client.close()


REFUSED_GUESSES_ONLY = {
    "unknown match": 429,
    "wrong token": 429,
    "view": 200,
    "poll": 200,
    "edit page": 200,
    "rules card": 200,
}


def test_gunicorn_refuses_only_wrong_guesses_across_workers_and_a_restart(
    app_config: dict[str, Any], match: StoredMatch, tmp_path: Path
) -> None:
    url, log = server_database_url(app_config), tmp_path / "gunicorn.log"
    limit = {"SCOREKEEPER_GUESS_LIMIT": str(LIMIT)}
    with gunicorn(url, log, workers=2, config=limit) as server:
        client = server.client()
        guessed = [client.send("GET", f"/m/{unknown_id(n)}").status for n in range(LIMIT)]
        client.close()
        before = statuses(server, match)
    with gunicorn(url, log, workers=2, config=limit) as restarted:
        after = statuses(restarted, match)

    assert guessed == [404] * LIMIT
    assert before == after == REFUSED_GUESSES_ONLY
