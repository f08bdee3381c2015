"""JSON bodies read by their declarations into domain inputs, with a problem for every field of
the wrong shape, told in the project's own messages."""

from __future__ import annotations

import dataclasses
from gettext import NullTranslations
from typing import Any

import pytest

from scorekeeper.api.schemas import MeldCheckRequest, ScoreRequest
from scorekeeper.documents import CardsLeft, EnteredRound, MeldedCards, validated
from scorekeeper.domain.entries import (
    COUNT_KEYS,
    MELDED_COUNT_KEYS,
    CardCounts,
    RoundEntry,
    SideEntry,
)
from scorekeeper.domain.labels import field_label
from scorekeeper.domain.melds import Meld
from scorekeeper.domain.problems import NP_, Problem, ProblemsError
from scorekeeper.domain.rules import PRESETS, RuleSet, build_rules
from scorekeeper.domain.setup import MAX_NAME_LENGTH


def refused(parse: Any, *args: Any) -> list[dict[str, object]]:
    """Return the problems `parse` raises, as the API shows them."""
    with pytest.raises(ProblemsError) as raised:
        parse(*args)
    return [problem.as_dict() for problem in raised.value.problems]


def parse_rules(rules: object) -> RuleSet:
    """Return the rules of a body that gives them, as the meld checker reads them."""
    body = validated(MeldCheckRequest, {"rules": rules, "melds": [{"rank": "K"}]})
    return body.given_rules.rule_set()


def parse_round(body: dict[str, Any]) -> RoundEntry:
    """Return the entry of a calculator's round, which names its sides."""
    return validated(ScoreRequest, body).entry()


def parse_side(side: object, index: int) -> tuple[SideEntry, list[Problem]]:
    """Return side `index` of a round, or the problems of its fields, as a round of a stored
    match reads it."""
    sides: list[object] = [{}] * index + [side]
    try:
        entry = validated(EnteredRound, {"round": 1, "sides": sides}).entry()
    except ProblemsError as error:
        return SideEntry(), error.problems
    return entry.sides[index], []


def parse_melds(melds: object) -> list[Meld]:
    return [meld.meld() for meld in validated(MeldCheckRequest, {"melds": melds}).melds]


def optional_integer(body: dict[str, Any], key: str) -> int:
    """Return the round of a meld check, which is 1 unless given."""
    value: int = getattr(validated(MeldCheckRequest, {**body, "melds": [{"rank": "K"}]}), key)
    return value


