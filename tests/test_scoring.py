"""Round scores, with their breakdown, and the totals of a match."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.problems import Problem, ProblemsError
from scorekeeper.domain.rules import RuleSet, build_rules
from scorekeeper.domain.scoring import (
    Breakdown,
    RoundScore,
    SideScore,
    score_round,
    scores_apart,
    side_breakdown,
    standings,
)

STANDARD = build_rules("standard")
BY_SCORE = build_rules("standard", {"meld_minimum_mode": "by_score"})


def breakdown_alone(side: SideEntry, rules: RuleSet = STANDARD) -> dict[str, int]:
    """Score round 1 with one side at a table of four, and return the side's breakdown."""
    result = score_round(rules, RoundEntry(1, (side,), players=4))
    return result.sides[0].breakdown.as_dict()


@pytest.fixture
def worked_example() -> RoundScore:
    """A round worked out by hand: standard preset, round 2, three sides."""
    sides = (
        SideEntry(name="A", clean_books=2, dirty_books=2, melded=765, red_threes=1, went_out=True),
        SideEntry(name="B", clean_books=1, melded=310, red_threes=1, leftover=85),
        SideEntry(name="C", red_threes=1, leftover=140),
    )
    return score_round(STANDARD, RoundEntry(2, sides))


def test_the_worked_example_scores_2565_825_and_minus_240(worked_example: RoundScore) -> None:
    assert [side.score for side in worked_example.sides] == [2565, 825, -240]


def test_the_worked_example_breaks_down_as_rules_section_3_adds_it_up(
    worked_example: RoundScore,
) -> None:
    assert [side.breakdown.as_dict() for side in worked_example.sides] == [
        {
            "books": 1600,
            "melded": 765,
            "red_threes": 100,
            "going_out": 100,
            "deal_bonus": 0,
            "leftover": 0,
        },
        {
            "books": 500,
            "melded": 310,
            "red_threes": 100,
            "going_out": 0,
            "deal_bonus": 0,
            "leftover": -85,
        },
        {
            "books": 0,
            "melded": 0,
            "red_threes": -100,
            "going_out": 0,
            "deal_bonus": 0,
            "leftover": -140,
        },
    ]


def test_the_worked_example_is_round_2_with_a_minimum_of_90(worked_example: RoundScore) -> None:
    assert worked_example.round_number == 2
    assert worked_example.meld_minimum == 90
    assert [side.meld_minimum for side in worked_example.sides] == [90, 90, 90]
    assert [side.name for side in worked_example.sides] == ["A", "B", "C"]


def test_the_breakdown_adds_up_to_the_score() -> None:
    breakdown = Breakdown(books=800, melded=300, red_threes=-100, going_out=100, leftover=-45)

    assert breakdown.total == 1055
    assert list(breakdown.as_dict()) == [
        "books",
        "melded",
        "red_threes",
        "going_out",
        "deal_bonus",
        "leftover",
    ]


@pytest.mark.parametrize(
    ("overrides", "side", "expected"),
    [
        pytest.param({}, SideEntry(melded=60, red_threes=1), 100, id="laid down, melded: +100"),
        pytest.param({}, SideEntry(red_threes=2), -200, id="laid down, not melded: -100 each"),
        pytest.param({}, SideEntry(red_threes_held=1), -100, id="held: -100"),
        pytest.param(
            {}, SideEntry(melded=60, red_threes=1, red_threes_held=1), 0, id="one laid, one held"
        ),
        pytest.param(
            {},
            SideEntry(red_threes=1, melded=CardCounts(aces=3)),
            100,
            id="melded counted by card",
        ),
        pytest.param(
            {"red_threes_laid_down": False},
            SideEntry(melded=60, red_threes_held=2),
            -200,
            id="not laid down: only held",
        ),
        pytest.param(
            {"red_three_unmelded": 100}, SideEntry(red_threes=2), 200, id="+100 melded or not"
        ),
        pytest.param(
            {"red_three_bonus": -500, "red_three_unmelded": -500, "red_three_held": -500},
            SideEntry(melded=60, red_threes=1, red_threes_held=1),
            -1000,
            id="Simpson: -500 each",
        ),
        pytest.param(
            {"red_three_held": -300},
            SideEntry(red_threes_held=1),
            -300,
            id="nl-partnership held: -300",
        ),
    ],
)
def test_red_threes_score_by_whether_the_side_melded_and_whether_they_are_held(
    overrides: dict[str, Any], side: SideEntry, expected: int
) -> None:
    rules = build_rules("standard", overrides)

    assert breakdown_alone(side, rules)["red_threes"] == expected


