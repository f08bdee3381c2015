"""The impossible entries (docs/rules.md, "What the app refuses"), each refused with how to
fix it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache, reduce
from math import gcd

from scorekeeper.domain.entries import COUNT_KEYS, CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.labels import field_label
from scorekeeper.domain.meld_layout import can_lay_out, kinds_laid_nowhere
from scorekeeper.domain.problems import (
    N_,
    NP_,
    T_,
    FieldOfSide,
    Problem,
    ProblemsError,
    Template,
    Term,
)
from scorekeeper.domain.rules import (
    BOOK_SIZE,
    MAX_PLAYERS,
    MELD_SIZES,
    MELDED_KINDS,
    MIN_PLAYERS,
    NATURAL_KINDS,
    NATURAL_RANKS,
    RED_THREES_PER_DECK,
    SUITS,
    WILD_KINDS,
    CardKind,
    CardValues,
    RuleSet,
)

MIN_SIDES = 2  # a match is played against somebody
_COUNT_FIELDS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "red_threes",
    "red_threes_held",
    "deal_bonus",
)


def check_round(rules: RuleSet, entry: RoundEntry) -> None:
    """Raise `ProblemsError` listing every impossible part of the entry."""
    problems = round_problems(rules, entry)
    if problems:
        raise ProblemsError(problems)


def round_problems(rules: RuleSet, entry: RoundEntry) -> list[Problem]:
    """Return every impossible part of the entry, the whole round's first; where the entry
    does not say how many play and more players would lift a problem, say so too."""
    problems = _found_problems(rules, entry)
    if problems and entry.players is None and entry.side_players is None:
        problems += _unstated_players_problems(rules, entry, problems)
    return problems


def _unstated_players_problems(
    rules: RuleSet, entry: RoundEntry, problems: list[Problem]
) -> Iterator[Problem]:
    """Yield a note of the players counted, when some of the problems found with them would go
    with more: a side of one that went out holding cards, more cards than the decks hold."""
    at_most = replace(entry, players=MAX_PLAYERS)
    with_most = {_what_and_where(problem) for problem in _found_problems(rules, at_most)}
    lifted = [problem for problem in problems if _what_and_where(problem) not in with_most]
    if not lifted:
        return
    template = N_(
        "players was not given, so these checks counted %(players)s players at the table: "
        "enter players if more sit at it."
    )
    # Beside the fields of the problems it would lift: those sides' scores wait on it.
    params = {"players": entry.player_count}
    yield Problem("players", template, params, adds_up=_fields_of_all(lifted))


def _what_and_where(problem: Problem) -> tuple[Template, str, int | None]:
    return problem.template, problem.field, problem.side


def _fields_of_all(problems: list[Problem]) -> tuple[FieldOfSide, ...]:
    """Return the sides' fields that the problems are shown beside, or none where one of them
    is every side's."""
    fields: list[FieldOfSide] = []
    for problem in problems:
        if problem.side is not None:
            fields.append((problem.side, problem.field))
        elif problem.adds_up:
            fields += problem.adds_up
        else:
            return ()
    return tuple(dict.fromkeys(fields))


def _found_problems(rules: RuleSet, entry: RoundEntry) -> list[Problem]:
    problems = list(_round_level_problems(rules, entry))
    if problems:
        return problems
    for index, side in enumerate(entry.sides):
        problems += _side_problems(rules, entry, index, side)
    problems += _going_out_problems(rules, entry)
    problems += _deal_bonus_problems(rules, entry)
    # The supply adds up every side's cards, which means little while a side's entry is wrong;
    # red threes are counted apart from every other card, so each is told beside the other.
    if not problems:
        problems += _supply_problems(rules, entry)
    problems += _red_three_supply_problems(rules, entry)
    # Every other check says more precisely what to fix: a side's melds are searched only where
    # no problem was found of it, yet while another side's entry is wrong too.
    for index, side in enumerate(entry.sides):
        if not any(problem.concerns(index) for problem in problems):
            problems += _layout_problems(rules, entry, index, side)
    return problems


def side_label(entry: RoundEntry, index: int) -> str:
    """Return how messages name the side at `index`."""
    return entry.sides[index].label(index)


def _side_problem(
    entry: RoundEntry, index: int, field: str, template: Template, **params: object
) -> Problem:
    params = {"side": side_label(entry, index), "field": field_label(field), **params}
    return Problem(field=field, template=template, params=params, side=index)


def round_number_problems(rules: RuleSet, round_number: int) -> list[Problem]:
    """Return a problem when the round is not one of the match's rounds."""
    if 1 <= round_number <= rules.rounds:
        return []
    template = N_("Round %(round)s is not in this match: choose a round from 1 to %(rounds)s.")
    params = {"round": round_number, "rounds": rules.rounds}
    return [Problem(field="round", template=template, params=params)]


