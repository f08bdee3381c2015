"""Who deals: clockwise round a table where the sides alternate, from the first dealer on."""

from __future__ import annotations

import pytest

from scorekeeper.domain.dealing import (
    Seat,
    deal_order,
    deal_place,
    dealer,
    dealer_problems,
    listing,
)

TWO_PAIRS = (2, 2)
THREE_PAIRS = (2, 2, 2)
TWO_TRIPLES = (3, 3)
FOUR_ALONE = (1, 1, 1, 1)


def test_two_pairs_sit_partners_apart_so_the_deal_goes_from_side_to_side() -> None:
    # Ann & Bob against Cy & Di: Ann, Cy, Bob, Di round the table.
    assert deal_order(TWO_PAIRS) == (Seat(0, 0), Seat(1, 0), Seat(0, 1), Seat(1, 1))


@pytest.mark.parametrize(
    ("side_players", "order"),
    [
        (THREE_PAIRS, [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
        (TWO_TRIPLES, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]),
        (FOUR_ALONE, [(0, 0), (1, 0), (2, 0), (3, 0)]),
        ((2, 1), [(0, 0), (1, 0), (0, 1)]),  # a player alone beside a pair is passed over once
    ],
)
def test_the_sides_alternate_round_the_table_whatever_their_sizes(
    side_players: tuple[int, ...], order: list[tuple[int, int]]
) -> None:
    assert deal_order(side_players) == tuple(Seat(*seat) for seat in order)


def test_side_1s_first_player_deals_the_first_round_unless_told_otherwise() -> None:
    assert dealer(TWO_PAIRS, 1) == Seat(0, 0)


@pytest.mark.parametrize(
    ("round_number", "seat"),
    [(1, Seat(0, 0)), (2, Seat(1, 0)), (3, Seat(0, 1)), (4, Seat(1, 1)), (5, Seat(0, 0))],
)
def test_the_deal_passes_one_seat_clockwise_each_round_and_comes_round_again(
    round_number: int, seat: Seat
) -> None:
    assert dealer(TWO_PAIRS, round_number) == seat


def test_a_later_first_dealer_moves_every_rounds_deal_on_as_far() -> None:
    bob = deal_place(TWO_PAIRS, Seat(0, 1))

    assert bob == 2
    assert [dealer(TWO_PAIRS, n, first_dealer=bob) for n in range(1, 5)] == [
        Seat(0, 1),
        Seat(1, 1),
        Seat(0, 0),
        Seat(1, 0),
    ]


def test_a_match_lists_each_sides_players_together_whatever_the_deal_order() -> None:
    assert listing(TWO_PAIRS) == (Seat(0, 0), Seat(0, 1), Seat(1, 0), Seat(1, 1))


def test_a_seat_the_sides_do_not_have_has_no_place_and_cannot_deal_first() -> None:
    with pytest.raises(ValueError):
        deal_place(TWO_PAIRS, Seat(0, 2))
    [problem] = dealer_problems(TWO_PAIRS, Seat(2, 0))

    assert problem.field == "first_dealer"
    assert dealer_problems(TWO_PAIRS, Seat(1, 1)) == []
