"""Migrations down to the first revision and up again keep every match, on SQLite and PostgreSQL.

On SQLite, batch mode rebuilds a table by copying it and dropping the old one; with foreign keys
enforced, that drop used to delete every row that referred to it, cascading, and exit 0.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from flask_migrate import check, downgrade, upgrade
from flask_migrate.cli import db as db_commands
from sqlalchemy import column, inspect, select, table, text
from worked_example import STAYED_IN, WENT_OUT

from scorekeeper import store
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.rules import build_rules
from scorekeeper.domain.setup import SideSpec
from scorekeeper.store.exports import side_entry_json
from scorekeeper.store.models import Match, UTCDateTime, WrongGuess, db

pytestmark = pytest.mark.migrations  # each test migrates a database of its own

FIRST_REVISION = "8ead35466b89"
KEPT_TABLES = ("match", "side", "player", "round", "entry")

COUNTED = SideEntry(
    clean_books=1,
    melded=CardCounts(jokers=1, aces=4, eights_to_kings=10),
    red_threes_held=1,
    leftover=CardCounts(twos=1, black_threes=2),
)
CUT = SideEntry(clean_books=1, melded=CardCounts(aces=3, eights_to_kings=7), deal_bonus=1)
PAIRS = (("Us", ("Ann", "Bob")), ("Them", ("Cy", "Di")))
HELD = SideEntry(red_threes_held=1, leftover=60)
SINGLES = (("Ann", ("Ann",)), ("Bob", ("Bob",)), ("Cy", ("Cy",)))

Rows = dict[str, list[tuple[Any, ...]]]


def document(
    name: str,
    preset: str,
    sides: Sequence[tuple[str, Sequence[str]]],
    rounds: Sequence[Sequence[SideEntry]],
    **settings: object,
) -> dict[str, Any]:
    """Return a match export, as `flask export` writes one, with the rounds numbered in order."""
    return {
        "format": "scorekeeper-match",
        "format_version": 1,
        "name": name,
        "preset": preset,
        "settings": settings,
        "language": None,
        "created_at": "2026-11-27T20:30:00+00:00",
        "sides": [{"name": side, "players": list(players)} for side, players in sides],
        "rounds": [
            {"round": number, "sides": [side_entry_json(side) for side in entry]}
            for number, entry in enumerate(rounds, start=1)
        ],
    }


DOCUMENTS = (
    document("Friday", "standard", PAIRS, [(WENT_OUT, STAYED_IN), (COUNTED, WENT_OUT)]),
    document("Three ways", "simple", SINGLES, [(STAYED_IN, WENT_OUT, COUNTED)]),
    document("Cut", "partnership-11", PAIRS, [(CUT, COUNTED), (HELD, CUT)], deal_bonus=300),
    document("Not begun", "standard", PAIRS, []),
)


@pytest.fixture
def imported(app: Flask) -> tuple[Rows, list[dict[str, Any]]]:
    """Import the matches; return their stored rows and their exports."""
    with app.app_context():
        for data in DOCUMENTS:
            store.import_match(data)
    return kept(app)


def kept(app: Flask) -> tuple[Rows, list[dict[str, Any]]]:
    """Return every row of the matches' tables, and each match's export, in an app context of
    their own, so that no transaction stays open while a migration alters the tables."""
    with app.app_context():
        with db.engine.connect() as connection:
            rows = {name: _rows(connection, name) for name in KEPT_TABLES}
        matches = db.session.scalars(select(Match).order_by(Match.id))
        return rows, [store.export_match(match) for match in matches]


def _rows(connection: Any, name: str) -> list[tuple[Any, ...]]:
    table = db.metadata.tables[name]
    return [tuple(row) for row in connection.execute(select(table).order_by(table.c.id))]


def stored_revision(app: Flask) -> str | None:
    with app.app_context(), db.engine.connect() as connection:
        return connection.scalar(text("SELECT version_num FROM alembic_version"))


def migrate(runner: FlaskCliRunner, command: str, revision: str) -> None:
    """Run `flask db <command> <revision>`, which must succeed."""
    result = runner.invoke(db_commands, [command, revision])
    assert result.exit_code == 0, result.output


def test_every_match_survives_going_down_to_the_first_revision_and_up_again(
    app: Flask, runner: FlaskCliRunner, imported: tuple[Rows, list[dict[str, Any]]]
) -> None:
    """Every row of the matches, sides, players, rounds and entries comes back as it was, and so
    does each match's export and score.

    What the earlier revisions cannot hold is lost on the way, and only that: the operations
    (idempotency records, which only make retries safe) and the wrong guesses (what the rate
    limit counts), whose tables come after the first revision; each match's round version floor,
    which comes back as 0, as an import sets it; and deal bonuses past one a side, which the
    flag before 3c1f0b7a9d2e holds as one (see test_database.py), so these matches count one at
    most.
    """
    migrate(runner, "downgrade", FIRST_REVISION)
    assert stored_revision(app) == FIRST_REVISION
    migrate(runner, "upgrade", "head")

    rows, exports = kept(app)
    assert {name: len(found) for name, found in rows.items()} == {
        name: len(found) for name, found in imported[0].items()
    }
    assert rows == imported[0]
    assert exports == imported[1]


def test_a_migration_that_leaves_a_reference_broken_fails_and_changes_nothing(
    app: Flask, runner: FlaskCliRunner, imported: tuple[Rows, list[dict[str, Any]]]
) -> None:
    """SQLite enforces no reference while a migration runs: it checks them all before committing
    and refuses the whole migration, exiting nonzero, when one points nowhere."""
    with app.app_context():
        url = db.engine.url
    if url.get_backend_name() != "sqlite":
        pytest.skip("PostgreSQL enforces every reference while it migrates too")
    broken = sqlite3.connect(url.database or "", isolation_level=None)  # enforces no reference
    broken.execute("INSERT INTO player (side_id, position, name) VALUES (999, 0, 'Ghost')")
    broken.close()
    head = stored_revision(app)

    result = runner.invoke(db_commands, ["downgrade", FIRST_REVISION])

    assert result.exit_code != 0
    assert "references to missing rows in: player" in result.output
    assert stored_revision(app) == head
    rows, exports = kept(app)
    assert {name: found for name, found in rows.items() if name != "player"} == {
        name: found for name, found in imported[0].items() if name != "player"
    }
    assert len(rows["player"]) == len(imported[0]["player"]) + 1  # and the one in no side
    assert exports == imported[1]


def test_migrations_go_down_to_nothing_and_up_again(app: Flask) -> None:
    with app.app_context():
        tables = set(inspect(db.engine).get_table_names())
        downgrade(revision="base")
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
        upgrade()
        assert set(inspect(db.engine).get_table_names()) == tables


def test_deal_bonuses_go_back_to_a_flag_and_come_up_again_as_a_count(app: Flask) -> None:
    sides = [SideSpec("Us", ("Ann", "Bob")), SideSpec("Them", ("Cy", "Di"))]
    side = SideEntry(melded=90, red_threes_held=1, deal_bonus=2)
    with app.app_context():
        created = store.create_match("Cut", "partnership-11", build_rules("partnership-11"), sides)
        store.add_round(created.match, RoundEntry(1, (side, replace(side, deal_bonus=0))))
        db.session.commit()

        downgrade(revision="ea4915ee568d")  # a flag: the second player's bonus is lost
        assert _deal_bonuses() == ("BOOLEAN", [True, False])
        upgrade()

        assert _deal_bonuses() == ("INTEGER", [1, 0])


def _deal_bonuses() -> tuple[str, list[object]]:
    """Return the type of the entries' deal bonus column and its values, side by side."""
    column = next(c for c in inspect(db.engine).get_columns("entry") if c["name"] == "deal_bonus")
    with db.engine.connect() as connection:
        values = connection.execute(text("SELECT deal_bonus FROM entry ORDER BY side_id")).scalars()
        return str(column["type"]), list(values)


