"""The database engine: durable SQLite or PostgreSQL, and the write transaction of every change.

SQLite keeps its journal in WAL mode, syncs every commit (`synchronous=FULL`) and lets a writer
wait (`busy_timeout`) rather than fail. A write transaction takes the write lock as it begins
(`BEGIN IMMEDIATE`): one that read first and wrote later could otherwise find its snapshot stale
and fail at once with "database is locked", busy timeout or not.

SQLite libraries older than 3.51.3 (and the 3.50.7 and 3.44.6 backports) have the WAL-reset bug:
a commit that restarts the WAL while another connection's checkpoint runs can corrupt the
database. Where the library in use has it and no fixed build is installed, every write
transaction (and so every automatic checkpoint, which runs inside a commit) also holds a lock
file beside the database, so no two of them ever overlap, across threads and processes alike.
"""

from __future__ import annotations

import fcntl
import importlib
import os
import select
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from flask import Flask, current_app
from sqlalchemy import Connection, Engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session

from scorekeeper.store.models import db

Version = tuple[int, ...]

# The first fixed release on each line that received the fix; newer lines are all fixed.
WAL_RESET_FIXES: tuple[Version, ...] = ((3, 44, 6), (3, 50, 7), (3, 51, 3))
BUSY_TIMEOUT_MS = 10_000
SQLITE_PRAGMAS = (
    # First, so that switching the journal mode below also waits for other connections.
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
)
# A SQLite build on PyPI that may bundle a fixed library, used when it does.
BUNDLED_SQLITE_MODULE = "pysqlite3.dbapi2"
POSTGRESQL_DRIVER = "postgresql+psycopg"
WRITE_OPTION = "scorekeeper_write"  # execution option: this transaction begins IMMEDIATE
IN_WRITE_TRANSACTION = "scorekeeper_in_write_transaction"  # Session.info key
EXTENSION_KEY = "scorekeeper.database"


def has_wal_reset_bug(version: Version) -> bool:
    """Tell whether SQLite `version` has the WAL-reset corruption bug."""
    for fix in WAL_RESET_FIXES:
        if version[:2] == fix[:2]:
            return version < fix
    return version < WAL_RESET_FIXES[-1]


def first_fixed_driver(drivers: Sequence[ModuleType]) -> ModuleType | None:
    """Return the first DB-API module whose SQLite library lacks the WAL-reset bug, if any."""
    return next((d for d in drivers if not has_wal_reset_bug(d.sqlite_version_info)), None)


def normalise_database_url(url: str) -> str:
    """Return `url` with PostgreSQL spelled for psycopg 3, as hosting services rarely do."""
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername=POSTGRESQL_DRIVER)
    return parsed.render_as_string(hide_password=False)


@dataclass
class WriteLock:
    """A lock file beside the database that one write transaction at a time holds."""

    path: Path
    # This process's own: a thread lock, and the lock file held open for flock. A child
    # process opens its own, since a descriptor it inherited shares its lock with the parent.
    _process: tuple[int, threading.Lock, int] | None = field(default=None, init=False)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock for the block, waiting for any other holder, thread or process."""
        threads, descriptor = self._opened()
        with threads:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(descriptor, fcntl.LOCK_UN)  # as the process's end would too

    def _opened(self) -> tuple[threading.Lock, int]:
        pid = os.getpid()
        if self._process is None or self._process[0] != pid:
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
            self._process = (pid, threading.Lock(), os.open(self.path, flags, 0o644))
        return self._process[1], self._process[2]


@dataclass(frozen=True)
class DatabaseSetup:
    """What `init_app` decided for one app's database."""

    write_lock: WriteLock | None = None


def init_app(app: Flask) -> None:
    """Bind the database to `app` with the durability and locking its engine needs."""
    uri = normalise_database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["SQLALCHEMY_DATABASE_URI"] = uri
    if make_url(uri).get_backend_name() == "sqlite":
        driver = _sqlite_driver()
        bundled = driver is not None and driver is not sqlite3
        _add_engine_options(app, {"module": driver} if bundled else {})
        db.init_app(app)
        with app.app_context():
            _prepare_sqlite(app, db.engine, driver)
    else:
        db.init_app(app)
        with app.app_context():
            event.listen(db.engine, "checkout", _refuse_closed_connection)
        app.extensions[EXTENSION_KEY] = DatabaseSetup()


