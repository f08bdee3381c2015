"""Changes applied once: a repeated operation id changes nothing and answers as the first did.

A round form, and the form that makes a new edit link, carry an operation id per rendering, an
API request its Idempotency-Key. A change made under one leaves a row behind (its match, kind
and round, and the round as it stored it), so that a double tap or a retried request finds the
row and changes nothing. Between two requests that carry one id at once, the id's uniqueness in
the database decides: the loser undoes its work and answers with the winner's result.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import Connection, Row, bindparam
from sqlalchemy.exc import IntegrityError

from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import RuleSet
from scorekeeper.domain.scoring import score_round
from scorekeeper.store.database import single_read
from scorekeeper.store.documents import parse_round
from scorekeeper.store.exports import side_entry_json
from scorekeeper.store.models import Operation, table_of, utc_now
from scorekeeper.store.scores import ScoredRound

MAX_OPERATION_ID_LENGTH = 64
OPERATION = table_of(Operation)
# Built once, as the round writes are: a statement built per call is hashed again each time.
_INSERT_OPERATION = OPERATION.insert()
FORGET_OPERATIONS = OPERATION.delete().where(OPERATION.c.created_at < bindparam("oldest_kept"))
_APPLIED = sa.select(OPERATION).where(
    (OPERATION.c.id == bindparam("id")) & (OPERATION.c.created_at >= bindparam("oldest_kept"))
)
# Double taps and retries come within minutes; a form left open for days is stale anyway.
KEEP_OPERATIONS = timedelta(days=2)

Result = TypeVar("Result")
# An operation's stored row: its `Operation` columns, read in Core.
AppliedOperation = Row[Any]


class ChangeKind(enum.StrEnum):
    ADD = "add"
    REPLACE = "replace"
    DELETE = "delete"
    NEW_TOKEN = "new-token"  # of the match itself, without a round


@dataclass(frozen=True)
class Change:
    """A change to one round of a match, or to the match itself (no round), made under an
    operation id or without one."""

    match_id: int
    kind: ChangeKind
    round_number: int | None
    operation_id: str | None
    entry: RoundEntry | None = None  # what an addition or replacement stores


class OperationIdRefused(ProblemsError):
    """The operation id is malformed, or it was used for another change."""


def once(
    connection: Connection,
    change: Change,
    apply: Callable[[], Result],
    replay: Callable[[AppliedOperation], Result],
) -> Result:
    """Apply the change, unless its operation id was applied before: then replay that result.

    Runs inside the write transaction on `connection`, which holds the match; `apply` writes on
    it and calls `record`.
    """
    if (applied := repeated(change)) is not None:
        return replay(applied)
    return applied_first(connection, change, apply, replay)


def applied_first(
    connection: Connection,
    change: Change,
    apply: Callable[[], Result],
    replay: Callable[[AppliedOperation], Result],
) -> Result:
    """Apply the change, which `apply` records; when a twin request under the same operation id
    committed first, undo this work and replay the twin's result instead.

    Runs inside the write transaction on `connection`, which holds the match; `apply` writes on
    it, in Core or on the driver, so that the savepoint undoes all it wrote.
    """
    if change.operation_id is None:
        return apply()
    try:
        with connection.begin_nested():
            return apply()
    except IntegrityError as error:  # the operation id, stored since this request looked it up
        return twin_result(change, replay, error)


def twin_result(
    change: Change, replay: Callable[[AppliedOperation], Result], error: Exception
) -> Result:
    """Return the result of the twin request that stored the change's operation id first; when
    none did, raise `error`, the uniqueness error that was taken for it."""
    if (applied := repeated(change)) is None:
        raise error
    return replay(applied)


def repeated(change: Change) -> AppliedOperation | None:
    """Return the operation stored under the change's operation id, if it was applied before;
    raise `OperationIdRefused` for a malformed id, or one used for another change.

    Reads as a single read does: inside the write transaction of the app context's own
    connection, as part of it.
    """
    if change.operation_id is None:
        return None
    _check_id(change.operation_id)
    return _applied(change)


def record(connection: Connection, change: Change, scored: ScoredRound | None) -> None:
    """Keep what the change stored (None for a deletion) under its operation id, if any, in the
    write transaction on `connection`."""
    if change.operation_id is None:
        return
    # One indexed range delete per write under an id, which mostly deletes nothing.
    connection.execute(FORGET_OPERATIONS, {"oldest_kept": oldest_kept()})
    connection.execute(_INSERT_OPERATION, operation_row(change, scored))


def operation_row(change: Change, scored: ScoredRound | None) -> dict[str, Any]:
    """Return the `Operation` row that keeps what a change under an operation id stored."""
    return {
        "id": change.operation_id,
        "match_id": change.match_id,
        "kind": change.kind,
        "round_number": change.round_number,
        "round_version": None if scored is None else scored.version,
        "entry": None if scored is None else _entry_json(scored.entry),
        "created_at": utc_now(),
    }


def replayed_round(rules: RuleSet, operation: AppliedOperation) -> ScoredRound:
    """Return the round as the operation stored it, scored again under the match's rules."""
    number, version, stored = operation.round_number, operation.round_version, operation.entry
    assert number is not None and version is not None and stored is not None, "a round stored"
    side_players = stored.get("side_players")  # absent from operations stored before it was kept
    entry = parse_round(stored)
    if side_players is not None:
        entry = replace(entry, side_players=tuple(side_players))
    # Checked when it was stored, as the round it made.
    return ScoredRound(number, version, entry, score_round(rules, entry, checked=True))


def _entry_json(entry: RoundEntry) -> dict[str, Any]:
    """Return the entry as `parse_round` reads it back, running scores and all."""
    return {
        "round": entry.round_number,
        "players": entry.players,
        "side_players": None if entry.side_players is None else list(entry.side_players),
        "sides": [
            {**side_entry_json(side), "running_score": side.running_score} for side in entry.sides
        ],
    }


def _check_id(operation_id: str) -> None:
    if 0 < len(operation_id) <= MAX_OPERATION_ID_LENGTH and _printable_ascii(operation_id):
        return
    template = N_("%(field)s must be 1 to %(most)s printable ASCII characters, such as a UUID.")
    params = {"field": "operation_id", "most": MAX_OPERATION_ID_LENGTH}
    raise OperationIdRefused([Problem("operation_id", template, params)])


def _printable_ascii(text: str) -> bool:
    return text.isascii() and text.isprintable()


def _applied(change: Change) -> AppliedOperation | None:
    """Return the operation stored under the change's id, refusing one of another change."""
    with single_read() as connection:
        params = {"id": change.operation_id, "oldest_kept": oldest_kept()}
        applied = connection.execute(_APPLIED, params).one_or_none()
    if applied is None:
        return None
    if (applied.match_id, applied.kind, applied.round_number) != (
        change.match_id,
        change.kind,
        change.round_number,
    ) or not _same_entry(applied, change):
        template = N_("%(field)s was already used for another change: send a new one each time.")
        problem = Problem("operation_id", template, {"field": "operation_id"})
        raise OperationIdRefused([problem])
    return applied


def _same_entry(applied: AppliedOperation, change: Change) -> bool:
    """Tell whether a repeated change stores the numbers its first application stored: a
    form restored after its save, changed and sent again, is another change."""
    if change.entry is None or applied.entry is None:
        return True
    return parse_round(applied.entry).same_cards(change.entry)


def oldest_kept() -> datetime:
    """Return when the oldest operation kept was applied; older ones are forgotten."""
    return utc_now() - KEEP_OPERATIONS