def check_round_number(rules: RuleSet, round_number: int) -> None:
    """Raise `ProblemsError` when the round is not one of the match's rounds."""
    problems = round_number_problems(rules, round_number)
    if problems:
        raise ProblemsError(problems)


def _round_level_problems(rules: RuleSet, entry: RoundEntry) -> Iterator[Problem]:
    yield from round_number_problems(rules, entry.round_number)
    fewest_players = max(MIN_PLAYERS, len(entry.sides))
    if not 1 <= len(entry.sides) <= MAX_PLAYERS:
        template: Template = N_("Enter between 1 and %(most)s sides.")
        yield Problem(field="sides", template=template, params={"most": MAX_PLAYERS})
    elif entry.players is not None and not fewest_players <= entry.players <= MAX_PLAYERS:
        template = NP_(
            "players is %(players)s, but %(sides)s side needs between %(least)s and %(most)s "
            "players: enter a number in that range.",
            "players is %(players)s, but %(sides)s sides need between %(least)s and %(most)s "
            "players: enter a number in that range.",
            "sides",
        )
        params = {
            "players": entry.players,
            "sides": len(entry.sides),
            "least": fewest_players,
            "most": MAX_PLAYERS,
        }
        yield Problem(field="players", template=template, params=params)
    yield from _side_players_problems(entry)


def _side_players_problems(entry: RoundEntry) -> Iterator[Problem]:
    """Refuse each side's players where they do not fit the sides entered or the table."""
    counts = entry.side_players
    if counts is None:
        return
    total = sum(counts)
    if len(counts) != len(entry.sides) or min(counts, default=0) < 1:
        template: Template = NP_(
            "side_players must give the %(sides)s side entered its players, 1 or more.",
            "side_players must give each of the %(sides)s sides its players, 1 or more, "
            "in the order of the sides.",
            "sides",
        )
        yield Problem("side_players", template, {"sides": len(entry.sides)})
    elif not MIN_PLAYERS <= total <= MAX_PLAYERS:
        template = NP_(
            "side_players adds up to %(total)s player, but a table seats between %(least)s "
            "and %(most)s.",
            "side_players adds up to %(total)s players, but a table seats between %(least)s "
            "and %(most)s.",
            "total",
        )
        params = {"total": total, "least": MIN_PLAYERS, "most": MAX_PLAYERS}
        yield Problem("side_players", template, params)
    elif entry.players is not None and entry.players != total:
        template = N_("players is %(players)s, but side_players adds up to %(total)s.")
        yield Problem("side_players", template, {"players": entry.players, "total": total})


def _side_problems(rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry) -> list[Problem]:
    problems = list(_negative_problems(entry, index, side))
    if problems:  # the side's sums mean nothing yet; its other point totals are still read
        refused = {problem.field for problem in problems}
        multiples = _multiple_problems(rules, entry, index, side)
        return problems + [problem for problem in multiples if problem.field not in refused]
    checks = (
        _multiple_problems,
        _rule_problems,
        _book_problems,
        _counted_meld_problems,
        _minimum_problems,
    )
    for check in checks:
        problems += check(rules, entry, index, side)
    return problems


def _negative_problems(entry: RoundEntry, index: int, side: SideEntry) -> Iterator[Problem]:
    numbers = [(name, getattr(side, name)) for name in _COUNT_FIELDS]
    for prefix, cards in (("melded", side.melded), ("leftover", side.leftover)):
        if isinstance(cards, CardCounts):
            numbers += [(f"{prefix}.{key}", getattr(cards, key)) for key in COUNT_KEYS]
        else:
            numbers.append((f"{prefix}_points", cards))
    for field, number in numbers:
        if number < 0:
            template = N_("%(side)s: %(field)s cannot be negative; enter 0 or more.")
            yield _side_problem(entry, index, field, template)
    if isinstance(side.melded, CardCounts) and side.melded.black_threes:
        template = N_("%(side)s: black threes never meld; count them as left over.")
        yield _side_problem(entry, index, "melded.black_threes", template)


# The kinds of card a side's point total can hold: black threes never meld.
POINT_TOTAL_KINDS: dict[str, tuple[CardKind, ...]] = {
    "melded_points": MELDED_KINDS,
    "leftover_points": tuple(CardKind),
}


def points_step(rules: RuleSet, total: str) -> int:
    """Return the step in which a point total of POINT_TOTAL_KINDS comes: the greatest common
    divisor of its cards' values, 0 when every such card is worth nothing."""
    return _points_step(rules.card_values, total)


