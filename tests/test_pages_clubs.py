"""A club's pages: starting one, its links, players and matches, its records and a player's page,
its season report, and the protections it shares with a match's pages."""

from __future__ import annotations

import html
import io
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from sqlalchemy import text

from scorekeeper import create_app, store
from scorekeeper.domain.rules import build_rules
from scorekeeper.store.models import Club, ClubPlayer, Match, db
from scorekeeper.web.clubs.expired import SHOWN_AGAIN

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateClub, CreateMatch, StoredClub

PAIRS_NIGHT = {
    "name": "Night",
    "players-0": "Ann",
    "players-1": "Bob",
    "players-2": "Cy",
    "new_players-3": "Eve",
    "seating": "2x2",
    "preset": "standard",
    "language": "en",
}


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": False}  # test_csrf_walk checks the tokens


@pytest.fixture
def club(create_club: CreateClub) -> StoredClub:
    return create_club()


def edit_url(club: StoredClub) -> str:
    return f"/c/{club.public_id}/edit/{club.edit_token}"


def counts(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(  # type: ignore[return-value]
            db.session.scalar(db.select(db.func.count()).select_from(model)) or 0
            for model in (Club, ClubPlayer, Match)
        )


def visible(page: str) -> str:
    """Return the page's text as its tables read on a wide screen: without the names of the
    figures that a phone shows in each cell."""
    page = re.sub(r'<span class="cell-label">[^<]*</span>', "", page)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def members(app: Flask, club: StoredClub) -> list[str]:
    with app.app_context():
        found = store.get_club(club.public_id)
        assert found is not None
        return [member.name for member in found.players]


# -- Starting a club and sharing it --------------------------------------------------------------


def test_the_home_page_offers_to_start_a_club(client: FlaskClient) -> None:
    assert 'href="/clubs/new"' in client.get("/").text


def test_a_new_club_opens_on_its_links_with_their_qr_codes(client: FlaskClient) -> None:
    response = client.post("/clubs/new", data={"name": "Thursdays", "language": "nl"})

    assert response.status_code == 303
    assert response.headers["Cache-Control"] == "no-store"
    found = re.fullmatch(r"/c/([\w-]{22})/edit/([\w-]+)/share", response.location or "")
    assert found is not None
    share = client.get(response.location or "")
    assert share.headers["X-Robots-Tag"] == "noindex"
    assert f"http://localhost/c/{found[1]}/edit/{found[2]}" in share.text
    assert f"http://localhost/c/{found[1]}" in share.text
    assert share.text.count('class="qr"') == 2


@pytest.mark.parametrize("name", ["", "x" * 61])
def test_a_club_without_a_proper_name_is_refused_beside_its_box(
    app: Flask, client: FlaskClient, name: str
) -> None:
    response = client.post("/clubs/new", data={"name": name, "language": "en"})

    assert response.status_code == 422
    assert 'id="name-errors"' in response.text
    assert counts(app) == (0, 0, 0)


def test_no_page_lists_clubs(client: FlaskClient, club: StoredClub) -> None:
    assert client.get("/clubs").status_code == 404
    assert club.public_id not in client.get("/").text
    assert club.public_id not in client.get("/recent").text


def test_a_wrong_edit_token_opens_nothing_and_offers_the_view_link(
    client: FlaskClient, club: StoredClub
) -> None:
    wrong = f"/c/{club.public_id}/edit/not-the-token"

    refused = client.get(wrong)

    assert refused.status_code == 403
    assert f"http://localhost/c/{club.public_id}" in refused.text
    assert client.post(f"{wrong}/players", data={"name": "Zed"}).status_code == 403
    assert client.get(f"{wrong}/matches/new").status_code == 403


def test_an_unknown_club_is_not_found(client: FlaskClient) -> None:
    assert client.get(f"/c/{'x' * 22}").status_code == 404
    assert client.get(f"/c/{'x' * 22}/players/1").status_code == 404


def test_wrong_guesses_at_clubs_count_against_the_same_limit(app_config: dict[str, Any]) -> None:
    app = create_app({**app_config, "GUESS_LIMIT": 2})
    client = app.test_client()
    with app.app_context():
        created = store.create_club("Thursdays")
    wrong = f"/c/{created.club.public_id}/edit/not-the-token"

    statuses = [client.get(wrong).status_code for _ in range(3)]

    assert statuses == [403, 403, 429]
    # Only wrong guesses are refused: the club's view link still opens, as a match's does.
    assert client.get(f"/c/{created.club.public_id}").status_code == 200
    with app.app_context():
        db.engine.dispose()


def test_a_player_the_club_lacks_is_not_found_and_is_no_wrong_guess(
    client: FlaskClient, club: StoredClub
) -> None:
    assert client.get(f"/c/{club.public_id}/players/99").status_code == 404
    assert client.get(f"/c/{club.public_id}").status_code == 200


# -- The club's page -----------------------------------------------------------------------------


def test_the_view_page_shows_the_records_and_matches_without_the_forms_or_the_token(
    client: FlaskClient, club: StoredClub
) -> None:
    page = client.get(f"/c/{club.public_id}").text
    text = visible(page)

    assert "Ann 1 1 100% 2,565 2,565 1 win" in text
    assert "Cy 1 0 0% 825 825 1 loss" in text
    assert "Ann and Bob 1 1 100% 2,565" in text
    assert "Night 1" in text and "Winner: Us, with 2,565 points." in text
    assert club.edit_token not in page
    assert '/players"' not in page and "matches/attach" not in page
    assert "X-Robots-Tag" not in client.get(f"/c/{club.public_id}").headers


def test_the_edit_page_offers_new_matches_players_and_attaching_a_match(
    client: FlaskClient, club: StoredClub
) -> None:
    page = client.get(edit_url(club)).text

    for action in ("/matches/new", "/players", "/matches/attach", "/share"):
        assert f'{edit_url(club)}{action}"' in page
    assert f'href="{edit_url(club)}/players/1"' in page


def test_filters_count_only_the_matches_of_a_period_or_a_preset(
    app: Flask, client: FlaskClient, club: StoredClub
) -> None:
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(
            text("UPDATE match SET created_at = :day"), {"day": datetime(2020, 1, 1, tzinfo=UTC)}
        )
    url = f"/c/{club.public_id}"

    this_year = visible(client.get(f"{url}?period=year").text)
    every_year = visible(client.get(f"{url}?period=all&preset=standard").text)
    other_preset = visible(client.get(f"{url}?preset=simple").text)
    nonsense = visible(client.get(f"{url}?period=decade&preset=nonsense").text)

    assert "Ann 0 0 –" in this_year and "No match of the club yet." in this_year
    assert "Ann 1 1 100%" in every_year
    assert "Ann 0 0 –" in other_preset
    assert "Ann 1 1 100%" in nonsense


def test_a_long_list_of_matches_shows_the_newest_with_a_link_to_all(
    client: FlaskClient, create_club: CreateClub
) -> None:
    club = create_club(matches=22)

    page = client.get(f"/c/{club.public_id}").text
    every = client.get(f"/c/{club.public_id}?all=matches").text

    assert page.count('class="club-match-name"') == 20
    assert "Show all 22 matches" in page
    assert every.count('class="club-match-name"') == 22


def test_a_players_page_shows_their_record_averages_chart_and_matches(
    client: FlaskClient, club: StoredClub
) -> None:
    page = client.get(f"/c/{club.public_id}/players/1").text
    text = visible(page)

    assert "<h1>Ann</h1>" in page
    assert "Played 1" in text and "Win rate 100%" in text and "Best score 2,565" in text
    assert "Books a round 4.0" in text and "Went out 1 time (100%)" in text
    assert "Red threes a round 1.0" in text
    assert 'class="chart-drawing"' in page
    assert "Night 1" in text and "Won, with 2,565 points." in text


# -- Players and matches -------------------------------------------------------------------------


def test_a_player_joins_the_club_once_whatever_their_names_case(
    app: Flask, client: FlaskClient, club: StoredClub
) -> None:
    added = client.post(f"{edit_url(club)}/players", data={"name": "Eve"})
    again = client.post(f"{edit_url(club)}/players", data={"name": " eve "})

    assert added.status_code == 303
    assert again.status_code == 422
    assert "is a player of this club already" in html.unescape(again.text)
    assert members(app, club) == ["Ann", "Bob", "Cy", "Di", "Eve"]


def test_the_set_up_form_of_a_clubs_match_offers_its_players_and_prints_in_its_language(
    client: FlaskClient, create_club: CreateClub
) -> None:
    club = create_club(language="ko")

    page = client.get(f"{edit_url(club)}/matches/new").text

    assert page.count('<option value="Ann">Ann</option>') == 6  # one list a seat
    assert 'name="new_players-0"' in page
    assert '<option selected value="ko">' in page


def test_a_match_set_up_from_the_club_plays_its_players_and_a_new_name_joins(
    app: Flask, client: FlaskClient, club: StoredClub
) -> None:
    response = client.post(f"{edit_url(club)}/matches/new", data=PAIRS_NIGHT)

    assert response.status_code == 303
    assert re.fullmatch(r"/m/[\w-]{22}/edit/[\w-]+/share", response.location or "")
    assert members(app, club) == ["Ann", "Bob", "Cy", "Di", "Eve"]
    with app.app_context():
        match = db.session.scalars(db.select(Match).where(Match.name == "Night")).one()
        assert [p.club_player_id is not None for s in match.sides for p in s.players] == [True] * 4
    assert "Night" in client.get(f"/c/{club.public_id}").text


def test_a_clubs_match_naming_a_player_twice_is_refused_beside_the_seat(
    app: Flask, client: FlaskClient, club: StoredClub
) -> None:
    form = {**PAIRS_NIGHT, "new_players-3": "ann"}

    response = client.post(f"{edit_url(club)}/matches/new", data=form)

    assert response.status_code == 422
    assert 'id="players-3-errors"' in response.text
    assert counts(app)[2] == 1  # the club's first match only


def test_a_match_is_attached_by_its_edit_link(
    app: Flask, client: FlaskClient, club: StoredClub, create_match: CreateMatch
) -> None:
    match = create_match(sides=[("Ann", ["Ann"]), ("Fay", ["Fay"])])
    link = f"http://localhost/m/{match.public_id}/edit/{match.edit_token}"

    response = client.post(f"{edit_url(club)}/matches/attach", data={"link": link})

    assert response.status_code == 303
    assert members(app, club)[-1] == "Fay"
    assert "Fay" in visible(client.get(f"/c/{club.public_id}").text)


def test_a_link_that_opens_no_match_attaches_nothing_and_counts_as_a_wrong_guess(
    app: Flask, client: FlaskClient, club: StoredClub, create_match: CreateMatch
) -> None:
    match = create_match()
    wrong = f"/m/{match.public_id}/edit/not-the-token"

    guessed = client.post(f"{edit_url(club)}/matches/attach", data={"link": wrong})
    garbled = client.post(f"{edit_url(club)}/matches/attach", data={"link": "hello"})

    assert (guessed.status_code, garbled.status_code) == (403, 422)
    assert "This is not the edit link of a match" in guessed.text
    with app.app_context():
        assert db.session.scalars(db.select(Match.club_id)).all().count(None) == 1


def test_an_expired_form_of_a_club_comes_back_as_typed_and_saves_nothing(
    app_config: dict[str, Any], club: StoredClub
) -> None:
    app = create_app({**app_config, "WTF_CSRF_ENABLED": True})
    client = app.test_client()
    form = {**PAIRS_NIGHT, "csrf_token": "expired"}

    response = client.post(f"{edit_url(club)}/matches/new", data=form)

    assert response.status_code == 400
    assert "This form had expired" in response.text
    assert '<option value="Ann" selected>Ann</option>' in response.text
    assert 'name="new_players-3" value="Eve"' in response.text
    assert counts(app)[2] == 1
    with app.app_context():
        db.engine.dispose()


def test_every_form_route_of_the_club_pages_has_a_page_to_show_again(app: Flask) -> None:
    posted = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("clubs.") and "POST" in (rule.methods or set())
    }
    assert posted == set(SHOWN_AGAIN)


