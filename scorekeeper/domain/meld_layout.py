"""Whether a side's melded cards, counted by kind, can lie on the table as its melds and books.

The rules: a meld is 3 to 7 cards of one rank, its wild cards within the rules' ratio and cap; a
side keeps at most one unfinished meld of each rank (wild melds too); a meld of 7 is a book. That
last rule holds in every preset: the rules reference leaves nl-partnership out of it, but its
source starts "a new group of the same value" only once a pile is complete. Where the sources
leave it open, it takes the reading in the table's favour, so that it refuses only what no table
can hold:
- natural cards may lie on a finished book of their rank, in every preset: only nl-partnership's
  source says so and the others close a book at 7, but no setting says which a table plays, and
  refusing a round a table played loses more than letting a miscount through;
- a rank holds as many books as the side's cards make: how many cards of a rank the decks hold is
  checked across all the sides, by the supply checks.
Under these readings every clean book of a kind can share one rank, and the ranks of a kind limit
only its unfinished melds.

The search grows with the product of clean and dirty books; past `MOST_BOOK_PAIRS` (more books
than a round at a real table makes) it answers yes rather than keep a phone waiting.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from scorekeeper.domain.entries import CardCounts
from scorekeeper.domain.rules import (
    BOOK_SIZE,
    MELD_SIZES,
    NATURAL_KINDS,
    WILD_KINDS,
    BookCounts,
    CardKind,
    RuleSet,
)

# Bit w of a "wild set" is set when the cards in question can hold exactly w wild cards.
WildSet = int
CleanDirty = tuple[int, int]  # clean books, dirty books

# (clean books + 1) x (dirty books + 1) that the search still checks: more books than any
# round at a table makes, and few enough that a phone does not wait for the answer.
MOST_BOOK_PAIRS = 256


@dataclass(frozen=True)
class MeldShapes:
    """What the rules let a side's melds hold."""

    unfinished: tuple[tuple[int, int], ...]  # (natural cards, wild cards) of a meld under 7
    most_book_wilds: int  # wild cards of a dirty book, which holds at least one
    # The wild cards outside wild books: 0 (no wild meld), or the size of a wild meld.
    wild_meld_sizes: tuple[int, ...]

    @classmethod
    @lru_cache(maxsize=64)
    def of(cls, rules: RuleSet) -> MeldShapes:
        unfinished = tuple(
            (size - wilds, wilds)
            for size in MELD_SIZES[:-1]
            for wilds in range(rules.most_wilds_in_meld(size) + 1)
        )
        wild_melds = MELD_SIZES[:-1] if rules.wild_books_allowed else ()
        return cls(unfinished, rules.most_wilds_in_book, (0, *wild_melds))


def can_lay_out(rules: RuleSet, melded: CardCounts, books: BookCounts) -> bool:
    """Return whether melds and books under `rules` can hold exactly these melded cards, the
    books' cards among them."""
    spare = _spare_wilds(melded, books)
    if spare < 0:
        return False
    if (books.clean + 1) * (books.dirty + 1) > MOST_BOOK_PAIRS:
        return True
    shapes = MeldShapes.of(rules)
    within = _up_to(spare)
    reachable: dict[CleanDirty, WildSet] = {(0, 0): 1}
    for kind in NATURAL_KINDS:
        options = _kind_options(shapes, kind.ranks, melded.of(kind), books, spare)
        reachable = _combine_kinds(reachable, options, books, within)
    held = reachable.get((books.clean, books.dirty), 0)
    return any(held >> (spare - size) & 1 for size in shapes.wild_meld_sizes if size <= spare)


def kinds_laid_nowhere(
    rules: RuleSet, melded: CardCounts, books: BookCounts
) -> tuple[CardKind, ...]:
    """Return the kinds of natural card whose melded cards fit no melds or books of their own,
    with every wild card of the side to hand: the counts to check first where the cards cannot
    be laid out."""
    shapes, spare = MeldShapes.of(rules), max(_spare_wilds(melded, books), 0)
    within = _up_to(spare)

    def fits(kind: CardKind) -> bool:
        options = _kind_options(shapes, kind.ranks, melded.of(kind), books, spare)
        return any(held & within for held in options.values())

    return tuple(kind for kind in NATURAL_KINDS if melded.of(kind) and not fits(kind))


def _up_to(wilds: int) -> WildSet:
    """Return the wild set of 0 to `wilds` wild cards: those the side has to place."""
    return (1 << (wilds + 1)) - 1


def _spare_wilds(melded: CardCounts, books: BookCounts) -> int:
    """Return the wild cards outside wild books: below 0 when the wild books need more."""
    return melded.of_kinds(WILD_KINDS) - BOOK_SIZE * books.wild