def test_partnership_11_charges_300_for_each_red_three_held() -> None:
    side = SideEntry(melded=90, red_threes_held=2)

    assert breakdown_alone(side, build_rules("partnership-11"))["red_threes"] == -600


def test_the_side_that_went_out_gets_the_going_out_bonus() -> None:
    side = SideEntry(clean_books=2, dirty_books=2, melded=400, went_out=True)

    assert breakdown_alone(side)["going_out"] == 100
    assert (
        breakdown_alone(side, build_rules("standard", {"going_out_bonus": 250}))["going_out"] == 250
    )


def test_a_side_that_did_not_go_out_gets_no_going_out_bonus() -> None:
    assert breakdown_alone(SideEntry(clean_books=2, dirty_books=2, melded=400))["going_out"] == 0


@pytest.mark.parametrize(("players", "points"), [(0, 0), (1, 300), (2, 600)])
def test_the_deal_bonus_pays_the_rules_value_to_each_player_who_earned_it(
    players: int, points: int
) -> None:
    side = SideEntry(melded=90, deal_bonus=players)

    assert breakdown_alone(side, build_rules("partnership-11"))["deal_bonus"] == points


@pytest.mark.parametrize(
    ("overrides", "leftover", "expected"),
    [
        pytest.param({}, 85, -85, id="points"),
        pytest.param(
            {},
            CardCounts(
                jokers=1, twos=1, aces=1, eights_to_kings=1, fours_to_sevens=1, black_threes=1
            ),
            -110,
            id="one card of each kind",
        ),
        pytest.param(
            {"card_values": {"black_three": 100}},
            CardCounts(black_threes=2, eights_to_kings=1),
            -210,
            id="black threes cost 100",
        ),
        pytest.param(
            {"card_values": {"eight_to_king": 5}},
            CardCounts(eights_to_kings=3),
            -15,
            id="eights to kings worth 5",
        ),
        pytest.param({}, 0, 0, id="nothing left"),
    ],
)
def test_cards_left_in_hand_and_foot_count_against_the_side(
    overrides: dict[str, Any], leftover: int | CardCounts, expected: int
) -> None:
    rules = build_rules("standard", overrides)

    assert breakdown_alone(SideEntry(leftover=leftover), rules)["leftover"] == expected


def test_melded_cards_counted_by_kind_score_at_the_card_values() -> None:
    melded = CardCounts(jokers=1, twos=1, aces=3, eights_to_kings=7, fours_to_sevens=2)

    assert breakdown_alone(SideEntry(clean_books=1, melded=melded))["melded"] == (
        50 + 20 + 60 + 70 + 10
    )


@pytest.mark.parametrize(
    ("books", "expected"),
    [
        ({"clean_books": 1}, 500),
        ({"dirty_books": 1}, 300),
        ({"wild_books": 1}, 1500),
        ({"clean_books": 2, "dirty_books": 3, "wild_books": 1}, 1000 + 900 + 1500),
    ],
)
def test_books_earn_their_bonuses(books: dict[str, int], expected: int) -> None:
    assert breakdown_alone(SideEntry(melded=500, **books))["books"] == expected


def test_a_table_with_its_own_book_values_scores_with_them() -> None:
    rules = build_rules("standard", {"clean_book": 300, "dirty_book": 100, "wild_book": 2500})
    side = SideEntry(clean_books=1, dirty_books=1, wild_books=1, melded=500)

    assert breakdown_alone(side, rules)["books"] == 2900


def test_side_breakdown_scores_a_side_without_validating_it() -> None:
    side = SideEntry(clean_books=1, melded=35, red_threes=1, leftover=10)

    assert side_breakdown(STANDARD, side).total == 500 + 35 + 100 - 10


def test_a_round_that_is_impossible_is_refused_rather_than_scored() -> None:
    with pytest.raises(ProblemsError):
        score_round(STANDARD, RoundEntry(1, (SideEntry(name="Us", melded=45),)))


