"""Fill a throwaway database with many matches fast: one stored through the app, the rest copies.

The first match goes through the store, so it is exactly what the app writes (validated and
scored, its result kept); every other one is a copy of its rows, inserted in bulk with ids
shifted past the template's and a public id of its own. All copies share the template's edit
token. A club is seeded the same way: its players and first match stored through the app, its
other matches copies, each with four of its players drawn at random and begun a day earlier.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import Connection, Engine, Integer, String, Table, func, select, text

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.domain.rules import build_rules
from scorekeeper.store.links import PUBLIC_ID_BYTES
from scorekeeper.store.models import Club, ClubPlayer, Match, Player, db

SIDES = (("Us", ("Ann", "Bob")), ("Them", ("Cy", "Di")))
# A club's match's rows, which its copies repeat; the club and its players are stored once.
MATCH_TABLES = ("match", "side", "player", "round", "entry")
CLUB_SEED = 32  # of the players drawn for each copy: every run seeds the same club
WENT_OUT = SideEntry("", clean_books=2, dirty_books=2, melded=765, red_threes=1, went_out=True)
STAYED_IN = SideEntry("", clean_books=1, melded=310, red_threes=1, leftover=85)
BATCH = 20_000  # rows per INSERT batch
LEFT_EMPTY = {"alembic_version", "wrong_guess"}  # tables that no match owns


@dataclass(frozen=True)
class Seeded:
    """The stored matches: their public ids, in order, and the edit token that opens them all."""

    public_ids: list[str]
    token: str

    def parts(self, size: int) -> list[Seeded]:
        """Return the matches in parts of `size`, in order."""
        ids = self.public_ids
        return [Seeded(ids[start : start + size], self.token) for start in range(0, len(ids), size)]


@dataclass(frozen=True)
class SeededClub:
    """A stored club: its public id, its edit token and its matches' public ids, newest last."""

    public_id: str
    token: str
    matches: Seeded


def seed_club(app: Flask, count: int, *, players: int, rounds: int) -> SeededClub:
    """Store a club of `players` players and `count` finished matches of two pairs, each with
    `rounds` rounds, in an empty database that this function migrates first."""
    with app.app_context():
        upgrade()
        created = store.create_club("Bench club")
        for number in range(1, players + 1):
            store.add_player(created.club, f"Player {number}")
        token = _store_template(rounds, club=created.club)
        members = [(member.id, member.name) for member in created.club.players]
        public_ids = [db.session.scalar(select(Match.public_id))]
        db.session.commit()  # end the read, which would hold the checkpoint back
        with db.engine.begin() as connection:
            public_ids += _copy_club_matches(connection, count - 1, members)
            _advance_sequences(connection)
        settle(db.engine)
        db.engine.dispose()
    return SeededClub(created.club.public_id, created.edit_token, Seeded(public_ids, token))


def seed_matches(
    app: Flask,
    count: int,
    *,
    rounds: int,
    sides: Sequence[tuple[str, tuple[str, ...]]] = SIDES,
    settings: Mapping[str, object] | None = None,
) -> Seeded:
    """Store `count` matches of `sides` (two pairs unless told) under the standard rules with
    `settings` changed, each with `rounds` rounds entered, in an empty database that this
    function migrates first. One side goes out in every round."""
    with app.app_context():
        upgrade()
        token = _store_template(rounds, sides, settings)
        public_ids = [db.session.scalar(select(Match.public_id))]
        db.session.commit()  # end the read, which would hold the checkpoint back
        with db.engine.begin() as connection:
            public_ids += _copy_template(connection, count - 1)
            _advance_sequences(connection)
        settle(db.engine)
        db.engine.dispose()
    return Seeded(public_ids, token)


