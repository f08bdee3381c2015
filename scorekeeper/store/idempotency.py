"""Idempotency: a change made under an operation id applies once; a repeat changes nothing and
answers as the first did.

A round form, and the form that makes a new edit link, carry an operation id per rendering, an
API request its Idempotency-Key. A change made under one keeps a row (its match, kind and round,
and the round as it stored it), so that a double tap or a retried request finds the row and
changes nothing. Two requests under one id at once cannot both write: the match's version check
(or the id's uniqueness) stops the second, which then finds the first one's row.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select

from scorekeeper.documents import parse_round
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import RuleSet
from scorekeeper.domain.scoring import score_round
from scorekeeper.store.exports import side_entry_json
from scorekeeper.store.models import Operation, db, utc_now
from scorekeeper.store.scores import ScoredRound

MAX_OPERATION_ID_LENGTH = 64
# Double taps and retries come within minutes; a form left open for days is stale anyway.
KEEP_OPERATIONS = timedelta(days=2)


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


def applied(change: Change) -> Operation | None:
    """Return the operation stored under the change's operation id, if it was applied before;
    raise `OperationIdRefused` for a malformed id, or one used for another change."""
    if change.operation_id is None:
        return None
    _check_id(change.operation_id)
    operation = db.session.scalar(
        select(Operation).where(
            (Operation.id == change.operation_id) & (Operation.created_at >= oldest_kept())
        )
    )
    if operation is not None and not _same_change(operation, change):
        template = N_("%(field)s was already used for another change: send a new one each time.")
        raise OperationIdRefused([Problem("operation_id", template, {"field": "operation_id"})])
    return operation


def record(change: Change, scored: ScoredRound | None) -> None:
    """Keep what the change stored (None for a deletion) under its operation id, if any, in the
    write transaction under way."""
    if change.operation_id is None:
        return
    # One indexed range delete per write under an id, which mostly deletes nothing.
    db.session.execute(
        delete(Operation).where(Operation.created_at < oldest_kept()),
        execution_options={"synchronize_session": False},
    )
    db.session.add(
        Operation(
            id=change.operation_id,
            match_id=change.match_id,
            kind=change.kind,
            round_number=change.round_number,
            round_version=None if scored is None else scored.version,
            entry=None if scored is None else _entry_json(scored.entry),
        )
    )


def replayed_round(rules: RuleSet, operation: Operation) -> ScoredRound:
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


def _same_change(operation: Operation, change: Change) -> bool:
    """Tell whether the stored operation is this change: of the same match, kind and round, and
    storing the same numbers (a form restored after its save, changed and sent again, is another
    change)."""
    if (operation.match_id, operation.kind, operation.round_number) != (
        change.match_id,
        change.kind,
        change.round_number,
    ):
        return False
    if change.entry is None or operation.entry is None:
        return True
    return parse_round(operation.entry).same_cards(change.entry)


def oldest_kept() -> datetime:
    """Return when the oldest operation kept was applied; older ones are forgotten."""
    return utc_now() - KEEP_OPERATIONS