def refused(entry: RoundEntry, rules: RuleSet = STANDARD) -> list[Problem]:
    with pytest.raises(ProblemsError) as raised:
        score_round(rules, entry)
    return raised.value.problems


def scores_of(scores: tuple[SideScore | None, ...]) -> list[int | None]:
    return [None if side is None else side.score for side in scores]


def test_a_refused_round_still_scores_each_side_that_no_problem_concerns() -> None:
    entry = RoundEntry(
        1,
        (
            SideEntry(name="Typing", clean_books=1),  # books, their cards not entered yet
            SideEntry(name="Done", melded=90, leftover=40),
            SideEntry(name="Out", melded=60, went_out=True),  # without the books to go out
        ),
    )

    assert scores_of(scores_apart(STANDARD, entry, refused(entry))) == [None, 50, None]


def test_a_problem_of_the_whole_table_concerns_the_sides_whose_fields_add_up_to_it() -> None:
    entry = RoundEntry(
        1,
        (
            SideEntry(name="Us", melded=60, red_threes=5),
            SideEntry(name="Them", red_threes_held=4),
            SideEntry(name="You", melded=70),
        ),
        players=3,  # four decks: eight red threes
    )

    assert scores_of(scores_apart(STANDARD, entry, refused(entry))) == [None, None, 70]


def test_a_problem_of_the_whole_table_that_names_no_sides_field_concerns_every_side() -> None:
    problem = Problem("round", "This match has 4 rounds.")

    assert [problem.concerns(side) for side in range(3)] == [True, True, True]


def test_a_round_checked_before_is_scored_without_being_checked_again() -> None:
    under_minimum = RoundEntry(1, (SideEntry(name="Us", melded=45),))

    score = score_round(STANDARD, under_minimum, checked=True)

    assert score.sides[0].score == 45


def test_by_score_the_round_has_no_single_minimum_but_each_side_has_its_own() -> None:
    sides = (
        SideEntry(name="Behind", melded=15, running_score=-200),
        SideEntry(name="Middle", melded=50, running_score=1495),
        SideEntry(name="Ahead", melded=120, running_score=3000),
    )

    result = score_round(BY_SCORE, RoundEntry(3, sides))

    assert result.meld_minimum is None
    assert [side.meld_minimum for side in result.sides] == [15, 50, 120]


def test_by_score_a_side_under_its_own_minimum_is_refused() -> None:
    side = SideEntry(name="Ahead", melded=85, running_score=1500)

    with pytest.raises(ProblemsError) as raised:
        score_round(BY_SCORE, RoundEntry(1, (side,)))

    assert "90" in raised.value.problems[0].message()


def test_a_round_where_nobody_went_out_scores_every_side() -> None:
    sides = (SideEntry(name="Us", melded=90, leftover=40), SideEntry(name="Them", leftover=200))

    result = score_round(STANDARD, RoundEntry(2, sides))

    assert [side.score for side in result.sides] == [50, -200]


# -- Match totals ------------------------------------------------------------------------------


def test_standings_keep_a_running_total_per_round() -> None:
    result = standings(STANDARD, ["Us", "Them"], [[100, 50], [200, -30], [-50, 400]])

    assert result.running_totals == ((100, 50), (300, 20), (250, 420))
    assert result.totals == (250, 420)
    assert result.side_names == ("Us", "Them")


def test_the_leader_is_the_side_with_the_highest_total_so_far() -> None:
    result = standings(STANDARD, ["Us", "Them"], [[100, 50], [200, -30]])

    assert result.leaders == (0,)
    assert not result.finished
    assert result.rounds_played == 2
    assert result.rounds_left == 2
    assert result.winner is None
    assert not result.draw


def test_the_highest_total_after_the_last_round_wins() -> None:
    result = standings(STANDARD, ["Us", "Them", "You"], [[100, 50, 0]] * 3 + [[0, 200, 0]])

    assert result.finished
    assert result.rounds_left == 0
    assert result.winner == 1
    assert not result.draw
    assert result.next_meld_minimums is None


def test_a_tie_at_the_top_after_the_last_round_is_a_draw() -> None:
    result = standings(STANDARD, ["Us", "Them", "You"], [[100, 100, 50]] * 4)

    assert result.leaders == (0, 1)
    assert result.draw
    assert result.winner is None