# Kept by card values, which are all it depends on: every side of every round asks for it.
@lru_cache(maxsize=64)
def _points_step(values: CardValues, total: str) -> int:
    return reduce(gcd, (values.of(kind) for kind in POINT_TOTAL_KINDS[total]), 0)


def _multiple_problems(
    rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry
) -> Iterator[Problem]:
    for field, cards in (("melded_points", side.melded), ("leftover_points", side.leftover)):
        step = points_step(rules, field)
        if isinstance(cards, int) and step and cards % step:
            template = N_(
                "%(side)s: %(field)s of %(points)s cannot be made of cards, whose points come "
                "in steps of %(step)s; enter a multiple of %(step)s."
            )
            yield _side_problem(entry, index, field, template, points=cards, step=step)


# What to enter instead of an entry that the rules leave out (`RuleSet.unplayed_entries`).
_UNPLAYED = {
    "wild_books": N_("%(side)s: these rules allow no wild books; count them as 0."),
    "red_threes": N_(
        "%(side)s: in these rules red threes are not laid down; enter them as red threes held."
    ),
    "deal_bonus": N_("%(side)s: these rules play no deal bonus; enter 0."),
}


def _rule_problems(
    rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry
) -> Iterator[Problem]:
    for name, template in _UNPLAYED.items():
        if name in rules.unplayed_entries and getattr(side, name):
            yield _side_problem(entry, index, name, template)


def _book_problems(
    rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry
) -> Iterator[Problem]:
    if not side.book_count:
        return
    if isinstance(side.melded, CardCounts):
        yield from _book_card_problems(rules, entry, index, side, side.melded)
        return
    cheapest = rules.cheapest_books(side.books)
    if side.melded < cheapest:
        template = N_(
            "%(side)s: %(field)s of %(points)s cannot make the books entered "
            "(%(clean)s clean, %(dirty)s dirty, %(wild)s wild), whose cards are worth at least "
            "%(cheapest)s; enter the points of every melded card, books included, or fewer books."
        )
        yield _side_problem(
            entry,
            index,
            "melded_points",
            template,
            cheapest=cheapest,
            points=side.melded,
            **_book_params(side),
        )


def _book_card_problems(
    rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry, melded: CardCounts
) -> Iterator[Problem]:
    books = side.books
    naturals, wilds = melded.of_kinds(NATURAL_KINDS), melded.of_kinds(WILD_KINDS)
    needs = (
        (melded.total, BOOK_SIZE * side.book_count, T_("cards")),
        (wilds, BOOK_SIZE * books.wild + books.dirty, T_("wild cards")),
        (naturals, _naturals_books_need(rules, side), T_("natural cards")),
    )
    for have, need, what in needs:
        if have < need:
            template = N_(
                "%(side)s: the books entered (%(clean)s clean, %(dirty)s dirty, %(wild)s wild) "
                "need this many %(what)s at least: %(need)s, but melded counts only %(have)s; "
                "count every melded card, books included, or enter fewer books."
            )
            yield _side_problem(
                entry,
                index,
                "melded",
                template,
                need=need,
                what=what,
                have=have,
                **_book_params(side),
            )


def _naturals_books_need(rules: RuleSet, side: SideEntry) -> int:
    """Return the natural cards a side's books hold at least: all of a clean book's, and all
    but the most wild cards a dirty book may hold."""
    return BOOK_SIZE * side.clean_books + side.dirty_books * rules.fewest_naturals_in_book


def _counted_meld_problems(
    rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry
) -> Iterator[Problem]:
    """Refuse melded counts that no melds could hold: fewer cards than a meld, or wild cards
    that the natural cards cannot carry and that cannot meld on their own."""
    melded = side.melded
    if not isinstance(melded, CardCounts) or not melded.total:
        return
    least = MELD_SIZES[0]
    if not side.book_count and melded.total < least:  # books: their own check counts cards
        template = N_(
            "%(side)s: a meld holds at least %(least)s cards, more than the %(count)s that "
            "melded counts show; count every melded card, or none if the side did not meld."
        )
        yield _side_problem(entry, index, "melded", template, count=melded.total, least=least)
        return
    yield from _uncarried_wild_problems(rules, entry, index, side, melded)