def _combine_kinds(
    reachable: dict[CleanDirty, WildSet],
    options: dict[CleanDirty, WildSet],
    books: BookCounts,
    within: WildSet,
) -> dict[CleanDirty, WildSet]:
    """Return what the kinds so far and one more kind hold together, within the side's books
    and wild cards."""
    together: dict[CleanDirty, WildSet] = defaultdict(int)
    for (clean, dirty), held in reachable.items():
        for (more_clean, more_dirty), more in options.items():
            key = (clean + more_clean, dirty + more_dirty)
            if key[0] <= books.clean and key[1] <= books.dirty:
                together[key] |= _sums(held, more) & within
    return together


def _sums(first: WildSet, second: WildSet) -> WildSet:
    """Return every sum of a count in `first` and one in `second`, a run of counts at a time:
    wild sets are mostly runs, and a run costs a few shifts however long it is."""
    sums = 0
    while second:
        start = (second & -second).bit_length() - 1
        rest = second >> start
        length = (rest ^ (rest + 1)).bit_length() - 1  # the run of ones at the bottom
        sums |= _spread(first << start, length)
        second &= ~(((1 << length) - 1) << start)
    return sums


def _spread(counts: WildSet, length: int) -> WildSet:
    """Return every sum of a count in `counts` and one of 0 to `length` - 1."""
    spread, covered = counts, 1
    while covered < length:
        step = min(covered, length - covered)
        spread |= spread << step
        covered += step
    return spread


def _kind_options(
    shapes: MeldShapes, ranks: int, naturals: int, books: BookCounts, spare_wilds: int
) -> dict[CleanDirty, WildSet]:
    """Return, for each count of clean and dirty books that one kind's natural cards can lie
    in, the wild cards that those books and the kind's unfinished melds can hold."""
    options: dict[CleanDirty, WildSet] = {}
    if meldable := _melds_by_naturals(shapes, ranks).get(naturals, 0):
        options[(0, 0)] = meldable
    least_dirty = BOOK_SIZE - shapes.most_book_wilds
    for dirty in range(min(books.dirty, naturals // least_dirty) + 1):
        most_clean = min(books.clean, (naturals - least_dirty * dirty) // BOOK_SIZE)
        for clean in range(1 if dirty == 0 else 0, most_clean + 1):
            held = _wilds_with_books(shapes, ranks, naturals, clean, dirty, spare_wilds)
            if held:
                options[(clean, dirty)] = held
    return options


def _wilds_with_books(
    shapes: MeldShapes, ranks: int, naturals: int, clean: int, dirty: int, spare_wilds: int
) -> WildSet:
    """Return the wild cards that a kind's books (some) and unfinished melds can hold.

    The dirty books hold 1 to `most_book_wilds` wild cards each and the melds the rest, as few
    as can be, since melds of more wild cards hold more cards; the natural cards that neither
    holds lie on a book of their rank."""
    fewest_cards = _fewest_cards(shapes, ranks)
    held = 0
    for wilds in range(dirty, spare_wilds + 1):
        in_melds = max(wilds - shapes.most_book_wilds * dirty, 0)
        room = naturals + wilds - BOOK_SIZE * (clean + dirty)  # cards left for the melds
        if fewest_cards.get(in_melds, room + 1) <= room:
            held |= 1 << wilds
    return held


@lru_cache(maxsize=64)
def _melds_by_naturals(shapes: MeldShapes, ranks: int) -> dict[int, WildSet]:
    """Return, by the natural cards they hold, the wild cards that unfinished melds on at most
    `ranks` ranks can hold."""
    found: dict[int, WildSet] = {0: 1}
    latest = found
    for _rank in range(ranks):
        longer: dict[int, WildSet] = defaultdict(int)
        for held_naturals, held in latest.items():
            for naturals, wilds in shapes.unfinished:
                longer[held_naturals + naturals] |= held << wilds
        for naturals, held in longer.items():
            found[naturals] = found.get(naturals, 0) | held
        latest = longer
    return found


@lru_cache(maxsize=64)
def _fewest_cards(shapes: MeldShapes, ranks: int) -> dict[int, int]:
    """Return, by the wild cards they hold, the fewest cards of unfinished melds on at most
    `ranks` ranks."""
    fewest: dict[int, int] = {}
    for naturals, held in _melds_by_naturals(shapes, ranks).items():
        for wilds in range(held.bit_length()):
            if held >> wilds & 1 and naturals + wilds < fewest.get(wilds, naturals + wilds + 1):
                fewest[wilds] = naturals + wilds
    return fewest