@pytest.mark.parametrize(
    ("totals", "places"),
    [
        ((300, 100, 200), (1, 3, 2)),
        ((100, 300, 300, 50), (3, 1, 1, 4)),
        ((500, 200, 200, 100), (1, 2, 2, 4)),
        ((0, -40, -40, -40, 10, 10), (3, 4, 4, 4, 1, 1)),
        ((70, 70), (1, 1)),
    ],
)
def test_sides_level_on_points_share_a_place_and_the_next_side_counts_them_all(
    totals: tuple[int, ...], places: tuple[int, ...]
) -> None:
    names = [f"Side {index}" for index in range(len(totals))]

    result = standings(STANDARD, names, [totals] + [(0,) * len(totals)] * 3)

    assert result.places == places


def test_the_sides_by_place_run_from_first_to_last_keeping_their_order_when_level() -> None:
    result = standings(STANDARD, ["Ann", "Bob", "Cy", "Di"], [[200, 500, 200, 100]] * 4)

    assert result.places == (2, 1, 2, 4)
    assert result.by_place == (1, 0, 2, 3)


def test_a_match_with_no_rounds_has_every_side_in_first_place() -> None:
    assert standings(STANDARD, ["Us", "Them"], []).places == (1, 1)


def test_a_tie_at_the_top_before_the_last_round_is_no_draw_yet() -> None:
    result = standings(STANDARD, ["Us", "Them"], [[100, 100]])

    assert result.leaders == (0, 1)
    assert not result.draw


def test_a_match_with_no_rounds_has_zero_totals_and_no_leader() -> None:
    result = standings(STANDARD, ["Us", "Them"], [])

    assert result.totals == (0, 0)
    assert result.leaders == ()
    assert result.next_meld_minimums == (50, 50)


def test_a_match_of_other_length_finishes_after_its_own_last_round() -> None:
    rules = build_rules("standard", {"rounds": 2, "meld_minimums": [50, 90]})

    result = standings(rules, ["Us", "Them"], [[10, 0], [10, 0]])

    assert result.finished
    assert result.winner == 0


def test_the_next_rounds_minimum_follows_the_round() -> None:
    result = standings(STANDARD, ["Us", "Them"], [[2000, -100], [1000, 0]])

    assert result.next_meld_minimums == (120, 120)


def test_by_score_the_next_rounds_minimum_follows_each_sides_total() -> None:
    result = standings(BY_SCORE, ["Us", "Them", "You"], [[3200, -100, 1500]])

    assert result.next_meld_minimums == (120, 15, 90)


def test_a_round_missing_between_entered_ones_is_next_at_its_own_minimum() -> None:
    result = standings(STANDARD, ["Us", "Them"], [[100, 50], [200, -30]], round_numbers=[1, 3])

    assert result.next_round == 2
    assert result.next_meld_minimums == (90, 90)
    assert result.rounds_played == 2


def test_by_score_a_missing_rounds_minimum_follows_the_totals_of_the_rounds_before_it() -> None:
    scores = [[1500, -100], [3000, 3000]]

    result = standings(BY_SCORE, ["Us", "Them"], scores, round_numbers=[1, 3])

    assert result.next_meld_minimums == (90, 15)


@pytest.mark.parametrize(
    ("round_numbers", "next_round", "minimums"),
    [
        ((2, 3, 4), 1, (50, 50)),  # from nothing, whatever the later rounds scored
        ((1, 3, 4), 2, (90, 15)),
        ((1, 2, 4), 3, (120, 90)),  # round 4's points count for neither side yet
    ],
)
def test_by_score_the_first_missing_round_is_next_at_the_minimums_of_the_rounds_before_it(
    round_numbers: tuple[int, ...], next_round: int, minimums: tuple[int, ...]
) -> None:
    scores = [[1500, -100], [3000, 3000], [5000, 5000]]

    result = standings(BY_SCORE, ["Us", "Them"], scores, round_numbers=round_numbers)

    assert (result.next_round, result.next_meld_minimums) == (next_round, minimums)
    assert result.rounds_played == 3 and not result.finished


def test_once_every_round_is_entered_there_is_no_next_round() -> None:
    result = standings(STANDARD, ["Us", "Them"], [[100, 50]] * 4)

    assert result.next_round is None
    assert result.next_meld_minimums is None
