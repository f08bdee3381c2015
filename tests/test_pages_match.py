"""A match's pages: entering, editing and deleting rounds, and the standings they add up to."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from page_parts import errors_next_to, posted_form, recent_entry
from werkzeug.test import TestResponse

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.store.models import Round, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, PlayRounds, StoredMatch


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": False}


def side(index: int, **values: object) -> dict[str, str]:
    """Return one side's fields as the round form posts them."""
    return {f"sides-{index}-{key}": str(value) for key, value in values.items()}


# A round worked out by hand: Us score 2565, Them 825.
WORKED_EXAMPLE = {
    "went_out": "0",
    **side(0, clean_books=2, dirty_books=2, melded_points=765, red_threes=1),
    **side(1, clean_books=1, melded_points=310, red_threes=1, leftover_points=85),
}
# Every side's fields reach the server, empty or not, as a browser posts them.
BLANK_ROUND = {
    **side(0, melded_mode="points", leftover_mode="points"),
    **side(1, melded_mode="points", leftover_mode="points"),
}
# The table's choice when the stock ran out: the form preselects nobody as going out.
NOBODY_OUT = {"went_out": "nobody"}
QUIET_ROUND = {
    **NOBODY_OUT,
    **side(0, clean_books=1, melded_points=200),
    **side(1, dirty_books=1, melded_points=150, leftover_points=20),
}


@dataclass(frozen=True)
class MatchPages:
    """The URLs of one stored match, and a client to use them."""

    client: FlaskClient
    stored: StoredMatch

    @property
    def edit(self) -> str:
        return f"/m/{self.stored.public_id}/edit/{self.stored.edit_token}"

    @property
    def view(self) -> str:
        return f"/m/{self.stored.public_id}"

    @property
    def new_round(self) -> str:
        return f"{self.edit}/rounds/new"

    def round(self, number: int) -> str:
        return f"{self.edit}/rounds/{number}"

    def enter(self, number: int, fields: dict[str, str] = WORKED_EXAMPLE) -> TestResponse:
        return self.post(self.new_round, {"round_number": str(number), **fields})

    def post(self, url: str, fields: dict[str, str]) -> TestResponse:
        return self.client.post(url, data={**BLANK_ROUND, **fields})

    def enter_all(self, rounds: int = 4) -> None:
        for number in range(1, rounds + 1):
            assert self.enter(number).status_code == 303

    def page(self, url: str) -> str:
        response = self.client.get(url)
        assert response.status_code == 200
        return response.get_data(as_text=True)


@pytest.fixture
def pages(client: FlaskClient, create_match: CreateMatch) -> Callable[..., MatchPages]:
    """Return a factory that stores a match (two pairs, standard unless told) and its pages."""

    def create(**options: object) -> MatchPages:
        return MatchPages(client, create_match(**options))

    return create


def stored_rounds(app: Flask) -> list[tuple[int, int]]:
    """Return every stored round's number and version."""
    with app.app_context():
        return [(row.number, row.version) for row in db.session.scalars(db.select(Round))]


def scores(app: Flask, pages: MatchPages) -> list[tuple[int, ...]]:
    with app.app_context():
        match = store.get_match(pages.stored.public_id)
        assert match is not None
        view = store.match_view(match)
        return [tuple(side.score for side in scored.score.sides) for scored in view.rounds]


# -- Every page of a match -----------------------------------------------------------------------


def test_no_page_of_a_match_gives_two_elements_one_id(pages: Callable[..., MatchPages]) -> None:
    match = pages()
    match.enter(1)
    urls = (match.edit, match.view, match.new_round, match.round(1), f"{match.edit}/share")

    for url in urls:
        ids = re.findall(r'\sid="([^"]+)"', match.page(url))
        assert len(ids) == len(set(ids)), f"{url}: {sorted(i for i in ids if ids.count(i) > 1)}"


# -- Entering a round ----------------------------------------------------------------------------


