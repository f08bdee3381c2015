"""A form whose CSRF token no longer holds (the session ended while the page stayed open) comes
back with what was typed, a fresh token and a message saying so; nothing is saved."""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.store.models import Match, Round, db
from scorekeeper.web.matches.expired import SHOWN_AGAIN

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch

EXPIRED = "This form had expired; check your entries and save again."
SETUP = {
    "name": "Friday",
    "players-0": "Ann",
    "players-1": "Bob",
    "seating": "individuals",
    "preset": "standard",
}
ROUND_ONE = {
    "round_number": "1",
    "went_out": "nobody",
    "sides-0-melded_mode": "points",
    "sides-0-leftover_mode": "points",
    "sides-0-melded_points": "765",
    "sides-1-melded_mode": "points",
    "sides-1-leftover_mode": "points",
    "sides-1-leftover_points": "85",
}


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": True}


@pytest.fixture
def match(create_match: CreateMatch) -> StoredMatch:
    return create_match()


@pytest.fixture
def with_round(app: Flask, match: StoredMatch) -> StoredMatch:
    """Return the match with a round 1 in which nobody scored."""
    with app.app_context():
        stored = store.get_match(match.public_id)
        assert stored is not None
        store.add_round(stored, RoundEntry(1, (SideEntry(), SideEntry())))
    return match


def edit_url(match: StoredMatch) -> str:
    return f"/m/{match.public_id}/edit/{match.edit_token}"


def fresh_token(page: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert found is not None, "the page carries no CSRF token"
    return found[1]


def expired_post(client: FlaskClient, url: str, data: dict[str, Any]) -> tuple[int, str]:
    """Post a form with a token from a session the server no longer knows; return the answer."""
    response = client.post(url, data={**data, "csrf_token": "a-token-of-an-ended-session"})
    return response.status_code, response.get_data(as_text=True)


def count(app: Flask, model: type[Match] | type[Round]) -> int:
    with app.app_context():
        return len(db.session.scalars(db.select(model)).all())


def test_an_expired_set_up_form_comes_back_as_typed_and_saves_on_the_second_try(
    client: FlaskClient, app: Flask
) -> None:
    status, page = expired_post(client, "/matches/new", SETUP)

    assert status == 400
    assert EXPIRED in page.replace("&#39;", "'")
    assert 'value="Friday"' in page and 'value="Ann"' in page and 'value="Bob"' in page
    assert count(app, Match) == 0
    again = client.post("/matches/new", data={**SETUP, "csrf_token": fresh_token(page)})
    assert again.status_code == 303
    assert count(app, Match) == 1


def test_an_expired_round_form_comes_back_as_typed_and_saves_on_the_second_try(
    client: FlaskClient, app: Flask, match: StoredMatch
) -> None:
    url = f"{edit_url(match)}/rounds/new"
    status, page = expired_post(client, url, ROUND_ONE)

    assert status == 400
    assert EXPIRED in page.replace("&#39;", "'")
    assert re.search(r'name="sides-0-melded_points"[^>]*value="765"', page)
    assert re.search(r'name="sides-1-leftover_points"[^>]*value="85"', page)
    assert count(app, Round) == 0
    again = client.post(url, data={**ROUND_ONE, "csrf_token": fresh_token(page)})
    assert again.status_code == 303
    assert count(app, Round) == 1


def test_an_expired_edit_of_a_round_shows_what_was_typed_not_what_is_stored(
    client: FlaskClient, app: Flask, with_round: StoredMatch
) -> None:
    status, page = expired_post(
        client, f"{edit_url(with_round)}/rounds/1", {**ROUND_ONE, "version": "1"}
    )

    assert status == 400
    assert re.search(r'name="sides-0-melded_points"[^>]*value="765"', page)
    assert 'name="version" type="hidden" value="1"' in page
    with app.app_context():
        assert db.session.scalars(db.select(Round.version)).all() == [1]


@pytest.mark.parametrize(
    ("path", "shown"),
    [("/rounds/1/delete", "Delete round 1"), ("/new-link", "Make a new edit link")],
)
def test_an_expired_button_shows_its_page_again_and_changes_nothing(
    client: FlaskClient, app: Flask, with_round: StoredMatch, path: str, shown: str
) -> None:
    status, page = expired_post(client, f"{edit_url(with_round)}{path}", {"version": "1"})

    assert status == 400
    assert EXPIRED in page.replace("&#39;", "'") and shown in page
    assert count(app, Round) == 1
    assert client.get(edit_url(with_round)).status_code == 200  # the edit link still works


def test_an_expired_import_keeps_the_pasted_text_and_stores_nothing(
    client: FlaskClient, app: Flask
) -> None:
    status, page = expired_post(client, "/matches/import", {"text": '{"format": "pasted"}'})

    assert status == 400
    assert "{&#34;format&#34;: &#34;pasted&#34;}" in page
    assert count(app, Match) == 0


def test_an_expired_form_under_a_wrong_edit_token_is_refused_as_the_page_itself_is(
    client: FlaskClient, match: StoredMatch
) -> None:
    wrong = f"/m/{match.public_id}/edit/not-the-token/rounds/new"

    status, page = expired_post(client, wrong, ROUND_ONE)

    assert status == 403
    assert EXPIRED not in page


def test_every_form_route_of_the_match_pages_has_a_page_to_show_again(app: Flask) -> None:
    posted = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("matches.") and "POST" in (rule.methods or set())
    }
    assert posted == set(SHOWN_AGAIN)


def test_a_file_too_large_is_refused_on_the_import_page_before_any_token_is_read(
    client: FlaskClient, app: Flask
) -> None:
    too_large = io.BytesIO(b" " * (app.config["MAX_CONTENT_LENGTH"] + 1))

    response = client.post("/matches/import", data={"file": (too_large, "big.json")})

    assert response.status_code == 413
    assert 'id="file-errors"' in response.get_data(as_text=True)
