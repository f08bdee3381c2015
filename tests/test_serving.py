"""Serving for real: gunicorn and the development server start, answer, and log no token."""

from __future__ import annotations

import gc
import http.client
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask
from gunicorn.config import Config

from scorekeeper import ROOT
from scorekeeper.config import Defaults
from scorekeeper.serving import gunicorn_conf
from scorekeeper.serving.logs import REDACTED, RedactTokens, redact_tokens
from scorekeeper.serving.security import DEFAULT_HSTS_MAX_AGE, TOKEN_ARGUMENT

TOKEN = "Zm9vYmFyLXNlY3JldC10b2tlbi1mb3ItdGVzdHMtb25seQ"
BIN = Path(sys.executable).parent
MAX_CONTENT_LENGTH = Defaults.MAX_CONTENT_LENGTH
STARTUP_DEADLINE = 30.0  # seconds; a server that has not answered by then has failed


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        (
            f'127.0.0.1 "GET /m/abc/edit/{TOKEN} HTTP/1.1" 200',
            f'127.0.0.1 "GET /m/abc/edit/{REDACTED} HTTP/1.1" 200',
        ),
        (
            f"POST /m/abc/edit/{TOKEN}/rounds/3/delete",
            f"POST /m/abc/edit/{REDACTED}/rounds/3/delete",
        ),
        (f"/m/abc/edit/{TOKEN}?lang=de", f"/m/abc/edit/{REDACTED}?lang=de"),
        (f"POST /c/abc/edit/{TOKEN}/players", f"POST /c/abc/edit/{REDACTED}/players"),
        (f"Authorization: Bearer {TOKEN}", f"Authorization: Bearer {REDACTED}"),
        (f'"authorization": "bearer {TOKEN}"', f'"authorization": "bearer {REDACTED}"'),
        (
            f'"GET /m/abc/%65dit/{TOKEN} HTTP/1.1"',
            f'"GET /m/abc/%65dit/{REDACTED} HTTP/1.1"',
        ),
        (f"/m/abc/edit/%{ord(TOKEN[0]):x}{TOKEN[1:]}", f"/m/abc/edit/{REDACTED}"),
        (f"/m/abc%2Fedit%2f{TOKEN}?lang=de", f"/m/abc%2Fedit%2f{REDACTED}?lang=de"),
        (f"/m//abc//edit//{TOKEN}", f"/m//abc//edit//{REDACTED}"),
        ("GET /m/abc HTTP/1.1", "GET /m/abc HTTP/1.1"),
        ("GET /m/abc/edit%", "GET /m/abc/edit%"),
        ("GET /api/v1/presets", "GET /api/v1/presets"),
    ],
)
def test_a_log_line_keeps_everything_but_the_token(line: str, logged: str) -> None:
    assert redact_tokens(line) == logged


def test_the_token_the_router_matched_is_redacted_wherever_the_path_holds_it() -> None:
    line = f"GET /anywhere/%{ord(TOKEN[0]):X}{TOKEN[1:]}?{TOKEN}x HTTP/1.1 200"
    assert redact_tokens(line, TOKEN) == f"GET /anywhere/{REDACTED}?{TOKEN}x HTTP/1.1 200"


def test_every_route_holding_a_token_is_redacted_in_logs(app: Flask) -> None:
    adapter = app.url_map.bind("localhost")
    token_rules = [rule for rule in app.url_map.iter_rules() if TOKEN_ARGUMENT in rule.arguments]
    assert token_rules, "the match pages hold their edit token in the URL"
    for rule in token_rules:
        values = {arg: TOKEN if arg == TOKEN_ARGUMENT else "1" for arg in rule.arguments}
        url = adapter.build(rule.endpoint, values, method=sorted(rule.methods or ())[0])
        assert TOKEN not in redact_tokens(f'"GET {url} HTTP/1.1"'), rule.rule


