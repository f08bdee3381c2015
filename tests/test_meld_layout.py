"""Whether a side's melded cards, counted by kind, can lie on the table as melds and books."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.domain.entries import CardCounts
from scorekeeper.domain.meld_layout import MOST_BOOK_PAIRS, can_lay_out, kinds_laid_nowhere
from scorekeeper.domain.rules import (
    BOOK_SIZE,
    NATURAL_KINDS,
    SUITS,
    BookCounts,
    CardKind,
    RuleSet,
    WildRatio,
    build_rules,
)

STANDARD = build_rules("standard")
SIMPLE = build_rules("simple")  # fewer wilds than naturals, no cap, no wild melds
PARTNERSHIP = build_rules("partnership-11")
NO_CAP = build_rules("standard", {"max_wilds_per_meld": None})
EXCEED_CAPPED = build_rules("standard", {"wild_ratio": WildRatio.NATURALS_EXCEED_WILDS.value})


def lays_out(
    rules: RuleSet = STANDARD, *, clean: int = 0, dirty: int = 0, wild: int = 0, **counts: int
) -> bool:
    return can_lay_out(rules, CardCounts(**counts), BookCounts(clean, dirty, wild))


@pytest.mark.parametrize(
    ("rules", "books", "counts"),
    [
        pytest.param(STANDARD, {}, {"aces": 3}, id="a meld of three"),
        pytest.param(STANDARD, {}, {"aces": 2, "twos": 1}, id="two naturals and a wild"),
        pytest.param(STANDARD, {}, {"aces": 4, "jokers": 2}, id="four naturals carry two wilds"),
        pytest.param(STANDARD, {}, {"eights_to_kings": 36}, id="six of each 8 to K"),
        pytest.param(STANDARD, {}, {"twos": 3}, id="a wild meld"),
        pytest.param(STANDARD, {}, {"aces": 2, "twos": 4}, id="a wild meld beside a meld"),
        pytest.param(STANDARD, {"clean": 1}, {"aces": 7}, id="a clean book"),
        pytest.param(STANDARD, {"clean": 1}, {"aces": 10}, id="a clean book and a meld"),
        pytest.param(STANDARD, {"dirty": 1}, {"aces": 6, "jokers": 1}, id="a dirty book"),
        pytest.param(STANDARD, {"dirty": 1}, {"aces": 5, "twos": 2}, id="two wilds in a book"),
        pytest.param(STANDARD, {"wild": 1}, {"twos": 5, "jokers": 2}, id="a wild book"),
        pytest.param(
            STANDARD,
            {"clean": 2, "dirty": 2},
            {"eights_to_kings": 14, "aces": 6, "fours_to_sevens": 6, "twos": 2, "jokers": 1},
            id="going out",
        ),
        pytest.param(
            SIMPLE, {}, {"fours_to_sevens": 3, "twos": 2}, id="simple: 3 naturals, 2 wilds"
        ),
        pytest.param(SIMPLE, {"dirty": 1}, {"aces": 4, "twos": 3}, id="simple: a book of 4 and 3"),
        # nl-partnership lets natural cards go onto a finished book of their rank.
        pytest.param(PARTNERSHIP, {"clean": 1}, {"aces": 8}, id="an ace on a finished book"),
    ],
)
def test_melds_that_a_table_can_lay_down_are_accepted(
    rules: RuleSet, books: dict[str, int], counts: dict[str, int]
) -> None:
    assert lays_out(rules, **books, **counts)


@pytest.mark.parametrize(
    ("rules", "books", "counts"),
    [
        pytest.param(
            STANDARD,
            {},
            {"eights_to_kings": 4, "fours_to_sevens": 2},
            id="two 4-7s and no wild card",
        ),
        pytest.param(STANDARD, {}, {"aces": 8}, id="eight aces and no book"),
        pytest.param(STANDARD, {}, {"aces": 7}, id="seven aces are a book"),
        pytest.param(
            STANDARD,
            {"clean": 1},
            {"aces": 3, "eights_to_kings": 4},
            id="a clean book with no seven of a rank",
        ),
        pytest.param(STANDARD, {}, {"aces": 1, "twos": 2}, id="one natural and two wilds"),
        pytest.param(STANDARD, {}, {"twos": 7}, id="seven wilds are a wild book"),
        pytest.param(
            STANDARD, {"wild": 1}, {"twos": 5, "jokers": 3}, id="a wild card past the book"
        ),
        pytest.param(STANDARD, {}, {"aces": 3, "twos": 2}, id="three aces carry one wild"),
        pytest.param(STANDARD, {"dirty": 1}, {"aces": 7}, id="a dirty book without a wild"),
        pytest.param(STANDARD, {"dirty": 1}, {"aces": 4, "twos": 3}, id="three wilds in a book"),
        pytest.param(STANDARD, {}, {"eights_to_kings": 37}, id="more than six ranks of six"),
        pytest.param(SIMPLE, {}, {"twos": 3}, id="simple: no wild melds"),
        pytest.param(
            SIMPLE, {}, {"eights_to_kings": 4, "twos": 3}, id="simple: 4 and 3 are a book"
        ),
        pytest.param(SIMPLE, {}, {"aces": 2, "twos": 2}, id="simple: wilds as many as naturals"),
    ],
)
def test_melds_that_no_table_can_lay_down_are_refused(
    rules: RuleSet, books: dict[str, int], counts: dict[str, int]
) -> None:
    assert not lays_out(rules, **books, **counts)


@pytest.mark.parametrize(
    ("books", "counts", "nowhere"),
    [
        pytest.param({}, {"aces": 1, "eights_to_kings": 5}, (CardKind.ACES,), id="a lone ace"),
        pytest.param(
            {},
            {"aces": 2, "fours_to_sevens": 2, "twos": 1},
            (),
            id="either pair could take the wild card",
        ),
        pytest.param(
            {},
            {"aces": 2, "fours_to_sevens": 1, "eights_to_kings": 3},
            (CardKind.ACES, CardKind.FOURS_TO_SEVENS),
            id="two kinds",
        ),
        pytest.param({}, {"aces": 8}, (CardKind.ACES,), id="eight aces and no book"),
        pytest.param({"clean": 1}, {"aces": 8}, (), id="eight aces beside a book"),
        pytest.param(
            {"clean": 1}, {"aces": 3, "eights_to_kings": 4}, (), id="the book is what cannot be"
        ),
    ],
)
def test_the_kinds_whose_cards_fit_nowhere_are_named(
    books: dict[str, int], counts: dict[str, int], nowhere: tuple[CardKind, ...]
) -> None:
    cards, entered = CardCounts(**counts), BookCounts(**books)

    assert kinds_laid_nowhere(STANDARD, cards, entered) == nowhere


def test_the_wild_cards_of_wild_books_are_not_counted_twice() -> None:
    assert not lays_out(wild=1, twos=6)


# -- Against a search that lays the cards out rank by rank ----------------------------------------


def brute_lays_out(rules: RuleSet, counts: CardCounts, books: BookCounts) -> bool:
    """Try every way of sharing each kind's natural cards between its ranks and of laying each
    rank out as clean and dirty books, an unfinished meld and natural cards on its books."""
    ranks = [kind for kind in NATURAL_KINDS for _rank in range(kind.per_deck // SUITS)]

    @cache
    def held(rank: int, left: int, clean: int, dirty: int) -> frozenset[int]:
        """Return the wild cards the ranks from `rank` on can hold, with `left` natural cards
        of the rank's kind left for them and these books still to make."""
        if rank == len(ranks):
            return frozenset({0}) if left == clean == dirty == 0 else frozenset()
        last_of_kind = rank + 1 == len(ranks) or ranks[rank + 1] is not ranks[rank]
        found: set[int] = set()
        for naturals in [left] if last_of_kind else range(left + 1):
            after = left - naturals
            if last_of_kind and rank + 1 < len(ranks):
                after = counts.of(ranks[rank + 1])
            for rank_clean, rank_dirty, wilds in rank_layouts(rules, naturals):
                if rank_clean <= clean and rank_dirty <= dirty:
                    more = held(rank + 1, after, clean - rank_clean, dirty - rank_dirty)
                    found |= {wilds + wilds_after for wilds_after in more}
        return frozenset(found)

    spare = counts.jokers + counts.twos - BOOK_SIZE * books.wild
    wild_melds = (0, 3, 4, 5, 6) if rules.wild_books_allowed else (0,)
    laid = held(0, counts.of(ranks[0]), books.clean, books.dirty)
    return any(spare - size in laid for size in wild_melds)


