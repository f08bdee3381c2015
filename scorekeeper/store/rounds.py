"""Rounds of a stored match: scored in order through the domain, added, replaced and deleted.

Every score and every refusal comes from the domain; this module fills in what the domain needs
from the match: side names, the player count and each side's running score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from scorekeeper.database import write_transaction
from scorekeeper.entries import COUNT_KEYS, MELDED_COUNT_KEYS, CardCounts, RoundEntry, SideEntry
from scorekeeper.exports import counts_json
from scorekeeper.models import Entry, Match, Round, db, utc_now
from scorekeeper.problems import N_, Problem, ProblemsError
from scorekeeper.rules import RuleSet
from scorekeeper.scoring import RoundScore, Standings, score_round, standings
from scorekeeper.store.matches import player_count, rules_of, side_names


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
    next_round: int | None


class StaleVersion(Exception):
    """The round changed since the client read it; `current` is the round as it is now."""

    def __init__(self, current: ScoredRound) -> None:
        super().__init__(f"round {current.number} is at version {current.version}")
        self.current = current


class RoundNotFound(LookupError):
    """The match has no round of that number."""


class ImpossibleRound(ProblemsError):
    """A stored or new round the domain refuses, given the rounds before it."""

    def __init__(self, round_number: int, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.round_number = round_number


# -- Reading rounds ------------------------------------------------------------------------------

# Rounds about to be scored: each one's version and entry, by round number.
Drafts = dict[int, tuple[int, RoundEntry]]


def match_view(match: Match) -> MatchView:
    """Return the match with every round scored in order, and its standings."""
    rules = rules_of(match)
    rounds = scored_rounds(rules, _stored_drafts(match))
    scores = [tuple(side.score for side in scored.score.sides) for scored in rounds]
    entered = {scored.number for scored in rounds}
    return MatchView(
        match=match,
        rules=rules,
        side_names=side_names(match),
        rounds=rounds,
        standings=standings(rules, side_names(match), scores),
        next_round=next((n for n in range(1, rules.rounds + 1) if n not in entered), None),
    )


def running_scores_before(match: Match, round_number: int) -> tuple[int, ...]:
    """Return each side's total over the stored rounds before `round_number`."""
    totals = (0,) * len(match.sides)
    for scored in match_view(match).rounds:
        if scored.number < round_number:
            totals = _plus(totals, scored.score)
    return totals


def scored_rounds(rules: RuleSet, drafts: Drafts) -> tuple[ScoredRound, ...]:
    """Score the rounds in order, each side's running score the sum of its earlier rounds.

    Raises `ImpossibleRound` for the first round the domain refuses.
    """
    totals: tuple[int, ...] | None = None
    rounds = []
    for number in sorted(drafts):
        version, entry = drafts[number]
        totals = totals or (0,) * len(entry.sides)
        entry = replace(
            entry,
            sides=tuple(
                replace(side, running_score=total)
                for side, total in zip(entry.sides, totals, strict=True)
            ),
        )
        try:
            score = score_round(rules, entry)
        except ProblemsError as error:
            raise ImpossibleRound(number, error.problems) from None
        rounds.append(ScoredRound(number=number, version=version, entry=entry, score=score))
        totals = _plus(totals, score)
    return tuple(rounds)


def _plus(totals: tuple[int, ...], score: RoundScore) -> tuple[int, ...]:
    return tuple(total + side.score for total, side in zip(totals, score.sides, strict=True))


def _stored_drafts(match: Match) -> Drafts:
    return {row.number: (row.version, _stored_entry(match, row)) for row in match.rounds}


def _stored_entry(match: Match, row: Round) -> RoundEntry:
    by_side = {entry.side_id: entry for entry in row.entries}
    sides = tuple(_side_entry(by_side[side.id], side.name) for side in match.sides)
    return RoundEntry(round_number=row.number, sides=sides, players=player_count(match))


def _side_entry(entry: Entry, name: str) -> SideEntry:
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


# -- Writing rounds ------------------------------------------------------------------------------


def add_round(match: Match, entry: RoundEntry) -> ScoredRound:
    """Store a new round; raise `ProblemsError` and store nothing when the domain refuses it."""
    with write_transaction():
        _lock(match)
        if _round_row(match, entry.round_number) is not None:
            template = N_("Round %(round)s is already entered: edit it instead.")
            raise ProblemsError([Problem("round", template, {"round": entry.round_number})])
        number = entry.round_number
        scored = _numbered(_rescored(match, number, (1, entry_for_match(match, entry))), number)
        match.rounds.append(new_round_row(match, scored.entry))
        _touch(match)
    return scored