def whole_numbers_only(value: object) -> bool:
    """Tell whether a domain input holds no float, which equals a whole number in a test."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.astuple(value)
    if isinstance(value, tuple):
        return all(map(whole_numbers_only, value))
    return not isinstance(value, float)


def fields_of(problems: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(problem["side"], problem["field"]) for problem in problems]


# -- Rules -------------------------------------------------------------------------------------


def test_no_rules_mean_the_standard_preset() -> None:
    assert parse_rules(None) == PRESETS["standard"].rules
    assert parse_rules({}) == PRESETS["standard"].rules


def test_rules_name_a_preset_and_its_overrides() -> None:
    rules = parse_rules({"preset": "simple", "overrides": {"going_out_bonus": 200}})

    assert rules == build_rules("simple", {"going_out_bonus": 200})


def test_null_overrides_mean_none() -> None:
    assert parse_rules({"preset": "strict", "overrides": None}) == PRESETS["strict"].rules


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        pytest.param([], "rules", id="rules not an object"),
        pytest.param({"preset": 1}, "rules.preset", id="preset not text"),
        pytest.param({"preset": "canasta"}, "rules.preset", id="unknown preset"),
        pytest.param({"overrides": []}, "rules.overrides", id="overrides a list"),
        pytest.param({"overrides": 0}, "rules.overrides", id="overrides a number"),
        pytest.param({"overrides": {"decks": 0}}, "rules.overrides.decks", id="a bad setting"),
        pytest.param(
            {"overrides": {"card_values": {"joker": "50"}}},
            "rules.overrides.card_values.joker",
            id="a bad card value",
        ),
        pytest.param({"presets": "standard"}, "rules.presets", id="unknown key"),
    ],
)
def test_wrong_rules_are_refused_with_the_field_under_rules(rules: object, field: str) -> None:
    assert fields_of(refused(parse_rules, rules)) == [(None, field)]


# -- Rounds and sides --------------------------------------------------------------------------

FULL_SIDE = {
    "name": "Us",
    "clean_books": 2,
    "dirty_books": 2,
    "wild_books": 0,
    "melded_points": 765,
    "red_threes": 1,
    "red_threes_held": 0,
    "went_out": True,
    "leftover_points": 0,
    "deal_bonus": False,
    "running_score": 0,
}


def test_a_round_reads_every_field_of_every_side() -> None:
    entry = parse_round({"round": 2, "players": 4, "sides": [FULL_SIDE]})

    assert entry.round_number == 2
    assert entry.players == 4
    assert entry.sides == (
        SideEntry(name="Us", clean_books=2, dirty_books=2, melded=765, red_threes=1, went_out=True),
    )


@pytest.mark.parametrize("body", [{}, {"round": None}], ids=["left out", "null"])
def test_a_round_without_its_number_is_refused_as_such(body: dict[str, object]) -> None:
    with pytest.raises(ProblemsError) as error:
        parse_round({**body, "sides": [{"name": "Us"}]})

    [problem] = error.value.problems
    assert problem.message() == "round is required: enter the number of the round."


def test_every_side_field_but_the_name_is_optional() -> None:
    entry = parse_round({"round": 1, "sides": [{"name": " Us "}, {"name": "Them"}]})

    assert entry.sides == (SideEntry(name="Us"), SideEntry(name="Them"))
    assert entry.players is None
    assert entry.player_count == 2


def test_counted_cards_take_the_keys_of_the_domains_counts() -> None:
    assert tuple(MeldedCards.model_fields) == MELDED_COUNT_KEYS
    assert tuple(CardsLeft.model_fields) == COUNT_KEYS


def test_melded_and_leftover_cards_can_be_counted_by_kind() -> None:
    side = {
        "name": "Us",
        "melded": {"jokers": 1, "twos": 2, "aces": 3, "eights_to_kings": 4, "fours_to_sevens": 5},
        "leftover": {"black_threes": 1, "aces": 2},
    }

    [entry] = parse_round({"round": 1, "sides": [side]}).sides

    assert entry.melded == CardCounts(
        jokers=1, twos=2, aces=3, eights_to_kings=4, fours_to_sevens=5
    )
    assert entry.leftover == CardCounts(black_threes=1, aces=2)


@pytest.mark.parametrize(
    ("side", "field"),
    [
        pytest.param({"clean_books": 1.5}, "clean_books", id="fractional books"),
        pytest.param({"melded_points": 765.5}, "melded_points", id="points as a fraction"),
        pytest.param({"red_threes": "1"}, "red_threes", id="count as text"),
        pytest.param({"red_threes_held": True}, "red_threes_held", id="count as a flag"),
        pytest.param({"running_score": None}, "running_score", id="null score"),
        pytest.param({"went_out": "yes"}, "went_out", id="flag as text"),
        pytest.param({"deal_bonus": "2"}, "deal_bonus", id="bonuses as text"),
        pytest.param({"deal_bonus": 1.5}, "deal_bonus", id="half a bonus"),
        pytest.param({"melded": [1, 2]}, "melded", id="counts as a list"),
        pytest.param({"melded": {"black_threes": 1}}, "melded.black_threes", id="black 3 melded"),
        pytest.param({"leftover": {"kings": 1}}, "leftover.kings", id="unknown kind"),
        pytest.param({"leftover": {"aces": 0.5}}, "leftover.aces", id="half an ace"),
        pytest.param(
            {"melded": {"aces": 3}, "melded_points": 60}, "melded", id="points and counts"
        ),
        pytest.param({"score": 10}, "score", id="unknown field"),
    ],
)
def test_a_side_field_of_the_wrong_shape_is_refused_naming_the_side(
    side: dict[str, Any], field: str
) -> None:
    problems = refused(
        parse_round, {"round": 1, "sides": [{"name": "Us"}, {"name": "Them", **side}]}
    )

    assert fields_of(problems) == [(1, field)]
    assert str(problems[0]["message"]).startswith("Them: ")
    message = str(problems[0]["message"])
    assert field in message or field_label(field) in message


@pytest.mark.parametrize(
    ("name", "says"),
    [
        (None, "must be text"),
        ("", "must be text"),
        ("  ", "must be text"),
        (7, "must be text"),
        ("x" * (MAX_NAME_LENGTH + 1), "longer than 60"),
    ],
)
def test_a_side_needs_a_name_of_sensible_length(name: object, says: str) -> None:
    problems = refused(parse_round, {"round": 1, "sides": [{"name": name}]})

    assert fields_of(problems) == [(0, "name")]
    assert says in str(problems[0]["message"])


def test_a_side_without_a_name_is_named_by_its_place() -> None:
    problems = refused(parse_round, {"round": 1, "sides": [{"name": "", "clean_books": "2"}]})

    assert [problem["message"] for problem in problems] == [
        "#1: name must be text, such as Us.",
        "#1: clean books must be a whole number, such as 0 or 2.",
    ]


def test_a_side_that_is_not_an_object_is_refused_once() -> None:
    problems = refused(parse_round, {"round": 1, "sides": ["Us"]})

    assert fields_of(problems) == [(0, "sides[0]")]


def test_a_round_entry_may_leave_names_out_where_the_sides_are_known() -> None:
    entry = validated(EnteredRound, {"round": 1, "sides": [{"melded_points": 60}]}).entry()

    assert entry.sides == (SideEntry(melded=60),)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"sides": [{"name": "Us"}]}, "round", id="no round"),
        pytest.param({"round": "2", "sides": [{"name": "Us"}]}, "round", id="round as text"),
        pytest.param({"round": 1}, "sides", id="no sides"),
        pytest.param({"round": 1, "sides": []}, "sides", id="empty sides"),
        pytest.param({"round": 1, "sides": {"name": "Us"}}, "sides", id="sides an object"),
        pytest.param(
            {"round": 1, "players": 4.5, "sides": [{"name": "Us"}]}, "players", id="players"
        ),
    ],
)
def test_a_round_of_the_wrong_shape_is_refused(body: dict[str, Any], field: str) -> None:
    problems = refused(parse_round, body)

    assert field in [problem["field"] for problem in problems]


def test_every_wrong_field_of_every_side_is_reported_at_once() -> None:
    body = {"sides": [{"name": "Us", "clean_books": "x"}, {"name": "", "went_out": 1}]}

    assert fields_of(refused(parse_round, body)) == [
        (None, "round"),
        (0, "clean_books"),
        (1, "name"),
        (1, "went_out"),
    ]


@pytest.mark.parametrize(
    ("body", "read"),
    [
        pytest.param({"round": 2.0}, {"round_number": 2}, id="round"),
        pytest.param({"players": 4.0}, {"players": 4}, id="players"),
        pytest.param({"side_players": [2.0, 2]}, {"side_players": (2, 2)}, id="side players"),
    ],
)
def test_a_whole_number_written_with_a_decimal_point_is_taken_as_a_whole_number(
    body: dict[str, Any], read: dict[str, object]
) -> None:
    entry = parse_round({"round": 1, "sides": [{"name": "Us"}, {"name": "Them"}], **body})

    assert {key: getattr(entry, key) for key in read} == read
    assert whole_numbers_only(entry)


@pytest.mark.parametrize(
    ("side", "entry"),
    [
        ({"clean_books": 2.0}, SideEntry(name="Us", clean_books=2)),
        ({"melded_points": 765.0}, SideEntry(name="Us", melded=765)),
        ({"melded": {"aces": 3.0}}, SideEntry(name="Us", melded=CardCounts(aces=3))),
        (
            {"leftover": {"black_threes": 1.0}},
            SideEntry(name="Us", leftover=CardCounts(black_threes=1)),
        ),
        ({"deal_bonus": 1.0}, SideEntry(name="Us", deal_bonus=1)),
        ({"running_score": -40.0}, SideEntry(name="Us", running_score=-40)),
    ],
)
def test_a_sides_whole_number_may_be_written_with_a_decimal_point(
    side: dict[str, Any], entry: SideEntry
) -> None:
    [read] = parse_round({"round": 1, "sides": [{"name": "Us", **side}]}).sides

    assert read == entry
    assert whole_numbers_only(read)


@pytest.mark.parametrize("value", [2.5, "2", True, None, 1e400])
def test_a_count_that_is_no_whole_number_is_still_refused(value: object) -> None:
    problems = refused(parse_round, {"round": 1, "sides": [{"name": "Us", "clean_books": value}]})

    assert [problem["message"] for problem in problems] == [
        "Us: clean books must be a whole number, such as 0 or 2."
    ]


@pytest.mark.parametrize(
    ("sent", "count"), [(2, 2), (0, 0), (True, 1), (False, 0)], ids=["2", "0", "true", "false"]
)
def test_deal_bonuses_are_a_count_of_players_and_a_flag_still_counts_one(
    sent: object, count: int
) -> None:
    side, problems = parse_side({"name": "Us", "deal_bonus": sent}, 0)

    assert (side.deal_bonus, problems) == (count, [])


def test_a_sides_problems_name_the_side_by_its_index() -> None:
    _, problems = parse_side({"name": "Us", "wild_books": "one"}, 2)

    assert [problem.side for problem in problems] == [2]
    assert isinstance(problems[0], Problem)


# -- Melds -------------------------------------------------------------------------------------


def test_melds_read_rank_and_counts_with_the_rank_written_either_way() -> None:
    melds = parse_melds(
        [{"rank": "k", "naturals": 3, "jokers": 1.0}, {"rank": " Wild ", "twos": 3}, {"rank": "10"}]
    )

    assert melds == [Meld("K", naturals=3, jokers=1), Meld("wild", twos=3), Meld("10")]


@pytest.mark.parametrize(
    ("melds", "field"),
    [
        pytest.param(None, "melds", id="no melds"),
        pytest.param([], "melds", id="empty melds"),
        pytest.param({"rank": "K"}, "melds", id="one meld not in a list"),
        pytest.param([{"naturals": 3}], "melds[0].rank", id="no rank"),
        pytest.param([{"rank": 10, "naturals": 3}], "melds[0].rank", id="rank as a number"),
        pytest.param([{"rank": "K", "naturals": 2.5}], "melds[0].naturals", id="half a card"),
        pytest.param([{"rank": "K", "kings": 3}], "melds[0].kings", id="unknown field"),
        pytest.param(["K"], "melds[0]", id="meld as text"),
    ],
)
def test_melds_of_the_wrong_shape_are_refused(melds: object, field: str) -> None:
    assert fields_of(refused(parse_melds, melds)) == [(None, field)]


@pytest.mark.parametrize(("body", "expected"), [({}, 1), ({"round": 3}, 3), ({"round": 3.0}, 3)])
def test_an_optional_integer_falls_back_to_its_default(body: dict[str, Any], expected: int) -> None:
    assert optional_integer(body, "round") == expected


@pytest.mark.parametrize("value", ["3", 3.5, None, True])
def test_an_optional_integer_of_the_wrong_type_is_refused(value: object) -> None:
    problems = refused(optional_integer, {"round": value}, "round")

    assert fields_of(problems) == [(None, "round")]


class French(NullTranslations):
    """A few messages in French, the rest left in English: singulars for 0 and 1, as French has."""

    MESSAGES = {
        "%(side)s: %(problem)s": "%(side)s : %(problem)s",
        "%(field)s must be true or false.": "%(field)s doit être vrai ou faux.",
    }

    def gettext(self, message: str) -> str:
        return self.MESSAGES.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return "%(count)s carte de %(who)s" if n <= 1 else "%(count)s cartes de %(who)s"


def test_a_side_problem_is_translated_with_its_side_and_its_message() -> None:
    _, [problem] = parse_side({"name": "Nous", "went_out": "oui"}, 1)

    assert problem.message(French()) == "Nous : went out doit être vrai ou faux."


@pytest.mark.parametrize(
    ("count", "english", "french"),
    [
        (0, "0 cards of Us", "0 carte de Us"),
        (1, "1 card of Us", "1 carte de Us"),
        (2, "2 cards of Us", "2 cartes de Us"),
    ],
)
def test_a_plural_message_takes_the_form_its_number_asks_in_each_language(
    count: int, english: str, french: str
) -> None:
    template = NP_("%(count)s card of %(who)s", "%(count)s cards of %(who)s", "count")
    problem = Problem("melded", template, {"count": count, "who": "Us"})

    assert (problem.message(), problem.message(French())) == (english, french)
