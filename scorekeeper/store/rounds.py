"""Writing rounds: add, replace and delete them through the domain, each change once.

A change is decided on the match as read, and written only if the match has not changed since:
its first write moves the match on from the version it read, and finds nothing to move when
another change came first; it then decides again, holding the match. So two phones take turns,
while most changes hold the match only for their few writes. A change may carry an operation
id, so that a double tap or a retry applies once.
Round versions never repeat within a match: a replacement counts on from the round's version,
and a round entered after a deletion starts above every version a deleted round reached.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Generic

from sqlalchemy import Connection, bindparam

from scorekeeper.domain.entries import (
    COUNT_KEYS,
    MELDED_COUNT_KEYS,
    CardCounts,
    RoundEntry,
    SideEntry,
)
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import MeldMinimumMode, RuleSet
from scorekeeper.store.database import single_write, write_connection
from scorekeeper.store.exports import counts_json
from scorekeeper.store.idempotency import (
    AppliedOperation,
    Change,
    ChangeKind,
    Result,
    applied_first,
    operation_row,
    record,
    repeated,
    replayed_round,
    twin_result,
)
from scorekeeper.store.known_states import forget, remember
from scorekeeper.store.match_state import (
    CLAIMED,
    ENTRY,
    ENTRY_VALUES,
    MATCH,
    ROUND,
    MatchState,
    StoredRound,
    held_state,
    state_of,
    with_new_round,
)
from scorekeeper.store.matches import side_names, side_players
from scorekeeper.store.models import Entry, Match, Round, utc_now
from scorekeeper.store.round_at_once import add_at_once, stores_at_once
from scorekeeper.store.scores import (
    ImpossibleRound,
    ScoredRound,
    numbered,
    scored_rounds,
    stored_rounds,
)
from scorekeeper.store.statements import DriverStatement

# Run on the driver, built once: their parameters name the rows, and the columns to set.
_INSERT_ROUND = DriverStatement(
    ROUND.insert().returning(ROUND.c.id),
    columns=("match_id", "number", "version", "created_at", "updated_at"),
)
_INSERT_ENTRY = DriverStatement(ENTRY.insert(), columns=("round_id", "side_id", *ENTRY_VALUES))
_UPDATE_ROUND = DriverStatement(
    ROUND.update().where(ROUND.c.id == bindparam("round")), columns=("version", "updated_at")
)
_UPDATE_ENTRY = DriverStatement(
    ENTRY.update().where(
        (ENTRY.c.round_id == bindparam("round")) & (ENTRY.c.side_id == bindparam("side"))
    ),
    columns=ENTRY_VALUES,
)
_DELETE_ROUND = DriverStatement(ROUND.delete().where(ROUND.c.id == bindparam("round")))
# Moves the match on from the version a change read.
_CLAIM_MATCH = DriverStatement(
    MATCH.update().where(CLAIMED), columns=("version", "round_version_floor", "updated_at")
)


class StaleVersion(Exception):
    """The round changed since the client read it; `current` is the round as it is now."""

    def __init__(self, current: ScoredRound) -> None:
        super().__init__(f"round {current.number} is at version {current.version}")
        self.current = current


class RoundNotFound(LookupError):
    """The match has no round of that number."""


class OutdatedState(Exception):
    """A change decided on the match as this host last knew it (`known_states`) stored nothing:
    the match has changed since, or the change was refused, which the match as stored may not
    bear out. Make it again on the match read afresh, its edit token checked again."""


Writes = Callable[[Connection], None]
# The writes with the claim of the match as one statement, given the claim's values and the
# operation's row, if any: tells whether the claim held (`round_at_once`).
WritesAtOnce = Callable[[Connection, Mapping[str, Any], Mapping[str, Any] | None], bool]
# A match to change: loaded, as the pages have it, or as a change reads it, as the API has it.
MatchToChange = Match | MatchState


@dataclass(frozen=True)
class Plan(Generic[Result]):
    """A change decided on the match as read at `version`: its result, the writes that make it
    (and the same as one statement with the claim, where the database can), and the match's
    round version floor after it. A repeat of an applied change writes nothing."""

    result: Result
    version: int = 0
    writes: Writes | None = None
    round_version_floor: int = 0
    writes_at_once: WritesAtOnce | None = None
    edit_token_hash: str = ""  # as read with the version: a token replaced since claims nothing


def add_round(
    match: MatchToChange, entry: RoundEntry, *, operation_id: str | None = None
) -> ScoredRound:
    """Store a new round; raise `ProblemsError` and store nothing when the domain refuses it.

    A repeated `operation_id` stores nothing and returns the round as the first call stored it.
    A match as this host last knew it (`recalled_match`) stores the round only if the match is
    still so; else raises `OutdatedState`.
    """
    change = Change(match.id, ChangeKind.ADD, entry.round_number, operation_id, entry)
    return _write_once(change, match, partial(_add, entry), replayed_round)


def replace_round(
    match: MatchToChange,
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
    return _write_once(change, match, decide, replayed_round)


def delete_round(
    match: MatchToChange, number: int, *, version: int, operation_id: str | None = None
) -> None:
    """Delete a round read at `version`; raise `StaleVersion` when it changed since.

    A repeated `operation_id` deletes nothing more, whatever happened to the round since.
    """
    change = Change(match.id, ChangeKind.DELETE, number, operation_id)
    _write_once(change, match, partial(_delete, number, version), _deleted_before)


def round_problems(match: MatchToChange, entry: RoundEntry) -> list[Problem]:
    """Return what the domain refuses in `entry` as the match's round of its number, in place
    of any stored one; store nothing. For a form that cannot be saved as it is, to show every
    problem at once."""
    state = match if isinstance(match, MatchState) else state_of(match.id)
    try:
        # Version 0: no version is checked, as nothing is written.
        _rescored(state, entry.round_number, (0, _fitted(state, entry)))
    except ProblemsError as error:
        return error.problems
    return []


def _write_once(
    change: Change,
    match: MatchToChange,
    decide: Callable[[MatchState], Plan[Result]],
    replay_under: Callable[[RuleSet, AppliedOperation], Result],
) -> Result:
    read = match if isinstance(match, MatchState) else state_of(match.id)
    replay = partial(replay_under, read.rules)  # a match's rules never change
    try:
        plan = _planned(change, decide, replay, read)  # not holding the match: it rarely changes
    except ProblemsError:
        if read.recalled:
            raise OutdatedState from None
        raise
    if plan.writes is None:
        return plan.result
    if plan.writes_at_once is not None:
        if (written_at_once := _written_at_once(change, plan, replay)) is not None:
            return written_at_once
    if read.recalled:
        raise OutdatedState
    with write_connection() as connection:
        written = partial(_written, connection, change, plan, decide, replay)
        result = applied_first(connection, change, written, replay)
    forget(read.public_id)  # the next round entered reads the match as changed
    return result


def _written_at_once(
    change: Change, plan: Plan[Result], replay: Callable[[AppliedOperation], Result]
) -> Result | None:
    """Claim the match and make the plan's writes in one statement, a transaction on its own,
    where the database can; return the change's result, or None when it cannot (or the change
    joins an enclosing transaction) or another change came first, and the change is to be made
    in a transaction. Only plans with a result write so."""
    assert plan.writes_at_once is not None, "a plan that writes at once"
    with single_write() as connection:
        if not stores_at_once(connection) or connection.in_transaction():
            return None
        operation = None if change.operation_id is None else operation_row(change, _stored(plan))
        try:
            claimed = plan.writes_at_once(connection, _claim(change.match_id, plan), operation)
        except connection.dialect.loaded_dbapi.IntegrityError as error:  # on the driver
            return twin_result(change, replay, error)
    return plan.result if claimed else None


def _written(
    connection: Connection,
    change: Change,
    plan: Plan[Result],
    decide: Callable[[MatchState], Plan[Result]],
    replay: Callable[[AppliedOperation], Result],
) -> Result:
    """Claim the match and make the plan's writes; when another change came first, decide again
    holding the match, which a change then claims at the first try."""
    while not _claimed(connection, change.match_id, plan):
        plan = _planned(change, decide, replay, held_state(connection, change.match_id))
        if plan.writes is None:
            return plan.result
    assert plan.writes is not None, "a plan that writes"
    plan.writes(connection)
    record(connection, change, _stored(plan))
    return plan.result


def _stored(plan: Plan[Any]) -> ScoredRound | None:
    """Return the round a plan stores, None for a deletion."""
    return plan.result if isinstance(plan.result, ScoredRound) else None


def _claimed(connection: Connection, match_id: int, plan: Plan[Any]) -> bool:
    """Move the match on from the version the plan was decided at, and hold it; tell whether it
    was still at that version."""
    return _CLAIM_MATCH.run(connection, _claim(match_id, plan)) == 1


def _claim(match_id: int, plan: Plan[Any]) -> dict[str, Any]:
    """Return the values of the claim that moves the match on from the plan's version."""
    return {
        "match": match_id,
        "read_version": plan.version,
        "read_token_hash": plan.edit_token_hash,
        "version": plan.version + 1,
        "round_version_floor": plan.round_version_floor,
        "updated_at": utc_now(),
    }


