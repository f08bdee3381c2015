"""The meld checker: legal melds under the rules, and whether they reach the opening minimum."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.domain.melds import (
    RANKS,
    WILD_RANK,
    Meld,
    MeldCheck,
    check_melds,
    meld_points,
    meld_ranks,
)
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import RuleSet, build_rules

STANDARD = build_rules("standard")
SIMPLE = build_rules("simple")


def check(*melds: Meld, rules: RuleSet = STANDARD, round_number: int = 1, **kw: Any) -> MeldCheck:
    return check_melds(rules, melds, round_number=round_number, **kw)


def problems_of(meld: Meld, rules: RuleSet = STANDARD) -> list[str]:
    return [problem.message() for problem in check(meld, rules=rules).melds[0].problems]


def test_the_issues_example_opens_round_1() -> None:
    result = check(Meld("K", naturals=3, jokers=1))

    assert (result.minimum, result.points, result.meets, result.short_by) == (50, 80, True, 0)
    assert result.melds[0].valid
    assert result.melds[0].points == 80


@pytest.mark.parametrize(
    ("meld", "points"),
    [
        (Meld("A", naturals=3), 60),
        (Meld("K", naturals=2, twos=1), 40),
        (Meld("10", naturals=5, twos=1, jokers=1), 120),
        (Meld("7", naturals=7), 35),
        (Meld("4", naturals=4, twos=2), 60),
        (Meld("wild", twos=3), 60),
        (Meld("wild", twos=4, jokers=3), 230),
    ],
)
def test_a_legal_meld_scores_its_card_values(meld: Meld, points: int) -> None:
    assert problems_of(meld) == []
    assert meld_points(STANDARD, meld) == points


def test_meld_points_follow_the_tables_card_values() -> None:
    rules = build_rules("standard", {"card_values": {"eight_to_king": 5, "joker": 25}})

    assert meld_points(rules, Meld("Q", naturals=3, jokers=1)) == 40


@pytest.mark.parametrize("rank", ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "wild"])
def test_every_rank_from_ace_down_to_four_and_wild_is_a_rank(rank: str) -> None:
    assert rank in RANKS


@pytest.mark.parametrize(
    ("meld", "says"),
    [
        pytest.param(Meld("K", naturals=2), "has 2 cards; a meld has 3 to 7", id="two cards"),
        pytest.param(Meld("K"), "has 0 cards; a meld has 3 to 7", id="a rank and no card"),
        pytest.param(Meld("wild"), "has 0 cards", id="wild, and no card"),
        pytest.param(Meld("K", naturals=6, twos=2), "has 8 cards", id="eight cards"),
        pytest.param(Meld("3", naturals=3), "threes never meld", id="threes"),
        pytest.param(Meld("2", naturals=3), "2 is not a rank", id="twos are wild"),
        pytest.param(Meld("X", naturals=3), "X is not a rank", id="not a rank"),
        pytest.param(Meld("K", naturals=-1, twos=4), "cannot be negative", id="negative"),
        pytest.param(Meld("K", twos=2, jokers=1), "no natural K", id="no natural"),
        pytest.param(
            Meld("K", naturals=3, twos=2), "twice as many natural cards", id="ratio: 3 and 2"
        ),
        pytest.param(Meld("wild", naturals=1, twos=2), "only twos and jokers", id="naturals"),
    ],
)
def test_an_illegal_meld_is_refused_with_the_reason(meld: Meld, says: str) -> None:
    result = check(meld, Meld("A", naturals=7))

    [message] = [problem.message() for problem in result.melds[0].problems]
    assert says in message
    assert message.startswith("Meld 1")
    assert not result.melds[0].valid
    assert not result.meets


def test_wild_melds_are_refused_where_the_rules_forbid_wild_books() -> None:
    [message] = problems_of(Meld("wild", twos=2, jokers=1), SIMPLE)

    assert "no melds of wild cards only" in message


@pytest.mark.parametrize(
    ("meld", "legal"),
    [
        (Meld("K", naturals=3, twos=2), True),
        (Meld("K", naturals=4, twos=3), True),
        (Meld("K", naturals=2, twos=2), False),
        (Meld("K", naturals=3, twos=3), False),
    ],
)
def test_simple_rules_want_only_more_naturals_than_wilds(meld: Meld, legal: bool) -> None:
    assert (problems_of(meld, SIMPLE) == []) is legal


def test_the_cap_on_wilds_holds_even_where_the_ratio_would_allow_more() -> None:
    rules = build_rules("simple", {"max_wilds_per_meld": 2})

    [message] = problems_of(Meld("K", naturals=4, twos=2, jokers=1), rules)
    assert "3 wild cards; these rules allow at most 2" in message


def test_a_house_rule_of_three_wilds_with_the_canasta_ratio_allows_four_and_three() -> None:
    rules = build_rules(
        "standard", {"max_wilds_per_meld": 3, "wild_ratio": "naturals_exceed_wilds"}
    )

    assert problems_of(Meld("9", naturals=4, twos=2, jokers=1), rules) == []


def test_a_cap_of_three_wilds_still_keeps_the_ratio_of_the_rules() -> None:
    rules = build_rules("standard", {"max_wilds_per_meld": 3})

    [message] = problems_of(Meld("9", naturals=4, twos=2, jokers=1), rules)
    assert "twice as many" in message


@pytest.mark.parametrize(("round_number", "minimum"), [(1, 50), (2, 90), (3, 120), (4, 150)])
def test_the_minimum_is_the_rounds(round_number: int, minimum: int) -> None:
    result = check(Meld("A", naturals=3), round_number=round_number)

    assert result.minimum == minimum
    assert result.meets is (60 >= minimum)
    assert result.short_by == max(minimum - 60, 0)


def test_several_melds_add_up_toward_the_minimum() -> None:
    result = check(
        Meld("A", naturals=3), Meld("K", naturals=3), Meld("5", naturals=2, twos=1), round_number=4
    )

    assert result.points == 60 + 30 + 30
    assert result.short_by == 30
    assert not result.meets

    result = check(Meld("A", naturals=4), Meld("K", naturals=2, jokers=1), round_number=4)
    assert result.points == 150
    assert result.meets


@pytest.mark.parametrize(
    ("running_score", "minimum"), [(-10, 15), (0, 50), (1495, 50), (1500, 90), (3000, 120)]
)
def test_by_score_the_minimum_follows_the_running_score(running_score: int, minimum: int) -> None:
    rules = build_rules("standard", {"meld_minimum_mode": "by_score"})

    result = check(Meld("4", naturals=3), rules=rules, round_number=4, running_score=running_score)

    assert result.minimum == minimum
    assert result.meets is (minimum <= 15)


def test_a_meld_over_the_minimum_does_not_meet_it_when_another_meld_is_illegal() -> None:
    result = check(Meld("A", naturals=7), Meld("K", naturals=2))

    assert result.points >= result.minimum
    assert not result.meets
    assert [meld.valid for meld in result.melds] == [True, False]


def test_an_illegal_meld_counts_nothing_toward_the_minimum() -> None:
    result = check(Meld("A", naturals=3), Meld("7", naturals=2, twos=2), round_number=3)

    assert [meld.points for meld in result.melds] == [60, 50]
    assert (result.points, result.short_by, result.meets) == (60, 60, False)


def test_two_unfinished_melds_of_one_rank_are_refused() -> None:
    result = check(Meld("K", naturals=3), Meld("K", naturals=3))

    assert result.melds[0].valid
    [problem] = result.melds[1].problems
    assert "put these K together" in problem.message()


def test_a_finished_book_and_a_new_meld_of_its_rank_are_legal() -> None:
    result = check(Meld("K", naturals=7), Meld("K", naturals=3))

    assert all(meld.valid for meld in result.melds)


def test_a_round_outside_the_match_is_refused() -> None:
    with pytest.raises(ProblemsError) as raised:
        check(Meld("K", naturals=3), round_number=5)

    assert raised.value.problems[0].field == "round"


def test_melds_are_checked_one_by_one_with_their_place() -> None:
    result = check(Meld("A", naturals=3), Meld("3", naturals=3))

    [problem] = result.melds[1].problems
    assert problem.field == "melds[1]"
    assert problem.message().startswith("Meld 2")


def test_melds_numbered_by_the_caller_are_called_by_their_numbers_in_each_problem() -> None:
    result = check(
        Meld("3", naturals=3), Meld("K", naturals=3), Meld("K", naturals=3), numbers=[2, 3, 5]
    )

    [threes], _, [again] = (meld.problems for meld in result.melds)
    assert threes.message() == "Meld 2: threes never meld."
    assert again.message().startswith("Meld 5: a side keeps one unfinished meld of each rank")
    assert (threes.field, again.field) == ("melds[0]", "melds[2]")  # still where each was given


@pytest.mark.parametrize("rules", [STANDARD, SIMPLE], ids=["wild books", "no wild books"])
def test_a_meld_of_wild_cards_only_has_a_rank_where_wild_books_are_played(rules: RuleSet) -> None:
    natural = tuple(rank for rank in RANKS if rank != WILD_RANK)
    wild = (WILD_RANK,) if rules.wild_books_allowed else ()
    assert meld_ranks(rules) == natural + wild
