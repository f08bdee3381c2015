"""A club's records: each player's and each partnership's results, from its matches' results.

Pure: the store hands in each match's result as the match's rows keep it (each side's final
total and its players, and whether the last round is in) and gets records back. Only finished
matches count. A draw counts as played and not won; every player of the winning side wins.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from itertools import combinations
from operator import attrgetter

from scorekeeper.domain.entries import SideEntry
from scorekeeper.domain.problems import T_
from scorekeeper.domain.rules import PRESETS
from scorekeeper.domain.scoring import top_sides


class Outcome(enum.Enum):
    """How a finished match ended for a side, and so for each of its players."""

    WON = "won"
    DRAWN = "drawn"
    LOST = "lost"


class Period(enum.StrEnum):
    """The matches a record counts, by the day they began."""

    MONTH = "month"
    YEAR = "year"
    ALL = "all"


PERIOD_LABELS = {
    Period.MONTH: T_("This month"),
    Period.YEAR: T_("This year"),
    Period.ALL: T_("All time"),
}


@dataclass(frozen=True)
class SideResult:
    """A side of a club's match: the club's players on it, by id, its total and its name."""

    players: tuple[int, ...]
    total: int
    name: str = ""


@dataclass(frozen=True)
class MatchResult:
    """A club's match as it stands: its sides' totals, and whether its last round is in."""

    key: str  # the match's public id
    name: str
    preset: str
    began: datetime
    finished: bool
    sides: tuple[SideResult, ...]

    @cached_property
    def leaders(self) -> tuple[int, ...]:
        """Return the sides at the top; worked out once, as every record of a club reads them."""
        return top_sides([side.total for side in self.sides])

    @property
    def winner(self) -> int | None:
        """Return the winning side's index once the match is over and nobody tied at the top."""
        return self.leaders[0] if self.finished and len(self.leaders) == 1 else None

    @property
    def draw(self) -> bool:
        return self.finished and len(self.leaders) > 1

    def outcome(self, side: int) -> Outcome | None:
        """Return how the match ended for side `side`; None while it is being played."""
        return self.outcomes[side] if self.finished else None

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Return how the match ends for each side, as it would if it were over."""
        top = Outcome.WON if len(self.leaders) == 1 else Outcome.DRAWN
        return tuple(
            top if index in self.leaders else Outcome.LOST for index in range(len(self.sides))
        )

    @property
    def leader_names(self) -> tuple[str, ...]:
        """Return the names of the sides at the top: the winner's, or those of a draw."""
        return tuple(self.sides[index].name for index in self.leaders)

    def side_of(self, player: int) -> int | None:
        """Return the index of the side `player` plays on, or None when they do not play."""
        return next((i for i, side in enumerate(self.sides) if player in side.players), None)


@dataclass(frozen=True)
class RecordFilter:
    """Which matches records count: of one preset or any (None), begun in a period."""

    preset: str | None = None
    period: Period = Period.ALL

    @classmethod
    def read(cls, preset: str | None, period: str | None) -> RecordFilter:
        """Return the filter a page's query asks for; a value that names no preset or period
        asks for none."""
        return cls(
            preset=preset if preset in PRESETS else None,
            period=Period(period) if period in set(Period) else Period.ALL,
        )

    def keeps(self, result: MatchResult, today: date) -> bool:
        """Tell whether `result` counts on `today`: of the preset, and begun in the period."""
        if self.preset is not None and result.preset != self.preset:
            return False
        began = result.began.date()
        if self.period is Period.MONTH:
            return (began.year, began.month) == (today.year, today.month)
        return self.period is Period.ALL or began.year == today.year

    def applied(self, results: Iterable[MatchResult], today: date) -> list[MatchResult]:
        return [result for result in results if self.keeps(result, today)]


@dataclass(frozen=True)
class Streak:
    """The same outcome in a player's latest matches, one after another."""

    outcome: Outcome
    length: int