def _planned(
    change: Change,
    decide: Callable[[MatchState], Plan[Result]],
    replay: Callable[[AppliedOperation], Result],
    match: MatchState,
) -> Plan[Result]:
    if (applied := repeated(change)) is not None:
        return Plan(replay(applied))
    return decide(match)


def _add(entry: RoundEntry, match: MatchState) -> Plan[ScoredRound]:
    number = entry.round_number
    if number in match.rounds:
        template = N_("Round %(round)s is already entered: edit it instead.")
        raise ProblemsError([Problem("round", template, {"round": number})])
    draft = (match.round_version_floor + 1, _fitted(match, entry))
    scored = numbered(_rescored(match, number, draft), number)
    plan = _plan(match, scored, partial(_insert_round, match, scored))
    return replace(plan, writes_at_once=partial(_insert_round_at_once, match, scored))


def _replace(entry: RoundEntry, version: int, match: MatchState) -> Plan[ScoredRound]:
    number = entry.round_number
    stored = _round_at(match, number, version)
    draft = (stored.version + 1, _fitted(match, entry))
    scored = numbered(_rescored(match, number, draft), number)
    return _plan(match, scored, partial(_update_round, match, stored.id, scored))


def _delete(number: int, version: int, match: MatchState) -> Plan[None]:
    stored = _round_at(match, number, version)
    _rescored(match, number, None)
    floor = max(match.round_version_floor, stored.version)
    return _plan(match, None, partial(_delete_round, stored.id), round_version_floor=floor)


