"""Who deals each round: the deal passes clockwise round a table where the sides alternate.

The players sit side 1's first player, side 2's first player, and so on round the table, then
side 1's second player, side 2's second... so that partners sit apart, facing each other at a
table of two pairs. Each round the deal passes to the next seat clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.domain.problems import N_, Problem


@dataclass(frozen=True)
class Seat:
    """A player: their side's place in the match, and their place among that side's players."""

    side: int
    player: int


def listing(side_players: Sequence[int]) -> tuple[Seat, ...]:
    """Return every player as a match lists them: side by side, each side's players in order."""
    return tuple(
        Seat(side, player) for side, count in enumerate(side_players) for player in range(count)
    )


def deal_order(side_players: Sequence[int]) -> tuple[Seat, ...]:
    """Return every player in the order the deal passes, clockwise from side 1's first player:
    the sides alternate round the table, and a side that has no more players is passed over."""
    most = max(side_players, default=0)
    return tuple(
        Seat(side, player)
        for player in range(most)
        for side, count in enumerate(side_players)
        if player < count
    )


def dealer(side_players: Sequence[int], round_number: int, *, first_dealer: int = 0) -> Seat:
    """Return who deals round `round_number` when the player `first_dealer` places on from side
    1's first player in the deal order dealt round 1."""
    order = deal_order(side_players)
    return order[(first_dealer + round_number - 1) % len(order)]


def deal_place(side_players: Sequence[int], seat: Seat) -> int:
    """Return how many places on from side 1's first player `seat` sits in the deal order;
    raise ValueError for a seat the sides do not have."""
    return deal_order(side_players).index(seat)


def dealer_problems(side_players: Sequence[int], seat: Seat) -> list[Problem]:
    """Return what is wrong with `seat` as the first dealer of sides with these players."""
    if seat in deal_order(side_players):
        return []
    template = N_("The first dealer must be one of the match's %(players)s players.")
    return [Problem("first_dealer", template, {"players": sum(side_players)})]