@dataclass(frozen=True)
class Record:
    """Results in finished matches, in the order the matches began: a player's, or a pair's
    together. A score is the final total of the side played on."""

    outcomes: tuple[Outcome, ...] = ()
    scores: tuple[int, ...] = ()

    @property
    def played(self) -> int:
        return len(self.outcomes)

    @property
    def won(self) -> int:
        return self.outcomes.count(Outcome.WON)

    @property
    def win_rate(self) -> float | None:
        """Return the share of matches won, from 0 to 1; None before any is played."""
        return self.won / self.played if self.played else None

    @property
    def average_score(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def best_score(self) -> int | None:
        return max(self.scores, default=None)

    @property
    def streak(self) -> Streak | None:
        """Return the run of one outcome that the latest match continues; None before any."""
        if not self.outcomes:
            return None
        latest = self.outcomes[-1]
        length = next(
            (n for n, outcome in enumerate(reversed(self.outcomes)) if outcome is not latest),
            self.played,
        )
        return Streak(latest, length)


@dataclass(frozen=True)
class PlayerRecord:
    player: int
    record: Record


@dataclass(frozen=True)
class PairRecord:
    """Two players' record in the matches they played on one side."""

    players: tuple[int, int]
    record: Record


def player_records(
    players: Sequence[int], results: Iterable[MatchResult]
) -> tuple[PlayerRecord, ...]:
    """Return the record of each of `players`, the best first (`ranked`); players level stay
    in the order given."""
    tallies: dict[int, _Tally] = {player: ([], []) for player in players}
    for side, outcome in _finished_sides(results):
        for player in side.players:
            if player in tallies:
                outcomes, scores = tallies[player]
                outcomes.append(outcome)
                scores.append(side.total)
    found = (PlayerRecord(player, _record(tally)) for player, tally in tallies.items())
    return tuple(sorted(found, key=lambda entry: ranked(entry.record)))


def partnerships(results: Iterable[MatchResult]) -> tuple[PairRecord, ...]:
    """Return the record of every two players who played on one side of a finished match, the
    best first; a side of three makes three pairs."""
    tallies: dict[tuple[int, int], _Tally] = {}
    for side, outcome in _finished_sides(results):
        for pair in combinations(sorted(side.players), 2):
            outcomes, scores = tallies.setdefault(pair, ([], []))
            outcomes.append(outcome)
            scores.append(side.total)
    pairs = (PairRecord(pair, _record(tally)) for pair, tally in tallies.items())
    return tuple(sorted(pairs, key=lambda entry: ranked(entry.record)))


# A record as it is counted: its outcomes and its scores so far.
_Tally = tuple[list[Outcome], list[int]]


def _record(tally: _Tally) -> Record:
    return Record(tuple(tally[0]), tuple(tally[1]))


def ranked(record: Record) -> tuple[int, float, int, float]:
    """Return where a record ranks, first the lowest: by matches won, then the share won, then
    matches played, then the average score."""
    rate = -1.0 if record.win_rate is None else record.win_rate
    average = float("-inf") if record.average_score is None else record.average_score
    return (-record.won, -rate, -record.played, -average)


def _finished_sides(results: Iterable[MatchResult]) -> Iterator[tuple[SideResult, Outcome]]:
    """Yield every side of every finished match with how it ended, the matches in the order
    they began."""
    for result in sorted(results, key=attrgetter("began")):
        if result.finished:
            yield from zip(result.sides, result.outcomes, strict=True)


@dataclass(frozen=True)
class PlayedMatch:
    """A club's match that one player plays in: the match, and the side they play on."""

    result: MatchResult
    side: int

    @property
    def outcome(self) -> Outcome | None:
        return self.result.outcome(self.side)

    @property
    def score(self) -> int:
        return self.result.sides[self.side].total


def matches_of(player: int, results: Iterable[MatchResult]) -> tuple[PlayedMatch, ...]:
    """Return the matches `player` plays in, in the order given, finished or not."""
    played = ((result, result.side_of(player)) for result in results)
    return tuple(PlayedMatch(result, side) for result, side in played if side is not None)


@dataclass(frozen=True)
class RoundAverages:
    """What a player's side did in an average round of the finished matches they played."""

    rounds: int
    books: float | None  # clean, dirty and wild, a round
    went_out: int  # rounds in which the side went out
    red_threes: float | None  # laid down and held, a round

    @property
    def went_out_share(self) -> float | None:
        return self.went_out / self.rounds if self.rounds else None


def round_averages(entries: Sequence[SideEntry]) -> RoundAverages:
    """Return the averages of the rounds a player's side entered, one entry a round."""
    rounds = len(entries)

    def average(total: int) -> float | None:
        return total / rounds if rounds else None

    return RoundAverages(
        rounds=rounds,
        books=average(sum(entry.book_count for entry in entries)),
        went_out=sum(entry.went_out for entry in entries),
        red_threes=average(sum(entry.red_threes + entry.red_threes_held for entry in entries)),
    )
