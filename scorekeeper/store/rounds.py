"""Writing rounds: add, replace and delete them through the domain, each change once.

A change is decided on the match as the request read it, and written in one transaction only if
the match is still at the version it was read at (`Match.version`, SQLAlchemy's version check).
When another change came first, the match is read again, held until the transaction ends, and
the change decided again. A change may carry an operation id (`idempotency`), so that a double
tap or a retry applies once.
Round versions never repeat within a match: a replacement counts on from the round's version,
and a round entered after a deletion starts above every version a deleted round reached.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Generic, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.domain.entries import (
    COUNT_KEYS,
    MELDED_COUNT_KEYS,
    CardCounts,
    RoundEntry,
    SideEntry,
)
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import MeldMinimumMode, RuleSet
from scorekeeper.domain.scoring import Standings
from scorekeeper.store import idempotency
from scorekeeper.store.database import write_transaction
from scorekeeper.store.edit_tokens import TokenRefused
from scorekeeper.store.exports import counts_json
from scorekeeper.store.idempotency import Change, ChangeKind, replayed_round
from scorekeeper.store.matches import reloaded, rules_of, side_names, side_players
from scorekeeper.store.models import Entry, Match, Operation, Round, utc_now
from scorekeeper.store.scores import (
    ImpossibleRound,
    ScoredRound,
    numbered,
    scored_rounds,
    standings_after,
    stored_drafts,
    stored_rounds,
)

Result = TypeVar("Result")


class StaleVersion(Exception):
    """The round changed since the client read it; `current` is the round as it is now."""

    def __init__(self, current: ScoredRound) -> None:
        super().__init__(f"round {current.number} is at version {current.version}")
        self.current = current


class RoundNotFound(LookupError):
    """The match has no round of that number."""


@dataclass(frozen=True)
class Plan(Generic[Result]):
    """A change decided on a match: its result, what makes it on the match's rows (None for
    a repeat of an applied change, which writes nothing), and the standings it leaves, whose
    result the match keeps (`keep_result`)."""

    result: Result
    write: Callable[[Match], None] | None = None
    standings: Standings | None = None


def add_round(match: Match, entry: RoundEntry, *, operation_id: str | None = None) -> ScoredRound:
    """Store a new round; raise `ProblemsError` and store nothing when the domain refuses it.

    A repeated `operation_id` stores nothing and returns the round as the first call stored it.
    """
    change = Change(match.id, ChangeKind.ADD, entry.round_number, operation_id, entry)
    return _made(match, change, partial(_add, entry), replayed_round)


def replace_round(
    match: Match,
    number: int,
    entry: RoundEntry,
    *,
    version: int,
    operation_id: str | None = None,
) -> ScoredRound:
    """Replace a round read at `version`; raise `StaleVersion` when it changed since.

    A repeated `operation_id` stores nothing and returns the round as the first call stored it.
    """
    change = Change(match.id, ChangeKind.REPLACE, number, operation_id, entry)
    decide = partial(_replace, replace(entry, round_number=number), version)
    return _made(match, change, decide, replayed_round)


def delete_round(
    match: Match, number: int, *, version: int, operation_id: str | None = None
) -> None:
    """Delete a round read at `version`; raise `StaleVersion` when it changed since.

    A repeated `operation_id` deletes nothing more, whatever happened to the round since.
    """
    change = Change(match.id, ChangeKind.DELETE, number, operation_id)
    _made(match, change, partial(_delete, number, version), _deleted_before)


def round_problems(match: Match, entry: RoundEntry) -> list[Problem]:
    """Return what the domain refuses in `entry` as the match's round of its number, in place
    of any stored one; store nothing. For a form that cannot be saved as it is, to show every
    problem at once."""
    try:
        # Version 0: no version is checked, as nothing is written.
        _rescored(match, entry.round_number, (0, entry_for_match(match, entry)))
    except ProblemsError as error:
        return error.problems
    return []


def _made(
    match: Match,
    change: Change,
    decide: Callable[[Match], Plan[Result]],
    replay: Callable[[RuleSet, Operation], Result],
) -> Result:
    """Decide the change on the match as read and write it under the version read; when another
    change came first, decide it again on the match read afresh and held."""
    token_hash = match.edit_token_hash
    plan = _planned(match, change, decide, replay)
    if plan.write is None:
        return plan.result
    try:
        with write_transaction():
            _write(match, change, plan)
        return plan.result
    except (StaleDataError, IntegrityError):
        pass  # rolled back: another change, or a twin under the same operation id, came first
    with write_transaction():
        held = reloaded(match, held=True)
        if held.edit_token_hash != token_hash:
            raise TokenRefused  # a new edit link replaced the one that opened the match
        plan = _planned(held, change, decide, replay)
        if plan.write is not None:
            _write(held, change, plan)
    return plan.result


def _planned(
    match: Match,
    change: Change,
    decide: Callable[[Match], Plan[Result]],
    replay: Callable[[RuleSet, Operation], Result],
) -> Plan[Result]:
    if (operation := idempotency.applied(change)) is not None:
        return Plan(replay(rules_of(match), operation))
    return decide(match)


def _write(match: Match, change: Change, plan: Plan[Any]) -> None:
    assert plan.write is not None and plan.standings is not None, "a plan that writes"
    plan.write(match)
    keep_result(match, plan.standings)
    match.updated_at = utc_now()  # the match moves on a version, checked as it is written
    idempotency.record(change, plan.result if isinstance(plan.result, ScoredRound) else None)


def _add(entry: RoundEntry, match: Match) -> Plan[ScoredRound]:
    number = entry.round_number
    if any(row.number == number for row in match.rounds):
        template = N_("Round %(round)s is already entered: edit it instead.")
        raise ProblemsError([Problem("round", template, {"round": number})])
    draft = (match.round_version_floor + 1, entry_for_match(match, entry))
    rounds = _rescored(match, number, draft)
    scored = numbered(rounds, number)
    return Plan(scored, partial(_append, scored), _standings(match, rounds))


def _append(scored: ScoredRound, match: Match) -> None:
    """Add the round in its place: the match's rounds stay in order, as they load."""
    numbers = [row.number for row in match.rounds]
    match.rounds.insert(bisect.bisect(numbers, scored.number), new_round_row(match, scored))


