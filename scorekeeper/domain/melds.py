"""The meld checker: are the melds a player is about to lay down legal, and do they open?"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from scorekeeper.domain.problems import N_, NP_, Problem
from scorekeeper.domain.rules import BOOK_SIZE, MELD_SIZES, CardKind, RuleSet, WildRatio
from scorekeeper.domain.validation import check_round_number

WILD_RANK = "wild"
RANK_KINDS = {
    "A": CardKind.ACES,
    **{rank: CardKind.EIGHTS_TO_KINGS for rank in ("K", "Q", "J", "10", "9", "8")},
    **{rank: CardKind.FOURS_TO_SEVENS for rank in ("7", "6", "5", "4")},
}
RANKS = (*RANK_KINDS, WILD_RANK)


@dataclass(frozen=True)
class Meld:
    """One meld: its rank (or ``"wild"`` for a wild-only meld) and the cards in it."""

    rank: str
    naturals: int = 0
    twos: int = 0
    jokers: int = 0

    @property
    def wilds(self) -> int:
        return self.twos + self.jokers

    @property
    def size(self) -> int:
        return self.naturals + self.wilds

    @property
    def unfinished(self) -> bool:
        return self.size < BOOK_SIZE


@dataclass(frozen=True)
class MeldResult:
    points: int
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class MeldCheck:
    minimum: int
    melds: tuple[MeldResult, ...]

    @property
    def points(self) -> int:
        """Return the points toward the minimum: those of the legal melds, as one that cannot
        be laid down counts nothing."""
        return sum(result.points for result in self.melds if result.valid)

    @property
    def all_legal(self) -> bool:
        """Return whether every meld may be laid down."""
        return all(result.valid for result in self.melds)

    @property
    def meets(self) -> bool:
        """Return whether every meld is legal and together they reach the minimum."""
        return self.all_legal and self.points >= self.minimum

    @property
    def short_by(self) -> int:
        return max(self.minimum - self.points, 0)


def meld_ranks(rules: RuleSet) -> tuple[str, ...]:
    """Return the ranks a meld may have under `rules`: wild cards only where they allow wild
    books, which are such melds grown to seven cards."""
    return tuple(rank for rank in RANKS if rank != WILD_RANK or rules.wild_books_allowed)


def meld_points(rules: RuleSet, meld: Meld) -> int:
    """Return the card points of a meld at the rules' card values."""
    values = rules.card_values
    wild_points = meld.twos * values.two + meld.jokers * values.joker
    if meld.rank not in RANK_KINDS:
        return wild_points
    return meld.naturals * values.of(RANK_KINDS[meld.rank]) + wild_points


def meld_problems(
    rules: RuleSet, meld: Meld, index: int = 0, *, number: int | None = None
) -> Iterator[Problem]:
    """Yield what makes a meld illegal under the rules.

    The problems' field is the meld's `index` in the melds checked; their messages call it
    "Meld `number`", `index + 1` unless the caller numbers its melds otherwise.
    """
    field = f"melds[{index}]"
    params = {"meld": index + 1 if number is None else number, "rank": meld.rank}
    if meld.rank == "3":
        yield Problem(field, N_("Meld %(meld)s: threes never meld."), params)
        return
    if meld.rank not in RANKS:
        yield Problem(
            field, N_("Meld %(meld)s: %(rank)s is not a rank; use A, K ... 4, or wild."), params
        )
        return
    if min(meld.naturals, meld.twos, meld.jokers) < 0:
        yield Problem(field, N_("Meld %(meld)s: card counts cannot be negative."), params)
        return
    if meld.size not in MELD_SIZES:
        template = NP_(
            "Meld %(meld)s has %(size)s card; a meld has 3 to 7.",
            "Meld %(meld)s has %(size)s cards; a meld has 3 to 7.",
            "size",
        )
        yield Problem(field, template, {**params, "size": meld.size})
        if not meld.size:  # a rank chosen and no card entered yet: nothing more to tell
            return
    if meld.rank == WILD_RANK:
        yield from _wild_meld_problems(rules, meld, field, params)
    else:
        yield from _natural_meld_problems(rules, meld, field, params)


def _wild_meld_problems(
    rules: RuleSet, meld: Meld, field: str, params: dict[str, object]
) -> Iterator[Problem]:
    if WILD_RANK not in meld_ranks(rules):
        template = N_("Meld %(meld)s: these rules allow no melds of wild cards only.")
        yield Problem(field, template, params)
    if meld.naturals:
        template = N_("Meld %(meld)s: a wild meld holds only twos and jokers.")
        yield Problem(field, template, params)


def _natural_meld_problems(
    rules: RuleSet, meld: Meld, field: str, params: dict[str, object]
) -> Iterator[Problem]:
    if not meld.naturals:
        template = N_(
            "Meld %(meld)s has no natural %(rank)s; a meld of wild cards only is a wild meld."
        )
        yield Problem(field, template, params)
        return
    cap = rules.max_wilds_per_meld
    if cap is not None and meld.wilds > cap:
        template = N_("Meld %(meld)s has %(wilds)s wild cards; these rules allow at most %(cap)s.")
        yield Problem(field, template, {**params, "wilds": meld.wilds, "cap": cap})
    if not rules.wild_ratio.allows(meld.naturals, meld.wilds):
        template = (
            N_("Meld %(meld)s needs at least twice as many natural cards as wild cards.")
            if rules.wild_ratio is WildRatio.NATURALS_AT_LEAST_DOUBLE
            else N_("Meld %(meld)s needs more natural cards than wild cards.")
        )
        yield Problem(field, template, params)


def _duplicate_rank_problems(
    melds: Sequence[Meld], numbers: Sequence[int]
) -> Iterator[tuple[int, Problem]]:
    seen: Counter[str] = Counter()
    for index, (meld, number) in enumerate(zip(melds, numbers, strict=True)):
        if not meld.unfinished:
            continue
        seen[meld.rank] += 1
        if seen[meld.rank] > 1:
            template = N_(
                "Meld %(meld)s: a side keeps one unfinished meld of each rank; "
                "put these %(rank)s together."
            )
            yield (
                index,
                Problem(f"melds[{index}]", template, {"meld": number, "rank": meld.rank}),
            )


def check_melds(
    rules: RuleSet,
    melds: Sequence[Meld],
    *,
    round_number: int,
    running_score: int = 0,
    numbers: Sequence[int] | None = None,
) -> MeldCheck:
    """Check melds about to be laid down against the rules and the opening minimum.

    The problems' messages call each meld by its number in `numbers`, one to each meld (1, 2 ...
    when not given), so that a caller whose melds are not numbered by their places can name them
    as the table sees them. Raises `ProblemsError` when the round is not in the match.
    """
    check_round_number(rules, round_number)
    numbers = range(1, len(melds) + 1) if numbers is None else numbers
    problems: list[list[Problem]] = [
        list(meld_problems(rules, meld, index, number=number))
        for index, (meld, number) in enumerate(zip(melds, numbers, strict=True))
    ]
    for index, problem in _duplicate_rank_problems(melds, numbers):
        problems[index].append(problem)
    results = tuple(
        MeldResult(points=meld_points(rules, meld), problems=tuple(meld_problems_))
        for meld, meld_problems_ in zip(melds, problems, strict=True)
    )
    minimum = rules.meld_minimum(round_number, running_score)
    return MeldCheck(minimum=minimum, melds=results)