def test_the_first_dealer_goes_on_a_downgrade_keeping_every_other_value_and_comes_back_first(
    app: Flask,
) -> None:
    sides = [SideSpec("Us", ("Ann", "Bob")), SideSpec("Them", ("Cy", "Di"))]
    with app.app_context():
        created = store.create_match(
            "Dealt", "standard", build_rules(), sides, first_dealer=store.Seat(1, 1)
        )
        store.add_round(created.match, RoundEntry(1, (WENT_OUT, STAYED_IN)))
        db.session.commit()
    rows, exports = kept(app)
    at = list(db.metadata.tables["match"].columns.keys()).index("first_dealer")
    assert rows["match"][0][at] == 3  # Di, the last of the four round the table

    with app.app_context():
        downgrade(revision="5d0e8c4b7a21")  # the revision before: no first dealer
        columns = {column["name"] for column in inspect(db.engine).get_columns("match")}
        assert "first_dealer" not in columns
        upgrade()

    after, exports_after = kept(app)
    first = rows["match"][0]
    assert after == {**rows, "match": [(*first[:at], 0, *first[at + 1 :])]}  # side 1's first
    side_1_first = {"side": 0, "player": 0}
    assert exports[0]["first_dealer"] == {"side": 1, "player": 1}
    assert exports_after == [{**exports[0], "first_dealer": side_1_first}]