def _replace(entry: RoundEntry, version: int, match: Match) -> Plan[ScoredRound]:
    number = entry.round_number
    row = _round_at(match, number, version)
    draft = (row.version + 1, entry_for_match(match, entry))
    rounds = _rescored(match, number, draft)
    scored = numbered(rounds, number)
    return Plan(scored, partial(_update, row, scored), _standings(match, rounds))


def _update(row: Round, scored: ScoredRound, match: Match) -> None:
    row.version = scored.version
    row.updated_at = utc_now()
    by_side = {entry.side_id: entry for entry in row.entries}
    for side, entry in zip(match.sides, scored.entry.sides, strict=True):
        _fill(by_side[side.id], entry)


def _delete(number: int, version: int, match: Match) -> Plan[None]:
    row = _round_at(match, number, version)
    rounds = _rescored(match, number, None)
    return Plan(None, partial(_remove, row), _standings(match, rounds))


def _remove(row: Round, match: Match) -> None:
    match.round_version_floor = max(match.round_version_floor, row.version)
    match.rounds.remove(row)


def _standings(match: Match, rounds: tuple[ScoredRound, ...]) -> Standings:
    return standings_after(match, rules_of(match), rounds)


def keep_result(match: Match, standings: Standings) -> None:
    """Write the match's result as `standings` leave it on its rows: each side's total, and
    whether the last round is in. Written with every change to the rounds, in its transaction,
    so that it is always the result of the rounds stored; a club's records read it."""
    match.finished = standings.finished
    for side, total in zip(match.sides, standings.totals, strict=True):
        side.total = total