def test_the_round_form_has_a_card_per_side_with_its_meld_minimum(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    page = match.page(match.new_round)

    assert f'action="{match.new_round}"' in page
    assert page.count('class="side-card"') == 2
    assert page.count("Meld minimum 50") == 2
    assert 'name="round_number" type="hidden" value="1"' in page
    assert 'name="operation" type="hidden" value="' in page
    assert 'inputmode="numeric"' in page and 'pattern="[0-9]*"' in page
    assert "data-stepper" in page


@pytest.mark.parametrize(
    ("preset", "shown", "hidden"),
    [
        ("standard", ["wild_books", "red_threes"], ["deal_bonus"]),
        ("partnership-11", ["deal_bonus"], ["wild_books", "red_threes"]),
    ],
)
def test_the_round_form_hides_what_the_rules_make_impossible(
    pages: Callable[..., MatchPages], preset: str, shown: list[str], hidden: list[str]
) -> None:
    match = pages(preset=preset)
    page = match.page(match.new_round)

    assert all(f'name="sides-0-{name}"' in page for name in shown)
    assert not any(f'name="sides-0-{name}"' in page for name in hidden)


def test_both_partners_deal_bonuses_are_entered_as_a_count_and_scored_each(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages(preset="partnership-11")
    page = match.page(match.new_round)
    assert 'id="sides-0-deal_bonus"' in page and "Worth 300 points each." in page
    fields = {**NOBODY_OUT, "sides-0-melded_points": "90", "sides-0-red_threes_held": "1"}

    assert match.enter(1, {**fields, "sides-0-deal_bonus": "2"}).status_code == 303

    assert re.search(r"<dt>Deal bonus</dt>\s*<dd data-value>600</dd>", match.page(match.view))


def stepper_steps(page: str, field_id: str) -> list[str]:
    """Return the steps of the - and + buttons beside a field."""
    inside = "(?:(?!</div>).)*"  # within the stepper's own div
    stepper = rf'<div class="stepper" data-stepper>({inside}id="{field_id}"{inside})</div>'
    found = re.search(stepper, page, re.S)
    assert found is not None, f"no stepper around {field_id}"
    return re.findall(r'data-step="(-?\d+)"', found[1])


@pytest.mark.parametrize(
    ("card_values", "melded", "leftover"),
    [
        ({}, "5", "5"),
        ({"four_to_seven": 10, "black_three": 5}, "10", "5"),  # black threes never meld
    ],
)
def test_point_totals_have_steppers_that_move_by_the_step_of_the_card_values(
    pages: Callable[..., MatchPages], card_values: dict[str, int], melded: str, leftover: str
) -> None:
    match = pages(overrides={"card_values": card_values})
    page = match.page(match.new_round)

    assert stepper_steps(page, "sides-1-melded_points") == [f"-{melded}", melded]
    assert stepper_steps(page, "sides-1-leftover_points") == [f"-{leftover}", leftover]
    assert stepper_steps(page, "sides-1-clean_books") == ["-1", "1"]


def test_the_round_form_gives_the_live_score_the_matchs_rules(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages(overrides={"going_out_bonus": 200})
    page = match.page(match.new_round)

    assert 'data-score-url="/api/v1/score"' in page
    assert '"going_out_bonus": 200' in page
    assert "data-side-players='[2, 2]'" in page


def test_the_round_form_tells_the_live_score_how_its_mode_radios_name_counting_cards_by_kind(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    page = match.page(match.new_round)

    found = re.search(r'data-counts-mode="([^"]+)"', page)
    assert found is not None, "no counts mode for the live score"
    assert re.search(rf'name="sides-0-melded_mode" type="radio" value="{found[1]}"', page)


def test_a_round_entered_is_stored_and_the_browser_sent_on_to_the_standings(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    response = match.enter(1)

    assert response.status_code == 303
    assert response.location == match.edit
    assert scores(app, match) == [(2565, 825)]


def test_the_new_round_form_leaves_who_went_out_for_the_table_to_choose(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    page = match.page(match.new_round)

    choices = re.findall(r'<input[^>]*name="went_out"[^>]*>', page)
    assert len(choices) == 3  # each side, and nobody
    assert not any("checked" in choice for choice in choices)


def test_a_round_saved_without_choosing_who_went_out_is_refused_beside_the_choice(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    fields = {key: value for key, value in WORKED_EXAMPLE.items() if key != "went_out"}

    response = match.enter(1, fields)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Choose the side that went out, or Nobody if the stock ran out." in errors_next_to(
        page, "went_out"
    )
    assert '<a href="#went_out">A field below says what is wrong.</a>' in page
    assert re.search(r'name="sides-0-melded_points"[^>]*value="765"', page)
    assert re.search(r'name="sides-1-leftover_points"[^>]*value="85"', page)
    assert stored_rounds(app) == []


@pytest.mark.parametrize(("went_out", "chosen"), [(WORKED_EXAMPLE, "0"), (QUIET_ROUND, "nobody")])
def test_editing_a_round_shows_who_went_out_as_stored(
    pages: Callable[..., MatchPages], went_out: dict[str, str], chosen: str
) -> None:
    match = pages()
    match.enter(1, went_out)

    page = match.page(match.round(1))

    checked = re.findall(r'<input checked[^>]*name="went_out"[^>]*value="([^"]*)"', page)
    assert checked == [chosen]


def test_cards_can_be_entered_counted_by_kind(pages: Callable[..., MatchPages], app: Flask) -> None:
    counted = {
        **NOBODY_OUT,
        **side(0, melded_mode="counts", **{"melded-aces": 3, "melded-eights_to_kings": 3}),
        **side(1, leftover_mode="counts", **{"leftover-black_threes": 2}),
    }
    match = pages()

    assert match.enter(1, counted).status_code == 303
    assert scores(app, match) == [(90, -10)]


def test_only_the_way_of_counting_cards_a_side_chose_is_read(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    # What the other way's fields hold, hidden on the page, is left unread: junk included.
    counted = {
        **NOBODY_OUT,
        **side(0, melded_mode="counts", melded_points="7x5", **{"melded-aces": 3}),
        **side(1, melded_points=310, **{"melded-jokers": "abc", "leftover-aces": "?"}),
    }
    match = pages()

    assert match.enter(1, counted).status_code == 303
    assert scores(app, match) == [(60, 310)]


# -- Each partner's own left-over cards ----------------------------------------------------------


def test_each_player_of_a_pair_has_a_box_for_their_own_left_over_points(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages(sides=[("Us", ["Ann", "Bob"]), ("Cy", ["Cy"])])
    page = match.page(match.new_round)

    assert re.search(r'<label class="label" for="sides-0-leftover_by_player-0">Ann</label>', page)
    assert re.search(r'<label class="label" for="sides-0-leftover_by_player-1">Bob</label>', page)
    assert "sides-1-leftover_by_player" not in page  # Cy alone counts the side's cards
    assert page.count("data-per-player") == 1
    assert re.search(r"<details[^>]*data-per-player>", page)  # closed until used


@pytest.mark.parametrize("side_total", ["", "85"])
def test_the_players_left_over_points_add_up_to_the_sides_which_the_round_stores(
    pages: Callable[..., MatchPages], app: Flask, side_total: str
) -> None:
    match = pages()
    fields = {
        **WORKED_EXAMPLE,
        **side(1, leftover_points=side_total, **{"leftover_by_player-0": 60}),
        **side(1, **{"leftover_by_player-1": 25}),
    }

    assert match.enter(1, fields).status_code == 303

    assert scores(app, match) == [(2565, 825)]
    with app.app_context():
        stored = store.get_match(match.stored.public_id)
        assert stored is not None
        assert [entry.leftover_points for entry in stored.rounds[0].entries] == [0, 85]


def test_players_points_that_add_up_to_other_than_the_sides_are_refused_beside_it(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    fields = {
        **WORKED_EXAMPLE,
        **side(1, leftover_points=90, **{"leftover_by_player-0": 60, "leftover_by_player-1": 25}),
    }

    response = match.enter(1, fields)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "The players' points add up to 85, not 90" in errors_next_to(
        page, "sides-1-leftover_points"
    )
    assert re.search(r'name="sides-1-leftover_by_player-1"[^>]*value="25"', page)
    assert re.search(r"<details[^>]*data-per-player open>", page)  # open, as it was used
    assert stored_rounds(app) == []


def test_a_sum_of_players_points_the_rules_refuse_is_told_beside_the_sides_box_holding_it(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    fields = {
        **WORKED_EXAMPLE,
        **side(1, leftover_points="", **{"leftover_by_player-0": 12, "leftover_by_player-1": 0}),
    }

    response = match.enter(1, fields)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'name="sides-1-leftover_points"[^>]*value="12"', page)
    assert "multiple of 5" in errors_next_to(page, "sides-1-leftover_points")
    assert stored_rounds(app) == []


def test_a_players_points_below_zero_are_refused_beside_them(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    fields = {
        **WORKED_EXAMPLE,
        **side(1, leftover_points="", **{"leftover_by_player-0": 90, "leftover_by_player-1": -5}),
    }

    response = match.enter(1, fields)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "0 or more" in errors_next_to(page, "sides-1-leftover_by_player-1")
    assert stored_rounds(app) == []


def test_players_points_are_left_unread_when_the_side_counts_its_cards_by_kind(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    counted = side(1, leftover_mode="counts", **{"leftover-aces": 1, "leftover_by_player-0": "x"})

    assert (
        match.enter(1, {**WORKED_EXAMPLE, **side(1, leftover_points=""), **counted}).status_code
        == 303
    )

    assert scores(app, match) == [(2565, 890)]


def test_a_second_post_of_the_same_new_round_shows_the_stored_round_and_enters_nothing_twice(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    match.enter(1)

    response = match.enter(1)

    assert response.status_code == 303
    assert response.location == f"{match.edit}#round-1"
    assert scores(app, match) == [(2565, 825)]
    assert "Round 1 was already entered" in match.page(match.edit)


def test_a_new_round_another_phone_entered_first_is_shown_beside_what_was_typed(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    match.enter(1)

    response = match.enter(1, QUIET_ROUND)

    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Someone else changed this round meanwhile" in page
    assert "Us: 2,565 points" in page  # the stored round, beside what was typed
    assert 'value="200"' in page and 'value="150"' in page
    assert f'action="{match.round(1)}"' in page  # saving again replaces the stored round
    assert 'name="version" type="hidden" value="1"' in page
    assert scores(app, match) == [(2565, 825)]


def test_a_new_round_another_phone_enters_while_the_save_is_on_its_way_is_shown_beside_it(
    pages: Callable[..., MatchPages], app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = pages()
    quiet = RoundEntry(
        1, (SideEntry(clean_books=1, melded=200), SideEntry(dirty_books=1, melded=150, leftover=20))
    )
    add_round = store.add_round

    def other_phone_first(stored: Any, entry: RoundEntry, **options: Any) -> Any:
        add_round(stored, quiet)  # after this request read the match, before it writes
        return add_round(stored, entry, **options)

    monkeypatch.setattr(store, "add_round", other_phone_first)
    response = match.enter(1)

    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Someone else changed this round meanwhile" in page
    assert "Us: 700 points" in page
    assert 'value="765"' in page
    assert scores(app, match) == [(700, 430)]


@pytest.mark.parametrize(
    ("fields", "field_id", "message"),
    [
        (
            side(1, clean_books=5, melded_points=100),
            "sides-1-melded_points",
            "whose cards are worth at least 175",
        ),
        (side(0, melded_points=40), "sides-0-melded_points", "under the meld minimum of 50"),
        (side(0, melded_points=52), "sides-0-melded_points", "steps of 5"),
        (side(0, clean_books="two"), "sides-0-clean_books", "Enter a whole number"),
        (
            {"went_out": "1", **side(1, melded_points=100)},
            "went_out",
            "went out without the books these rules require",
        ),
        (
            side(0, melded_mode="counts", **{"melded-fours_to_sevens": 3}),
            "sides-0-melded_mode",
            "under the meld minimum",
        ),
    ],
)
def test_an_impossible_round_shows_why_next_to_the_field_keeps_the_entry_and_stores_nothing(
    pages: Callable[..., MatchPages],
    app: Flask,
    fields: dict[str, str],
    field_id: str,
    message: str,
) -> None:
    match = pages()
    response = match.enter(1, {**NOBODY_OUT, **fields})

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert message in errors_next_to(page, field_id)
    # At the top, where the page opens, it says so and leads to the field.
    assert f'<a href="#{field_id}">A field below says what is wrong.</a>' in page
    for name, value in fields.items():
        if name.endswith(("_points", "_books", "sevens")):
            assert f'name="{name}"' in page and f'value="{value}"' in page
    assert stored_rounds(app) == []


@pytest.mark.parametrize(
    ("name", "values"),
    [("went_out", ["0", "1"]), ("sides-0-melded_mode", ["points", "counts"])],
)
def test_a_round_posted_by_hand_with_two_of_one_choice_is_refused_beside_it(
    pages: Callable[..., MatchPages], app: Flask, name: str, values: list[str]
) -> None:
    match = pages()
    fields = {**BLANK_ROUND, **WORKED_EXAMPLE, "round_number": "1"}
    response = match.client.post(match.new_round, data={**fields, name: values})

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Choose only one." in errors_next_to(page, name)
    assert stored_rounds(app) == []


@pytest.mark.parametrize("editing", [False, True], ids=["new round", "edit"])
def test_a_field_that_cannot_be_read_is_shown_with_every_other_problem_at_once(
    pages: Callable[..., MatchPages], app: Flask, editing: bool
) -> None:
    match = pages()
    if editing:
        match.enter(1, QUIET_ROUND)
    before = stored_rounds(app)
    fields = {
        "round_number": "1",
        "version": "1",
        **side(0, clean_books=2, melded_points="7x5"),  # a slip of the thumb
        **side(1, clean_books=5, melded_points=100),  # five books of cards worth 100 points
    }

    response = match.post(match.round(1) if editing else match.new_round, fields)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    # The unreadable field says only that; the domain, which read it as empty, says no more.
    unreadable = errors_next_to(page, "sides-0-melded_points")
    assert re.findall("<li>(.*?)</li>", unreadable) == ["Enter a whole number, such as 0 or 50."]
    assert "at least 175" in errors_next_to(page, "sides-1-melded_points")
    assert 'value="7x5"' in page
    assert stored_rounds(app) == before


def test_a_post_without_one_sides_fields_refuses_that_side_and_moves_no_other_side_up(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    only_them = side(1, melded_mode="points", leftover_mode="points", melded_points=310)

    response = match.client.post(match.new_round, data={"round_number": "1", **only_them})

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "entries did not arrive" in errors_next_to(page, "sides-0")
    assert re.search(r'name="sides-1-melded_points"[^>]*value="310"', page)
    assert not re.search(r'name="sides-0-melded_points"[^>]*value="310"', page)
    assert stored_rounds(app) == []


def test_a_field_the_rules_leave_off_the_page_posted_by_hand_is_refused_by_its_side(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages(overrides={"wild_books_allowed": False})
    response = match.enter(1, {**WORKED_EXAMPLE, **side(0, wild_books=1)})

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'name="sides-0-wild_books"' not in page
    assert "wild" in errors_next_to(page, "sides-0").lower()
    assert '<a href="#sides-0-errors">A field below says what is wrong.</a>' in page
    assert stored_rounds(app) == []


def test_a_side_whose_fields_did_not_arrive_is_where_the_top_of_the_page_leads(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    only_them = side(1, melded_mode="points", leftover_mode="points", melded_points=310)

    fields = {"round_number": "1", **NOBODY_OUT, **only_them}
    response = match.client.post(match.new_round, data=fields)

    page = response.get_data(as_text=True)
    assert '<a href="#sides-0-errors">A field below says what is wrong.</a>' in page


def test_more_red_threes_than_the_decks_hold_are_told_above_and_beside_each_sides_count(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()  # four players: five decks, ten red threes
    fields = {
        **NOBODY_OUT,
        **side(0, melded_mode="points", leftover_mode="points", melded_points=100, red_threes=6),
        **side(1, melded_mode="points", leftover_mode="points", melded_points=100, red_threes=5),
    }

    response = match.enter(1, fields)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    message = "The sides entered 11 red threes, but 5 decks hold only 10"
    assert message in page.split('<ul class="field-errors"')[0]  # in the box at the top
    for field_id in ("sides-0-red_threes", "sides-1-red_threes"):
        assert message in errors_next_to(page, field_id)
    assert '<a href="#sides-0-red_threes">2 fields below say what is wrong.</a>' in page
    assert stored_rounds(app) == []


def test_fields_of_a_side_the_match_does_not_have_are_ignored(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    stranger = side(7, melded_mode="points", leftover_mode="points", melded_points=999)

    assert match.enter(1, {**WORKED_EXAMPLE, **stranger}).status_code == 303
    assert scores(app, match) == [(2565, 825)]


def test_a_problem_of_the_whole_round_is_shown_above_the_form(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    too_many_red_threes = {**side(0, red_threes_held=9), **side(1, red_threes_held=9)}
    response = pages().enter(1, too_many_red_threes)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(
        r'class="problems" role="alert" data-form-problems>.*18 red threes', page, re.S
    )
    assert stored_rounds(app) == []


@pytest.mark.parametrize("number", ["", "abc", "0", "-1", "5", "2.0"])
def test_a_new_round_form_changed_by_hand_to_name_no_round_of_the_match_is_refused(
    pages: Callable[..., MatchPages], app: Flask, number: str
) -> None:
    match = pages()

    response = match.post(match.new_round, {**WORKED_EXAMPLE, "round_number": number})

    assert response.status_code == 400
    assert stored_rounds(app) == []


def test_once_every_round_is_entered_there_is_no_new_round_to_enter(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages(overrides={"rounds": 1, "meld_minimums": [50]})
    match.enter(1)

    response = match.client.get(match.new_round)

    assert response.status_code == 303
    assert "Every round of this match is entered" in match.page(match.edit)


def test_a_double_tap_on_save_enters_the_round_once(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    tap = {"operation": "tap-1", **WORKED_EXAMPLE}

    answers = [match.enter(1, tap), match.enter(1, tap)]

    assert [answer.status_code for answer in answers] == [303, 303]
    assert scores(app, match) == [(2565, 825)]
    assert stored_rounds(app) == [(1, 1)]


# -- Editing and deleting rounds -----------------------------------------------------------------


def test_editing_a_round_shows_what_was_entered_and_replaces_it(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    match.enter(1)
    match.enter(2, QUIET_ROUND)

    page = match.page(match.round(2))
    assert re.search(r'name="sides-0-melded_points"[^>]*value="200"', page)
    assert 'name="version" type="hidden" value="1"' in page
    response = match.post(match.round(2), {"version": "1", **WORKED_EXAMPLE})

    assert response.status_code == 303
    assert scores(app, match) == [(2565, 825), (2565, 825)]
    assert stored_rounds(app) == [(1, 1), (2, 2)]


def test_an_edit_of_a_round_changed_meanwhile_shows_the_stored_round_and_keeps_the_entry(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    match.enter(1)
    match.post(match.round(1), {"version": "1", **QUIET_ROUND})

    response = match.post(match.round(1), {"version": "1", **WORKED_EXAMPLE})

    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Someone else changed this round meanwhile" in page
    assert "Us: 700 points" in page  # the stored round, beside what was typed
    assert 'value="765"' in page
    assert 'name="version" type="hidden" value="2"' in page
    assert scores(app, match) == [(700, 430)]


def test_an_edit_of_a_round_deleted_meanwhile_keeps_the_entry_and_saving_enters_it_again(
    pages: Callable[..., MatchPages], app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = pages()
    match.enter(1, QUIET_ROUND)
    replace_round = store.replace_round

    def deleted_first(stored: Any, number: int, entry: RoundEntry, **options: Any) -> Any:
        store.delete_round(stored, number, version=1)  # another phone, after this one read
        return replace_round(stored, number, entry, **options)

    monkeypatch.setattr(store, "replace_round", deleted_first)
    response = match.post(match.round(1), {"version": "1", **WORKED_EXAMPLE})

    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Someone else deleted this round meanwhile" in page
    assert 'value="765"' in page
    assert f'action="{match.new_round}"' in page
    assert 'name="round_number" type="hidden" value="1"' in page
    assert scores(app, match) == []
    monkeypatch.undo()
    assert match.enter(1).status_code == 303
    assert scores(app, match) == [(2565, 825)]


def test_an_edit_sent_again_from_its_saved_form_with_other_scores_replaces_nothing_unseen(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    match.enter(1)
    form = {"version": "1", "operation": "edit-1", **QUIET_ROUND}
    assert match.post(match.round(1), form).status_code == 303

    # The saved page, restored by the browser, changed and sent again under its operation id.
    response = match.post(match.round(1), {**form, **side(0, clean_books=1, melded_points=300)})

    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Us: 700 points" in page  # as it was saved the first time
    assert 'value="300"' in page
    assert 'name="operation" type="hidden" value="edit-1"' not in page
    assert scores(app, match) == [(700, 430)]


def test_a_new_round_sent_again_from_its_saved_form_after_a_deletion_can_be_entered_again(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    assert match.enter(1, {"operation": "new-1", **WORKED_EXAMPLE}).status_code == 303
    assert match.post(f"{match.round(1)}/delete", {"version": "1"}).status_code == 303

    response = match.enter(1, {"operation": "new-1", **QUIET_ROUND})

    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Someone else deleted this round meanwhile" in page
    assert 'value="200"' in page
    assert 'name="operation" type="hidden" value="new-1"' not in page
    operation = re.search(r'name="operation" type="hidden" value="([^"]+)"', page)
    assert operation is not None
    assert match.enter(1, {"operation": operation[1], **QUIET_ROUND}).status_code == 303
    assert scores(app, match) == [(700, 430)]


def test_deleting_a_round_removes_it_and_the_totals_follow(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    match.enter(1)
    match.enter(2, QUIET_ROUND)

    response = match.client.post(f"{match.round(1)}/delete", data={"version": "1"})

    assert response.status_code == 303
    assert stored_rounds(app) == [(2, 1)]
    assert "Enter round 1" in match.page(match.edit)


def test_a_double_tap_on_edit_or_delete_changes_the_round_once(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    match.enter(1)
    edit = {"version": "1", "operation": "edit-1", **QUIET_ROUND}

    edits = [match.post(match.round(1), edit), match.post(match.round(1), edit)]
    assert [answer.status_code for answer in edits] == [303, 303]
    assert stored_rounds(app) == [(1, 2)]

    delete = {"version": "2", "operation": "delete-1"}
    deletes = [match.client.post(f"{match.round(1)}/delete", data=delete) for _ in range(2)]
    assert [answer.status_code for answer in deletes] == [303, 303]
    assert stored_rounds(app) == []


def test_deleting_a_round_changed_meanwhile_keeps_it_and_shows_it(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    match = pages()
    match.enter(1)
    match.post(match.round(1), {"version": "1", **QUIET_ROUND})

    response = match.client.post(f"{match.round(1)}/delete", data={"version": "1"})

    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Someone else changed this round meanwhile" in page
    assert "Delete it again to remove it as it is now" in page and "Save to replace" not in page
    assert stored_rounds(app) == [(1, 2)]
    delete_again = posted_form(page, f"{match.round(1)}/delete")
    assert match.client.post(f"{match.round(1)}/delete", data=delete_again).status_code == 303
    assert stored_rounds(app) == []


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_round_never_entered_is_not_found(pages: Callable[..., MatchPages], method: str) -> None:
    match = pages()
    response = getattr(match.client, method)(match.round(3), data={"version": "1"})

    assert response.status_code == 404


# -- Who may see and change what ------------------------------------------------------------------


def test_a_wrong_edit_token_opens_nothing(pages: Callable[..., MatchPages], app: Flask) -> None:
    match = pages()
    wrong = f"/m/{match.stored.public_id}/edit/not-the-token"

    assert match.client.get(wrong).status_code == 403
    assert match.client.get(f"{wrong}/rounds/new").status_code == 403
    assert match.client.post(f"{wrong}/rounds/new", data=WORKED_EXAMPLE).status_code == 403
    assert stored_rounds(app) == []


def test_an_unknown_match_is_not_found(client: FlaskClient) -> None:
    assert client.get("/m/nothing-here").status_code == 404
    assert client.get("/m/nothing-here/edit/token").status_code == 404


def test_the_view_link_shows_the_standings_without_edit_controls_or_the_token(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter(1)

    page = match.page(match.view)

    assert "2,565" in page
    assert match.stored.edit_token not in page
    assert "/rounds/" not in page and "Enter round" not in page and ">Edit<" not in page
    assert f'data-poll-url="/api/v1/matches/{match.stored.public_id}"' in page


def test_the_edit_link_shows_the_standings_with_edit_controls(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter(1)

    page = match.page(match.edit)

    assert f'href="{match.round(1)}"' in page
    # The button opens the next round under its own address, which a phone keeps to go offline.
    assert f'href="{match.new_round}?round=2"' in page and "Enter round 2" in page
    assert f'href="{match.edit}/share"' in page


def test_the_share_page_needs_the_edit_token(pages: Callable[..., MatchPages]) -> None:
    match = pages()

    assert match.client.get(f"{match.edit}/share").status_code == 200
    assert match.client.get(f"{match.view}/edit/wrong/share").status_code == 403


# -- Standings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sides", "listed"),
    [
        pytest.param(
            (("Us", ("Ann", "Bob")), ("Ann's parents", ("Cy", "Di"))),
            ["Us: Ann and Bob", "Ann&#39;s parents: Cy and Di"],
            id="named teams",
        ),
        pytest.param(
            (("Ann & Bob", ("Ann", "Bob")), ("Us", ("Cy", "Di"))),
            ["Us: Cy and Di"],
            id="a team named by its players",
        ),
        pytest.param((("Ann", ("Ann",)), ("Bob", ("Bob",))), [], id="players alone"),
        pytest.param(
            (("Moon Divers", ("Mo", "Di")), ("ann and bob", ("Ann", "Bob"))),
            ["Moon Divers: Mo and Di"],
            id="names inside other words",
        ),
    ],
)
def test_the_standings_say_who_plays_in_each_side_whose_name_does_not(
    pages: Callable[..., MatchPages],
    sides: tuple[tuple[str, tuple[str, ...]], ...],
    listed: list[str],
) -> None:
    match = pages(sides=sides)

    page = match.page(match.view)

    teams = page.split('class="team-players">', 1)[1].split("</ul>", 1)[0] if listed else ""
    assert re.findall(r"<li>([^<]*)</li>", teams) == listed
    assert ('class="team-players"' in page) == bool(listed)


def test_scores_below_zero_show_a_true_minus_sign_as_the_printed_sheets_do(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter(1, {**NOBODY_OUT, **side(0, melded_points=60), **side(1, leftover_points=85)})

    page = match.page(match.view)

    assert '<span class="score">\u221285</span>' in page
    # A hyphen before the number, not inside a static file's hashed name such as style-85e8...
    assert "Total \u221285" in page and not re.search(r"-85\b", page)


def test_the_rules_of_the_match_write_numbers_as_the_rules_cards_do(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages(overrides={"red_three_held": -500, "wild_book": 2500})

    page = match.page(match.view)

    assert ": \u2212500 (preset: \u2212100)" in page
    assert ": 2,500 (preset: 1,500)" in page


def test_the_standings_show_the_leader_the_rounds_left_and_the_next_meld_minimums(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter(1)

    page = match.page(match.view)

    assert "Leading: Us, with 2,565 points." in page
    assert "3 rounds left to play." in page
    assert re.search(r"Meld minimum next round</th>\s*<td>90</td>\s*<td>90</td>", page)


def test_every_round_shows_its_breakdown_on_demand_and_the_running_total(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter(1)
    match.enter(2)

    page = match.page(match.view)

    assert page.count('<details class="round-score">') == 4
    assert re.search(r"<dt>Books</dt>\s*<dd data-value>1,600</dd>", page)
    assert "Total 5,130" in page


def test_after_the_last_round_the_standings_name_the_winner(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter_all()

    page = match.page(match.view)

    assert "Winner: Us, with 10,260 points." in page
    assert "rounds left" not in page and "Meld minimum next round" not in page


def test_after_the_last_round_the_standings_list_every_sides_place_sharing_places_when_level(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    sides = [(name, [name]) for name in ("Ann", "Bob", "Cy", "Di")]
    stored = create_match(sides=sides, overrides={"rounds": 1, "meld_minimums": [50]})
    melded = tuple(SideEntry(melded=points) for points in (100, 300, 100, 60))
    play_rounds(stored, [melded])

    page = client.get(f"/m/{stored.public_id}").get_data(as_text=True)

    assert "Final places" in page
    places = re.search(r'<ol class="places"[^>]*>(.*?)</ol>', page, re.S)
    assert places is not None
    assert re.findall(r'<li><span class="place">(\d)</span> (.*?)</li>', places[1]) == [
        ("1", "Bob: 300 points"),
        ("2", "Ann: 100 points"),
        ("2", "Cy: 100 points"),
        ("4", "Di: 60 points"),
    ]
    assert "Winner: Bob, with 300 points." in page


@pytest.mark.parametrize(("count", "stacked"), [(3, False), (4, True), (6, True)])
def test_four_or_more_sides_name_their_side_on_each_line_for_a_phone(
    client: FlaskClient,
    create_match: CreateMatch,
    play_rounds: PlayRounds,
    count: int,
    stacked: bool,
) -> None:
    names = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")[:count]
    stored = create_match(sides=[(name, [name]) for name in names])
    play_rounds(stored, [tuple(SideEntry(melded=100) for _name in names)])

    page = client.get(f"/m/{stored.public_id}").get_data(as_text=True)

    assert ('class="scores many-sides"' in page) is stacked
    labels = re.findall(r'<span class="side-label">(.*?)</span>', page)
    # A line each in round 1, the totals and the next round's minimums.
    assert labels == (list(names) * 3 if stacked else [])


def test_before_the_last_round_the_standings_list_no_places(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter(1)

    assert "Final places" not in match.page(match.view)


def test_a_tie_at_the_top_after_the_last_round_is_a_draw(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages(overrides={"rounds": 1, "meld_minimums": [50]})
    match.enter(1, NOBODY_OUT)

    assert "A draw: Us and Them, with 0 points each." in match.page(match.view)


def test_the_chart_draws_a_line_per_side_on_the_server(pages: Callable[..., MatchPages]) -> None:
    match = pages()
    match.enter(1)

    page = match.page(match.view)

    assert page.count("<polyline points=") == 2 + 2  # a line per side, and its legend sample
    assert '<g class="series series-1">' in page


def test_the_chart_carries_its_own_look_for_pdfs_which_read_no_css_inside_svg(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter(1)

    page = match.page(match.view)

    lines = re.findall(r"<polyline [^>]*>", page)
    assert all('fill="none"' in line and 'stroke="#' in line for line in lines)
    assert all(re.search(r'stroke-width="\d', line) for line in lines)
    assert len({re.search(r'stroke-dasharray="([^"]*)"|$', line)[0] for line in lines}) == 2
    assert re.search(r'<g class="tick-labels" fill="#\w+" font-size="\d+"', page)
    assert re.search(r'<path d="M[^"]+Z" fill="#\w+"/>', page)  # the markers


def test_match_pages_remember_their_own_link_for_this_devices_recent_list(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()

    remembered = [recent_entry(match.page(url)) for url in (match.edit, match.view)]

    assert remembered == [
        {
            "id": match.stored.public_id,
            "name": "Friday",
            "url": f"http://localhost{url}",
            "role": role,
        }
        for url, role in ((match.edit, "edit"), (match.view, "view"))
    ]


def test_the_standings_offer_every_pdf_on_a_chosen_paper_and_the_json_and_csv_downloads(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    public_id = match.stored.public_id
    page = match.page(match.view)

    assert 'name="paper" value="a4"' in page and 'name="paper" value="letter"' in page
    for pdf in ("report", "sheet", "rules", "pocket"):
        assert f'formaction="/m/{public_id}/{pdf}.pdf"' in page
    assert f'href="/api/v1/matches/{public_id}/export"' in page
    assert f'href="/api/v1/matches/{public_id}/export.csv"' in page


def test_match_pages_carry_no_inline_script_or_style_and_load_nothing_from_elsewhere(
    pages: Callable[..., MatchPages],
) -> None:
    match = pages()
    match.enter(1)

    for url in (match.edit, match.view, f"{match.edit}/share", match.new_round, match.round(1)):
        page = match.page(url)
        assert "<script>" not in page and "style=" not in page and "<style" not in page
        assert not re.search(r'(src|href)="(https?:)?//(?!localhost/)', page)


def enter_in(match: MatchPages, language: str, melded: str) -> TestResponse:
    """Enter round 1 with the first side's melded points typed as `melded`, on a page in
    `language`."""
    fields = {"round_number": "1", **NOBODY_OUT, **side(1, melded_points=200)}
    data = {**BLANK_ROUND, **fields, **side(0, melded_points=melded)}
    return match.client.post(match.new_round, data=data, headers={"Accept-Language": language})


@pytest.mark.parametrize(
    ("language", "typed"),
    [
        ("en", "1,200"),
        ("nl", "1.200"),
        ("be", "1 200"),
        ("be", "1\u00a0200"),
        ("en", " 1,200 "),
        ("ja", "１２００"),  # full-width digits, as a Japanese keyboard types them
        ("ko", "１，２００"),
    ],
)
def test_points_typed_in_the_digit_groups_the_pages_print_them_in_count_whole(
    pages: Callable[..., MatchPages], app: Flask, language: str, typed: str
) -> None:
    match = pages()

    assert enter_in(match, language, typed).status_code == 303
    assert scores(app, match) == [(1200, 200)]


@pytest.mark.parametrize(
    ("language", "typed"),
    [
        ("en", "12,5"),
        ("en", "1,2000"),
        ("en", "1.200"),
        ("nl", "1,200"),
        ("en", "\u0661\u0662\u0660\u0660"),  # Arabic-Indic digits: the page's script reads none
    ],
)
def test_a_number_in_groups_the_pages_language_does_not_write_is_no_number(
    pages: Callable[..., MatchPages], app: Flask, language: str, typed: str
) -> None:
    match = pages()

    response = enter_in(match, language, typed)

    assert response.status_code == 422
    assert 'id="sides-0-melded_points-errors"' in response.get_data(as_text=True)
    assert stored_rounds(app) == []


def test_melded_cards_that_fit_no_melds_are_told_beside_their_count_and_kept_as_typed(
    pages: Callable[..., MatchPages], app: Flask
) -> None:
    counted = {
        **side(0, melded_mode="counts", **{"melded-fours_to_sevens": 2, "melded-aces": 3}),
        **side(1, melded_mode="points", leftover_mode="points", melded_points=100),
    }
    match = pages()

    response = match.enter(1, counted)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    beside = errors_next_to(page, "sides-0-melded-fours_to_sevens")
    assert "2 cards melded (fours to sevens) fit no melds" in beside
    assert re.search(r'id="sides-0-melded-fours_to_sevens"[^>]*value="2"', page)
    assert stored_rounds(app) == []
