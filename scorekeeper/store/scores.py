"""Reading rounds: every stored round of a match scored in order through the domain.

Every score comes from the domain; this module fills in what the domain needs from the match:
side names, the player count and each side's running score.
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, replace

from scorekeeper.domain.chart import Chart, running_totals_chart
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.problems import Problem, ProblemsError
from scorekeeper.domain.rules import RuleSet
from scorekeeper.domain.scoring import RoundScore, Standings, score_round, standings
from scorekeeper.store.database import end_read
from scorekeeper.store.matches import (
    dealer_of,
    reloaded,
    rules_of,
    side_names,
    side_players,
    sides_of,
)
from scorekeeper.store.models import Entry, Match, Round


@dataclass(frozen=True)
class ScoredRound:
    """A stored round: its entry as the domain sees it (running scores filled in) and its score."""

    number: int
    version: int
    entry: RoundEntry
    score: RoundScore


@dataclass(frozen=True)
class MatchView:
    """Everything a standings page, the API or a PDF shows of a match."""

    match: Match
    rules: RuleSet
    side_names: tuple[str, ...]
    rounds: tuple[ScoredRound, ...]
    standings: Standings

    @property
    def next_round(self) -> int | None:
        return self.standings.next_round

    @property
    def players_of_named_sides(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Return each side whose name does not name its players, with their names: a team
        called Us shows who plays in it; one called Ann & Bob, or a player alone, needs not."""
        return tuple(
            (side.name, side.players)
            for side in sides_of(self.match)
            if not all(_words(player) <= _words(side.name) for player in side.players)
        )

    def chart(self) -> Chart:
        """Return the running-totals chart, each round's totals drawn at its own number."""
        return running_totals_chart(
            self.side_names,
            self.standings.running_totals,
            self.rules.rounds,
            round_numbers=[scored.number for scored in self.rounds],
        )

    def dealer(self, number: int) -> str:
        """Return the name of the player who deals round `number`."""
        seat = dealer_of(self.match, number)
        return sides_of(self.match)[seat.side].players[seat.player]

    def entered_round(self, number: int) -> ScoredRound | None:
        """Return round `number` as stored, or None when it is not entered."""
        return next((scored for scored in self.rounds if scored.number == number), None)

    def meld_minimums_in(self, number: int) -> tuple[int, ...]:
        """Return each side's meld minimum in round `number`, after the stored rounds before it."""
        return tuple(self.rules.meld_minimum(number, score) for score in self.scores_before(number))

    def scores_before(self, number: int) -> tuple[int, ...]:
        """Return each side's total over the stored rounds before round `number`."""
        totals = (0,) * len(self.side_names)
        for scored in self.rounds:
            if scored.number < number:
                totals = _plus(totals, scored.score)
        return totals


class ImpossibleRound(ProblemsError):
    """A stored or new round the domain refuses, given the rounds before it."""

    def __init__(self, round_number: int, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.round_number = round_number


# Rounds about to be scored: each one's version and entry, by round number.
Drafts = dict[int, tuple[int, RoundEntry]]


def match_view(match: Match) -> MatchView:
    """Return the match with every round scored in order, and its standings."""
    rules = rules_of(match)
    rounds = stored_rounds(rules, stored_drafts(match))
    return MatchView(
        match=match,
        rules=rules,
        side_names=side_names(match),
        rounds=rounds,
        standings=standings_after(match, rules, rounds),
    )


def standings_after(match: Match, rules: RuleSet, rounds: Sequence[ScoredRound]) -> Standings:
    """Return the match's standings with `rounds` scored, in order, as its rounds."""
    scores = [tuple(side.score for side in scored.score.sides) for scored in rounds]
    numbers = [scored.number for scored in rounds]
    return standings(rules, side_names(match), scores, round_numbers=numbers)


def current_view(match: Match) -> MatchView:
    """Return the match as stored now, read again: with what another phone changed since the
    request first read it."""
    end_read()
    return match_view(reloaded(match))


def scored_rounds(
    rules: RuleSet, drafts: Drafts, *, checked: Container[int] = ()
) -> tuple[ScoredRound, ...]:
    """Score the rounds in order, each side's running score the sum of its earlier rounds.

    Raises `ImpossibleRound` for the first round the domain refuses. The rounds numbered in
    `checked` were checked when they were stored, and nothing their checks read has changed
    since: they are not checked again.
    """
    totals: tuple[int, ...] | None = None
    rounds = []
    for number in sorted(drafts):
        version, entry = drafts[number]
        totals = totals or (0,) * len(entry.sides)
        entry = _with_running_scores(entry, totals)
        try:
            score = score_round(rules, entry, checked=number in checked)
        except ProblemsError as error:
            raise ImpossibleRound(number, error.problems) from None
        rounds.append(ScoredRound(number=number, version=version, entry=entry, score=score))
        totals = _plus(totals, score)
    return tuple(rounds)


def _with_running_scores(entry: RoundEntry, totals: tuple[int, ...]) -> RoundEntry:
    if tuple(side.running_score for side in entry.sides) == totals:
        return entry  # a first round's, most often: copying it would change nothing
    sides = zip(entry.sides, totals, strict=True)
    return replace(entry, sides=tuple(replace(side, running_score=total) for side, total in sides))


def stored_rounds(rules: RuleSet, drafts: Drafts) -> tuple[ScoredRound, ...]:
    """Score stored rounds as they were stored, each checked then: a check the app has made
    stricter since must not hide a match's scores."""
    return scored_rounds(rules, drafts, checked=drafts.keys())


def numbered(rounds: Sequence[ScoredRound], number: int) -> ScoredRound:
    """Return round `number` of scored rounds that hold it."""
    return next(scored for scored in rounds if scored.number == number)


def _plus(totals: tuple[int, ...], score: RoundScore) -> tuple[int, ...]:
    return tuple(total + side.score for total, side in zip(totals, score.sides, strict=True))


def stored_drafts(match: Match) -> Drafts:
    """Return the match's stored rounds, ready to be scored."""
    return {row.number: (row.version, _stored_entry(match, row)) for row in match.rounds}


def _stored_entry(match: Match, row: Round) -> RoundEntry:
    by_side = {entry.side_id: entry for entry in row.entries}
    sides = tuple(side_entry(by_side[side.id], side.name) for side in match.sides)
    players = side_players(match)
    return RoundEntry(row.number, sides, sum(players), players)


def side_entry(entry: Entry, name: str) -> SideEntry:
    """Return a stored entry of the side called `name` as the domain reads it."""
    return SideEntry(
        name=name,
        clean_books=entry.clean_books,
        dirty_books=entry.dirty_books,
        wild_books=entry.wild_books,
        melded=_cards(entry.melded_points, entry.melded_counts),
        red_threes=entry.red_threes,
        red_threes_held=entry.red_threes_held,
        went_out=entry.went_out,
        leftover=_cards(entry.leftover_points, entry.leftover_counts),
        deal_bonus=entry.deal_bonus,
    )


def _cards(points: int | None, counts: Mapping[str, int] | None) -> int | CardCounts:
    return CardCounts.from_mapping(counts) if counts is not None else points or 0


def _words(name: str) -> set[str]:
    """Return the words of a name, whatever their case: "Moon Divers" holds no "Mo"."""
    return set(re.findall(r"\w+", name.casefold()))
