"""Writing rounds: add, replace and delete them through the domain, each change once.

A change holds its match for the whole write, so two phones take turns, and may carry an
operation id, so that a double tap or a retry applies once. Round versions never repeat within a
match: a replacement counts on from the round's version, and a round entered after a deletion
starts above every version a deleted round reached.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from scorekeeper.database import write_transaction
from scorekeeper.entries import COUNT_KEYS, MELDED_COUNT_KEYS, CardCounts, RoundEntry, SideEntry
from scorekeeper.exports import counts_json
from scorekeeper.models import Entry, Match, Operation, Round, utc_now
from scorekeeper.problems import N_, Problem, ProblemsError
from scorekeeper.store.matches import lock_match, player_count, rules_of, side_names
from scorekeeper.store.operations import Change, ChangeKind, Result, once, record, replayed_round
from scorekeeper.store.scores import (
    ImpossibleRound,
    ScoredRound,
    numbered,
    scored_rounds,
    stored_drafts,
)


class StaleVersion(Exception):
    """The round changed since the client read it; `current` is the round as it is now."""

    def __init__(self, current: ScoredRound) -> None:
        super().__init__(f"round {current.number} is at version {current.version}")
        self.current = current


class RoundNotFound(LookupError):
    """The match has no round of that number."""


def add_round(match: Match, entry: RoundEntry, *, operation_id: str | None = None) -> ScoredRound:
    """Store a new round; raise `ProblemsError` and store nothing when the domain refuses it.

    A repeated `operation_id` stores nothing and returns the round as the first call stored it.
    """
    change = Change(match, ChangeKind.ADD, entry.round_number, operation_id)
    return _write_once(change, partial(_add, change, entry), partial(replayed_round, match))


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
    change = Change(match, ChangeKind.REPLACE, number, operation_id)
    apply = partial(_replace, change, entry, version)
    return _write_once(change, apply, partial(replayed_round, match))


def delete_round(
    match: Match, number: int, *, version: int, operation_id: str | None = None
) -> None:
    """Delete a round read at `version`; raise `StaleVersion` when it changed since.

    A repeated `operation_id` deletes nothing more, whatever happened to the round since.
    """
    change = Change(match, ChangeKind.DELETE, number, operation_id)
    _write_once(change, partial(_delete, change, version), _deleted_before)


def _write_once(
    change: Change, apply: Callable[[], Result], replay: Callable[[Operation], Result]
) -> Result:
    with write_transaction():
        lock_match(change.match)
        return once(change, apply, replay)


def _add(change: Change, entry: RoundEntry) -> ScoredRound:
    match, number = change.match, change.round_number
    if _round_row(match, number) is not None:
        template = N_("Round %(round)s is already entered: edit it instead.")
        raise ProblemsError([Problem("round", template, {"round": number})])
    draft = (match.round_version_floor + 1, entry_for_match(match, entry))
    scored = numbered(_rescored(match, number, draft), number)
    match.rounds.append(new_round_row(match, scored))
    _touch(match)
    record(change, scored)
    return scored


def _replace(change: Change, entry: RoundEntry, version: int) -> ScoredRound:
    match, number = change.match, change.round_number
    row = _round_at(match, number, version)
    draft = (row.version + 1, entry_for_match(match, replace(entry, round_number=number)))
    scored = numbered(_rescored(match, number, draft), number)
    by_side = {stored.side_id: stored for stored in row.entries}
    for side, side_entry in zip(match.sides, scored.entry.sides, strict=True):
        _fill(by_side[side.id], side_entry)
    row.version = scored.version
    row.updated_at = utc_now()
    _touch(match)
    record(change, scored)
    return scored


def _delete(change: Change, version: int) -> None:
    match, number = change.match, change.round_number
    row = _round_at(match, number, version)
    _rescored(match, number, None)
    match.round_version_floor = max(match.round_version_floor, row.version)
    match.rounds.remove(row)
    _touch(match)
    record(change, None)


def _deleted_before(_operation: Operation) -> None:
    """Answer a repeated deletion as the first one: with nothing."""


def _touch(match: Match) -> None:
    match.version += 1
    match.updated_at = utc_now()


def _round_row(match: Match, number: int) -> Round | None:
    return next((row for row in match.rounds if row.number == number), None)


def _round_at(match: Match, number: int, version: int) -> Round:
    row = _round_row(match, number)
    if row is None:
        raise RoundNotFound(number)
    if row.version != version:
        raise StaleVersion(numbered(scored_rounds(rules_of(match), stored_drafts(match)), number))
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
    drafts = stored_drafts(match)
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


def new_round_row(match: Match, scored: ScoredRound) -> Round:
    """Return the stored form of a scored round of `match`, at the round's version."""
    row = Round(number=scored.number, version=scored.version)
    for side, side_entry in zip(match.sides, scored.entry.sides, strict=True):
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
