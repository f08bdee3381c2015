"""Fixtures shared by every test: an app on a throwaway database, its client and CLI runner."""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade
from sqlalchemy import Engine, NullPool, create_engine, event, make_url
from worked_example import STAYED_IN, WENT_OUT

from scorekeeper import create_app, store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.domain.rules import build_rules
from scorekeeper.store.database import normalise_database_url
from scorekeeper.store.models import Match, db


def postgres_url() -> str | None:
    """Return DATABASE_URL when it names PostgreSQL, as in `make test`'s second run."""
    url = os.environ.get("DATABASE_URL")
    if url and make_url(normalise_database_url(url)).get_backend_name() == "postgresql":
        return url
    return None


POSTGRES_URL = postgres_url()

TEST_CONFIG: dict[str, Any] = {"TESTING": True, "SECRET_KEY": "test"}
# Tests that migrate the schema themselves get a database of their own, migrated afresh.
MIGRATIONS_MARK = "migrations"
# Tests that change their app (its configuration, what it keeps in memory) get one of their own;
# the others share one app per configuration in each test worker, their database emptied.
OWN_APP_MARK = "own_app"
SHARED_APPS: dict[str, Flask] = {}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On PostgreSQL, run only the tests that use the database: the rest ran on SQLite already
    (the browser tests' server keeps a SQLite file of its own either way)."""
    if not POSTGRES_URL:
        return
    uses = {id(item) for item in items if "app_config" in getattr(item, "fixturenames", ())}
    config.hook.pytest_deselected(items=[item for item in items if id(item) not in uses])
    items[:] = [item for item in items if id(item) in uses]


def pytest_report_header() -> str:
    if POSTGRES_URL:
        shown = make_url(normalise_database_url(POSTGRES_URL)).render_as_string()
        return f"database: PostgreSQL at {shown}, one schema per worker, emptied for each test"
    return f"database: SQLite {sqlite3.sqlite_version}, a copy of a migrated file for each test"


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    """Return an engine on the PostgreSQL database, for creating and dropping test schemas."""
    assert POSTGRES_URL, "only PostgreSQL runs need this"
    engine = create_engine(normalise_database_url(POSTGRES_URL), poolclass=NullPool)
    yield engine
    engine.dispose()


def migrated(config: dict[str, Any]) -> None:
    """Run every migration on the database `config` names."""
    app = create_app(config)
    with app.app_context():
        upgrade()
        db.engine.dispose()


@contextmanager
def new_schema(admin: Engine) -> Iterator[dict[str, Any]]:
    """Yield the configuration of an empty PostgreSQL schema of its own, dropped afterwards."""
    schema = f"test_{secrets.token_hex(8)}"
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    options = {"connect_args": {"options": f"-c search_path={schema}"}}
    yield {"SQLALCHEMY_DATABASE_URI": POSTGRES_URL, "SQLALCHEMY_ENGINE_OPTIONS": options}
    with admin.begin() as connection:
        connection.exec_driver_sql("SET LOCAL lock_timeout = '10s'")  # a leaked transaction fails
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(scope="session")
def migrated_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """Return the database configuration of this test worker, migrated once: a SQLite file or
    a PostgreSQL schema, which each test empties."""
    if not POSTGRES_URL:
        path = tmp_path_factory.mktemp("migrated") / "test.sqlite"
        config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
        migrated({**TEST_CONFIG, **config})
        yield config
        return
    with new_schema(request.getfixturevalue("postgres_admin")) as config:
        migrated({**TEST_CONFIG, **config})
        yield config


@pytest.fixture
def app_config(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """Return the test app's configuration, on the worker's database at the newest schema with
    no rows in it, or on a database of the test's own, migrated afresh (`migrations`)."""
    if request.node.get_closest_marker(MIGRATIONS_MARK):
        yield from _migrated_afresh(request, tmp_path)
        return
    database = request.getfixturevalue("migrated_database")
    if POSTGRES_URL:
        _empty(request.getfixturevalue("postgres_admin"), database)
    else:
        _empty_sqlite(make_url(database["SQLALCHEMY_DATABASE_URI"]).database or "")
    yield {**TEST_CONFIG, **database}


def _migrated_afresh(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    if not POSTGRES_URL:
        config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'own.sqlite'}"}
        migrated(config)
        yield config
        return
    with new_schema(request.getfixturevalue("postgres_admin")) as database:
        migrated({**TEST_CONFIG, **database})
        yield {**TEST_CONFIG, **database}


def _empty(admin: Engine, database: dict[str, Any]) -> None:
    """Delete every row the test before this one stored in the worker's schema."""
    options = database["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"]["options"]
    tables = ", ".join(f'"{table.name}"' for table in db.metadata.sorted_tables)
    with admin.begin() as connection:
        connection.exec_driver_sql("SET LOCAL lock_timeout = '10s'")  # a leaked transaction fails
        connection.exec_driver_sql(f"SET LOCAL {options.removeprefix('-c ')}")
        connection.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")


def _empty_sqlite(path: str) -> None:
    """Delete every row the test before this one stored in the worker's SQLite file."""
    with sqlite3.connect(path, timeout=10) as connection:  # a leaked write fails, in time
        for table in reversed(db.metadata.sorted_tables):
            connection.execute(f'DELETE FROM "{table.name}"')
    connection.close()


@pytest.fixture
def app(request: pytest.FixtureRequest, app_config: dict[str, Any]) -> Iterator[Flask]:
    """Return the app of the test's configuration: the worker's app of that configuration,
    made once, or one of the test's own where it changes its app (`own_app`)."""
    own = request.node.get_closest_marker(OWN_APP_MARK) or request.node.get_closest_marker(
        MIGRATIONS_MARK
    )
    app = create_app(app_config) if own else _shared_app(app_config)
    before = _changeable(app)
    yield app
    with app.app_context():
        db.engine.dispose()  # no connection outlives the test: the next one empties the tables
    assert own or _changeable(app) == before, "a test that changes its app is marked own_app"


def _shared_app(config: dict[str, Any]) -> Flask:
    key = repr(sorted(config.items()))
    if key not in SHARED_APPS:
        SHARED_APPS[key] = create_app(config)
    return SHARED_APPS[key]


def _changeable(app: Flask) -> str:
    """Return what a test could change of an app that the next test sharing it would see."""
    return repr((sorted(app.config.items()), sorted(map(str, app.url_map.iter_rules()))))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@dataclass(frozen=True)
class StoredMatch:
    """A match a test stored: what a client needs to reach it."""

    public_id: str
    edit_token: str


TWO_PAIRS = (("Us", ("Ann", "Bob")), ("Them", ("Cy", "Di")))
CreateMatch = Callable[..., StoredMatch]


@pytest.fixture
def create_match(app: Flask) -> CreateMatch:
    """Return a factory that stores a match: two pairs under standard rules unless told."""

    def create(
        name: str = "Friday",
        *,
        preset: str = "standard",
        overrides: Mapping[str, object] | None = None,
        sides: Sequence[tuple[str, Sequence[str]]] = TWO_PAIRS,
        language: str | None = None,
    ) -> StoredMatch:
        specs = [store.SideSpec(side, tuple(players)) for side, players in sides]
        with app.app_context():
            rules = build_rules(preset, overrides)
            created = store.create_match(name, preset, rules, specs, language=language)
            return StoredMatch(created.match.public_id, created.edit_token)

    return create


PlayRounds = Callable[[StoredMatch, Sequence[tuple[SideEntry, ...]]], None]


@pytest.fixture
def play_rounds(app: Flask) -> PlayRounds:
    """Return a function that stores the given rounds, one tuple of side entries per round."""

    def play(stored: StoredMatch, rounds: Sequence[tuple[SideEntry, ...]]) -> None:
        with app.app_context():
            match = store.get_match(stored.public_id)
            assert match is not None
            for number, sides in enumerate(rounds, start=1):
                store.add_round(match, RoundEntry(number, sides))

    return play


@pytest.fixture
def match_with_round_1(app: Flask, create_match: CreateMatch) -> StoredMatch:
    """Return a stored match (two pairs, standard rules) with its first round entered."""
    match = create_match()
    with app.app_context():
        stored = store.get_match(match.public_id)
        assert stored is not None
        sides = (SideEntry("", clean_books=1, melded=310), SideEntry("", leftover=20))
        store.add_round(stored, RoundEntry(1, sides, 0))
    return match


@dataclass(frozen=True)
class StoredClub:
    """A club a test stored: what a client needs to reach it."""

    public_id: str
    edit_token: str


CLUB_PLAYERS = ("Ann", "Bob", "Cy", "Di")
CreateClub = Callable[..., StoredClub]


@pytest.fixture
def create_club(app: Flask) -> CreateClub:
    """Return a factory that stores a club of Ann, Bob, Cy and Di, with `matches` finished
    matches of one round in which Ann and Bob beat Cy and Di."""

    def create(
        name: str = "Thursdays", *, matches: int = 1, language: str | None = None
    ) -> StoredClub:
        sides = [store.SideSpec("Us", ("Ann", "Bob")), store.SideSpec("Them", ("Cy", "Di"))]
        rules = build_rules("standard", {"rounds": 1, "meld_minimums": [50]})
        with app.app_context():
            created = store.create_club(name, language=language)
            for player in CLUB_PLAYERS:
                store.add_player(created.club, player)
            for number in range(1, matches + 1):
                match = store.create_match(
                    f"Night {number}", "standard", rules, sides, club=created.club
                ).match
                store.add_round(match, RoundEntry(1, (WENT_OUT, STAYED_IN)))  # Ann and Bob win
            return StoredClub(created.club.public_id, created.edit_token)

    return create


Stored = Callable[..., Match]


@pytest.fixture
def in_app(app: Flask) -> Iterator[None]:
    """Run the test inside the app's context, where the store works."""
    with app.app_context():
        yield


@pytest.fixture
def stored(in_app: None, create_match: CreateMatch) -> Stored:
    """Return a factory that stores a match and returns it loaded in this test's session."""

    def load(**options: object) -> Match:
        match = store.get_match(create_match(**options).public_id)
        assert match is not None
        db.session.rollback()  # end the read: its snapshot would hide a match stored later
        return match

    return load


AtOnce = Callable[[str, Callable[[Match], Any]], list[Any]]


@pytest.fixture
def at_once(app: Flask) -> AtOnce:
    """Return a runner of one change to a stored match from two threads that start together, as
    a double tap sends it; the runner returns both answers."""

    def run(public_id: str, change: Callable[[Match], Any]) -> list[Any]:
        start = threading.Barrier(2, timeout=30)  # a tap that fails first must not hang the other
        answers: list[Any] = []
        failures: list[BaseException] = []

        def tap() -> None:
            try:
                with app.app_context():
                    match = store.get_match(public_id)
                    assert match is not None
                    start.wait()
                    answers.append(change(match))
            except BaseException as error:  # raised again in the test, not lost in its thread
                failures.append(error)
                start.abort()

        taps = [threading.Thread(target=tap) for _ in range(2)]
        for thread in taps:
            thread.start()
        for thread in taps:
            thread.join()
        if failures:
            raise failures[0]
        return answers

    return run


@pytest.fixture
def statements(app: Flask) -> Iterator[list[str]]:
    """Return a list that collects every SQL statement the app runs from now on."""
    with app.app_context():
        engine = db.engine
    seen: list[str] = []

    def collect(_connection: object, _cursor: object, statement: str, *_args: object) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", collect)
    yield seen
    event.remove(engine, "before_cursor_execute", collect)