def replace_round(match: Match, number: int, entry: RoundEntry, *, version: int) -> ScoredRound:
    """Replace a round read at `version`; raise `StaleVersion` when it changed since."""
    with write_transaction():
        row = _round_at(match, number, version)
        entry = entry_for_match(match, replace(entry, round_number=number))
        scored = _numbered(_rescored(match, number, (row.version + 1, entry)), number)
        by_side = {stored.side_id: stored for stored in row.entries}
        for side, side_entry in zip(match.sides, scored.entry.sides, strict=True):
            _fill(by_side[side.id], side_entry)
        row.version += 1
        row.updated_at = utc_now()
        _touch(match)
    return scored


def delete_round(match: Match, number: int, *, version: int) -> None:
    """Delete a round read at `version`; raise `StaleVersion` when it changed since."""
    with write_transaction():
        row = _round_at(match, number, version)
        _rescored(match, number, None)
        match.rounds.remove(row)
        _touch(match)


def _lock(match: Match) -> None:
    """Hold the match until the transaction ends, and read it afresh: another writer may have
    changed it since this request loaded it."""
    db.session.expire_all()
    db.session.refresh(match, with_for_update=True)


def _touch(match: Match) -> None:
    match.version += 1
    match.updated_at = utc_now()


def _round_row(match: Match, number: int) -> Round | None:
    return next((row for row in match.rounds if row.number == number), None)


def _round_at(match: Match, number: int, version: int) -> Round:
    _lock(match)
    row = _round_row(match, number)
    if row is None:
        raise RoundNotFound(number)
    if row.version != version:
        raise StaleVersion(_numbered(scored_rounds(rules_of(match), _stored_drafts(match)), number))
    return row


def entry_for_match(match: Match, entry: RoundEntry) -> RoundEntry:
    """Return the entry with the match's side names and player count, one side each."""
    if len(entry.sides) != len(match.sides):
        template = N_("Enter one side per side of this match: %(count)s, in its order.")
        problem = Problem("sides", template, {"count": len(match.sides)})
        raise ImpossibleRound(entry.round_number, [problem])
    sides = tuple(
        replace(side, name=name) for side, name in zip(entry.sides, side_names(match), strict=True)
    )
    return replace(entry, sides=sides, players=player_count(match))


def _rescored(
    match: Match, number: int, change: tuple[int, RoundEntry] | None
) -> tuple[ScoredRound, ...]:
    """Score the match as it would be after the change (None deletes), refusing a broken round.

    In `by_score` matches a round's minimum follows the rounds before it, so a change can make a
    later round impossible; the table then corrects that round first.
    """
    drafts = _stored_drafts(match)
    drafts.pop(number, None)
    if change is not None:
        drafts[number] = change
    try:
        return scored_rounds(rules_of(match), drafts)
    except ImpossibleRound as error:
        if error.round_number == number:
            raise
        template = N_("This would make round %(round)s impossible as entered: correct it first.")
        header = Problem("round", template, {"round": error.round_number})
        # Under "round": their own fields would point into the entry being changed.
        later = [replace(problem, field="round") for problem in error.problems]
        raise ProblemsError([header, *later]) from None


def _numbered(rounds: Sequence[ScoredRound], number: int) -> ScoredRound:
    return next(scored for scored in rounds if scored.number == number)


def new_round_row(match: Match, entry: RoundEntry) -> Round:
    row = Round(number=entry.round_number)
    for side, side_entry in zip(match.sides, entry.sides, strict=True):
        stored = Entry(side=side)
        _fill(stored, side_entry)
        row.entries.append(stored)
    return row


def _fill(stored: Entry, side: SideEntry) -> None:
    stored.clean_books = side.clean_books
    stored.dirty_books = side.dirty_books
    stored.wild_books = side.wild_books
    stored.melded_points, stored.melded_counts = _points_or_counts(side.melded, MELDED_COUNT_KEYS)
    stored.red_threes = side.red_threes
    stored.red_threes_held = side.red_threes_held
    stored.went_out = side.went_out
    stored.leftover_points, stored.leftover_counts = _points_or_counts(side.leftover, COUNT_KEYS)
    stored.deal_bonus = side.deal_bonus


def _points_or_counts(
    cards: int | CardCounts, keys: tuple[str, ...]
) -> tuple[int | None, dict[str, int] | None]:
    if isinstance(cards, CardCounts):
        return None, counts_json(cards, keys)
    return cards, None