def _plan(
    match: MatchState, result: Result, writes: Writes, *, round_version_floor: int | None = None
) -> Plan[Result]:
    floor = match.round_version_floor if round_version_floor is None else round_version_floor
    return Plan(result, match.version, writes, floor, edit_token_hash=match.edit_token_hash)


def _deleted_before(_rules: RuleSet, _operation: AppliedOperation) -> None:
    """Answer a repeated deletion as the first one: with nothing."""


def _insert_round(match: MatchState, scored: ScoredRound, connection: Connection) -> None:
    round_row, entry_rows = _new_round_rows(match, scored)
    inserted = _INSERT_ROUND.rows(connection, {"match_id": match.id, **round_row})
    round_id = inserted[0].id
    _INSERT_ENTRY.run_many(connection, [{"round_id": round_id, **row} for row in entry_rows])


def _insert_round_at_once(
    match: MatchState,
    scored: ScoredRound,
    connection: Connection,
    claim: Mapping[str, Any],
    operation: Mapping[str, Any] | None,
) -> bool:
    round_row, entry_rows = _new_round_rows(match, scored)
    round_id = add_at_once(connection, claim, round_row, entry_rows, operation)
    if round_id is None:
        return False
    remember(with_new_round(match, round_id, round_row, entry_rows))
    return True


def _new_round_rows(
    match: MatchState, scored: ScoredRound
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Return a new round's row and its entries' rows, but the ids of its match and itself."""
    now = utc_now()
    round_row = {
        "number": scored.number,
        "version": scored.version,
        "created_at": now,
        "updated_at": now,
    }
    entry_rows = [
        {"side_id": side_id, **entry_columns(side)}
        for side_id, side in zip(match.side_ids, scored.entry.sides, strict=True)
    ]
    return round_row, entry_rows


def _update_round(
    match: MatchState, round_id: int, scored: ScoredRound, connection: Connection
) -> None:
    entries = [
        {"round": round_id, "side": side_id, **entry_columns(side)}
        for side_id, side in zip(match.side_ids, scored.entry.sides, strict=True)
    ]
    _UPDATE_ENTRY.run_many(connection, entries)
    row = {"round": round_id, "version": scored.version, "updated_at": utc_now()}
    _UPDATE_ROUND.run(connection, row)


def _delete_round(round_id: int, connection: Connection) -> None:
    # Its entries go with it: the schema deletes them on cascade.
    _DELETE_ROUND.run(connection, {"round": round_id})


def _round_at(match: MatchState, number: int, version: int) -> StoredRound:
    stored = match.rounds.get(number)
    if stored is None:
        raise RoundNotFound(number)
    if stored.version != version:
        raise StaleVersion(numbered(stored_rounds(match.rules, match.drafts()), number))
    return stored


def entry_for_match(match: Match, entry: RoundEntry) -> RoundEntry:
    """Return the entry with the match's side names and players, one side each."""
    return fitted_entry(entry, side_names(match), side_players(match))


def _fitted(match: MatchState, entry: RoundEntry) -> RoundEntry:
    return fitted_entry(entry, match.side_names, match.side_players)


def fitted_entry(entry: RoundEntry, names: tuple[str, ...], players: tuple[int, ...]) -> RoundEntry:
    """Return the entry with these side names and each side's players; refuse one with another
    number of sides."""
    if len(entry.sides) != len(names):
        template = N_("Enter one side per side of this match: %(count)s, in its order.")
        problem = Problem("sides", template, {"count": len(names)})
        raise ImpossibleRound(entry.round_number, [problem])
    sides = tuple(replace(side, name=name) for side, name in zip(entry.sides, names, strict=True))
    return replace(entry, sides=sides, players=sum(players), side_players=players)


def _rescored(
    match: MatchState, number: int, change: tuple[int, RoundEntry] | None
) -> tuple[ScoredRound, ...]:
    """Score the match as it would be after the change (None deletes), refusing a broken round.

    In `by_score` matches a round's minimum follows the rounds before it, so a change can make a
    later round impossible; the table then corrects that round first. In other matches no check
    of a round reads another, so the other rounds stand as stored, even where a check made
    stricter since would refuse them.
    """
    drafts = match.drafts()
    drafts.pop(number, None)
    if change is not None:
        drafts[number] = change
    stored = drafts.keys() - {number}
    if match.rules.meld_minimum_mode is MeldMinimumMode.BY_SCORE:
        stored = {other for other in stored if other < number}
    try:
        return scored_rounds(match.rules, drafts, checked=stored)
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