def settle(engine: Engine) -> None:
    """Bring the database to where a long-running one stands: SQLite's write-ahead log folded
    into the database file, PostgreSQL's planner statistics up to date."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        else:
            connection.exec_driver_sql("ANALYZE")


def _store_template(
    rounds: int,
    sides: Sequence[tuple[str, tuple[str, ...]]] = SIDES,
    settings: Mapping[str, object] | None = None,
    *,
    club: Club | None = None,
) -> str:
    specs = [store.SideSpec(name, players) for name, players in sides]
    rules = build_rules("standard", settings)
    created = store.create_match("Bench night", "standard", rules, specs, club=club)
    entries = (WENT_OUT,) + (STAYED_IN,) * (len(sides) - 1)
    for number in range(1, rounds + 1):
        store.add_round(created.match, RoundEntry(number, entries, 0))
    return created.edit_token


def _copy_template(connection: Connection, copies: int) -> list[str]:
    """Insert `copies` copies of every row in the database; return their matches' public ids."""
    tables = [t for t in db.metadata.sorted_tables if t.name not in LEFT_EMPTY]
    templates = {t: [dict(r) for r in connection.execute(select(t)).mappings()] for t in tables}
    spans = {t.name: max((row["id"] for row in templates[t]), default=0) for t in tables}
    public_ids = [secrets.token_urlsafe(PUBLIC_ID_BYTES) for _ in range(copies)]
    for table in tables:
        for batch in _batches(_copies(table, templates[table], spans, public_ids)):
            connection.execute(table.insert(), batch)
    return public_ids


def _copy_club_matches(
    connection: Connection, copies: int, members: list[tuple[int, str]]
) -> list[str]:
    """Insert `copies` copies of the club's one match, each played by four of `members` drawn
    at random and begun a day before the one before; return their public ids."""
    tables = [t for t in db.metadata.sorted_tables if t.name in MATCH_TABLES]
    templates = {
        t: [dict(r) for r in connection.execute(select(t).order_by(t.c.id)).mappings()]
        for t in tables
    }
    spans = {t.name: max((row["id"] for row in templates[t]), default=0) for t in tables}
    spans[ClubPlayer.__tablename__] = 0  # the copies play the club's own players
    public_ids = [secrets.token_urlsafe(PUBLIC_ID_BYTES) for _ in range(copies)]
    draw = random.Random(CLUB_SEED)
    seated = len(templates[db.metadata.tables[Player.__tablename__]])
    seats = [draw.sample(members, seated) for _ in public_ids]
    for table in tables:
        copies_of = _copies(table, templates[table], spans, public_ids)
        for batch in _batches(_played_by(table, copies_of, seats, len(templates[table]))):
            connection.execute(table.insert(), batch)
    return public_ids


def _played_by(
    table: Table,
    rows: Iterator[dict[str, Any]],
    seats: list[list[tuple[int, str]]],
    per_copy: int,
) -> Iterator[dict[str, Any]]:
    """Yield the copies' rows, their players those drawn for each copy, each match begun a day
    before the one before it (the template, the newest)."""
    for index, row in enumerate(rows):
        copy_number = index // per_copy
        if table.name == Player.__tablename__:
            row["club_player_id"], row["name"] = seats[copy_number][index % per_copy]
        elif table.name == Match.__tablename__:
            row["created_at"] = row["created_at"] - timedelta(days=copy_number + 1)
        yield row


def _copies(
    table: Table, rows: list[dict[str, Any]], spans: dict[str, int], public_ids: list[str]
) -> Iterator[dict[str, Any]]:
    """Yield the rows of every copy: ids and foreign keys shifted by the copy's number."""
    references = {key.parent.name: key.column.table.name for key in table.foreign_keys}
    for number, public_id in enumerate(public_ids, start=1):
        for row in rows:
            copy = {**row, "id": row["id"] + number * spans[table.name]}
            for column, target in references.items():
                if row[column] is not None and target in spans:
                    copy[column] = row[column] + number * spans[target]
            if table.name == Match.__tablename__:
                copy["public_id"] = public_id
            yield copy


def _batches(rows: Iterator[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _advance_sequences(connection: Connection) -> None:
    """Move PostgreSQL's id sequences past the copies, so that the app's own inserts fit."""
    if connection.dialect.name != "postgresql":
        return  # SQLite takes the largest id + 1
    for table in db.metadata.sorted_tables:
        if table.name in LEFT_EMPTY or not isinstance(table.c.get("id", String()).type, Integer):
            continue
        highest = connection.scalar(select(func.max(table.c.id)))
        if highest is not None:
            sequence = text("SELECT setval(pg_get_serial_sequence(:table, 'id'), :highest)")
            connection.execute(sequence, {"table": f'"{table.name}"', "highest": highest})
