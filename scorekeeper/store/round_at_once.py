"""A new round stored in one statement on PostgreSQL: the match claimed, the round, its entries
and its operation id inserted, together.

Entering a round is the app's commonest write, and on PostgreSQL most of what it costs is per
statement: each of the five of a write transaction (BEGIN, the claim, the round, its entries,
COMMIT) costs the driver and the server more than the work in it (README, "What `make bench`
measures"). PostgreSQL takes them as one data-modifying WITH, run in autocommit as a transaction
on its own, whose parts each read the one before: when the claim finds that another change came
first, nothing is inserted, and the change decides again in a transaction holding the match
(`scorekeeper.store.rounds`). SQLite has no such statement, and pays little per statement: it
makes every change in the transaction, as PostgreSQL makes edits and deletions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy import CTE, Connection, Select, Table, bindparam

from scorekeeper.store.idempotency import FORGET_OPERATIONS, OPERATION, oldest_kept
from scorekeeper.store.match_state import CLAIMED, ENTRY, ENTRY_VALUES, MATCH, ROUND
from scorekeeper.store.statements import DriverStatement

DIALECTS = frozenset({"postgresql"})  # the databases with data-modifying WITH statements
# Each insert's columns set from parameters; the one before it gives the row's match or round.
_ROUND_COLUMNS = ("number", "version", "created_at", "updated_at")
_ENTRY_COLUMNS = ("side_id", *ENTRY_VALUES)
_OPERATION_COLUMNS = tuple(column.name for column in OPERATION.c if column.name != "match_id")
# The claim's values come named by their columns, as the transaction's UPDATE takes them; in
# this one SQLAlchemy keeps those names for itself, so they go under these.
CLAIM_KEYS = {
    "version": "claimed_version",
    "round_version_floor": "claimed_floor",
    "updated_at": "claimed_at",
}


def stores_at_once(connection: Connection) -> bool:
    """Tell whether the database on `connection` stores a new round in one statement."""
    return connection.dialect.name in DIALECTS


def add_at_once(
    connection: Connection,
    claim: Mapping[str, Any],
    round_row: Mapping[str, Any],
    entry_rows: Sequence[Mapping[str, Any]],
    operation: Mapping[str, Any] | None,
) -> int | None:
    """Claim the match as `claim` says and insert the round, its entries and the operation
    that made it (if any), in one statement; return the new round's id, or None when the claim
    did not hold. Raises the driver's IntegrityError when a twin request stored the operation
    id first."""
    params = {
        **{CLAIM_KEYS.get(key, key): value for key, value in claim.items()},
        **{f"round_{key}": value for key, value in round_row.items()},
        **{
            f"side{index}_{key}": value
            for index, row in enumerate(entry_rows)
            for key, value in row.items()
        },
    }
    if operation is not None:
        params |= {f"operation_{key}": operation[key] for key in _OPERATION_COLUMNS}
        params["oldest_kept"] = oldest_kept()
    statement = _statement(len(entry_rows), recorded=operation is not None)
    inserted = statement.rows(connection, params)
    return inserted[0].id if inserted else None


@cache  # one per number of sides, with and without an operation id
def _statement(sides: int, *, recorded: bool) -> DriverStatement:
    claimed = (
        MATCH.update()
        .where(CLAIMED)
        .values(
            version=bindparam("claimed_version"),
            round_version_floor=bindparam("claimed_floor"),
            updated_at=bindparam("claimed_at"),
        )
        .returning(MATCH.c.id)
        .cte("claimed")
    )
    new_round = (
        ROUND.insert()
        .from_select(["match_id", *_ROUND_COLUMNS], _row("round_", ROUND, _ROUND_COLUMNS, claimed))
        .returning(ROUND.c.id)
        .cte("new_round")
    )
    entries = sa.union_all(
        *(_row(f"side{index}_", ENTRY, _ENTRY_COLUMNS, new_round) for index in range(sides))
    )
    parts = [ENTRY.insert().from_select(["round_id", *_ENTRY_COLUMNS], entries).cte("entries")]
    if recorded:
        operation = _row("operation_", OPERATION, _OPERATION_COLUMNS, claimed)
        parts += [
            FORGET_OPERATIONS.cte("forgotten"),
            OPERATION.insert()
            .from_select(["match_id", *_OPERATION_COLUMNS], operation)
            .cte("recorded"),
        ]
    return DriverStatement(sa.select(new_round.c.id).add_cte(*parts))


def _row(prefix: str, table: Table, columns: Sequence[str], gate: CTE) -> Select[Any]:
    """Return a row for `table`: the id that `gate` returned, then a parameter for each column,
    named by `prefix` and the column, of the column's type (psycopg's dialect casts it, as
    PostgreSQL cannot tell a SELECT's value's type from the column it goes into). The row is
    there only when the gate's is: none when the claim found another change first."""
    parameters = (bindparam(prefix + name, type_=table.c[name].type) for name in columns)
    return sa.select(gate.c.id, *parameters)