def _uncarried_wild_problems(
    rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry, melded: CardCounts
) -> Iterator[Problem]:
    # A clean book's natural cards carry no wild card, and a wild book's wild cards need none.
    naturals = melded.of_kinds(NATURAL_KINDS) - BOOK_SIZE * side.clean_books
    wilds = melded.of_kinds(WILD_KINDS) - BOOK_SIZE * side.wild_books
    if naturals < 0 or wilds < 0:
        return  # fewer cards than the books hold: their own check says so
    most, least = rules.most_wilds_carried(naturals), MELD_SIZES[0]
    if wilds <= most or (rules.wild_books_allowed and wilds >= least):
        return
    if rules.wild_books_allowed:
        template = N_(
            "%(side)s: melded counts leave wild cards that no natural card can hold, fewer than "
            "the %(least)s that meld on their own; count every melded card, books included."
        )
        yield _side_problem(entry, index, "melded", template, least=least)
        return
    if side.clean_books:
        template = N_(
            "%(side)s: melded counts show %(wilds)s wild cards, but these rules allow no melds "
            "of wild cards only, and the %(naturals)s natural cards outside clean books, which "
            "hold none, hold at most %(most)s; count every melded card, books included."
        )
    else:
        template = N_(
            "%(side)s: melded counts show %(wilds)s wild cards, but these rules allow no melds "
            "of wild cards only, and %(naturals)s natural cards hold at most %(most)s; count "
            "every melded card, books included."
        )
    params = {"wilds": wilds, "naturals": naturals, "most": most}
    yield _side_problem(entry, index, "melded", template, **params)


# Melded counts that add up, yet fit no melds of one rank each (`_layout_problems`).
_LAID_NOWHERE = NP_(
    "%(side)s: %(count)s card melded (%(field)s) fits no meld or book of its rank, with the "
    "wild cards and books entered: a meld is %(least)s to %(most)s cards of one rank, its wild "
    "cards within these rules' limits, and a side keeps at most one unfinished meld of each "
    "rank. Check this count.",
    "%(side)s: %(count)s cards melded (%(field)s) fit no melds or books of their rank, with the "
    "wild cards and books entered: a meld is %(least)s to %(most)s cards of one rank, its wild "
    "cards within these rules' limits, and a side keeps at most one unfinished meld of each "
    "rank. Check this count.",
    "count",
)
_NO_LAYOUT = N_(
    "%(side)s: no melds can hold exactly these melded cards with the books entered "
    "(%(clean)s clean, %(dirty)s dirty, %(wild)s wild): a meld is %(least)s to %(most)s "
    "cards of one rank, its wild cards within these rules' limits, and a side keeps at most "
    "one unfinished meld of each rank. Count every melded card, books included, or check "
    "the books."
)


def _layout_problems(
    rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry
) -> Iterator[Problem]:
    """Refuse melded counts that add up yet fit no melds of one rank each: two 4-7s with no wild
    card, eight aces beside no book."""
    melded = side.melded
    if not isinstance(melded, CardCounts) or not melded.total:
        return
    decks = rules.deck_count(entry.player_count)
    if any(melded.of(kind) > kind.in_decks(decks) for kind in MELDED_KINDS):
        return  # more than the decks hold: the supply checks say so once the sides are right
    if can_lay_out(rules, melded, side.books):
        return
    sizes = {"least": MELD_SIZES[0], "most": BOOK_SIZE}
    # A kind whose cards fit nowhere is told beside its own count: the likeliest slip.
    nowhere = kinds_laid_nowhere(rules, melded, side.books)
    for kind in nowhere:
        field = f"melded.{kind.value}"
        yield _side_problem(entry, index, field, _LAID_NOWHERE, count=melded.of(kind), **sizes)
    if not nowhere:
        yield _side_problem(entry, index, "melded", _NO_LAYOUT, **sizes, **_book_params(side))


def _book_params(side: SideEntry) -> dict[str, object]:
    return {"clean": side.clean_books, "dirty": side.dirty_books, "wild": side.wild_books}


# Told when a side's melded cards are under its meld minimum, by the way it entered them: counted,
# the field is the cards themselves, and a side that did not meld leaves its counts empty.
_UNDER_MINIMUM = {
    "melded_points": N_(
        "%(side)s: the melded cards (%(field)s), worth %(points)s, are under the meld minimum "
        "of %(minimum)s, which the side's first meld had to reach; enter every melded card, "
        "or 0 if the side did not meld."
    ),
    "melded": N_(
        "%(side)s: the melded cards, worth %(points)s, are under the meld minimum of "
        "%(minimum)s, which the side's first meld had to reach; count every melded card, or "
        "none if the side did not meld."
    ),
}


def _minimum_problems(
    rules: RuleSet, entry: RoundEntry, index: int, side: SideEntry
) -> Iterator[Problem]:
    points = side.melded_points(rules.card_values)
    minimum = rules.meld_minimum(entry.round_number, side.running_score)
    if 0 < points < minimum:
        field = "melded_points" if isinstance(side.melded, int) else "melded"
        template = _UNDER_MINIMUM[field]
        yield _side_problem(entry, index, field, template, points=points, minimum=minimum)


