"""The database engine: durable SQLite or PostgreSQL, and how reads and write transactions run.

SQLite keeps its journal in WAL mode, syncs every commit (`synchronous=FULL`) and lets a writer
wait (`busy_timeout`) rather than fail. Write transactions take the write lock as they begin
(`BEGIN IMMEDIATE`): a transaction that read first and wrote later could otherwise find its
snapshot stale and fail at once with "database is locked", busy timeout or not.

A write transaction runs in the request's session (`write_transaction`), or, for writes made in
Core or on the driver, on a connection that the app context keeps outside the session
(`write_connection`), where its single reads run too, in autocommit (`single_read`). Both take
the lock file below.

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

from flask import Flask, current_app, g
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
AUTOCOMMIT_OPTION = "scorekeeper_autocommit"  # execution option: SQLite, no BEGIN
# Begins a write transaction on a connection in autocommit.
BEGIN_WRITE = {"sqlite": "BEGIN IMMEDIATE", "postgresql": "BEGIN"}
EXTENSION_KEY = "scorekeeper.store.database"
OWN_CONNECTION = "scorekeeper_connection"  # flask.g attribute


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
    url = make_url(uri)
    if url.get_backend_name() == "sqlite":
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
    app.teardown_appcontext(_give_back_own_connection)


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


def _refuse_closed_connection(dbapi_connection: Any, _record: object, _proxy: object) -> None:
    """Refuse a pooled PostgreSQL connection that the server closed while it sat in the pool,
    so that the pool connects anew: how the app survives a database restart.

    A server that ends a connection, restarting or not, says so and closes it, while an idle
    connection to a server that is up hears nothing (the app never LISTENs), or at most a rare
    notice: a connection with input waiting is taken for gone, and at worst one is replaced
    that could have served. Checked so, a checkout costs no round trip, where a pre-ping costs
    one per request.
    """
    if dbapi_connection.closed or _has_input(dbapi_connection.fileno()):
        raise DisconnectionError("the database server closed this connection")


def _has_input(descriptor: int) -> bool:
    poll = select.poll()
    poll.register(descriptor, select.POLLIN)
    return bool(poll.poll(0))  # POLLHUP and POLLERR come unasked


def driver_connection(connection: Connection) -> Any:
    """Return the DB-API connection beneath an open SQLAlchemy connection."""
    driver = connection.connection.driver_connection
    assert driver is not None, "an open connection"
    return driver


def _begin_sqlite_transaction(connection: Connection) -> None:
    options = connection.get_execution_options()
    if options.get(AUTOCOMMIT_OPTION, False):
        return  # SQLite reads a statement on its own consistently, in a transaction of its own
    begin = BEGIN_WRITE["sqlite"] if options.get(WRITE_OPTION, False) else "BEGIN"
    # On the driver: every transaction begins so, and SQLAlchemy's execution costs more than it.
    driver_connection(connection).execute(begin)


@contextmanager
def single_read() -> Iterator[Connection]:
    """Yield the app context's own connection, outside the session, for one SELECT: the cheapest
    read there is, in autocommit, without the BEGIN and ROLLBACK a transaction would cost.
    Inside the write transaction of `write_connection`, the read is part of it."""
    with _single_statement() as connection:
        yield connection


@contextmanager
def single_write() -> Iterator[Connection]:
    """Yield a connection for one statement that writes, a transaction on its own: the app
    context's own connection, in autocommit, without the BEGIN and COMMIT a transaction would
    cost. Inside the session's write transaction, the session's connection, joining it."""
    if (session_connection := _session_write_connection()) is not None:
        yield session_connection
        return
    with _serialized_writes(), _single_statement() as connection:
        yield connection


@contextmanager
def _single_statement() -> Iterator[Connection]:
    connection = _own_connection()
    in_write = connection.in_transaction()
    try:
        yield connection
    finally:
        if not in_write and connection.in_transaction():
            connection.rollback()  # SQLAlchemy's, begun in name only: the driver began none


@contextmanager
def write_transaction() -> Iterator[None]:
    """Run the block as one write transaction: commit when it succeeds, roll back when it fails.

    A read transaction the request still holds ends first, so the objects it loaded are read
    again inside the write. A block inside another write transaction joins it.
    """
    session = db.session()
    if _joins_session_write(session):
        yield  # the enclosing write transaction commits or rolls back
        return
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


@contextmanager
def write_connection() -> Iterator[Connection]:
    """Yield a connection in a write transaction of its own, for writes made in Core or on the
    driver, without the session's bookkeeping: commit when the block succeeds, roll back when
    it fails. Like `write_transaction`, it first ends a read transaction the request's session
    holds, and inside the session's write transaction joins it, on the session's connection."""
    if (session_connection := _session_write_connection()) is not None:
        yield session_connection
        return
    connection = _own_connection()
    with _serialized_writes(), connection.begin():
        # The connection runs in autocommit: its write transaction begins on the driver.
        driver_connection(connection).execute(BEGIN_WRITE[connection.dialect.name])
        yield connection


def _session_write_connection() -> Connection | None:
    """Return the session's connection if it is in a write transaction, which a write joins;
    else end the read transaction the request's session may hold, and return None."""
    session = db.session() if db.session.registry.has() else None
    if session is not None and _joins_session_write(session):
        return session.connection()
    return None


def _own_connection() -> Connection:
    """Return the app context's own connection outside the session, in autocommit: taken from
    the pool when first asked for and given back when the context ends, so that a request's
    reads and its write take it once."""
    connection: Connection | None = g.get(OWN_CONNECTION)
    if connection is None:
        connection = db.engine.connect()
        if connection.dialect.name == "postgresql":
            # psycopg then sends a SELECT alone, two round trips fewer; the connection goes
            # back to the pool in transaction mode again.
            connection.execution_options(isolation_level="AUTOCOMMIT")
        else:
            connection.execution_options(**{AUTOCOMMIT_OPTION: True})
        setattr(g, OWN_CONNECTION, connection)
    return connection


def _give_back_own_connection(_error: BaseException | None) -> None:
    connection: Connection | None = g.pop(OWN_CONNECTION, None)
    if connection is not None:
        connection.close()


def _joins_session_write(session: Session) -> bool:
    """Tell whether the session is in a write transaction, which a new one joins; else end the
    read transaction it may hold."""
    if session.info.get(IN_WRITE_TRANSACTION):
        return True
    _end_read_transaction(session)
    return False


def end_read() -> None:
    """End the request's read transaction: what it reads next is as stored then, and the
    objects it loaded are read again."""
    _end_read_transaction(db.session())


def _end_read_transaction(session: Session) -> None:
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("Make every change inside write_transaction(), not before it.")
    if session.in_transaction():
        session.commit()


def _serialized_writes() -> AbstractContextManager[None]:
    lock = current_app.extensions[EXTENSION_KEY].write_lock
    return lock.held() if lock else nullcontext()