def test_the_filter_redacts_the_message_its_arguments_and_the_traceback() -> None:
    record = logging.LogRecord("t", logging.ERROR, __file__, 1, "Exception on %s", (), None)
    record.args = (f"/m/abc/edit/{TOKEN}",)
    try:
        raise LookupError(f"/m/abc/edit/{TOKEN}")
    except LookupError:
        record.exc_info = sys.exc_info()
    RedactTokens().filter(record)
    assert record.getMessage() == f"Exception on /m/abc/edit/{REDACTED}"
    assert TOKEN not in (record.exc_text or "") and REDACTED in (record.exc_text or "")


def test_a_malformed_logging_call_still_logs_no_token() -> None:
    record = logging.LogRecord("t", logging.INFO, __file__, 1, "%s and %s", None, None)
    record.args = (f"Bearer {TOKEN}",)
    RedactTokens().filter(record)
    assert TOKEN not in record.getMessage() and REDACTED in record.getMessage()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def served_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Return a SQLite database that `flask db upgrade` prepared, as `make serve` does."""
    url = f"sqlite:///{tmp_path_factory.mktemp('serving') / 'serve.sqlite'}"
    command = [str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"]
    subprocess.run(command, env={**os.environ, "DATABASE_URL": url}, cwd=ROOT, check=True)
    return url


def server_environment(database_url: str, **variables: str) -> dict[str, str]:
    """Return the environment of a server process: its database and a real secret key."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": secrets.token_hex(),
        **variables,
    }


def get(url: str) -> tuple[int, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


@contextmanager
def serving(command: list[str], env: dict[str, str], log: Path, url: str) -> Iterator[None]:
    """Run a server for the block, once it answers at `url`; its output goes to `log`."""
    with log.open("w") as output:
        server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=output, stderr=output)
        try:
            wait_until_answering(server, url)
            yield
        finally:
            server.terminate()
            server.wait(timeout=20)


def wait_until_answering(server: subprocess.Popen[bytes], url: str) -> None:
    deadline = time.monotonic() + STARTUP_DEADLINE
    while server.poll() is None and time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server at {url} never answered")


def test_gunicorn_serves_with_the_production_settings_and_logs_no_token(
    tmp_path: Path, served_database: str
) -> None:
    port, log = free_port(), tmp_path / "gunicorn.log"
    env = server_environment(served_database, BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1")
    command = [str(BIN / "gunicorn"), "--config", "python:scorekeeper.serving.gunicorn_conf"]
    with serving(command, env, log, f"http://127.0.0.1:{port}/robots.txt"):
        status, headers = get(f"http://127.0.0.1:{port}/")
        token_status, _ = get(f"http://127.0.0.1:{port}/m/abc/edit/{TOKEN}")
    output = log.read_text()
    assert (status, token_status) == (200, 404)
    assert headers["X-Frame-Options"] == "DENY"
    assert '"GET / HTTP/1.1" 200' in output
    assert f"/m/abc/edit/{REDACTED}" in output
    assert TOKEN not in output


def test_the_master_freezes_the_loaded_app_before_forking_a_worker() -> None:
    assert "pre_fork" in Config().settings, "gunicorn runs the configuration's pre_fork hook"
    try:
        gunicorn_conf.pre_fork(None, None)  # type: ignore[arg-type]  # the hook uses neither
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_a_worker_told_to_stop_as_it_boots_stops_rather_than_serve_on() -> None:
    # The arbiter, as far as post_fork asks it: the app it loaded, here not a Flask app, so that
    # post_fork leaves the database alone.
    arbiter = SimpleNamespace(app=SimpleNamespace(wsgi=object))
    inherited = signal.signal(signal.SIGTERM, lambda *_: None)  # the master's, in a new fork
    try:
        gunicorn_conf.post_fork(arbiter, None)  # type: ignore[arg-type]
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, inherited)