def _deal_bonus_problems(rules: RuleSet, entry: RoundEntry) -> Iterator[Problem]:
    """Refuse more deal bonuses than a side, or the table, has players to cut for them."""
    if not rules.deal_bonus:
        return  # a side that entered one anyway is told so among its own problems
    for index, side in enumerate(entry.sides):
        most_players = entry.most_players_of(index)
        if side.deal_bonus > most_players:
            template: Template = NP_(
                "%(side)s: deal bonuses for %(count)s players, but the side has at most "
                "%(most)s player.",
                "%(side)s: deal bonuses for %(count)s players, but the side has at most "
                "%(most)s players.",
                "most",
            )
            yield _side_problem(
                entry, index, "deal_bonus", template, count=side.deal_bonus, most=most_players
            )
    deal_bonuses = sum(side.deal_bonus for side in entry.sides)
    if deal_bonuses > entry.player_count:
        template = N_(
            "Deal bonuses for %(count)s players, but %(players)s sit at the table: each player "
            "cuts once."
        )
        params = {"count": deal_bonuses, "players": entry.player_count}
        yield Problem(field="deal_bonus", template=template, params=params)


def _going_out_problems(rules: RuleSet, entry: RoundEntry) -> Iterator[Problem]:
    out = [index for index, side in enumerate(entry.sides) if side.went_out]
    for index in out:
        yield from going_out_problems(rules, entry, index)
    for index in out[1:]:
        template = N_(
            "%(side)s: %(first)s already went out, and only one side goes out in a round: "
            "change who went out."
        )
        yield _side_problem(entry, index, "went_out", template, first=side_label(entry, out[0]))


def going_out_problems(rules: RuleSet, entry: RoundEntry, index: int) -> Iterator[Problem]:
    """Yield why the side could not have gone out: missing books, nothing melded, or cards
    still held."""
    side = entry.sides[index]
    required = rules.going_out_requires
    if (
        side.clean_books < required.clean
        or side.dirty_books < required.dirty
        or side.wild_books < required.wild
    ):
        template = N_(
            "%(side)s went out without the books these rules require (%(clean)s clean, "
            "%(dirty)s dirty, %(wild)s wild): add the books, or change who went out."
        )
        yield _side_problem(
            entry,
            index,
            "went_out",
            template,
            clean=required.clean,
            dirty=required.dirty,
            wild=required.wild,
        )
    elif not side.has_melded(rules.card_values):
        # Each turn draws two cards and discards one: only melding empties a hand and a foot.
        template = N_(
            "%(side)s went out without melding, but only melding empties a hand and a foot: "
            "enter the melded cards, or change who went out."
        )
        yield _side_problem(entry, index, "went_out", template)
    if entry.plays_alone(index) and side.holds_cards:
        template = N_(
            "%(side)s went out, so no cards can be left in hand or foot: "
            "enter 0 left over and 0 red threes held."
        )
        yield _side_problem(entry, index, "leftover", template)


def _red_three_supply_problems(rules: RuleSet, entry: RoundEntry) -> Iterator[Problem]:
    decks = rules.deck_count(entry.player_count)
    counts = [count for side in entry.sides for count in (side.red_threes, side.red_threes_held)]
    red_threes = sum(counts)
    if min(counts, default=0) >= 0 and red_threes > RED_THREES_PER_DECK * decks:
        adds_up = tuple(_entered_fields(entry, ("red_threes", "red_threes_held")))
        yield _supply_problem(
            "red_threes", T_("red threes"), red_threes, RED_THREES_PER_DECK, decks, adds_up
        )


def _supply_problems(rules: RuleSet, entry: RoundEntry) -> Iterator[Problem]:
    decks = rules.deck_count(entry.player_count)
    counted = list(_counted_supply_problems(entry, decks))
    yield from counted
    # Each of these problems names what to check first: the wild cards that books sharing
    # ranks need are told only when none of them is.
    wild = [] if counted else list(_wild_supply_problems(entry, decks))
    books = list(_book_supply_problems(rules, entry, decks))
    yield from wild + books
    if not (counted or wild or books):
        yield from _shared_rank_wild_problems(rules, entry, decks)
    yield from _point_supply_problems(rules, entry, decks)


