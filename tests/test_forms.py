"""The forms: house-rule fields built from rules.py, and how typed values become domain inputs."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from flask import Flask

from scorekeeper.domain.dealing import Seat
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.problems import Problem
from scorekeeper.domain.rules import PRESETS, SETTING_KEYS, SETTING_RANGES, DeckCount, build_rules
from scorekeeper.web.forms import (
    SEATINGS,
    MatchForm,
    RoundForm,
    changed_house_rules,
    house_rules,
    marked_fields,
    round_form,
    team_name,
)
from scorekeeper.web.forms.house_rules import NO_LIMIT, SETTING_LABELS, SettingKind
from scorekeeper.web.forms.match_setup import next_name

SIDES = ("Us", "Them")
STANDARD = PRESETS["standard"].rules
# A round in which the stock ran out, chosen so: the form preselects nobody as going out.
NOBODY_OUT = {
    "went_out": "nobody",
    **{f"sides-{index}-melded_mode": "points" for index in range(len(SIDES))},
}


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": False}


@pytest.fixture
def posted(app: Flask) -> Iterator[Callable[..., Any]]:
    """Return a factory that builds a form from posted fields, inside one request."""
    contexts = []

    def build(form_class: Callable[[], Any], data: Mapping[str, str]) -> Any:
        context = app.test_request_context("/", method="POST", data=dict(data))
        context.push()
        contexts.append(context)
        return form_class()

    yield build
    for context in reversed(contexts):
        context.pop()


def two_side_round_form() -> RoundForm:
    return round_form(SIDES, STANDARD)


# -- House rules ---------------------------------------------------------------------------------


def test_every_setting_of_the_rule_set_has_a_house_rule_field() -> None:
    assert {rule.path[0] for rule in house_rules()} == set(SETTING_KEYS)


def test_every_house_rule_and_nested_setting_has_a_label_of_its_own() -> None:
    keys = {rule.key for rule in house_rules()} | {rule.path[0] for rule in house_rules()}
    assert keys <= set(SETTING_LABELS)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_value_written_by_the_form_reads_back_as_the_same_rules(preset: str) -> None:
    rules = PRESETS[preset].rules
    for rule in house_rules():
        value = rule.parse(rule.form_value(rule.value_of(rules)))
        assert build_rules(preset, nested(rule.path, value)) == rules, rule.key


def nested(path: tuple[str, ...], value: object) -> dict[str, object]:
    """Return `value` as an override of the setting at `path`, nested under its parents."""
    for part in reversed(path[1:]):
        value = {part: value}
    return {path[0]: value}


def test_the_number_of_decks_offers_the_named_counts_and_every_number_rules_py_takes() -> None:
    decks = next(rule for rule in house_rules() if rule.key == "decks")
    bounds = SETTING_RANGES["decks"]

    assert decks.kind is SettingKind.CHOICE
    assert decks.choices[:2] == (DeckCount.PLAYERS_PLUS_ONE, DeckCount.PLAYERS)
    assert decks.choices[2:] == tuple(range(bounds.low, bounds.high + 1))
    for number in (bounds.low, bounds.high):
        assert build_rules("standard", {"decks": number}).decks == number


def test_a_cap_that_can_be_lifted_offers_no_limit() -> None:
    cap = next(rule for rule in house_rules() if rule.key == "max_wilds_per_meld")

    assert cap.form_value(None) == NO_LIMIT
    assert cap.parse(NO_LIMIT) is None


def test_only_settings_that_take_negative_values_ask_for_the_full_keyboard() -> None:
    signed = {rule.key for rule in house_rules() if rule.signed}
    assert signed == {"red_three_bonus", "red_three_unmelded", "red_three_held"}


@pytest.mark.parametrize(
    ("kind_key", "typed", "value"),
    [
        ("hand_size", "11", 11),
        ("meld_minimums", "60, 90,120 ;150", [60, 90, 120, 150]),
        ("wild_books_allowed", "no", False),
        ("permission_to_go_out", "none", "none"),
        ("decks", "5", 5),
        ("decks", "players", "players"),
        ("red_three_held", "-500", -500),
    ],
)
def test_typed_house_rules_become_override_values(kind_key: str, typed: str, value: object) -> None:
    rule = next(rule for rule in house_rules() if rule.key == kind_key)
    assert rule.parse(typed) == value


def test_the_changed_house_rules_of_a_match_are_those_that_differ_from_its_preset() -> None:
    rules = build_rules("standard", {"hand_size": 11, "card_values": {"joker": 60}})

    changed = changed_house_rules("standard", rules)

    assert [rule.key for rule in changed] == ["hand_size", "card_values.joker"]


# -- Setting up a match -------------------------------------------------------------------------


def test_teams_are_made_of_players_entered_one_after_the_other() -> None:
    players = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]

    assert SEATINGS["2x3"].split(players) == [("Ann", "Bob", "Cy"), ("Di", "Ed", "Flo")]
    assert SEATINGS["3x2"].split(players) == [("Ann", "Bob"), ("Cy", "Di"), ("Ed", "Flo")]
    assert SEATINGS["individuals"].split(players[:2]) == [("Ann",), ("Bob",)]


def test_a_team_without_a_name_is_called_after_its_players(app: Flask) -> None:
    with app.test_request_context():
        assert team_name(["Ann", "Bob"]) == "Ann & Bob"


def setup_data(**fields: str) -> dict[str, str]:
    return {"name": "Friday", "seating": "2x2", "preset": "standard", **fields}


PAIRS = {"players-0": "Ann", "players-1": "Bob", "players-2": "Cy", "players-3": "Di"}


@pytest.mark.parametrize(
    ("seating", "box", "seat"),
    [
        ("2x2", "0", Seat(0, 0)),
        ("2x2", "1", Seat(0, 1)),  # Bob, Ann's partner
        ("2x2", "2", Seat(1, 0)),
        ("individuals", "3", Seat(3, 0)),
    ],
)
def test_the_first_dealer_is_read_as_the_side_and_place_of_the_player_in_their_box(
    posted: Callable[..., MatchForm], seating: str, box: str, seat: Seat
) -> None:
    form = posted(MatchForm, setup_data(**PAIRS, seating=seating, first_dealer=box))

    assert form.validate()
    assert form.dealer_seat() == seat


def test_a_first_dealer_in_a_box_past_empty_ones_is_read_among_the_players_entered(
    posted: Callable[..., MatchForm],
) -> None:
    blank = {f"players-{box}": "" for box in range(6)}  # a browser posts every box
    spread = {**blank, "players-0": "Ann", "players-2": "Bob", "players-4": "Cy"}
    form = posted(MatchForm, setup_data(**spread, seating="individuals", first_dealer="4"))

    assert form.validate()
    assert form.dealer_seat() == Seat(2, 0)  # Cy, the third side


def test_the_set_up_form_names_the_teams_it_is_given_and_the_others_after_their_players(
    posted: Callable[..., MatchForm],
) -> None:
    teams = {"team_names-0": "", "team_names-1": "The Cats", "team_names-2": ""}
    form = posted(MatchForm, setup_data(**PAIRS, **teams))

    assert form.validate()
    assert [(side.name, side.players) for side in form.side_specs()] == [
        ("Ann & Bob", ("Ann", "Bob")),
        ("The Cats", ("Cy", "Di")),
    ]


def test_house_rules_left_empty_keep_the_preset_and_filled_ones_override_it(
    posted: Callable[..., MatchForm],
) -> None:
    typed = {"house-hand_size": "11", "house-card_values__joker": "60", "house-decks": ""}
    form = posted(MatchForm, setup_data(**PAIRS, **typed))

    assert form.validate()
    assert form.overrides() == {"hand_size": 11, "card_values": {"joker": 60}}
    assert form.chosen_rules == build_rules("standard", form.overrides())
    assert [rule.key for rule in form.changed_rules()] == ["hand_size", "card_values.joker"]


def test_a_house_rule_refused_by_rules_py_is_named_by_its_label_next_to_its_field(
    posted: Callable[..., MatchForm],
) -> None:
    form = posted(MatchForm, setup_data(**PAIRS, **{"house-card_values__joker": "5000"}))

    assert not form.validate()
    assert form.chosen_rules is None
    [message] = form.house.form.card_values__joker.errors
    assert message.startswith("Joker must be between")


@pytest.mark.parametrize(
    ("problem_field", "form_field"),
    [
        ("name", "name"),
        ("rules.preset", "preset"),
        ("sides", "players"),
        ("sides[1].name", "team_names-1"),
        ("sides[1].players[0]", "players-2"),
    ],
)
def test_a_problem_of_the_store_is_shown_next_to_the_field_it_is_about(
    posted: Callable[..., MatchForm], problem_field: str, form_field: str
) -> None:
    form = posted(MatchForm, setup_data(**PAIRS))
    form.validate()

    form.show_problems([Problem(problem_field, "Wrong.")])

    fields = {field.id: field for field in [*form, *form.players, *form.team_names]}
    assert "Wrong." in fields[form_field].errors


# -- Entering a round ----------------------------------------------------------------------------


def test_the_round_form_reads_points_counts_and_who_went_out(
    posted: Callable[..., RoundForm],
) -> None:
    data = {
        "went_out": "1",
        "sides-0-clean_books": "2",
        "sides-0-melded_mode": "points",
        "sides-0-melded_points": "765",
        "sides-0-leftover_mode": "counts",
        "sides-0-leftover-black_threes": "1",
        "sides-1-melded_mode": "counts",
        "sides-1-melded-jokers": "2",
        "sides-1-melded-aces": "",
        "sides-1-deal_bonus": "2",
    }
    form = posted(two_side_round_form, data)

    assert form.validate()
    entry = form.entry(3)

    assert entry.round_number == 3
    assert entry.sides[0] == SideEntry(
        clean_books=2, melded=765, leftover=CardCounts(black_threes=1)
    )
    assert entry.sides[1] == SideEntry(melded=CardCounts(jokers=2), went_out=True, deal_bonus=2)


def test_the_round_form_offers_no_choice_of_who_went_out_until_the_table_makes_one(
    app: Flask,
) -> None:
    with app.test_request_context():
        form = round_form(SIDES, STANDARD)

        assert form.went_out.data is None
        assert not any(option.checked for option in form.went_out)


def test_a_round_with_nobody_chosen_as_going_out_is_refused_beside_the_choice(
    posted: Callable[..., RoundForm],
) -> None:
    form = posted(two_side_round_form, {"sides-0-clean_books": "2"})

    assert not form.validate()
    assert form.went_out.errors == [
        "Choose the side that went out, or Nobody if the stock ran out."
    ]
    assert form.sides[0].form.clean_books.data == 2


def test_a_stored_round_fills_the_form_with_what_was_entered(app: Flask) -> None:
    entry = RoundEntry(
        2,
        (
            SideEntry(clean_books=1, melded=CardCounts(aces=7), red_threes=1, went_out=True),
            SideEntry(melded=100, leftover=CardCounts(jokers=1), red_threes_held=1),
        ),
    )
    with app.test_request_context():
        form = round_form(SIDES, STANDARD, entry)

        assert form.went_out.data == "0"
        assert form.entry(2) == entry


@pytest.mark.parametrize(
    ("problem", "shown_by"),
    [
        (Problem("clean_books", "Wrong.", side=1), "sides-1-clean_books"),
        (Problem("melded.jokers", "Wrong.", side=0), "sides-0-melded-jokers"),
        (Problem("melded", "Wrong.", side=0), "sides-0-melded_mode"),
        (Problem("leftover_points", "Wrong.", side=1), "sides-1-leftover_points"),
        (Problem("went_out", "Wrong.", side=1), "went_out"),
    ],
)
def test_a_problem_of_a_side_is_shown_next_to_its_field(
    posted: Callable[..., RoundForm], problem: Problem, shown_by: str
) -> None:
    form = posted(two_side_round_form, NOBODY_OUT)
    form.validate()

    form.show_problems([problem])

    fields = {field.id: field for field in form_fields(form)}
    assert fields[shown_by].errors == ["Wrong."]
    assert form.form_errors == []


def test_a_problem_of_a_side_as_a_whole_is_marked_where_its_card_lists_it(
    posted: Callable[..., RoundForm],
) -> None:
    form = posted(two_side_round_form, NOBODY_OUT)
    form.validate()

    form.show_problems([Problem("clean_books", "Wrong.", side=0), Problem("books", "Few.", side=1)])

    assert form.side_errors == {1: ["Few."]}
    assert marked_fields(form) == ["sides-0-clean_books", "sides-1-errors"]


@pytest.mark.parametrize(
    ("settings", "name"),
    [
        ({"wild_books_allowed": False}, "wild_books"),
        ({"red_threes_laid_down": False}, "red_threes"),
        ({}, "deal_bonus"),
    ],
)
def test_a_problem_of_a_field_the_rules_leave_off_the_page_is_shown_by_its_side(
    posted: Callable[..., RoundForm], settings: dict[str, object], name: str
) -> None:
    rules = build_rules("standard", settings)
    form = posted(lambda: round_form(SIDES, rules), NOBODY_OUT)
    form.validate()

    form.show_problems([Problem(name, "Not played here.", side=1)])

    assert not form.plays(name)
    assert form.side_errors == {1: ["Not played here."]}
    assert marked_fields(form) == ["sides-1-errors"]


def test_a_problem_of_the_whole_round_is_shown_above_the_form(
    posted: Callable[..., RoundForm],
) -> None:
    form = posted(two_side_round_form, NOBODY_OUT)
    form.validate()

    form.show_problems([Problem("red_threes", "Too many."), Problem("round", "Wrong round.")])

    assert form.form_errors == ["Too many.", "Wrong round."]


def form_fields(form: Any) -> Iterator[Any]:
    """Yield every field of a form, those of its sub-forms and lists included."""
    for field in form:
        yield field
        if hasattr(field, "entries"):
            for entry in field.entries:
                yield entry
                yield from form_fields(entry.form) if hasattr(entry, "form") else ()
        elif hasattr(field, "form"):
            yield from form_fields(field.form)


@pytest.mark.parametrize(
    ("name", "after"),
    [
        ("Friday", "Friday (2)"),
        ("Friday (2)", "Friday (3)"),
        ("Friday (9)", "Friday (10)"),
        ("Cup (final)", "Cup (final) (2)"),
        ("x" * 60, "x" * 56 + " (2)"),  # still at most 60 characters
    ],
)
def test_the_match_after_another_is_numbered_on(name: str, after: str) -> None:
    assert next_name(name) == after
