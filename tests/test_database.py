"""The database: SQLite durability, write transactions that queue, the WAL-reset bug, PostgreSQL."""

from __future__ import annotations

import fcntl
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import (
    Column,
    Connection,
    Integer,
    MetaData,
    NullPool,
    Table,
    create_engine,
    select,
    text,
    update,
)

from scorekeeper import create_app
from scorekeeper.store import database
from scorekeeper.store.database import (
    WriteLock,
    first_fixed_driver,
    has_wal_reset_bug,
    normalise_database_url,
    write_transaction,
)
from scorekeeper.store.models import Match, db

counters = MetaData()
counter = Table(
    "test_counter", counters, Column("id", Integer, primary_key=True), Column("n", Integer)
)


@pytest.fixture
def sqlite_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Flask]:
    """Return an app on a SQLite file, whichever database the rest of the run uses, whose
    writers rely on SQLite's own locking alone (no lock file for the WAL-reset bug)."""
    monkeypatch.setattr(database, "_sqlite_driver", lambda: sqlite3)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db'}"})
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(params=["app", "sqlite_app"])
def any_app(request: pytest.FixtureRequest) -> Flask:
    """Return the run's app (SQLite with its protection, or PostgreSQL), then plain SQLite."""
    return request.getfixturevalue(request.param)


@contextmanager
def session_write() -> Iterator[Connection]:
    """Run the block in the session's write transaction, yielding its connection."""
    with write_transaction():
        yield db.session.connection()


@pytest.fixture
def with_counter(any_app: Flask) -> Iterator[Callable[[], int]]:
    """Create a one-row counter table; return a function that reads it."""
    with any_app.app_context():
        counters.create_all(db.engine)
        with write_transaction():
            db.session.execute(counter.insert().values(id=1, n=0))

    def read() -> int:
        with any_app.app_context():
            return db.session.scalar(select(counter.c.n))

    yield read
    with any_app.app_context():
        counters.drop_all(db.engine)


def other_connection(app: Flask) -> sqlite3.Connection:
    """Open a second connection to the app's SQLite file that never waits for a lock."""
    with app.app_context():
        path = db.engine.url.database
    return sqlite3.connect(path, timeout=0, isolation_level=None)


def write_lock_is_free(lock: WriteLock) -> bool:
    with lock.path.open("a") as lock_file:
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


@pytest.mark.parametrize(
    ("version", "affected"),
    [
        ((3, 7, 0), True),
        ((3, 40, 1), True),
        ((3, 44, 5), True),
        ((3, 44, 6), False),
        ((3, 45, 0), True),
        ((3, 46, 1), True),
        ((3, 50, 6), True),
        ((3, 50, 7), False),
        ((3, 51, 0), True),
        ((3, 51, 2), True),
        ((3, 51, 3), False),
        ((3, 52, 0), False),
        ((3, 53, 4), False),
        ((4, 0, 0), False),
    ],
)
def test_the_wal_reset_bug_is_in_every_release_before_its_fix_on_that_line(
    version: tuple[int, int, int], affected: bool
) -> None:
    assert has_wal_reset_bug(version) is affected


def test_the_first_driver_with_a_fixed_sqlite_is_chosen_or_none() -> None:
    old, bundled = (
        SimpleNamespace(sqlite_version_info=(3, 40, 1)),
        SimpleNamespace(sqlite_version_info=(3, 51, 3)),
    )
    assert first_fixed_driver([old, bundled]) is bundled
    assert first_fixed_driver([bundled, old]) is bundled
    assert first_fixed_driver([old]) is None


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u:p@db:5432/score", "postgresql+psycopg://u:p@db:5432/score"),
        ("postgresql://u@127.0.0.1/test", "postgresql+psycopg://u@127.0.0.1/test"),
        ("postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
        ("sqlite:////srv/score.sqlite", "sqlite:////srv/score.sqlite"),
    ],
)
def test_a_database_url_names_psycopg_for_postgresql(given: str, used: str) -> None:
    assert normalise_database_url(given) == used


@pytest.mark.parametrize(
    ("pragma", "value"),
    [
        ("journal_mode", "wal"),
        ("synchronous", 2),  # FULL
        ("busy_timeout", 10_000),
        ("foreign_keys", 1),
    ],
)
def test_every_sqlite_connection_is_durable_and_waits_for_locks(
    sqlite_app: Flask, pragma: str, value: object
) -> None:
    with sqlite_app.app_context():
        assert db.session.scalar(text(f"PRAGMA {pragma}")) == value


def test_a_write_transaction_holds_the_sqlite_write_lock_from_its_start(sqlite_app: Flask) -> None:
    other = other_connection(sqlite_app)
    with sqlite_app.app_context(), session_write():
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    other.execute("BEGIN IMMEDIATE")  # free again once it committed
    other.execute("ROLLBACK")


def test_a_plain_read_leaves_the_sqlite_write_lock_free(sqlite_app: Flask) -> None:
    other = other_connection(sqlite_app)
    with sqlite_app.app_context():
        assert db.session.scalar(text("SELECT 1")) == 1
        assert db.session().in_transaction()
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")