def _book_supply_problems(rules: RuleSet, entry: RoundEntry, decks: int) -> Iterator[Problem]:
    """Refuse more books than the decks' cards can make, however the sides entered their
    melded cards: every book holds cards that meld (threes never do), and clean and dirty
    books natural cards (wild cards are checked on their own)."""
    naturals_per_deck = _per_deck(NATURAL_KINDS)
    melding_per_deck = naturals_per_deck + _per_deck(WILD_KINDS)
    needs = (
        (sum(BOOK_SIZE * side.book_count for side in entry.sides), melding_per_deck, T_("cards")),
        (
            sum(_naturals_books_need(rules, side) for side in entry.sides),
            naturals_per_deck,
            T_("natural cards"),
        ),
    )
    for needed, per_deck, what in needs:
        if needed > per_deck * decks:
            template = NP_(
                "The sides' books need at least %(needed)s %(what)s, but %(decks)s deck holds "
                "only %(most)s that go into books: check the clean, dirty and wild books.",
                "The sides' books need at least %(needed)s %(what)s, but %(decks)s decks hold "
                "only %(most)s that go into books: check the clean, dirty and wild books.",
                "decks",
            )
            params = {"needed": needed, "what": what, "decks": decks, "most": per_deck * decks}
            adds_up = tuple(_entered_fields(entry, ("clean_books", "dirty_books", "wild_books")))
            yield Problem("clean_books", template, params, adds_up=adds_up)
            return  # the first need the decks cannot meet says what to check
    yield from _rank_supply_problems(rules, entry, decks)


def _rank_supply_problems(rules: RuleSet, entry: RoundEntry, decks: int) -> Iterator[Problem]:
    """Refuse clean and dirty books that the decks cannot make rank by rank: a book's natural
    cards are of one rank, which each deck has only SUITS of, so one deck makes no clean book
    and two decks at most one of each rank."""
    if _entry_dirty_book_wilds(rules, entry, decks) is not None:
        return
    template = NP_(
        "The sides' clean and dirty books need more natural cards of one rank than %(decks)s "
        "deck holds: it has %(per_rank)s of each rank, and a clean book takes %(size)s of one "
        "rank, a dirty book at least %(least)s. Check the clean and dirty books.",
        "The sides' clean and dirty books need more natural cards of one rank than %(decks)s "
        "decks hold: they have %(per_rank)s of each rank, and a clean book takes %(size)s of "
        "one rank, a dirty book at least %(least)s. Check the clean and dirty books.",
        "decks",
    )
    params = {**_rank_params(decks), "least": rules.fewest_naturals_in_book}
    adds_up = tuple(_entered_fields(entry, ("clean_books", "dirty_books")))
    yield Problem("clean_books", template, params, adds_up=adds_up)


def _shared_rank_wild_problems(rules: RuleSet, entry: RoundEntry, decks: int) -> Iterator[Problem]:
    """Refuse books whose wild cards the decks cannot hold once their natural cards share the
    ranks: dirty books on a rank that other books take natural cards from hold more wild cards
    than the one each that `_wild_supply_problems` counts. Wild cards counted left over are
    added; those counted melded are in the books already."""
    dirty_wilds = _entry_dirty_book_wilds(rules, entry, decks)
    if dirty_wilds is None:
        return
    books = dirty_wilds + BOOK_SIZE * sum(side.wild_books for side in entry.sides)
    needed = books + sum(_counted_wilds(side.leftover) for side in entry.sides)
    most = _wilds_in(decks)
    if needed <= most:
        return
    template = NP_(
        "The sides need at least %(needed)s wild cards, but %(decks)s deck holds only "
        "%(most)s. It has %(per_rank)s natural cards of each rank, and a clean book takes "
        "%(size)s of them, so these dirty books cannot each hold %(naturals)s natural cards and "
        "1 wild card. Check the clean, dirty and wild books.",
        "The sides need at least %(needed)s wild cards, but %(decks)s decks hold only "
        "%(most)s. They have %(per_rank)s natural cards of each rank, and a clean book takes "
        "%(size)s of them, so these dirty books cannot each hold %(naturals)s natural cards and "
        "1 wild card. Check the clean, dirty and wild books.",
        "decks",
    )
    params = {**_rank_params(decks), "needed": needed, "most": most, "naturals": BOOK_SIZE - 1}
    adds_up = (
        *_entered_fields(entry, ("clean_books", "dirty_books", "wild_books")),
        *_counted_fields(entry, WILD_KINDS, groups=("leftover",)),
    )
    yield Problem("dirty_books", template, params, adds_up=adds_up)


def _rank_params(decks: int) -> dict[str, object]:
    """Return what a message of natural cards shared between ranks says of the decks."""
    return {"decks": decks, "per_rank": SUITS * decks, "size": BOOK_SIZE}


def _entry_dirty_book_wilds(rules: RuleSet, entry: RoundEntry, decks: int) -> int | None:
    clean = sum(side.clean_books for side in entry.sides)
    dirty = sum(side.dirty_books for side in entry.sides)
    return fewest_dirty_book_wilds(SUITS * decks, rules.fewest_naturals_in_book, clean, dirty)