# -- The season report ---------------------------------------------------------------------------


def pdf_text(data: bytes) -> tuple[int, str]:
    pages = PdfReader(io.BytesIO(data)).pages
    return len(pages), re.sub(r"\s+", " ", " ".join(page.extract_text() for page in pages))


def test_the_season_report_prints_the_leaderboard_and_the_matches(
    client: FlaskClient, club: StoredClub
) -> None:
    response = client.get(f"/c/{club.public_id}/report.pdf?paper=a4")

    assert response.mimetype == "application/pdf"
    pages, printed = pdf_text(response.data)
    assert pages == 1
    assert "Thursdays" in printed and "All time" in printed
    assert "Ann 1 1 100% 2,565 2,565 1 win" in printed
    assert "Ann and Bob" in printed
    assert "Night 1" in printed and "Winner: Us, with 2,565 points." in printed


def test_a_long_season_runs_onto_more_pages_on_letter_paper_as_asked(
    client: FlaskClient, create_club: CreateClub
) -> None:
    club = create_club(matches=60)

    response = client.get(f"/c/{club.public_id}/report.pdf?paper=letter")

    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) > 1
    assert round(float(reader.pages[0].mediabox.width)) == 612  # 8.5 inches


def test_the_season_report_prints_in_the_clubs_language_and_follows_the_filter(
    client: FlaskClient, create_club: CreateClub
) -> None:
    club = create_club(language="ja")

    _pages, printed = pdf_text(client.get(f"/c/{club.public_id}/report.pdf?period=month").data)

    assert "シーズンの記録" in printed and "今月" in printed
    assert "1連勝" in printed


def test_the_season_report_of_a_club_of_another_preset_counts_none_of_its_matches(
    app: Flask, client: FlaskClient, club: StoredClub
) -> None:
    with app.app_context():
        found = store.get_club(club.public_id)
        sides = [store.SideSpec("Ann", ("Ann",)), store.SideSpec("Bob", ("Bob",))]
        store.create_match("Simple", "simple", build_rules("simple"), sides, club=found)

    _pages, printed = pdf_text(client.get(f"/c/{club.public_id}/report.pdf?preset=simple").data)

    assert "Simple" in printed and "Being played." in printed
    assert "Ann 0 0" in printed