def _add_engine_options(app: Flask, defaults: dict[str, Any]) -> None:
    # A new dict: the configured one may be a class attribute that other apps share.
    configured = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {**defaults, **configured}


def _sqlite_driver() -> ModuleType | None:
    """Return the DB-API module to use: the standard one unless only a bundled build is fixed."""
    drivers = [sqlite3]
    try:
        drivers.append(importlib.import_module(BUNDLED_SQLITE_MODULE))
    except ImportError:
        pass
    return first_fixed_driver(drivers)


def _prepare_sqlite(app: Flask, engine: Engine, driver: ModuleType | None) -> None:
    event.listen(engine, "connect", _configure_sqlite_connection)
    event.listen(engine, "begin", _begin_sqlite_transaction)
    write_lock = None if driver else _write_lock_for(engine.url)
    app.extensions[EXTENSION_KEY] = DatabaseSetup(write_lock=write_lock)
    _log_sqlite_protection(app, driver, write_lock)


def _write_lock_for(url: URL) -> WriteLock | None:
    """Return the lock beside a database file; an in-memory database has one connection."""
    if not url.database or url.database == ":memory:":
        return None
    database = Path(url.database)
    return WriteLock(database.with_name(f"{database.name}.write-lock"))


def _log_sqlite_protection(app: Flask, driver: ModuleType | None, lock: WriteLock | None) -> None:
    if lock is not None:
        app.logger.warning(
            "SQLite %s has the WAL-reset bug (fixed in 3.51.3, 3.50.7 and 3.44.6) and no fixed "
            "build is installed: write transactions and checkpoints are serialized through %s.",
            sqlite3.sqlite_version,
            lock.path,
        )
    elif driver is not None:
        app.logger.info(
            "SQLite %s from %s is free of the WAL-reset bug.",
            driver.sqlite_version,
            driver.__name__,
        )


def _configure_sqlite_connection(dbapi_connection: Any, _record: object) -> None:
    # SQLAlchemy emits BEGIN itself (see below): the driver would skip it before a SELECT.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def _begin_sqlite_transaction(connection: Connection) -> None:
    write = connection.get_execution_options().get(WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _refuse_closed_connection(dbapi_connection: Any, _record: object, _proxy: object) -> None:
    """Refuse a pooled PostgreSQL connection that the server closed while it sat in the pool,
    so that the pool connects anew: how the app survives a database restart.

    A server that ends a connection, restarting or not, says so and closes it, while an idle
    connection to a server that is up hears nothing (the app never LISTENs), or at most a rare
    notice: a connection with input waiting is taken for gone, and at worst one is replaced
    that could have served. Unlike a pre-ping, this costs no round trip per request.
    """
    if dbapi_connection.closed or _has_input(dbapi_connection.fileno()):
        raise DisconnectionError("the database server closed this connection")


def _has_input(descriptor: int) -> bool:
    poll = select.poll()
    poll.register(descriptor, select.POLLIN)
    return bool(poll.poll(0))  # POLLHUP and POLLERR come unasked


@contextmanager
def write_transaction() -> Iterator[None]:
    """Run the block as one write transaction: commit when it succeeds, roll back when it fails.

    A read transaction the request still holds ends first; the objects it loaded keep what they
    read (the session does not expire them on commit), so a change decided on them writes under
    the version they were read at. A block inside another write transaction joins it.
    """
    session = db.session()
    if session.info.get(IN_WRITE_TRANSACTION):
        yield  # the enclosing write transaction commits or rolls back
        return
    end_read()
    with _serialized_writes():
        session.info[IN_WRITE_TRANSACTION] = True
        try:
            session.connection(execution_options={WRITE_OPTION: True})
            yield
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            del session.info[IN_WRITE_TRANSACTION]


def end_read() -> None:
    """End the request's read transaction, so that what it reads next is as stored then."""
    session: Session = db.session()
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("Make every change inside write_transaction(), not before it.")
    if session.in_transaction():
        session.commit()


def _serialized_writes() -> AbstractContextManager[None]:
    lock = current_app.extensions[EXTENSION_KEY].write_lock
    return lock.held() if lock else nullcontext()
