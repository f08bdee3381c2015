"""What a table enters for a round: the domain's input, before it is validated or scored."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace

from scorekeeper.domain.rules import MELDED_KINDS, MIN_PLAYERS, BookCounts, CardKind, CardValues


@dataclass(frozen=True)
class CardCounts:
    """How many cards of each kind; black threes only ever count as left over."""

    jokers: int = 0
    twos: int = 0
    aces: int = 0
    eights_to_kings: int = 0
    fours_to_sevens: int = 0
    black_threes: int = 0

    @classmethod
    def from_mapping(cls, counts: Mapping[str, int]) -> CardCounts:
        return cls(**counts)

    def of(self, kind: CardKind) -> int:
        count: int = getattr(self, kind.value)
        return count

    def of_kinds(self, kinds: Iterable[CardKind]) -> int:
        """Return how many cards of these kinds there are."""
        return sum(self.of(kind) for kind in kinds)

    def items(self) -> list[tuple[CardKind, int]]:
        return [(kind, getattr(self, key)) for kind, key in _KIND_KEYS]

    def points(self, values: CardValues) -> int:
        """Return what these cards are worth at `values`."""
        return sum(getattr(self, key) * values.of(kind) for kind, key in _KIND_KEYS)

    @property
    def total(self) -> int:
        return sum(getattr(self, key) for key in COUNT_KEYS)


# Every kind with the key of its count, read once: scoring a round reads them for every count,
# and iterating an Enum or reading a member's value is slow.
_KIND_KEYS = tuple((kind, kind.value) for kind in CardKind)


COUNT_KEYS = tuple(f.name for f in fields(CardCounts))
MELDED_COUNT_KEYS = tuple(kind.value for kind in MELDED_KINDS)


@dataclass(frozen=True)
class SideEntry:
    """What one side entered for a round: books, melded cards, red threes, going out, left over.

    Melded and left-over cards are each either a point total or counts per card kind.
    """

    name: str = ""
    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0
    melded: int | CardCounts = 0
    red_threes: int = 0
    red_threes_held: int = 0
    went_out: bool = False
    leftover: int | CardCounts = 0
    deal_bonus: int = 0  # the side's players who cut exactly the cards the bonus asks for
    running_score: int = 0

    def label(self, index: int) -> str:
        """Return how messages name the side: its name, else its place in the round."""
        return self.name or f"#{index + 1}"

    @property
    def books(self) -> BookCounts:
        return BookCounts(clean=self.clean_books, dirty=self.dirty_books, wild=self.wild_books)

    @property
    def book_count(self) -> int:
        return self.clean_books + self.dirty_books + self.wild_books

    def melded_points(self, values: CardValues) -> int:
        return _points(self.melded, values)

    def leftover_points(self, values: CardValues) -> int:
        return _points(self.leftover, values)

    @property
    def holds_cards(self) -> bool:
        """Return whether any card, red threes included, is left in the side's hands and feet."""
        return _has_cards(self.leftover) or self.red_threes_held > 0

    def has_melded(self, values: CardValues) -> bool:
        """Return whether the side has any card on the table this round."""
        return self.melded_points(values) > 0 or self.book_count > 0 or _has_cards(self.melded)


def _points(cards: int | CardCounts, values: CardValues) -> int:
    return cards.points(values) if isinstance(cards, CardCounts) else cards


def _has_cards(cards: int | CardCounts) -> bool:
    return cards.total > 0 if isinstance(cards, CardCounts) else cards > 0


@dataclass(frozen=True)
class RoundEntry:
    """One round as the table entered it: every side, and how many players sit at the table."""

    round_number: int
    sides: tuple[SideEntry, ...]
    players: int | None = None
    # Each side's players, as a stored match knows them; a calculator body may leave them out.
    side_players: tuple[int, ...] | None = None

    @property
    def player_count(self) -> int:
        """Return the players at the table: as given, else the sides' players, else one per side
        entered, but never fewer than a game needs, as when one side is scored alone."""
        if self.players is not None:
            return self.players
        if self.side_players is not None:
            return sum(self.side_players)
        return max(len(self.sides), MIN_PLAYERS)

    def most_players_of(self, index: int) -> int:
        """Return how many players side `index` has, or at most has: every other side has one
        of its own."""
        if self.side_players is not None:
            return self.side_players[index]
        return self.player_count - (len(self.sides) - 1)

    def plays_alone(self, index: int) -> bool:
        """Tell whether side `index` is one player."""
        return self.most_players_of(index) == 1

    def same_cards(self, other: RoundEntry) -> bool:
        """Tell whether both entries hold the same numbers for every side, whatever the sides'
        names and running scores."""
        return _numbers_only(self) == _numbers_only(other)


def _numbers_only(entry: RoundEntry) -> list[SideEntry]:
    return [replace(side, name="", running_score=0) for side in entry.sides]
