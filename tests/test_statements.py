"""Statements run on the driver: they read and write what SQLAlchemy's own execution does."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pytest
import sqlalchemy as sa

from scorekeeper import store
from scorekeeper.domain.entries import MELDED_COUNT_KEYS, CardCounts, RoundEntry, SideEntry
from scorekeeper.store.database import write_transaction
from scorekeeper.store.exports import counts_json
from scorekeeper.store.match_state import ENTRY, MATCH, ROUND
from scorekeeper.store.models import Entry, Match, Round, db
from scorekeeper.store.statements import DriverStatement

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import Stored

COUNTS = CardCounts(aces=4, eights_to_kings=5)
# RULES.md section 3's worked example, beside a side that counts its cards.
SIDES = (
    SideEntry(clean_books=2, dirty_books=2, melded=765, red_threes=1, went_out=True),
    SideEntry(melded=COUNTS, red_threes_held=1, leftover=CardCounts(black_threes=1)),
)
ENTRIES_OF_MATCH = (
    sa.select(ROUND.c.number, ROUND.c.version, ROUND.c.created_at, *ENTRY.c)
    .join_from(ROUND, ENTRY)
    .where(ROUND.c.match_id == sa.bindparam("match"))
    .order_by(ROUND.c.number, ENTRY.c.side_id)
)


@pytest.fixture
def match(stored: Stored) -> Match:
    """Return a stored match with a round of card counts, points, booleans and timestamps."""
    match = stored()
    store.add_round(match, RoundEntry(1, SIDES))
    return match


def through_sqlalchemy(statement: Any, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in db.session.connection().execute(statement, params)]


def through_the_driver(statement: DriverStatement, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in statement.rows(db.session.connection(), params)]


def test_a_select_reads_every_type_as_sqlalchemy_reads_it(match: Match) -> None:
    params = {"match": match.id}

    rows = through_the_driver(DriverStatement(ENTRIES_OF_MATCH), params)

    assert rows == through_sqlalchemy(ENTRIES_OF_MATCH, params)
    assert {type(value) for row in rows for value in row} >= {bool, dict, datetime, int}


def test_result_rows_are_named_by_their_columns(match: Match) -> None:
    rows = DriverStatement(ENTRIES_OF_MATCH).rows(db.session.connection(), {"match": match.id})

    assert [row.melded_counts for row in rows] == [None, counts_json(COUNTS, MELDED_COUNT_KEYS)]
    assert [row.went_out for row in rows] == [True, False]


def test_an_insert_writes_every_type_as_sqlalchemy_writes_it(match: Match) -> None:
    now = datetime(2026, 12, 1, 20, 30, 15, 123456, tzinfo=UTC)
    columns = ("match_id", "number", "version", "created_at", "updated_at")
    insert = DriverStatement(ROUND.insert().returning(ROUND.c.id), columns=columns)
    values = {"match_id": match.id, "number": 2, "version": 7, "created_at": now}
    with write_transaction():
        (inserted,) = insert.rows(db.session.connection(), {**values, "updated_at": now})
        db.session.execute(ROUND.insert(), {**values, "number": 3, "updated_at": now})

    by_number = {row.number: row for row in db.session.scalars(db.select(Round))}
    assert by_number[2].id == inserted.id
    assert (by_number[2].version, by_number[2].created_at) == (7, now)
    assert by_number[2].created_at == by_number[3].created_at
    assert by_number[2].created_at.tzinfo is not None


def test_many_rows_are_written_at_once_with_json_and_booleans(match: Match) -> None:
    entry = db.session.scalars(db.select(Entry).order_by(Entry.id)).first()
    assert entry is not None
    values = ("clean_books", "melded_counts", "went_out")
    update = DriverStatement(
        ENTRY.update().where(ENTRY.c.id == sa.bindparam("entry")), columns=values
    )
    counts = {"jokers": 3}
    with write_transaction():
        update.run_many(
            db.session.connection(),
            [{"entry": entry.id, "clean_books": 5, "melded_counts": counts, "went_out": False}],
        )

    db.session.refresh(entry)
    assert (entry.clean_books, entry.melded_counts, entry.went_out) == (5, counts, False)


def test_a_json_none_is_stored_as_sqlalchemy_stores_it(match: Match) -> None:
    second_side = db.session.scalars(db.select(Entry).order_by(Entry.id)).all()[1]
    with write_transaction():
        second_side.leftover_counts = None  # through the ORM: it counted its cards
    stored_as = sa.select(
        sa.cast(ENTRY.c.melded_counts, sa.Text), sa.cast(ENTRY.c.leftover_counts, sa.Text)
    ).order_by(ENTRY.c.id)

    first, second = db.session.execute(stored_as).all()

    # The first side melded points, written on the driver: both are SQL NULL, not JSON's null.
    assert (first.melded_counts, second.leftover_counts) == (None, None)


@pytest.mark.parametrize(("read_version", "changed"), [(1, 1), (0, 0)])
def test_a_run_tells_how_many_rows_it_changed(
    match: Match, read_version: int, changed: int
) -> None:
    version_before = match.version
    bump = DriverStatement(
        MATCH.update().where(
            (MATCH.c.id == sa.bindparam("match")) & (MATCH.c.version == sa.bindparam("read"))
        ),
        columns=("name",),
    )
    with write_transaction():
        count = bump.run(
            db.session.connection(),
            {"match": match.id, "read": version_before + read_version - 1, "name": "Renamed"},
        )

    assert count == changed
    db.session.refresh(match)
    assert (match.name == "Renamed") is bool(changed)


def test_a_write_on_the_driver_is_undone_with_its_transaction(match: Match) -> None:
    rename = DriverStatement(
        MATCH.update().where(MATCH.c.id == sa.bindparam("match")), columns=("name",)
    )
    with pytest.raises(RuntimeError), write_transaction():
        rename.run(db.session.connection(), {"match": match.id, "name": "Renamed"})
        raise RuntimeError("the request fails after the write")

    assert db.session.scalar(sa.select(MATCH.c.name)) == "Friday"