@dataclass(frozen=True)
class _RankRoom:
    """The dirty books a rank holds beside some clean books, by the wild cards each needs:
    1 while 6 of the rank's natural cards are left for it, then 7 less the natural cards left
    over, then 7 (it takes its natural cards from the books before it)."""

    singles: int  # books of 6 natural cards and 1 wild card
    remainder: int  # wild cards of the book on the natural cards left over; 0: no such book
    others: int  # books that need 7 more wild cards each


@lru_cache(maxsize=256)
def fewest_dirty_book_wilds(per_rank: int, least: int, clean: int, dirty: int) -> int | None:
    """Return the fewest wild cards that `dirty` dirty books hold beside `clean` clean books,
    each of the natural ranks holding `per_rank` natural cards and each dirty book at least
    `least` of them and one wild card; None when the ranks cannot hold the books at all.

    Every way of sharing the clean books out between the ranks is tried (at 20 decks, up to
    some 18,000; at a table's few decks, a few dozen); the dirty books then go where they need
    the fewest wild cards, which is exact as each further book on a rank needs as many or more."""
    rooms = _rank_rooms(per_rank, least)
    fewest = None
    for sharing in _clean_book_sharings(clean, len(rooms) - 1, NATURAL_RANKS):
        wilds = _dirty_book_wilds(rooms, sharing, dirty)
        if wilds is not None and (fewest is None or wilds < fewest):
            fewest = wilds
            if fewest == dirty:  # one wild card each: no sharing does better
                break
    return fewest