def test_gunicorn_refuses_to_start_without_a_real_secret_key(served_database: str) -> None:
    env = server_environment(served_database, BIND=f"127.0.0.1:{free_port()}")
    env["SECRET_KEY"] = "k" * 64  # long, but one character
    command = [str(BIN / "gunicorn"), "--config", "python:scorekeeper.serving.gunicorn_conf"]
    result = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_the_development_server_logs_no_token(tmp_path: Path, served_database: str) -> None:
    port, log = free_port(), tmp_path / "flask.log"
    command = [str(BIN / "flask"), "--app", "scorekeeper", "run", "--port", str(port)]
    with serving(command, server_environment(served_database), log, f"http://127.0.0.1:{port}/"):
        status, _ = get(f"http://127.0.0.1:{port}/m/abc/edit/{TOKEN}")
    output = log.read_text()
    assert status == 404
    assert f"/m/abc/edit/{REDACTED}" in output
    assert TOKEN not in output


# -- One gunicorn for the tests that only send it requests and read its log -----------------------

GUNICORN = [str(BIN / "gunicorn"), "--config", "python:scorekeeper.serving.gunicorn_conf"]
NEW_MATCH = {
    "name": "Friday",
    "sides": [{"name": "Us", "players": ["A"]}, {"name": "Them", "players": ["B"]}],
}


@dataclass(frozen=True)
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