def test_an_entry_stored_with_json_null_for_no_counts_holds_sql_null_after_upgrading(
    app: Flask,
) -> None:
    sides = [SideSpec("Us", ("Ann", "Bob")), SideSpec("Them", ("Cy", "Di"))]
    entries = (SideEntry(melded=90), SideEntry(melded=CardCounts(aces=3), leftover=15))
    with app.app_context():
        created = store.create_match("Old", "standard", build_rules("standard"), sides)
        store.add_round(created.match, RoundEntry(1, entries))
        db.session.commit()
        downgrade(revision="3c1f0b7a9d2e")
        with db.engine.begin() as connection:  # as the app stored them before this revision
            connection.execute(
                text("UPDATE entry SET melded_counts = 'null' WHERE melded_points IS NOT NULL")
            )
            connection.execute(text("UPDATE entry SET leftover_counts = 'null'"))
        upgrade()

        stored = text(
            "SELECT CAST(melded_counts AS TEXT), CAST(leftover_counts AS TEXT) FROM entry"
            " ORDER BY side_id"
        )
        with db.engine.connect() as connection:
            rows = [tuple(row) for row in connection.execute(stored)]

    (points, no_counts), (counts, no_leftover_counts) = rows
    assert (points, no_counts, no_leftover_counts) == (None, None, None)
    assert json.loads(counts)["aces"] == 3


GUESS_WINDOWS = table(
    "guess_window", column("window_start", UTCDateTime()), column("client"), column("failures")
)
EIGHT_PM, TEN_PAST = (
    datetime(2026, 11, 27, 20, tzinfo=UTC),
    datetime(2026, 11, 27, 20, 10, tzinfo=UTC),
)


def test_guess_counts_per_window_become_guesses_one_by_one_and_back(app: Flask) -> None:
    """A count per fixed window becomes as many guesses made as the window began; going down,
    the guesses counted against addresses are counted per window again, and those counted
    against a match, which the earlier table has no place for, are lost."""
    counts = [(EIGHT_PM, "192.0.2.1", 3), (TEN_PAST, "2001:db8::/64", 1)]
    with app.app_context():
        downgrade(revision="5d0e8c4b7a21")
        with db.engine.begin() as connection:
            rows = [
                dict(zip(("window_start", "client", "failures"), c, strict=True)) for c in counts
            ]
            connection.execute(GUESS_WINDOWS.insert(), rows)
        upgrade()
        guesses = _wrong_guesses()
        db.session.add(WrongGuess(scope="match", key="a-match", guessed_at=TEN_PAST))
        db.session.commit()
        downgrade(revision="5d0e8c4b7a21")
        with db.engine.connect() as connection:
            windows = sorted(map(tuple, connection.execute(select(GUESS_WINDOWS))))
        upgrade()

        assert guesses == [("address", "192.0.2.1", EIGHT_PM)] * 3 + [
            ("address", "2001:db8::/64", TEN_PAST)
        ]
        assert windows == counts
        assert _wrong_guesses() == guesses


def _wrong_guesses() -> list[tuple[str, str, datetime]]:
    rows = db.session.execute(
        select(WrongGuess.scope, WrongGuess.key, WrongGuess.guessed_at).order_by(WrongGuess.id)
    )
    db.session.commit()  # end the read, which would hold the next migration back
    return [tuple(row) for row in rows]


def test_the_migrations_build_the_database_the_models_describe(app: Flask) -> None:
    with app.app_context():
        check()  # exits, naming each difference, when a model changed without a migration


def test_the_results_of_matches_stored_before_they_were_kept_are_scored_on_upgrading(
    app: Flask,
) -> None:
    """Matches stored before revision 7a3c9e1f2b64 get the result the domain scores their
    rounds to: each side's total, and whether the last round is in."""
    with app.app_context():
        for data in DOCUMENTS:
            store.import_match({**data, "settings": {**data["settings"], "rounds": 2}})
        expected = _results_as_scored()
        db.session.commit()
        downgrade(revision="5d0e8c4b7a21")
        upgrade()

        assert _results_as_kept() == expected
        assert [finished for finished, _totals in expected] == [True, False, True, False]


def _results_as_scored() -> list[tuple[bool, tuple[int, ...]]]:
    matches = db.session.scalars(select(Match).order_by(Match.id)).unique()
    return [
        (view.standings.finished, view.standings.totals)
        for view in (store.match_view(match) for match in matches)
    ]


def _results_as_kept() -> list[tuple[bool, tuple[int, ...]]]:
    with db.engine.connect() as connection:
        matches = connection.execute(text("SELECT id, finished FROM match ORDER BY id")).all()
        totals = connection.execute(
            text("SELECT match_id, total FROM side ORDER BY match_id, position")
        ).all()
    return [
        (bool(finished), tuple(total for match_id, total in totals if match_id == id_))
        for id_, finished in matches
    ]
