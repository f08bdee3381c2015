"""The meld checker page of a match: the table checks an opening meld before laying it down."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from page_parts import errors_next_to

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch


def meld(row: int, rank: str, naturals: int = 0, twos: int = 0, jokers: int = 0) -> str:
    fields = {"rank": rank, "naturals": naturals, "twos": twos, "jokers": jokers}
    return "&".join(f"meld_{row}-{name}={value}" for name, value in fields.items())


def checked(client: FlaskClient, match: StoredMatch, *melds: str, side: int = 0) -> str:
    response = client.get(f"/m/{match.public_id}/melds?side={side}&{'&'.join(melds)}")
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


def verdict(page: str) -> str:
    found = re.search(r'<p class="result-headline">\s*(.*?)\s*</p>', page, re.S)
    assert found is not None, "no verdict"
    return found[1]


def test_the_checker_offers_each_side_with_its_minimum_and_rows_of_melds(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    page = html.unescape(client.get(f"/m/{create_match().public_id}/melds").get_data(as_text=True))

    assert "Round 1 of 4" in page
    assert "Us: at least 50" in page and "Them: at least 50" in page
    assert page.count('name="meld_0-') == 4 and 'name="meld_3-rank"' in page
    assert 'inputmode="numeric"' in page
    assert "result-headline" not in page  # nothing checked before the table asks


def test_melds_that_reach_the_rounds_minimum_open(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    page = checked(client, create_match(), meld(0, "K", naturals=3, jokers=1))

    assert verdict(page) == "These melds open: 80 points, at least 50 needed."


def test_melds_under_the_minimum_say_how_many_points_are_missing(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    page = checked(client, create_match(), meld(0, "5", naturals=3))

    assert verdict(page) == "Not yet: 35 points short of the 50 needed."


def test_an_illegal_meld_beside_legal_ones_short_of_the_minimum_says_both(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    page = checked(client, create_match(), meld(0, "5", naturals=3), meld(1, "A", naturals=1))

    assert verdict(page) == (
        "Not as they are: a meld below cannot be laid down, "
        "and the legal ones are 35 points short of the 50 needed."
    )
    assert "Meld 2 has 1 card; a meld has 3 to 7." in page


def test_an_illegal_meld_is_named_by_its_row_and_counts_nothing(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    page = checked(client, match, meld(2, "7", naturals=2, twos=2))

    assert verdict(page) == "Not as they are: a meld below cannot be laid down."
    enough = checked(client, match, meld(0, "7", naturals=2, twos=2), meld(1, "A", naturals=3))
    assert verdict(enough) == "Not as they are: a meld below cannot be laid down."
    assert "Meld 3 needs at least twice as many natural cards as wild cards." in page
    assert '<p class="meld-points">50 points, not counted</p>' in page


def test_a_second_unfinished_meld_of_a_rank_is_named_by_its_row_past_an_empty_one(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    page = checked(client, create_match(), meld(0, "K", naturals=3), meld(3, "K", naturals=3))

    assert "Meld 4: a side keeps one unfinished meld of each rank; put these K together." in page


@pytest.fixture
def by_score_match(app: Flask, create_match: CreateMatch) -> StoredMatch:
    """Return a match whose meld minimums go by score, with round 1 entered: Us have 1,700."""
    created = create_match(overrides={"meld_minimum_mode": "by_score"})
    with app.app_context():
        stored = store.get_match(created.public_id)
        assert stored is not None
        sides = (SideEntry(clean_books=2, dirty_books=1, melded=400), SideEntry())
        store.add_round(stored, RoundEntry(1, sides))
    return created


def test_the_minimum_is_the_next_rounds_and_by_score_each_sides_own(
    client: FlaskClient, by_score_match: StoredMatch
) -> None:
    page = checked(client, by_score_match, meld(0, "A", naturals=3), side=0)

    assert "Round 2 of 4" in page
    assert "Us: at least 90" in page and "Them: at least 50" in page  # 1,700 and 0 so far
    assert verdict(page) == "Not yet: 30 points short of the 90 needed."
    assert verdict(checked(client, by_score_match, meld(0, "A", naturals=3), side=1)).startswith(
        "These melds open"
    )


def test_a_row_that_cannot_be_read_is_shown_and_nothing_is_checked(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    unranked = checked(client, match, meld(0, "", naturals=3))
    unreadable = checked(client, match, "meld_0-rank=K&meld_0-naturals=three")

    assert "result-headline" not in unranked + unreadable
    assert "Choose the rank of this meld." in errors_next_to(unranked, "meld_0-rank")
    assert "Enter a whole number" in errors_next_to(unreadable, "meld_0-naturals")
    assert 'value="three"' in unreadable  # what was typed stays


def test_check_with_no_meld_entered_asks_for_one_beside_the_first_row(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    page = checked(client, create_match(), meld(0, ""), meld(1, ""))

    assert "result-headline" not in page
    assert "Choose the rank of a meld and enter its cards." in errors_next_to(page, "meld_0-rank")


def test_a_finished_match_offers_no_checker_and_says_what_its_minimums_are(
    app: Flask, client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    edit = f"/m/{match.public_id}/edit/{match.edit_token}"
    with app.app_context():
        stored = store.get_match(match.public_id)
        assert stored is not None
        for number in range(1, 5):
            store.add_round(stored, RoundEntry(number, (SideEntry(melded=150), SideEntry())))

    assert "/melds" not in client.get(f"/m/{match.public_id}").text + client.get(edit).text
    page = checked(client, match)
    assert "Every round is entered: these checks use the last round's minimums." in page


def test_the_checker_opens_from_the_view_link_and_from_the_edit_link(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    edit = f"/m/{match.public_id}/edit/{match.edit_token}"

    assert f'href="/m/{match.public_id}/melds"' in client.get(f"/m/{match.public_id}").text
    assert f'href="{edit}/melds"' in client.get(edit).text
    private = client.get(f"{edit}/melds")
    assert private.status_code == 200 and private.headers["Cache-Control"] == "no-store"
    assert f'href="{edit}"' in private.text  # back to the standings it came from
    assert client.get(f"/m/{match.public_id}/edit/wrong/melds").status_code == 403
    assert client.get("/m/no-such-match-here/melds").status_code == 404


def test_melds_of_wild_cards_only_are_offered_where_the_rules_allow_them(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    allowed = client.get(f"/m/{create_match(preset='standard').public_id}/melds")
    forbidden = client.get(f"/m/{create_match(preset='simple').public_id}/melds")

    assert allowed.get_data(as_text=True).count('value="wild"') == 4  # one per row
    assert 'value="wild"' not in forbidden.get_data(as_text=True)


def test_a_link_naming_a_meld_the_rules_forbid_is_told_why_and_an_unknown_rank_to_choose(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match(preset="simple")

    forbidden = checked(client, match, meld(0, "wild", twos=3))
    unknown = checked(client, match, meld(0, "Z", naturals=3))

    assert "Meld 1: these rules allow no melds of wild cards only." in forbidden
    assert "Choose a rank from the list." in errors_next_to(unknown, "meld_0-rank")


def test_the_checker_gives_its_live_check_the_api_the_rules_the_round_and_each_sides_score(
    client: FlaskClient, by_score_match: StoredMatch
) -> None:
    page = html.unescape(client.get(f"/m/{by_score_match.public_id}/melds").get_data(as_text=True))

    assert 'data-check-url="/api/v1/meld-check"' in page and 'data-round="2"' in page
    assert "data-running='[1700, 0]'" in page
    assert '"meld_minimum_mode": "by_score"' in page
    assert '"meets": "These melds open: {points} points, at least {minimum} needed."' in page
    assert re.search(r'src="/static/meld-check(-[0-9a-f]{32})?\.js"', page)
    assert page.count("data-meld-row") == 4
