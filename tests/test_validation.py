"""The impossible entries, each refused with how to fix it."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement
from typing import Any

import pytest

from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.labels import field_label
from scorekeeper.domain.problems import Problem, ProblemsError
from scorekeeper.domain.rules import NATURAL_RANKS, CardKind, RuleSet, WildRatio, build_rules
from scorekeeper.domain.validation import (
    check_round,
    check_round_number,
    fewest_dirty_book_wilds,
    points_step,
    round_problems,
)

STANDARD = build_rules("standard")
DOUBLE, EXCEED = WildRatio.NATURALS_AT_LEAST_DOUBLE, WildRatio.NATURALS_EXCEED_WILDS
OUT = {"clean_books": 2, "dirty_books": 2, "melded": 400, "went_out": True}


def problems_of(
    *sides: SideEntry, rules: RuleSet = STANDARD, round_number: int = 1, players: int | None = 4
) -> list[Problem]:
    return round_problems(rules, RoundEntry(round_number, sides, players))


def us(**fields: Any) -> SideEntry:
    return SideEntry(name="Us", **fields)


def them(**fields: Any) -> SideEntry:
    return SideEntry(name="Them", **fields)


def assert_refused(problems: list[Problem], side: int | None, field: str) -> Problem:
    """Assert that one problem names this side and field, and return it."""
    found = [problem for problem in problems if (problem.side, problem.field) == (side, field)]
    assert found, [problem.as_dict() for problem in problems]
    return found[0]


# -- Entries a table can make -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "sides", "players"),
    [
        pytest.param(STANDARD, (us(), them()), 4, id="nobody melded"),
        pytest.param(STANDARD, (us(**OUT), them(leftover=300, red_threes_held=1)), 4, id="out"),
        pytest.param(
            STANDARD,
            (us(**OUT, leftover=40, red_threes_held=1), them()),
            4,
            id="the partner of the player out still holds cards",
        ),
        pytest.param(STANDARD, (us(clean_books=1, melded=50),), 4, id="a clean book of 4-7s"),
        pytest.param(STANDARD, (us(dirty_books=1, melded=50),), 4, id="a dirty book at 50"),
        pytest.param(STANDARD, (us(wild_books=1, melded=140),), 4, id="a wild book of twos"),
        pytest.param(STANDARD, (us(melded=50),), 4, id="exactly the minimum"),
        pytest.param(
            build_rules("simple"),
            (us(clean_books=1, dirty_books=1, melded=120, went_out=True),),
            4,
            id="simple: out with 1 clean + 1 dirty",
        ),
        pytest.param(
            build_rules("strict"),
            (us(clean_books=2, dirty_books=2, wild_books=1, melded=500, went_out=True),),
            4,
            id="strict: out with a wild book",
        ),
        pytest.param(
            build_rules("partnership-11"),
            (us(melded=90, red_threes_held=2, deal_bonus=True), them(red_threes_held=1)),
            4,
            id="partnership-11: red threes held and the deal bonus",
        ),
        pytest.param(
            STANDARD,
            (
                us(
                    **OUT | {"melded": CardCounts(aces=12, eights_to_kings=14, twos=2)},
                    leftover=CardCounts(black_threes=1, jokers=1),
                ),
            ),
            4,
            id="counted cards",
        ),
        pytest.param(
            STANDARD,
            (us(red_threes=5), them(red_threes_held=5)),
            4,
            id="every red three of five decks",
        ),
    ],
)
def test_an_entry_a_real_table_could_make_has_no_problem(
    rules: RuleSet, sides: tuple[SideEntry, ...], players: int
) -> None:
    entry = RoundEntry(1, sides, players)

    assert round_problems(rules, entry) == []
    check_round(rules, entry)


# -- Impossible entries -------------------------------------------------------------------------

COUNT_FIELDS = ("clean_books", "dirty_books", "wild_books", "red_threes", "red_threes_held")


@pytest.mark.parametrize("field", COUNT_FIELDS)
def test_a_negative_count_is_refused(field: str) -> None:
    problems = problems_of(us(**{field: -1}))

    problem = assert_refused(problems, 0, field)
    assert problem.message() == f"Us: {field_label(field)} cannot be negative; enter 0 or more."


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"melded": -50}, "melded_points"),
        ({"leftover": -5}, "leftover_points"),
        ({"melded": CardCounts(aces=-1)}, "melded.aces"),
        ({"leftover": CardCounts(black_threes=-2)}, "leftover.black_threes"),
    ],
)
def test_negative_cards_are_refused(fields: dict[str, Any], field: str) -> None:
    problem = assert_refused(problems_of(us(**fields)), 0, field)

    assert field_label(field) in problem.message()


def test_black_threes_never_meld() -> None:
    problem = assert_refused(
        problems_of(us(melded=CardCounts(black_threes=1))), 0, "melded.black_threes"
    )

    assert "left over" in problem.message()


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"melded": 52}, "melded_points"), ({"leftover": 87}, "leftover_points")],
)
def test_point_totals_that_are_not_multiples_of_5_are_refused(
    fields: dict[str, Any], field: str
) -> None:
    problem = assert_refused(problems_of(us(**fields)), 0, field)

    assert problem.message().startswith("Us: ")
    assert field_label(field) in problem.message()
    assert "enter a multiple of 5" in problem.message()


def test_point_totals_follow_the_card_values_steps() -> None:
    rules = build_rules("standard", {"card_values": {"four_to_seven": 10, "black_three": 10}})

    problems = problems_of(us(melded=75), rules=rules)

    assert "multiple of 10" in assert_refused(problems, 0, "melded_points").message()


@pytest.mark.parametrize(
    ("card_values", "melded", "leftover"),
    [
        ({}, 5, 5),
        ({"four_to_seven": 10, "black_three": 10}, 10, 10),
        ({"four_to_seven": 10, "black_three": 5}, 10, 5),  # black threes never meld
        ({kind.value_key: 0 for kind in CardKind}, 0, 0),
    ],
)
def test_a_point_total_steps_by_the_common_divisor_of_its_cards_values(
    card_values: dict[str, int], melded: int, leftover: int
) -> None:
    rules = build_rules("standard", {"card_values": card_values})

    assert points_step(rules, "melded_points") == melded
    assert points_step(rules, "leftover_points") == leftover


def test_more_than_one_side_out_in_a_round_is_refused() -> None:
    problems = problems_of(us(**OUT), them(**OUT))

    problem = assert_refused(problems, 1, "went_out")
    assert problem.message().startswith("Them: Us already went out")
    assert len(problems) == 1


@pytest.mark.parametrize(
    ("preset", "books"),
    [
        ("standard", {"clean_books": 2, "dirty_books": 1}),
        ("standard", {"clean_books": 1, "dirty_books": 3}),
        ("standard", {"clean_books": 3, "dirty_books": 1}),
        ("simple", {"clean_books": 1}),
        ("simple", {"dirty_books": 2}),
        ("strict", {"clean_books": 2, "dirty_books": 2}),
        ("partnership-11", {"clean_books": 2, "dirty_books": 1}),
    ],
)
def test_a_side_out_without_the_books_its_rules_require_is_refused(
    preset: str, books: dict[str, int]
) -> None:
    problems = problems_of(us(**books, melded=500, went_out=True), rules=build_rules(preset))

    problem = assert_refused(problems, 0, "went_out")
    assert problem.message().startswith("Us went out without the books")


def test_the_books_to_go_out_follow_a_house_rule() -> None:
    rules = build_rules("standard", {"going_out_requires": {"clean": 1, "dirty": 1, "wild": 1}})
    side = us(clean_books=1, dirty_books=1, melded=400, went_out=True)

    assert assert_refused(problems_of(side, rules=rules), 0, "went_out")
    assert (
        problems_of(
            side, rules=build_rules("standard", {"going_out_requires": {"clean": 1, "dirty": 1}})
        )
        == []
    )


NO_BOOKS_TO_GO_OUT = build_rules(
    "standard", {"going_out_requires": {"clean": 0, "dirty": 0, "wild": 0}}
)


def test_a_side_out_without_melding_is_refused_where_no_books_are_needed() -> None:
    problems = problems_of(us(went_out=True), rules=NO_BOOKS_TO_GO_OUT)

    problem = assert_refused(problems, 0, "went_out")
    assert problem.message() == (
        "Us went out without melding, but only melding empties a hand and a foot: "
        "enter the melded cards, or change who went out."
    )


@pytest.mark.parametrize(
    "melded",
    [
        pytest.param({"melded": 50}, id="points"),
        pytest.param({"melded": CardCounts(aces=3)}, id="counts"),
    ],
)
def test_a_side_out_with_melds_but_no_books_is_accepted_where_none_are_needed(
    melded: dict[str, Any],
) -> None:
    assert problems_of(us(**melded, went_out=True), rules=NO_BOOKS_TO_GO_OUT) == []


def test_a_side_out_without_books_or_melds_is_told_only_of_the_books() -> None:
    problems = problems_of(us(went_out=True))

    assert [problem.message() for problem in problems] == [
        "Us went out without the books these rules require (2 clean, 2 dirty, 0 wild): "
        "add the books, or change who went out."
    ]


@pytest.mark.parametrize(
    "held",
    [
        pytest.param({"leftover": 5}, id="points left"),
        pytest.param({"leftover": CardCounts(black_threes=1)}, id="a black three left"),
        pytest.param({"red_threes_held": 1}, id="a red three held"),
    ],
)
def test_a_single_player_out_who_still_holds_cards_is_refused(held: dict[str, Any]) -> None:
    problems = problems_of(us(**OUT, **held), them(), players=2)

    problem = assert_refused(problems, 0, "leftover")
    assert "enter 0 left over" in problem.message()


@pytest.mark.parametrize("preset", ["simple", "partnership-11"])
def test_wild_books_where_the_rules_forbid_them_are_refused(preset: str) -> None:
    problems = problems_of(us(wild_books=1, melded=140), rules=build_rules(preset))

    assert "no wild books" in assert_refused(problems, 0, "wild_books").message()


def test_wild_books_can_be_forbidden_by_a_house_rule() -> None:
    rules = build_rules("standard", {"wild_books_allowed": False})

    assert assert_refused(problems_of(us(wild_books=1, melded=140), rules=rules), 0, "wild_books")


@pytest.mark.parametrize(
    ("preset", "melded", "most"),
    [
        pytest.param("partnership-11", CardCounts(jokers=3), 0, id="a meld of jokers only"),
        pytest.param("simple", CardCounts(twos=3, aces=1), 0, id="twos beside one natural"),
        pytest.param("partnership-11", CardCounts(aces=3, jokers=4), 1, id="3 naturals, 4 wilds"),
        pytest.param(
            "simple", CardCounts(eights_to_kings=4, twos=4), 3, id="more wilds than 4 can hold"
        ),
    ],
)
def test_counted_wilds_the_naturals_cannot_hold_are_refused_without_wild_melds(
    preset: str, melded: CardCounts, most: int
) -> None:
    problems = problems_of(us(melded=melded), rules=build_rules(preset))

    message = assert_refused(problems, 0, "melded").message()
    assert "no melds of wild cards only" in message
    assert f"hold at most {most};" in message


@pytest.mark.parametrize(
    ("preset", "melded"),
    [
        pytest.param("partnership-11", CardCounts(aces=3, jokers=1), id="one wild on three"),
        pytest.param(
            "partnership-11", CardCounts(eights_to_kings=8, twos=4), id="two melds of 4 + 2"
        ),
        pytest.param("simple", CardCounts(eights_to_kings=6, twos=4), id="two melds of 3 + 2"),
        pytest.param("standard", CardCounts(jokers=3), id="wild melds allowed"),
        pytest.param("standard", CardCounts(eights_to_kings=3, jokers=3), id="a meld of each"),
    ],
)
def test_counted_wilds_that_melds_of_naturals_can_hold_pass(
    preset: str, melded: CardCounts
) -> None:
    assert problems_of(us(melded=melded), rules=build_rules(preset)) == []


@pytest.mark.parametrize(
    "melded",
    [
        pytest.param(CardCounts(jokers=1), id="a joker"),
        pytest.param(CardCounts(aces=1, jokers=1), id="an ace and a joker"),
        pytest.param(CardCounts(eights_to_kings=2), id="a pair"),
    ],
)
def test_melded_counts_of_fewer_cards_than_a_meld_are_refused(melded: CardCounts) -> None:
    problem = assert_refused(problems_of(us(melded=melded)), 0, "melded")

    assert problem.message() == (
        f"Us: a meld holds at least 3 cards, more than the {melded.total} that melded counts "
        "show; count every melded card, or none if the side did not meld."
    )


@pytest.mark.parametrize(
    ("books", "melded", "field", "told"),
    [
        pytest.param(
            {},
            CardCounts(eights_to_kings=4, fours_to_sevens=2),
            "melded.fours_to_sevens",
            "Us: 2 cards melded (fours to sevens) fit no melds or books of their rank",
            id="two 4-7s alone",
        ),
        pytest.param(
            {},
            CardCounts(aces=1, eights_to_kings=5),
            "melded.aces",
            "Us: 1 card melded (aces) fits no meld or book of its rank",
            id="a lone ace",
        ),
        pytest.param(
            {},
            CardCounts(aces=8, twos=2),
            "melded.aces",
            "Us: 8 cards melded (aces)",
            id="eight aces and no book",
        ),
        # Each kind fits on its own: the books are what no kind can make.
        pytest.param(
            {"clean_books": 1},
            CardCounts(aces=3, eights_to_kings=4),
            "melded",
            "Us: no melds can hold exactly these melded cards with the books entered (1 clean",
            id="a clean book with no seven of a rank",
        ),
    ],
)
def test_melded_counts_that_no_melds_of_one_rank_hold_are_refused(
    books: dict[str, int], melded: CardCounts, field: str, told: str
) -> None:
    problems = problems_of(us(melded=melded, **books), them(melded=CardCounts(aces=3)))

    assert [(problem.side, problem.field) for problem in problems] == [(0, field)]
    assert problems[0].message().startswith(told)
    assert "a meld is 3 to 7 cards of one rank" in problems[0].message()


def test_each_side_whose_counts_no_melds_hold_is_told_beside_its_own_counts() -> None:
    problems = problems_of(
        us(melded=CardCounts(aces=1, eights_to_kings=5)),
        them(melded=CardCounts(eights_to_kings=5)),
        us(melded=CardCounts(fours_to_sevens=2, eights_to_kings=5)),
    )

    assert [(problem.side, problem.field) for problem in problems] == [
        (0, "melded.aces"),
        (2, "melded.fours_to_sevens"),
    ]


def test_counts_that_fit_no_melds_are_told_while_another_side_has_a_problem_of_its_own() -> None:
    problems = problems_of(
        us(melded=CardCounts(aces=1, eights_to_kings=3)),
        them(melded=30),  # under the meld minimum of 50
    )

    assert [(problem.side, problem.field) for problem in problems] == [
        (1, "melded_points"),
        (0, "melded.aces"),
    ]


def test_counts_past_the_decks_are_left_to_the_supply_check_while_another_side_is_wrong() -> None:
    # A million aces: searched, they would keep a phone waiting; the decks' check tells them.
    problems = problems_of(us(melded=CardCounts(aces=1_000_000, twos=1)), them(melded=30))

    assert [(problem.side, problem.field) for problem in problems] == [(1, "melded_points")]


def test_the_decks_are_checked_before_the_melds_that_hold_the_cards() -> None:
    # 13 aces fit no melds, but more aces than 3 decks hold says what to fix first.
    problems = problems_of(us(melded=CardCounts(aces=13)), players=2)

    assert [(problem.side, problem.field) for problem in problems] == [(None, "aces")]


@pytest.mark.parametrize(
    "melded",
    [
        pytest.param(CardCounts(aces=3, jokers=2), id="two jokers, one carried"),
        pytest.param(CardCounts(aces=1, twos=1, jokers=1), id="one natural holds none"),
    ],
)
def test_one_or_two_wild_cards_the_naturals_cannot_hold_are_refused_with_wild_melds(
    melded: CardCounts,
) -> None:
    problem = assert_refused(problems_of(us(melded=melded)), 0, "melded")

    assert problem.message() == (
        "Us: melded counts leave wild cards that no natural card can hold, fewer than the 3 "
        "that meld on their own; count every melded card, books included."
    )


def test_wild_cards_beside_clean_books_need_other_natural_cards_to_hold_them() -> None:
    side = us(clean_books=2, melded=CardCounts(eights_to_kings=14, jokers=3))

    problem = assert_refused(problems_of(side, rules=build_rules("partnership-11")), 0, "melded")

    assert "the 0 natural cards outside clean books, which hold none, hold at most 0;" in (
        problem.message()
    )
    # Where wild cards meld on their own, the three make a meld; two could not.
    assert problems_of(side) == []
    two = us(clean_books=2, melded=CardCounts(eights_to_kings=14, twos=2))
    assert assert_refused(problems_of(two), 0, "melded")


def test_a_dirty_books_wild_cards_are_held_by_its_natural_cards() -> None:
    side = us(dirty_books=1, melded=CardCounts(eights_to_kings=5, twos=2))

    assert problems_of(side, rules=build_rules("partnership-11")) == []


def test_red_threes_laid_down_where_the_rules_only_hold_them_are_refused() -> None:
    problems = problems_of(us(red_threes=1), rules=build_rules("partnership-11"))

    assert "red threes held" in assert_refused(problems, 0, "red_threes").message()


def test_a_deal_bonus_where_the_rules_play_none_is_refused() -> None:
    assert assert_refused(problems_of(us(deal_bonus=1)), 0, "deal_bonus")


def test_both_partners_may_earn_the_deal_bonus() -> None:
    sides = (us(melded=90, deal_bonus=2), them(melded=90, deal_bonus=2))

    assert problems_of(*sides, rules=build_rules("partnership-11"), players=4) == []


@pytest.mark.parametrize(
    ("sides", "players", "side"),
    [
        pytest.param((us(deal_bonus=2), them()), 2, 0, id="two bonuses for one player alone"),
        pytest.param((us(deal_bonus=4), them()), 4, 0, id="every player on one side of two"),
        pytest.param((us(deal_bonus=-1), them()), 4, 0, id="negative"),
        pytest.param(
            (us(deal_bonus=2), them(deal_bonus=2), SideEntry("You", deal_bonus=2)),
            5,
            None,
            id="more bonuses than players",
        ),
    ],
)
def test_deal_bonuses_for_more_players_than_can_earn_them_are_refused(
    sides: tuple[SideEntry, ...], players: int, side: int | None
) -> None:
    partnership = build_rules("partnership-11")
    melded = tuple(replace(entry, melded=90) for entry in sides)

    assert assert_refused(
        problems_of(*melded, rules=partnership, players=players), side, "deal_bonus"
    )


@pytest.mark.parametrize(
    ("overrides", "books", "floor", "under"),
    [
        pytest.param({}, {"clean_books": 1}, 35, 30, id="clean: seven 4-7s"),
        pytest.param({}, {"dirty_books": 1}, 50, 45, id="dirty: six 4-7s and a 2"),
        pytest.param({}, {"wild_books": 1}, 140, 135, id="wild: seven 2s"),
        pytest.param({}, {"clean_books": 2, "dirty_books": 2}, 170, 165, id="two and two"),
        pytest.param(
            {"card_values": {"four_to_seven": 10}}, {"clean_books": 1}, 70, 60, id="4-7 worth 10"
        ),
        pytest.param(
            {"card_values": {"four_to_seven": 10}}, {"dirty_books": 1}, 80, 70, id="dirty at 10s"
        ),
        pytest.param({"card_values": {"two": 25}}, {"wild_books": 1}, 175, 170, id="2s worth 25"),
    ],
)
def test_books_without_the_melded_cards_to_make_them_are_refused(
    overrides: dict[str, Any], books: dict[str, int], floor: int, under: int
) -> None:
    rules = build_rules("standard", {"meld_minimums": [0, 0, 0, 0], **overrides})

    problem = assert_refused(
        problems_of(us(**books, melded=under), rules=rules), 0, "melded_points"
    )

    assert f"Us: melded points of {under} cannot make the books" in problem.message()
    assert f"at least {floor}" in problem.message()
    assert problems_of(us(**books, melded=floor), rules=rules) == []


@pytest.mark.parametrize(
    ("books", "melded", "what"),
    [
        pytest.param({"clean_books": 1}, CardCounts(aces=6), "cards", id="six cards"),
        pytest.param(
            {"clean_books": 1}, CardCounts(aces=6, twos=1), "natural cards", id="a wild in it"
        ),
        pytest.param({"dirty_books": 1}, CardCounts(aces=7), "wild cards", id="dirty, no wild"),
        pytest.param(
            {"dirty_books": 1}, CardCounts(aces=4, twos=3), "natural cards", id="three wilds"
        ),
        pytest.param(
            {"wild_books": 1}, CardCounts(jokers=2, twos=4, aces=1), "wild cards", id="six wilds"
        ),
    ],
)
def test_books_without_enough_counted_cards_are_refused(
    books: dict[str, int], melded: CardCounts, what: str
) -> None:
    problem = assert_refused(problems_of(us(**books, melded=melded)), 0, "melded")

    assert f"many {what} at least" in problem.message()


@pytest.mark.parametrize(("round_number", "melded"), [(1, 45), (2, 85), (3, 115), (4, 145), (4, 5)])
def test_melded_points_under_the_rounds_minimum_are_refused(round_number: int, melded: int) -> None:
    problems = problems_of(us(melded=melded), round_number=round_number)

    problem = assert_refused(problems, 0, "melded_points")
    assert "meld minimum" in problem.message()


def test_melded_cards_counted_under_the_minimum_are_refused() -> None:
    problems = problems_of(us(melded=CardCounts(eights_to_kings=4)))

    assert assert_refused(problems, 0, "melded").message() == (
        "Us: the melded cards, worth 40, are under the meld minimum of 50, which the side's first "
        "meld had to reach; count every melded card, or none if the side did not meld."
    )


def test_a_house_rule_minimum_is_the_one_checked() -> None:
    rules = build_rules("standard", {"meld_minimums": [60, 90, 120, 150]})

    assert assert_refused(problems_of(us(melded=55), rules=rules), 0, "melded_points")


@pytest.mark.parametrize(
    ("running_score", "melded", "refused"),
    [(-100, 15, False), (-100, 10, True), (1495, 50, False), (1500, 85, True), (3000, 115, True)],
)
def test_by_score_the_minimum_follows_the_sides_running_score(
    running_score: int, melded: int, refused: bool
) -> None:
    rules = build_rules("standard", {"meld_minimum_mode": "by_score"})

    problems = problems_of(us(melded=melded, running_score=running_score), rules=rules)

    assert bool(problems) is refused


@pytest.mark.parametrize(
    ("sides", "players", "field", "most"),
    [
        pytest.param((us(red_threes=6), them(red_threes_held=1)), 2, "red_threes", 6, id="red 3s"),
        pytest.param(
            (us(melded=CardCounts(jokers=6, aces=4)), them(leftover=CardCounts(jokers=5))),
            4,
            "jokers",
            10,
            id="jokers",
        ),
        pytest.param(
            (us(melded=CardCounts(twos=2, aces=4)), them(leftover=CardCounts(twos=11))),
            2,
            "twos",
            12,
            id="twos",
        ),
        pytest.param(
            (us(melded=CardCounts(aces=13)), them(leftover=CardCounts(aces=8))),
            4,
            "aces",
            20,
            id="aces",
        ),
        pytest.param(
            (us(leftover=CardCounts(black_threes=7)),), 2, "black_threes", 6, id="black 3s"
        ),
        pytest.param(
            (
                us(melded=CardCounts(fours_to_sevens=30)),
                them(leftover=CardCounts(fours_to_sevens=19)),
            ),
            2,
            "fours_to_sevens",
            48,
            id="fours to sevens",
        ),
        pytest.param(
            (us(wild_books=2, melded=300), them(wild_books=1, dirty_books=1, melded=200)),
            2,
            "wild_books",
            18,
            id="wild cards for books",
        ),
        pytest.param(
            (us(wild_books=1, melded=140), them(melded=CardCounts(twos=12, jokers=6))),
            2,
            "wild_books",
            18,
            id="wild cards for books beside counted ones",
        ),
        pytest.param(
            (us(dirty_books=2, melded=100), them(leftover=CardCounts(twos=12, jokers=6))),
            2,
            "wild_books",
            18,
            id="wild cards for books beside counted ones held",
        ),
        pytest.param((us(melded=1200), them(leftover=700)), 2, "melded_points", 1770, id="points"),
        # 3 decks hold 150 cards that go into books, 132 of them natural.
        pytest.param(
            (us(clean_books=12, melded=420), them(clean_books=10, melded=350)),
            2,
            "clean_books",
            150,
            id="cards for books entered as points",
        ),
        pytest.param(
            (us(clean_books=19, melded=665), them()), 2, "clean_books", 132, id="naturals for books"
        ),
    ],
)
def test_more_of_a_card_than_the_decks_hold_is_refused(
    sides: tuple[SideEntry, ...], players: int, field: str, most: int
) -> None:
    problems = problems_of(*sides, players=players)

    problem = assert_refused(problems, None, field)
    assert f"hold only {most}" in problem.message()


@pytest.mark.parametrize(
    ("sides", "field", "adds_up"),
    [
        pytest.param(
            (us(red_threes=6), them(red_threes=1, red_threes_held=1)),
            "red_threes",
            ((0, "red_threes"), (1, "red_threes"), (1, "red_threes_held")),
            id="red 3s",
        ),
        pytest.param(
            (
                us(melded=CardCounts(jokers=6, aces=4)),
                them(leftover=CardCounts(jokers=5)),
                us(melded=CardCounts(aces=3)),
            ),
            "jokers",
            ((0, "melded.jokers"), (1, "leftover.jokers")),
            id="jokers, from the sides that counted some",
        ),
        pytest.param(
            (us(wild_books=2, melded=300), them(melded=CardCounts(twos=4, jokers=2, aces=4))),
            "wild_books",
            ((0, "wild_books"), (1, "melded.jokers"), (1, "melded.twos")),
            id="wild cards, in books entered as points and counted",
        ),
        pytest.param(
            (us(clean_books=12, melded=420), them(clean_books=10, dirty_books=1, melded=1000)),
            "clean_books",
            ((0, "clean_books"), (1, "clean_books"), (1, "dirty_books")),
            id="books, from the sides that entered some",
        ),
        pytest.param(
            (us(melded=1200, leftover=CardCounts(aces=1)), them(leftover=700)),
            "melded_points",
            (),
            id="points: every side's add up to it, and none is named",
        ),
    ],
)
def test_a_problem_of_the_whole_table_names_the_sides_fields_that_add_up_to_it(
    sides: tuple[SideEntry, ...], field: str, adds_up: tuple[tuple[int, str], ...]
) -> None:
    problems = problems_of(*sides, players=len(sides))

    assert assert_refused(problems, None, field).adds_up == adds_up


def test_books_beyond_any_deck_are_refused_where_their_cards_are_worth_nothing() -> None:
    rules = build_rules("standard", {"card_values": {"four_to_seven": 0}})
    problems = problems_of(us(clean_books=10**19), them(), rules=rules, players=2)

    assert "hold only 150" in assert_refused(problems, None, "clean_books").message()


def test_the_supply_follows_the_decks_setting() -> None:
    sides = (us(red_threes_held=4), them(red_threes_held=1))

    assert problems_of(*sides, rules=build_rules("strict"), players=2) == []
    assert assert_refused(
        problems_of(*sides, rules=build_rules("partnership-11"), players=2), None, "red_threes"
    )


@pytest.mark.parametrize("round_number", [0, 5, -1])
def test_a_round_outside_the_match_is_refused(round_number: int) -> None:
    problem = assert_refused(problems_of(us(), round_number=round_number), None, "round")

    assert "from 1 to 4" in problem.message()


def test_a_round_outside_a_longer_match_is_refused_by_its_rounds() -> None:
    rules = build_rules("standard", {"rounds": 5, "meld_minimums": [50, 90, 120, 150, 180]})

    assert problems_of(us(melded=180), rules=rules, round_number=5) == []
    with pytest.raises(ProblemsError):
        check_round_number(rules, 6)


@pytest.mark.parametrize(
    ("sides", "players", "field"),
    [
        pytest.param((), None, "sides", id="no side"),
        pytest.param(tuple(us() for _ in range(7)), None, "sides", id="seven sides"),
        pytest.param((us(), them()), 1, "players", id="fewer players than sides"),
        pytest.param((us(), them()), 7, "players", id="seven players"),
        pytest.param((us(),), 1, "players", id="one player alone"),
    ],
)
def test_a_table_that_cannot_sit_is_refused(
    sides: tuple[SideEntry, ...], players: int | None, field: str
) -> None:
    assert assert_refused(problems_of(*sides, players=players), None, field)


@pytest.mark.parametrize("players", [None, 2, 4])
def test_one_side_may_be_scored_alone(players: int | None) -> None:
    assert problems_of(us(), players=players) == []


def test_every_problem_of_every_side_is_listed_at_once() -> None:
    problems = problems_of(us(melded=52, wild_books=-1), them(clean_books=1, melded=30))

    assert [(problem.side, problem.field) for problem in problems] == [
        (0, "wild_books"),
        (0, "melded_points"),  # 52 is no multiple of 5, whatever is negative beside it
        (1, "melded_points"),
        (1, "melded_points"),
    ]


def test_too_many_red_threes_are_told_with_the_sides_own_problems() -> None:
    problems = problems_of(us(red_threes=6, melded=80), them(red_threes=6), round_number=2)

    assert [(problem.side, problem.field) for problem in problems] == [
        (0, "melded_points"),  # under the minimum of 90
        (None, "red_threes"),  # 12, where 5 decks hold 10
    ]


def test_a_side_without_a_name_is_named_by_its_place() -> None:
    problems = problems_of(SideEntry(), SideEntry(melded=45))

    assert problems[0].message().startswith("#2: ")


def test_check_round_raises_every_problem() -> None:
    with pytest.raises(ProblemsError) as raised:
        check_round(STANDARD, RoundEntry(1, (us(melded=45), them(melded=-5))))

    assert len(raised.value.problems) == 2
    assert "Us: " in str(raised.value)


def test_a_problems_numbers_are_shown_as_the_caller_writes_numbers() -> None:
    inner = Problem("melded_points", "%(points)s points, %(flag)s", {"points": 1800, "flag": True})
    problem = inner.of_side(0, "Us")

    assert problem.message() == "Us: 1800 points, True"
    assert problem.message(number=lambda n: f"{n:,}") == "Us: 1,800 points, True"


@pytest.mark.parametrize(
    ("decks", "says"),
    [(1, "but 1 deck holds only 2: check the counts of red threes."), (2, "but 2 decks hold")],
)
def test_a_refusal_says_deck_or_decks_as_their_number_asks(decks: int, says: str) -> None:
    rules = replace(STANDARD, decks=decks)
    sides = (us(red_threes=3 * decks), them())

    assert says in assert_refused(problems_of(*sides, rules=rules), None, "red_threes").message()


def test_a_refusal_of_a_side_of_one_player_says_player() -> None:
    sides = (us(melded=90, deal_bonus=2), them(melded=90))
    rules = build_rules("partnership-11")

    problem = assert_refused(problems_of(*sides, rules=rules, players=2), 0, "deal_bonus")

    assert problem.message() == (
        "Us: deal bonuses for 2 players, but the side has at most 1 player."
    )


@pytest.mark.parametrize(
    "sides",
    [
        pytest.param((us(**OUT, leftover=40), them(melded=100)), id="a partner left holding cards"),
        pytest.param((us(red_threes=4), them(red_threes=4)), id="more red threes than 3 decks"),
    ],
)
def test_a_refusal_that_more_players_would_lift_says_how_many_were_counted(
    sides: tuple[SideEntry, ...],
) -> None:
    problems = problems_of(*sides, players=None)

    note = assert_refused(problems, None, "players")
    assert note.message() == (
        "players was not given, so these checks counted 2 players at the table: "
        "enter players if more sit at it."
    )
    assert problems_of(*sides, players=4) == []


def test_red_threes_over_the_supply_hide_no_other_card_over_it() -> None:
    # 5 decks, for 4 players, hold 10 red threes and 10 jokers.
    jokers = CardCounts(jokers=11, aces=30)
    problems = problems_of(us(melded=60, red_threes=11), them(melded=jokers))

    assert [(problem.field, problem.adds_up) for problem in problems] == [
        ("jokers", ((1, "melded.jokers"),)),
        ("aces", ((1, "melded.aces"),)),
        ("red_threes", ((0, "red_threes"),)),
    ]


def test_a_refusal_that_no_number_of_players_lifts_says_nothing_of_them() -> None:
    # 7 decks, for the most players a table seats, hold 14 red threes.
    problems = problems_of(us(red_threes=8), them(red_threes=7), players=None)

    assert [(problem.side, problem.field) for problem in problems] == [(None, "red_threes")]


def test_the_players_counted_go_unmentioned_where_the_sides_players_are_given() -> None:
    entry = RoundEntry(1, (us(**OUT, leftover=40), them(melded=100)), side_players=(1, 1))

    assert [problem.field for problem in round_problems(STANDARD, entry)] == ["leftover"]


def test_the_note_of_the_players_counted_concerns_only_the_sides_it_would_change() -> None:
    problems = problems_of(us(**OUT, leftover=40), them(melded=100), players=None)

    note = assert_refused(problems, None, "players")
    assert note.adds_up == ((0, "leftover"),)
    assert (note.concerns(0), note.concerns(1)) == (True, False)


@pytest.mark.parametrize(
    ("decks", "ratio", "clean", "dirty", "refused"),
    [
        pytest.param(1, DOUBLE, 1, 0, True, id="a clean book from one deck's 4 of a rank"),
        pytest.param(1, DOUBLE, 0, 1, True, id="a dirty book of 5 naturals from one deck"),
        pytest.param(1, EXCEED, 0, 2, False, id="dirty books of 4 naturals from one deck"),
        pytest.param(2, DOUBLE, 11, 0, False, id="a clean book of each rank from two decks"),
        pytest.param(2, DOUBLE, 12, 0, True, id="a twelfth clean book from two decks"),
        pytest.param(2, DOUBLE, 10, 1, False, id="the eleventh rank's 8 naturals, a dirty book"),
        pytest.param(2, DOUBLE, 10, 2, True, id="a second dirty book beside ten clean ones"),
    ],
)
def test_books_need_natural_cards_of_one_rank_that_the_decks_hold(
    decks: int, ratio: WildRatio, clean: int, dirty: int, refused: bool
) -> None:
    rules = replace(STANDARD, decks=decks, wild_ratio=ratio, max_wilds_per_meld=None)
    # The cheapest cards that make the books, and the round's minimum: only ranks can be short.
    books = us(clean_books=clean, dirty_books=dirty, melded=max(35 * clean + 50 * dirty, 50))

    problems = problems_of(books, them(), rules=rules, players=2)

    if not refused:
        assert problems == []
        return
    [problem] = problems
    entered = (("clean_books", clean), ("dirty_books", dirty))
    assert problem.adds_up == tuple((0, field) for field, count in entered if count)
    assert "natural cards of one rank" in problem.message()


@pytest.mark.parametrize(
    ("decks", "ratio", "clean", "dirty", "wild", "needed"),
    [
        pytest.param(2, EXCEED, 0, 12, 0, 16, id="a twelfth dirty book shares a rank of 8"),
        pytest.param(2, EXCEED, 0, 11, 0, None, id="a dirty book of each rank"),
        pytest.param(2, EXCEED, 0, 5, 1, None, id="five dirty books beside a wild one"),
        pytest.param(3, DOUBLE, 11, 10, 0, 20, id="the 5 naturals a clean book leaves"),
        pytest.param(3, DOUBLE, 11, 9, 0, None, id="two wild cards each for nine"),
        pytest.param(3, DOUBLE, 11, 6, 1, 19, id="two wild cards each, and a wild book"),
    ],
)
def test_dirty_books_sharing_ranks_need_wild_cards_that_the_decks_hold(
    decks: int, ratio: WildRatio, clean: int, dirty: int, wild: int, needed: int | None
) -> None:
    rules = replace(STANDARD, decks=decks, wild_ratio=ratio, max_wilds_per_meld=None)
    books = {"clean_books": clean, "dirty_books": dirty, "wild_books": wild}
    melded = max(35 * clean + 50 * dirty + 140 * wild, 50)  # the cheapest cards of the books

    problems = problems_of(us(**books, melded=melded), them(), rules=rules, players=2)

    if needed is None:
        assert problems == []
        return
    [problem] = problems
    assert problem.field == "dirty_books"
    assert problem.adds_up == tuple((0, field) for field, count in books.items() if count)
    assert problem.params["needed"] == needed
    assert f"but {decks} decks hold only {6 * decks}" in problem.message()


def test_wild_cards_counted_left_over_add_to_those_books_sharing_ranks_need() -> None:
    # Three decks hold 18 wild cards, all of which 9 dirty books beside 11 clean ones need.
    rules = replace(STANDARD, decks=3, wild_ratio=DOUBLE, max_wilds_per_meld=None)
    books = us(clean_books=11, dirty_books=9, melded=35 * 11 + 50 * 9)

    assert problems_of(books, them(), rules=rules, players=2) == []
    [problem] = problems_of(books, them(leftover=CardCounts(jokers=3)), rules=rules, players=2)
    assert problem.params["needed"] == 21
    assert problem.adds_up == ((0, "clean_books"), (0, "dirty_books"), (1, "leftover.jokers"))


@pytest.mark.parametrize(("per_rank", "least"), [(4, 4), (8, 5), (12, 4), (16, 5), (20, 4)])
def test_the_fewest_wild_cards_of_dirty_books_are_those_of_the_best_sharing_of_ranks(
    per_rank: int, least: int
) -> None:
    # Every way one rank can hold clean and dirty books of 7 cards, and the fewest wild cards
    # its dirty books then hold: at most 6 natural cards each, of those the clean books leave.
    holds = {
        (clean, dirty): 7 * dirty - min(6 * dirty, per_rank - 7 * clean)
        for clean in range(per_rank // 7 + 1)
        for dirty in range((per_rank - 7 * clean) // least + 1)
    }
    # Every combination of the 11 ranks' holds.
    fewest: dict[tuple[int, int], int] = {}
    for ranks in combinations_with_replacement(holds, NATURAL_RANKS):
        books = (sum(clean for clean, _ in ranks), sum(dirty for _, dirty in ranks))
        wilds = sum(holds[hold] for hold in ranks)
        fewest[books] = min(wilds, fewest.get(books, wilds))

    most_clean, most_dirty = (max(column) for column in zip(*fewest, strict=True))
    for clean in range(most_clean + 2):
        for dirty in range(most_dirty + 2):
            wilds = fewest_dirty_book_wilds(per_rank, least, clean, dirty)
            assert wilds == fewest.get((clean, dirty)), (clean, dirty)