@lru_cache(maxsize=64)
def _rank_rooms(per_rank: int, least: int) -> tuple[_RankRoom, ...]:
    """Return what a rank leaves its dirty books beside 0, 1, ... clean books."""
    rooms = []
    for clean in range(per_rank // BOOK_SIZE + 1):
        room = per_rank - BOOK_SIZE * clean
        fits = room // least
        singles, left = divmod(room, BOOK_SIZE - 1)
        remainder = BOOK_SIZE - left if left and fits > singles else 0
        rooms.append(_RankRoom(singles, remainder, fits - singles - bool(remainder)))
    return tuple(rooms)


def _clean_book_sharings(clean: int, most: int, ranks: int) -> Iterator[tuple[int, ...]]:
    """Yield each way `ranks` ranks hold `clean` clean books, at most `most` each, as how many
    ranks hold 0, 1, ... `most` of them."""
    if clean > most * ranks:
        return
    if most == 0:
        yield (ranks,)
        return
    for holding in range(min(ranks, clean // most), -1, -1):
        for fewer in _clean_book_sharings(clean - most * holding, most - 1, ranks - holding):
            yield (*fewer, holding)


def _dirty_book_wilds(
    rooms: tuple[_RankRoom, ...], sharing: tuple[int, ...], dirty: int
) -> int | None:
    """Return the fewest wild cards that `dirty` dirty books hold on ranks sharing the clean
    books so, cheapest books first; None when the ranks cannot hold them."""
    singles = others = 0
    remainders = []
    for ranks, room in zip(sharing, rooms, strict=True):
        if ranks:
            singles += ranks * room.singles
            others += ranks * room.others
            if room.remainder:
                remainders.append((room.remainder, ranks))
    if dirty <= singles:
        return dirty
    wilds, short = singles, dirty - singles
    for needs, ranks in sorted(remainders):
        taken = min(ranks, short)
        wilds, short = wilds + taken * needs, short - taken
    return None if short > others else wilds + BOOK_SIZE * short


def _entered_fields(
    entry: RoundEntry, names: tuple[str, ...], sides: Iterable[int] | None = None
) -> Iterator[FieldOfSide]:
    """Yield each of these count fields that a side entered some in, of every side or of
    `sides`."""
    for index in range(len(entry.sides)) if sides is None else sides:
        side = entry.sides[index]
        yield from ((index, name) for name in names if getattr(side, name))


def _counted_supply_problems(entry: RoundEntry, decks: int) -> Iterator[Problem]:
    counted = [
        cards
        for side in entry.sides
        for cards in (side.melded, side.leftover)
        if isinstance(cards, CardCounts)
    ]
    if not counted:
        return
    for kind in CardKind:
        total = sum(cards.of(kind) for cards in counted)
        if total > kind.in_decks(decks):
            adds_up = tuple(_counted_fields(entry, (kind,)))
            yield _supply_problem(kind.value, kind.label, total, kind.per_deck, decks, adds_up)


def _counted_fields(
    entry: RoundEntry, kinds: Iterable[CardKind], groups: tuple[str, ...] = ("melded", "leftover")
) -> Iterator[FieldOfSide]:
    """Yield the count fields of these kinds that the sides counted some cards in, melded or
    left over, or only in `groups`."""
    for index, side in enumerate(entry.sides):
        for group in groups:
            cards = getattr(side, group)
            if isinstance(cards, CardCounts):
                yield from ((index, f"{group}.{kind.value}") for kind in kinds if cards.of(kind))


def _wild_supply_problems(entry: RoundEntry, decks: int) -> Iterator[Problem]:
    """Refuse more wild cards than the decks hold, counting those that books entered as points
    need (7 a wild book, 1 a dirty book) with those counted card by card."""
    books_need = sum(_wilds_books_need(side) for side in entry.sides)
    counted = sum(
        _counted_wilds(cards) for side in entry.sides for cards in (side.melded, side.leftover)
    )
    most = _wilds_in(decks)
    if books_need + counted <= most:
        return
    params = {"needed": books_need + counted, "size": BOOK_SIZE, "decks": decks, "most": most}
    if counted:
        template = NP_(
            "The sides entered at least %(needed)s wild cards, counting %(size)s in each wild "
            "book and 1 in each dirty book entered as points, but %(decks)s deck holds only "
            "%(most)s: check the books and the counts of twos and jokers.",
            "The sides entered at least %(needed)s wild cards, counting %(size)s in each wild "
            "book and 1 in each dirty book entered as points, but %(decks)s decks hold only "
            "%(most)s: check the books and the counts of twos and jokers.",
            "decks",
        )
    else:
        template = NP_(
            "The sides' books need at least %(needed)s wild cards (%(size)s a wild book, 1 a "
            "dirty book), but %(decks)s deck holds only %(most)s: check the dirty and wild books.",
            "The sides' books need at least %(needed)s wild cards (%(size)s a wild book, 1 a "
            "dirty book), but %(decks)s decks hold only %(most)s: check the dirty and wild books.",
            "decks",
        )
    # The books of sides whose books need wild cards of their own, then the counted ones.
    needing = (index for index, side in enumerate(entry.sides) if _wilds_books_need(side))
    adds_up = (
        *_entered_fields(entry, ("wild_books", "dirty_books"), needing),
        *_counted_fields(entry, WILD_KINDS),
    )
    yield Problem(field="wild_books", template=template, params=params, adds_up=adds_up)


def _wilds_books_need(side: SideEntry) -> int:
    """Return the wild cards a side's books hold at least, where its melded cards are points
    (counted ones show their wild cards themselves)."""
    if isinstance(side.melded, CardCounts):
        return 0
    return BOOK_SIZE * side.wild_books + side.dirty_books


def _counted_wilds(cards: int | CardCounts) -> int:
    return cards.of_kinds(WILD_KINDS) if isinstance(cards, CardCounts) else 0


def _wilds_in(decks: int) -> int:
    """Return how many wild cards the decks hold."""
    return decks * _per_deck(WILD_KINDS)


def _per_deck(kinds: Iterable[CardKind]) -> int:
    """Return how many cards of these kinds one deck holds."""
    return sum(kind.per_deck for kind in kinds)


def _point_supply_problems(rules: RuleSet, entry: RoundEntry, decks: int) -> Iterator[Problem]:
    values = rules.card_values
    points = sum(side.melded_points(values) + side.leftover_points(values) for side in entry.sides)
    deck_points = decks * values.deck_points
    if points > deck_points:
        template = NP_(
            "The sides entered %(points)s points of cards, but %(decks)s deck holds only "
            "%(most)s: check the melded and left-over points.",
            "The sides entered %(points)s points of cards, but %(decks)s decks hold only "
            "%(most)s: check the melded and left-over points.",
            "decks",
        )
        params = {"points": points, "decks": decks, "most": deck_points}
        # No field is named beside it: every side's points add up to it, and the one typed
        # wrong is found by reading them all, not by a message beside each.
        yield Problem(field="melded_points", template=template, params=params)


def _supply_problem(
    field: str,
    what: Term,
    total: int,
    per_deck: int,
    decks: int,
    adds_up: tuple[FieldOfSide, ...],
) -> Problem:
    template = NP_(
        "The sides entered %(total)s %(what)s, but %(decks)s deck holds only %(most)s: "
        "check the counts of %(what)s.",
        "The sides entered %(total)s %(what)s, but %(decks)s decks hold only %(most)s: "
        "check the counts of %(what)s.",
        "decks",
    )
    params = {"total": total, "what": what, "decks": decks, "most": per_deck * decks}
    return Problem(field=field, template=template, params=params, adds_up=adds_up)