def _deleted_before(_rules: RuleSet, _operation: Operation) -> None:
    """Answer a repeated deletion as the first one: with nothing."""


def _round_at(match: Match, number: int, version: int) -> Round:
    row = next((row for row in match.rounds if row.number == number), None)
    if row is None:
        raise RoundNotFound(number)
    if row.version != version:
        current = stored_rounds(rules_of(match), stored_drafts(match))
        raise StaleVersion(numbered(current, number))
    return row


def entry_for_match(match: Match, entry: RoundEntry) -> RoundEntry:
    """Return the entry with the match's side names and players, one side each; refuse one
    with another number of sides."""
    names, players = side_names(match), side_players(match)
    if len(entry.sides) != len(names):
        template = N_("Enter one side per side of this match: %(count)s, in its order.")
        problem = Problem("sides", template, {"count": len(names)})
        raise ImpossibleRound(entry.round_number, [problem])
    sides = tuple(replace(side, name=name) for side, name in zip(entry.sides, names, strict=True))
    return replace(entry, sides=sides, players=sum(players), side_players=players)


def _rescored(
    match: Match, number: int, change: tuple[int, RoundEntry] | None
) -> tuple[ScoredRound, ...]:
    """Score the match as it would be after the change (None deletes), refusing a broken round.

    In `by_score` matches a round's minimum follows the rounds before it, so a change can make a
    later round impossible; the table then corrects that round first. In other matches no check
    of a round reads another, so the other rounds stand as stored, even where a check made
    stricter since would refuse them.
    """
    rules = rules_of(match)
    drafts = stored_drafts(match)
    drafts.pop(number, None)
    if change is not None:
        drafts[number] = change
    stored = drafts.keys() - {number}
    if rules.meld_minimum_mode is MeldMinimumMode.BY_SCORE:
        stored = {other for other in stored if other < number}
    try:
        return scored_rounds(rules, drafts, checked=stored)
    except ImpossibleRound as error:
        if error.round_number == number:
            raise
        template = N_("This would make round %(round)s impossible as entered: correct it first.")
        header = Problem("round", template, {"round": error.round_number})
        # Led by their round: their own sides and fields would point into the entry changed.
        later = [problem.of_round(error.round_number) for problem in error.problems]
        raise ProblemsError([header, *later]) from None


def new_round_row(match: Match, scored: ScoredRound) -> Round:
    """Return the stored form of a scored round of `match`, at the round's version."""
    row = Round(number=scored.number, version=scored.version)
    for side, side_entry in zip(match.sides, scored.entry.sides, strict=True):
        stored = Entry(side=side)
        _fill(stored, side_entry)
        row.entries.append(stored)
    return row


def _fill(stored: Entry, side: SideEntry) -> None:
    for column, value in entry_columns(side).items():
        setattr(stored, column, value)


def entry_columns(side: SideEntry) -> dict[str, Any]:
    """Return a side's entry as the columns of its stored `Entry`."""
    melded_points, melded_counts = _points_or_counts(side.melded, MELDED_COUNT_KEYS)
    leftover_points, leftover_counts = _points_or_counts(side.leftover, COUNT_KEYS)
    return {
        "clean_books": side.clean_books,
        "dirty_books": side.dirty_books,
        "wild_books": side.wild_books,
        "melded_points": melded_points,
        "melded_counts": melded_counts,
        "red_threes": side.red_threes,
        "red_threes_held": side.red_threes_held,
        "went_out": side.went_out,
        "leftover_points": leftover_points,
        "leftover_counts": leftover_counts,
        "deal_bonus": side.deal_bonus,
    }


def _points_or_counts(
    cards: int | CardCounts, keys: tuple[str, ...]
) -> tuple[int | None, dict[str, int] | None]:
    if isinstance(cards, CardCounts):
        return None, counts_json(cards, keys)
    return cards, None
