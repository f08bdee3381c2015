"""The real server for load and crash tests: gunicorn with the production settings, on loopback.

Each server runs in a process group of its own, so that a test can kill it whole, as a power cut
or the OOM killer would; clients talk JSON over keep-alive HTTP connections.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import make_url, text

from scorekeeper import ROOT
from scorekeeper.store.models import db

BIN = Path(sys.executable).parent
STARTUP_DEADLINE = 60.0  # seconds; a server that has not answered by then has failed
# Every client of a load test is 127.0.0.1: keep the brake on wrong guesses out of their way.
SERVER_CONFIG = {"SCOREKEEPER_GUESS_LIMIT": "1000000000"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_database_url(config: Mapping[str, Any]) -> str:
    """Return the URL that reaches a test app's database from another process.

    On PostgreSQL the test's schema travels in `connect_args`; the URL carries it as a query.
    """
    url = make_url(config["SQLALCHEMY_DATABASE_URI"])
    connect_args = config.get("SQLALCHEMY_ENGINE_OPTIONS", {}).get("connect_args", {})
    return url.update_query_dict(connect_args).render_as_string(hide_password=False)


@dataclass(frozen=True)
class Server:
    """A running gunicorn: where it answers, its process and its log."""

    host: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """Kill the master and every worker at once, with no chance to clean up."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def client(self) -> JsonClient:
        return JsonClient(self.host, self.port)


@contextmanager
def gunicorn(
    database_url: str,
    log: Path,
    *,
    workers: int = 2,
    app: str | None = None,
    config: Mapping[str, str] | None = None,
) -> Iterator[Server]:
    """Serve the app (or `app`) with the production gunicorn settings for the block, and the
    environment variables in `config`."""
    port = free_port()
    env = {
        **os.environ,
        **SERVER_CONFIG,
        **(config or {}),
        "DATABASE_URL": database_url,
        "SECRET_KEY": secrets.token_hex(),
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(workers),
        "LOG_LEVEL": "warning",
    }
    command = [str(BIN / "gunicorn"), "--config", "python:scorekeeper.serving.gunicorn_conf"]
    command += [app] if app else []
    with log.open("ab") as output:
        process = subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=output, stderr=output, start_new_session=True
        )
    server = Server("127.0.0.1", port, process, log)
    try:
        _wait_until_answering(server)
        yield server
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


def _wait_until_answering(server: Server) -> None:
    deadline = time.monotonic() + STARTUP_DEADLINE
    while server.process.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection((server.host, server.port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"gunicorn never answered; its log:\n{server.log.read_text()[-3000:]}")


@dataclass(frozen=True)
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: Any  # the decoded JSON, or None for an empty or non-JSON body

    @property
    def etag(self) -> int:
        return int((self.headers.get("ETag") or '""').strip('W/"'))


class JsonClient:
    """One client's keep-alive connection, as a phone at the table keeps one."""

    def __init__(self, host: str, port: int) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=60)

    def send(
        self, method: str, path: str, body: object = None, headers: Mapping[str, str] | None = None
    ) -> Answer:
        """Send a request; raise `OSError` (or `http.client.HTTPException`) when the server is
        gone before it answers."""
        data = None if body is None else json.dumps(body).encode()
        sent = {**({"Content-Type": "application/json"} if data else {}), **(headers or {})}
        try:
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            raise
        content_type = response.headers.get("Content-Type", "")
        decoded = json.loads(raw) if raw and content_type.startswith("application/json") else None
        return Answer(response.status, response.headers, decoded)

    def close(self) -> None:
        self.connection.close()


def bearer(token: str, version: int | None = None) -> dict[str, str]:
    """Return the headers of a change: the edit token, and the round's version when editing."""
    headers = {"Authorization": f"Bearer {token}"}
    return headers if version is None else {**headers, "If-Match": f'"{version}"'}


def server_errors(log: Path) -> list[str]:
    """Return the log lines that betray a failure: a traceback, a 5xx, a locked database."""
    signs = ("Traceback", "database is locked", '" 50', "[ERROR]", "[CRITICAL]")
    return [line for line in log.read_text().splitlines() if any(s in line for s in signs)]


AMCHECK_SCHEMA = text(
    """
    SELECT public.bt_index_check(index.indexrelid, true)
    FROM pg_index AS index
    JOIN pg_class AS relation ON relation.oid = index.indexrelid
    JOIN pg_am AS method ON method.oid = relation.relam
    WHERE relation.relnamespace = current_schema()::regnamespace AND method.amname = 'btree'
    """
)


def integrity_problems(app: Flask) -> list[str]:
    """Return what the database's own checker finds wrong with the test's data; [] when sound.

    SQLite runs `PRAGMA integrity_check`; PostgreSQL checks every B-tree index of the test's
    schema against its table with amcheck.
    """
    with app.app_context():
        if db.engine.url.get_backend_name() == "sqlite":
            rows = db.session.execute(text("PRAGMA integrity_check")).scalars().all()
            return [] if rows == ["ok"] else list(rows)
        with db.engine.begin() as connection:
            connection.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public")
            connection.execute(AMCHECK_SCHEMA)  # raises on the first damaged index
        return []
