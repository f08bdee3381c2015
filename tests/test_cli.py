"""The commands: a consistent backup, and every match out as JSON and back in without loss."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func
from worked_example import STAYED_IN, WENT_OUT

from scorekeeper import store
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.store.models import Match, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch

COUNTED = SideEntry(
    "",
    clean_books=1,
    melded=CardCounts(aces=3, eights_to_kings=7),
    leftover=CardCounts(black_threes=1, jokers=1),
    deal_bonus=True,
)


@pytest.fixture
def played(app: Flask, create_match: CreateMatch) -> list[StoredMatch]:
    """Store matches unlike each other: house rules, three sides, counted cards, odd names."""
    matches = [
        create_match("Friday"),
        create_match("Mañana «night» 🃏", preset="partnership-11", overrides={"deal_bonus": 300}),
        create_match(
            "Three ways",
            preset="simple",
            sides=(("Ann", ("Ann",)), ("Bob", ("Bob",)), ("Cy", ("Cy",))),
        ),
    ]
    rounds = [
        [(1, WENT_OUT, STAYED_IN), (2, STAYED_IN, WENT_OUT)],
        [(1, COUNTED, SideEntry("", red_threes_held=1, leftover=60))],
        [(1, STAYED_IN, WENT_OUT, SideEntry(""))],
    ]
    with app.app_context():
        for stored, entries in zip(matches, rounds, strict=True):
            match = store.get_match(stored.public_id)
            assert match is not None
            for number, *sides in entries:
                store.add_round(match, RoundEntry(number, tuple(sides), 0))
    return matches


@pytest.fixture
def sqlite_file(app: Flask) -> Path:
    """Return the test database's file; the test is SQLite's alone."""
    with app.app_context():
        url = db.engine.url
    if url.get_backend_name() != "sqlite":
        pytest.skip("the online backup API is SQLite's; PostgreSQL is backed up by pg_dump")
    return Path(url.database or "")


@pytest.fixture
def postgres_app(app: Flask) -> Flask:
    with app.app_context():
        if db.engine.url.get_backend_name() != "postgresql":
            pytest.skip("runs when DATABASE_URL names PostgreSQL, as make test's second run")
    return app


def export_all(runner: FlaskCliRunner) -> list[dict[str, Any]]:
    result = runner.invoke(args=["export"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def match_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(db.select(func.count(Match.id)))


def test_export_and_import_carry_every_match_without_loss(
    runner: FlaskCliRunner, played: list[StoredMatch], tmp_path: Path
) -> None:
    exported = export_all(runner)
    (tmp_path / "all.json").write_text(json.dumps(exported))
    result = runner.invoke(args=["import", str(tmp_path / "all.json")])
    assert result.exit_code == 0, result.output
    both = export_all(runner)
    assert len(exported) == len(played) == 3
    assert both == exported + exported  # the copies, created_at included, equal the originals
    assert [doc["name"] for doc in exported] == ["Friday", "Mañana «night» 🃏", "Three ways"]


def test_an_imported_match_gets_a_new_id_and_edit_token_which_are_printed(
    app: Flask, runner: FlaskCliRunner, played: list[StoredMatch], tmp_path: Path
) -> None:
    (tmp_path / "one.json").write_text(json.dumps(export_all(runner)[0]))
    result = runner.invoke(args=["import", str(tmp_path / "one.json")])
    public_id, token, name = result.stdout.strip().split("\t")
    assert name == "Friday" and public_id != played[0].public_id
    with app.app_context():
        match = store.get_match(public_id)
        assert match is not None and store.token_opens(match, token)


def test_export_of_one_match_is_the_same_document_as_the_api_export(
    client: FlaskClient, runner: FlaskCliRunner, played: list[StoredMatch]
) -> None:
    result = runner.invoke(args=["export", "--match", played[1].public_id])
    from_api = client.get(f"/api/v1/matches/{played[1].public_id}/export")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == from_api.json


def test_export_writes_to_a_file_when_given_one(
    runner: FlaskCliRunner, played: list[StoredMatch], tmp_path: Path
) -> None:
    result = runner.invoke(args=["export", str(tmp_path / "out.json")])
    assert result.exit_code == 0 and result.stdout == ""
    assert len(json.loads((tmp_path / "out.json").read_text())) == len(played)


def test_export_of_an_empty_database_is_an_empty_list(runner: FlaskCliRunner) -> None:
    assert export_all(runner) == []


def test_export_of_an_unknown_match_fails_and_says_so(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["export", "--match", "nope"])
    assert result.exit_code != 0
    assert "no match with the id nope" in result.output


@pytest.mark.parametrize(
    ("content", "named"),
    [
        ("{not json", "is not JSON"),
        ('{"format": "something else"}', "format: This is not a match exported by scorekeeper"),
        ("[3]", "matches[0]: matches[0] must be a match exported by scorekeeper"),
    ],
)
def test_an_unreadable_import_stores_nothing_and_says_why(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path, content: str, named: str
) -> None:
    (tmp_path / "bad.json").write_text(content)
    result = runner.invoke(args=["import", str(tmp_path / "bad.json")])
    assert result.exit_code != 0
    assert named in result.output
    assert match_count(app) == 0


def test_one_broken_match_in_an_import_stores_none_and_names_every_problem(
    app: Flask, runner: FlaskCliRunner, played: list[StoredMatch], tmp_path: Path
) -> None:
    exported = export_all(runner)
    exported[1]["rounds"][0]["sides"][0]["went_out"] = True  # out without the books
    exported[2]["settings"]["going_out_bonus"] = "lots"
    (tmp_path / "broken.json").write_text(json.dumps(exported))
    result = runner.invoke(args=["import", str(tmp_path / "broken.json")])
    assert result.exit_code != 0
    assert "matches[1].rounds[0].went_out" in result.output
    assert "matches[2].settings.going_out_bonus" in result.output
    assert match_count(app) == len(played)


def test_backup_writes_a_complete_copy_that_passes_its_integrity_check(
    sqlite_file: Path, runner: FlaskCliRunner, played: list[StoredMatch], tmp_path: Path
) -> None:
    result = runner.invoke(args=["backup", str(tmp_path / "copy.sqlite")])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(tmp_path / "copy.sqlite") as copy:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert copy.execute("SELECT count(*) FROM match").fetchone() == (len(played),)
        assert copy.execute("SELECT count(*) FROM round").fetchone() == (4,)


def test_backup_copies_what_is_committed_while_another_writer_holds_its_transaction(
    sqlite_file: Path, runner: FlaskCliRunner, played: list[StoredMatch], tmp_path: Path
) -> None:
    writer = sqlite3.connect(sqlite_file, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE match SET name = 'Not yet committed'")
    result = runner.invoke(args=["backup", str(tmp_path / "copy.sqlite")])
    writer.execute("ROLLBACK")
    writer.close()
    assert result.exit_code == 0, result.output
    with sqlite3.connect(tmp_path / "copy.sqlite") as copy:
        names = {name for (name,) in copy.execute("SELECT name FROM match")}
    assert "Not yet committed" not in names and "Friday" in names


def test_backup_never_overwrites_a_file(
    sqlite_file: Path, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    (tmp_path / "precious").write_text("keep me")
    result = runner.invoke(args=["backup", str(tmp_path / "precious")])
    assert result.exit_code != 0 and "exists already" in result.output
    assert (tmp_path / "precious").read_text() == "keep me"


def test_backup_on_postgresql_points_to_pg_dump_and_export(
    postgres_app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    result = runner.invoke(args=["backup", str(tmp_path / "copy")])
    assert result.exit_code != 0
    assert "pg_dump" in result.output and "export" in result.output
    assert not (tmp_path / "copy").exists()
