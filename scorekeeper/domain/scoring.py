"""Round scores, as docs/rules.md's "The round score" adds them up, and match totals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from itertools import accumulate

from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.domain.problems import Problem
from scorekeeper.domain.rules import MeldMinimumMode, RuleSet
from scorekeeper.domain.validation import check_round


@dataclass(frozen=True)
class Breakdown:
    """The parts of a side's round score, which add up to it."""

    books: int = 0
    melded: int = 0
    red_threes: int = 0
    going_out: int = 0
    deal_bonus: int = 0
    leftover: int = 0

    @property
    def total(self) -> int:
        return sum(getattr(self, part) for part in _PARTS)

    def as_dict(self) -> dict[str, int]:
        return {part: getattr(self, part) for part in _PARTS}


# The names of a breakdown's parts, read once: totals are added up for every side of every round.
_PARTS = tuple(f.name for f in fields(Breakdown))


@dataclass(frozen=True)
class SideScore:
    name: str
    meld_minimum: int
    breakdown: Breakdown

    @property
    def score(self) -> int:
        return self.breakdown.total


@dataclass(frozen=True)
class RoundScore:
    round_number: int
    meld_minimum: int | None
    sides: tuple[SideScore, ...]


def red_three_points(rules: RuleSet, side: SideEntry) -> int:
    """Return the bonus or penalty of a side's red threes, laid down and held."""
    laid_down_value = (
        rules.red_three_bonus if side.has_melded(rules.card_values) else rules.red_three_unmelded
    )
    return side.red_threes * laid_down_value + side.red_threes_held * rules.red_three_held


def side_breakdown(rules: RuleSet, side: SideEntry) -> Breakdown:
    """Return the breakdown of one side's round score, assuming a valid entry."""
    values = rules.card_values
    return Breakdown(
        books=rules.book_value(side.books),
        melded=side.melded_points(values),
        red_threes=red_three_points(rules, side),
        going_out=rules.going_out_bonus if side.went_out else 0,
        deal_bonus=rules.deal_bonus * side.deal_bonus,
        leftover=-side.leftover_points(values),
    )


def round_meld_minimum(rules: RuleSet, round_number: int) -> int | None:
    """Return the round's minimum, or None where it depends on each side's score."""
    if rules.meld_minimum_mode is MeldMinimumMode.BY_SCORE:
        return None
    return rules.meld_minimum(round_number)


def score_round(rules: RuleSet, entry: RoundEntry, *, checked: bool = False) -> RoundScore:
    """Validate a round and return every side's score with its breakdown.

    Raises `ProblemsError` when the entry is impossible under `rules`. A `checked` entry was
    validated under these rules and running scores already, and is not validated again.
    """
    if not checked:
        check_round(rules, entry)
    sides = tuple(side_score(rules, entry, side) for side in entry.sides)
    return RoundScore(entry.round_number, round_meld_minimum(rules, entry.round_number), sides)


def side_score(rules: RuleSet, entry: RoundEntry, side: SideEntry) -> SideScore:
    """Return one side's score in the round, assuming a valid entry."""
    return SideScore(
        name=side.name,
        meld_minimum=rules.meld_minimum(entry.round_number, side.running_score),
        breakdown=side_breakdown(rules, side),
    )


def scores_apart(
    rules: RuleSet, entry: RoundEntry, problems: Sequence[Problem]
) -> tuple[SideScore | None, ...]:
    """Return the score of each side of a refused round that none of its `problems` concerns,
    None for the others: while a table types a round, one side's slip need not hide the scores
    of the rest."""
    return tuple(
        None
        if any(problem.concerns(index) for problem in problems)
        else side_score(rules, entry, side)
        for index, side in enumerate(entry.sides)
    )


@dataclass(frozen=True)
class Standings:
    """Running totals of a match and, once the last round is in, its result."""

    side_names: tuple[str, ...]
    running_totals: tuple[tuple[int, ...], ...]
    rounds_played: int
    rounds_total: int
    next_round: int | None = None  # the first round not entered yet; None once all are
    next_meld_minimums: tuple[int, ...] | None = None  # each side's, in that round
    leaders: tuple[int, ...] = field(default=())

    @property
    def totals(self) -> tuple[int, ...]:
        return self.running_totals[-1] if self.running_totals else (0,) * len(self.side_names)

    @property
    def finished(self) -> bool:
        return self.rounds_played >= self.rounds_total

    @property
    def rounds_left(self) -> int:
        return max(self.rounds_total - self.rounds_played, 0)

    @property
    def winner(self) -> int | None:
        """Return the winning side's index once the match is over and nobody tied at the top."""
        return self.leaders[0] if self.finished and len(self.leaders) == 1 else None

    @property
    def draw(self) -> bool:
        return self.finished and len(self.leaders) > 1

    @property
    def places(self) -> tuple[int, ...]:
        """Return each side's place by its total: sides level on points share a place and the
        next side's place counts them all (1, 2, 2, 4), as competitions rank."""
        totals = self.totals
        return tuple(1 + sum(other > total for other in totals) for total in totals)

    @property
    def by_place(self) -> tuple[int, ...]:
        """Return the sides' indexes from first place to last, sides sharing a place in order."""
        places = self.places
        return tuple(sorted(range(len(places)), key=places.__getitem__))


def standings(
    rules: RuleSet,
    side_names: Sequence[str],
    round_scores: Sequence[Sequence[int]],
    *,
    round_numbers: Sequence[int] | None = None,
) -> Standings:
    """Return running totals, leaders and the result of a match from its rounds' scores in order.

    `round_numbers` numbers those rounds, 1, 2, 3... unless given: a match may lack a round that
    was deleted, and that round is the next to enter, at its own meld minimum.
    """
    numbers = range(1, len(round_scores) + 1) if round_numbers is None else round_numbers
    running = tuple(accumulate((tuple(scores) for scores in round_scores), _summed))
    zero = (0,) * len(side_names)
    totals = running[-1] if running else zero
    played = len(round_scores)
    leaders = top_sides(totals) if played else ()
    next_round = next((n for n in range(1, rules.rounds + 1) if n not in numbers), None)
    next_minimums = None
    if next_round is not None:
        # Every round before the first one missing is entered, and they come first, in order.
        scores_before = running[next_round - 2] if next_round > 1 else zero
        next_minimums = tuple(rules.meld_minimum(next_round, score) for score in scores_before)
    return Standings(
        side_names=tuple(side_names),
        running_totals=running,
        rounds_played=played,
        rounds_total=rules.rounds,
        next_round=next_round,
        next_meld_minimums=next_minimums,
        leaders=leaders,
    )


def top_sides(totals: Sequence[int]) -> tuple[int, ...]:
    """Return the indexes of the sides with the highest total: the winner when there is one,
    else every side level at the top."""
    best = max(totals, default=0)
    return tuple(index for index, total in enumerate(totals) if total == best)


def _summed(total: tuple[int, ...], scores: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a + b for a, b in zip(total, scores, strict=True))