def test_a_read_survives_a_postgresql_restart(app: Flask) -> None:
    with app.app_context():  # a request, which gives its connection back to the pool
        if db.engine.dialect.name != "postgresql":
            pytest.skip("a PostgreSQL server closes its connections when it restarts")
        db.engine.dispose()  # the pool keeps the one connection the read below opens
        pid = db.session.scalar(text("SELECT pg_backend_pid()"))
        url = db.engine.url
    admin = create_engine(url, poolclass=NullPool)
    with admin.connect() as other:  # a restart ends every connection, as this does
        # With a timeout: the server has ended the connection once the call returns.
        ended = "SELECT pg_terminate_backend(:pid, 10000)"
        assert other.scalar(text(ended), {"pid": pid})
    admin.dispose()
    with app.app_context():  # the next request's read
        assert db.session.scalar(text("SELECT pg_backend_pid()")) != pid


def test_the_next_request_reads_on_the_connection_the_last_one_gave_back(app: Flask) -> None:
    # On PostgreSQL the connection passes the check as it leaves the pool: nothing came on it.
    with app.app_context():
        db.engine.dispose()
        given_back = db.session.connection().connection.dbapi_connection
    with app.app_context():
        assert db.session.connection().connection.dbapi_connection is given_back


def test_concurrent_read_then_write_transactions_all_succeed_and_none_is_lost(
    any_app: Flask, with_counter: Callable[[], int]
) -> None:
    threads, increments = 4, 25
    errors: list[BaseException] = []

    def increment_often() -> None:
        with any_app.app_context():
            for _ in range(increments):
                try:
                    with session_write() as connection:
                        # Read, then write: a deferred SQLite transaction fails here when
                        # another writer committed in between ("database is locked").
                        n = connection.scalar(select(counter.c.n).with_for_update())
                        connection.execute(update(counter).values(n=n + 1))
                except BaseException as error:  # noqa: BLE001  (reported by the assertion)
                    errors.append(error)

    workers = [threading.Thread(target=increment_often) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    assert with_counter() == threads * increments


def test_a_failed_write_transaction_stores_nothing(
    any_app: Flask, with_counter: Callable[[], int]
) -> None:
    with any_app.app_context(), pytest.raises(ZeroDivisionError):
        with session_write() as connection:
            connection.execute(update(counter).values(n=5))
            _ = 1 / 0
    assert with_counter() == 0


def test_a_write_transaction_inside_another_joins_it(
    any_app: Flask, with_counter: Callable[[], int]
) -> None:
    with any_app.app_context(), pytest.raises(ZeroDivisionError):
        with write_transaction():
            with write_transaction():
                db.session.execute(update(counter).values(n=5))
            _ = 1 / 0
    assert with_counter() == 0


def test_a_read_transaction_before_a_write_ends_and_the_write_commits(
    any_app: Flask, with_counter: Callable[[], int]
) -> None:
    with any_app.app_context():
        assert db.session.scalar(select(counter.c.n)) == 0
        with session_write() as connection:
            connection.execute(update(counter).values(n=counter.c.n + 1))
        assert not db.session().in_transaction()  # its snapshot would hide the write
    assert with_counter() == 1


def test_a_change_made_before_the_write_transaction_is_refused(app: Flask) -> None:
    with app.app_context():
        db.session.add(Match())
        with pytest.raises(RuntimeError, match="inside write_transaction"), write_transaction():
            pass


def test_the_write_lock_file_excludes_every_other_holder(tmp_path: Path) -> None:
    lock = WriteLock(tmp_path / "db.write-lock")
    with lock.held():
        assert not write_lock_is_free(lock)
    assert write_lock_is_free(lock)


def test_the_write_lock_excludes_the_processs_other_threads(tmp_path: Path) -> None:
    lock, holding = WriteLock(tmp_path / "db.write-lock"), threading.Event()
    order: list[str] = []

    def hold_a_while() -> None:
        with lock.held():
            holding.set()
            time.sleep(0.1)  # time enough for the main thread to try
            order.append("first out")

    first = threading.Thread(target=hold_a_while)
    first.start()
    holding.wait()
    with lock.held():
        order.append("second in")
    first.join()
    assert order == ["first out", "second in"]


@pytest.mark.parametrize(
    ("fixed_driver", "serialized"), [(None, True), (sqlite3, False)], ids=["affected", "fixed"]
)
def test_writes_are_serialized_only_where_the_sqlite_in_use_has_the_wal_reset_bug(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    fixed_driver: Any,
    serialized: bool,
) -> None:
    monkeypatch.setattr(database, "_sqlite_driver", lambda: fixed_driver)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'score.sqlite'}"})
    lock = app.extensions[database.EXTENSION_KEY].write_lock
    assert (lock is not None) is serialized
    if lock is not None:
        assert lock.path == tmp_path / "score.sqlite.write-lock"
        with app.app_context(), session_write():
            assert not write_lock_is_free(lock)
        assert write_lock_is_free(lock)