def legal(rules: RuleSet, naturals: int, wilds: int) -> bool:
    cap = rules.max_wilds_per_meld
    return (cap is None or wilds <= cap) and rules.wild_ratio.allows(naturals, wilds)


@cache
def rank_layouts(rules: RuleSet, naturals: int) -> frozenset[tuple[int, int, int]]:
    """Return each (clean books, dirty books, wild cards) that one rank's `naturals` natural
    cards can lie in."""
    book_wilds = [w for w in range(1, BOOK_SIZE) if legal(rules, BOOK_SIZE - w, w)]
    melds = [(0, 0)] + [
        (size - w, w)
        for size in range(3, BOOK_SIZE)
        for w in range(size)
        if legal(rules, size - w, w)
    ]
    layouts = set()
    for clean in range(naturals // BOOK_SIZE + 1):
        for dirty in range(naturals // 4 + 1):  # a dirty book holds more natural cards than wild
            for wilds in combinations_with_replacement(book_wilds, dirty):
                for meld_naturals, meld_wilds in melds:
                    used = BOOK_SIZE * clean + sum(BOOK_SIZE - w for w in wilds) + meld_naturals
                    on_books = naturals - used
                    if on_books == 0 or (on_books > 0 and clean + dirty):
                        layouts.add((clean, dirty, sum(wilds) + meld_wilds))
    return frozenset(layouts)


RULE_SETS = [STANDARD, SIMPLE, PARTNERSHIP, NO_CAP, EXCEED_CAPPED]


@settings(max_examples=400, deadline=None)
@given(
    rules=st.sampled_from(RULE_SETS),
    aces=st.integers(0, 9),
    eights_to_kings=st.integers(0, 16),
    fours_to_sevens=st.integers(0, 10),
    twos=st.integers(0, 6),
    jokers=st.integers(0, 3),
    clean=st.integers(0, 2),
    dirty=st.integers(0, 2),
    wild=st.integers(0, 1),
)
def test_the_search_agrees_with_laying_out_every_rank(
    rules: RuleSet, clean: int, dirty: int, wild: int, **counts: int
) -> None:
    cards, books = CardCounts(**counts), BookCounts(clean, dirty, wild)
    assert can_lay_out(rules, cards, books) == brute_lays_out(rules, cards, books)


def test_more_books_than_the_search_checks_are_taken_on_trust() -> None:
    # 16 clean books cannot hold 5 natural cards; past MOST_BOOK_PAIRS nobody waits to be told.
    assert (16 + 1) * (15 + 1) > MOST_BOOK_PAIRS
    assert lays_out(clean=16, dirty=15, aces=5)
    assert not lays_out(clean=15, dirty=15, aces=5)