@dataclass(frozen=True)
class Served:
    """A gunicorn with the production settings, on loopback, and its log."""

    port: int
    log: Path

    def send(
        self,
        method: str,
        path: str,
        body: bytes | Iterable[bytes] | None = None,
        headers: dict[str, str] | None = None,
        *,
        chunked: bool = False,
    ) -> Answer:
        """Send one request on a connection of its own, its body in chunks when `chunked`."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body, headers or {}, encode_chunked=chunked)
            response = connection.getresponse()
            return Answer(response.status, response.headers, response.read())
        finally:
            connection.close()

    def logged(self, *markers: str) -> str:
        """Return the log once it holds every marker: gunicorn logs a request after answering
        it, each worker in its own time, so one request's line may come after the next's."""
        deadline = time.monotonic() + STARTUP_DEADLINE
        while True:
            text = self.log.read_text()
            if all(marker in text for marker in markers) or time.monotonic() > deadline:
                return text
            time.sleep(0.05)

    def new_match(self) -> tuple[str, str]:
        """Create a match through the API; return its id and edit token."""
        answer = self.send("POST", "/api/v1/matches", json.dumps(NEW_MATCH).encode(), JSON)
        created = json.loads(answer.body)
        return created["id"], created["edit_token"]


JSON = {"Content-Type": "application/json"}


@contextmanager
def gunicorn_serving(database_url: str, log: Path, **variables: str) -> Iterator[Served]:
    """Serve the app with gunicorn, two workers as by default, for the block."""
    port = free_port()
    env = server_environment(
        database_url, BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="2", LOG_LEVEL="info", **variables
    )
    with serving(GUNICORN, env, log, f"http://127.0.0.1:{port}/robots.txt"):
        yield Served(port, log)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, served_database: str) -> Iterator[Served]:
    with gunicorn_serving(served_database, tmp_path_factory.mktemp("served") / "log") as server:
        yield server


def chunks(body: bytes, size: int = 8192) -> Iterator[bytes]:
    return (body[start : start + size] for start in range(0, len(body), size))


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "declared"])
@pytest.mark.parametrize(
    ("path", "sent_type", "answer_type"),
    [
        ("/api/v1/score", "application/json", "application/json"),
        ("/matches/new", "application/x-www-form-urlencoded", "text/html"),
    ],
    ids=["API", "page"],
)
@pytest.mark.parametrize("size", [MAX_CONTENT_LENGTH + 1, 4 * MAX_CONTENT_LENGTH])
def test_a_body_over_the_limit_is_refused_with_413_however_it_is_sent(
    served: Served, path: str, sent_type: str, answer_type: str, chunked: bool, size: int
) -> None:
    body = b"x" * size
    headers = {"Content-Type": sent_type}
    answer = served.send("POST", path, chunks(body) if chunked else body, headers, chunked=chunked)
    assert answer.status == 413
    assert answer.headers["Content-Type"].startswith(answer_type)


def test_a_chunked_body_within_the_limit_is_read_whole(served: Served) -> None:
    body = json.dumps({**NEW_MATCH, "name": "x" * 40}).encode()
    answer = served.send("POST", "/api/v1/matches", chunks(body, 16), JSON, chunked=True)
    assert answer.status == 201, answer.body


def test_a_chunked_club_import_over_the_limit_of_other_bodies_is_read_whole(
    served: Served,
) -> None:
    """A club's import has a limit of its own, as large as a club's years of matches need."""
    created = served.send("POST", "/api/v1/clubs", json.dumps({"name": "Big"}).encode(), JSON)
    club = json.loads(created.body)["id"]
    export = served.send("GET", f"/api/v1/clubs/{club}/export").body
    padded = b" " * MAX_CONTENT_LENGTH + export  # JSON may begin with white space

    answer = served.send("POST", "/api/v1/clubs/import", chunks(padded), JSON, chunked=True)

    assert answer.status == 201, answer.body
    assert json.loads(answer.body)["id"] != club


def percent_encoded(text: str) -> str:
    return "".join(f"%{ord(character):02X}" for character in text)


def test_gunicorn_logs_no_token_however_the_path_spells_it(served: Served) -> None:
    public_id, token = served.new_match()
    spellings = {
        f"/m/{public_id}/%65dit/{token}": 200,
        f"/m/{public_id}/edit/{percent_encoded(token)}": 200,
        f"/m/{public_id}%2Fedit%2F{token}/share": 200,
        f"/m/{public_id}//edit/{token}": 308,  # to the page's own URL
    }
    statuses = {
        path: served.send("GET", f"{path}?n={n}").status for n, path in enumerate(spellings)
    }
    log = served.logged(*(f"?n={n} " for n in range(len(spellings))))
    assert statuses == spellings
    assert token not in log and percent_encoded(token) not in log
    assert log.count(REDACTED) >= len(spellings)


HTTPS_FROM_PROXY = {"X-Forwarded-Proto": "https"}


def test_gunicorn_sends_hsts_when_the_trusted_proxy_says_the_request_came_over_https(
    served: Served,
) -> None:
    over_https = served.send("GET", "/", headers=HTTPS_FROM_PROXY)
    over_http = served.send("GET", "/")
    assert over_https.headers["Strict-Transport-Security"] == f"max-age={DEFAULT_HSTS_MAX_AGE}"
    assert "Strict-Transport-Security" not in over_http.headers


def test_gunicorn_sends_no_hsts_when_an_untrusted_peer_claims_https(
    tmp_path: Path, served_database: str
) -> None:
    trusting_another = {"FORWARDED_ALLOW_IPS": "192.0.2.1"}  # not this test, on 127.0.0.1
    with gunicorn_serving(served_database, tmp_path / "log", **trusting_another) as server:
        answer = server.send("GET", "/", headers=HTTPS_FROM_PROXY)
    assert answer.status == 200
    assert "Strict-Transport-Security" not in answer.headers


def test_gunicorn_renders_one_pdf_at_a_time_and_answers_the_others_503(served: Served) -> None:
    never_cached = [f"/rules/standard/sheet.pdf?sides=Table{n}&sides=Guests" for n in range(8)]
    with ThreadPoolExecutor(len(never_cached)) as clients:
        answers = list(clients.map(lambda path: served.send("GET", path), never_cached))

    assert {answer.status for answer in answers} == {200, 503}
    busy = next(answer for answer in answers if answer.status == 503)
    assert busy.headers["Retry-After"] == "5"
    assert b"Other PDFs are being made right now" in busy.body
