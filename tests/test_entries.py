"""What a table enters: card counts, a side's entry and a round's entry."""

from __future__ import annotations

import pytest

from scorekeeper.domain.entries import (
    COUNT_KEYS,
    MELDED_COUNT_KEYS,
    CardCounts,
    RoundEntry,
    SideEntry,
)
from scorekeeper.domain.rules import BookCounts, CardKind, CardValues

ONE_OF_EACH = CardCounts.from_mapping({key: 1 for key in COUNT_KEYS})


def test_the_count_keys_are_the_card_kinds_and_black_threes_never_meld() -> None:
    assert COUNT_KEYS == tuple(kind.value for kind in CardKind)
    assert "black_threes" not in MELDED_COUNT_KEYS
    assert set(MELDED_COUNT_KEYS) | {"black_threes"} == set(COUNT_KEYS)


def test_card_counts_are_worth_their_card_values() -> None:
    assert ONE_OF_EACH.points(CardValues()) == 50 + 20 + 20 + 10 + 5 + 5
    assert ONE_OF_EACH.points(CardValues(black_three=100)) == 205
    assert ONE_OF_EACH.total == 6
    assert ONE_OF_EACH.of(CardKind.ACES) == 1


def test_card_counts_list_every_kind_with_its_own_count() -> None:
    counts = CardCounts(jokers=1, twos=2, aces=3, eights_to_kings=4, fours_to_sevens=5)

    assert counts.items() == [(kind, counts.of(kind)) for kind in CardKind]
    assert [count for _, count in counts.items()] == [1, 2, 3, 4, 5, 0]
    assert counts.total == 15


@pytest.mark.parametrize(
    ("side", "melded"),
    [
        (SideEntry(), False),
        (SideEntry(red_threes=2, leftover=100), False),
        (SideEntry(melded=50), True),
        (SideEntry(melded=CardCounts(fours_to_sevens=3)), True),
        (SideEntry(clean_books=1), True),
    ],
)
def test_a_side_has_melded_when_any_card_is_on_the_table(side: SideEntry, melded: bool) -> None:
    assert side.has_melded(CardValues()) is melded


@pytest.mark.parametrize(
    ("side", "holds"),
    [
        (SideEntry(), False),
        (SideEntry(leftover=5), True),
        (SideEntry(leftover=CardCounts(black_threes=1)), True),
        (SideEntry(leftover=CardCounts()), False),
        (SideEntry(red_threes_held=1), True),
        (SideEntry(red_threes=1), False),
    ],
)
def test_a_side_holds_cards_when_anything_is_left_in_hand_or_foot(
    side: SideEntry, holds: bool
) -> None:
    assert side.holds_cards is holds


def test_a_sides_points_come_from_points_or_counts() -> None:
    side = SideEntry(melded=CardCounts(aces=3), leftover=45)

    assert side.melded_points(CardValues()) == 60
    assert side.leftover_points(CardValues()) == 45


def test_a_sides_books_are_counted_by_kind() -> None:
    side = SideEntry(clean_books=2, dirty_books=1, wild_books=1)

    assert side.books == BookCounts(clean=2, dirty=1, wild=1)
    assert side.book_count == 4


def test_a_side_is_named_by_its_name_or_else_its_place() -> None:
    assert SideEntry(name="Us").label(0) == "Us"
    assert SideEntry().label(2) == "#3"


@pytest.mark.parametrize(
    ("players", "count", "single"), [(None, 2, True), (2, 2, True), (4, 4, False)]
)
def test_the_players_default_to_one_per_side(players: int | None, count: int, single: bool) -> None:
    entry = RoundEntry(1, (SideEntry(), SideEntry()), players)

    assert entry.player_count == count
    assert entry.plays_alone(0) is single


def test_one_side_scored_alone_sits_at_a_table_of_at_least_two() -> None:
    entry = RoundEntry(1, (SideEntry(),))

    assert entry.player_count == 2
    assert not entry.plays_alone(0)  # it may be a pair


def test_each_sides_players_count_where_the_match_says_them() -> None:
    entry = RoundEntry(1, (SideEntry(), SideEntry(), SideEntry()), 5, side_players=(1, 2, 2))

    assert [entry.plays_alone(index) for index in range(3)] == [True, False, False]
    assert [entry.most_players_of(index) for index in range(3)] == [1, 2, 2]
    # Known only as 5 at the table, any side may hold the 3 the other two leave.
    assert RoundEntry(1, entry.sides, 5).most_players_of(1) == 3
