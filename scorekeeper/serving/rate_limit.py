"""A brake on guessing match ids and edit tokens: a client that keeps getting them wrong waits.

A request that names a match (`public_id` in its URL) and fails with 403 (a wrong edit token)
or 404 (an unknown match) is a wrong guess. A 404 once `match_found` was told of the match is
of a round not entered yet, which a phone asks for in good faith, and a 401 sent no token: neither
guessed anything.
Wrong guesses are counted per client and per window of `GUESS_WINDOW_SECONDS` in the
database, so that every app server behind a load balancer adds to one count. Past `GUESS_LIMIT`
of them, the client's requests for matches answer 429 with Retry-After until the window ends.

Requests that succeed cost nothing; a wrong guess costs one upsert. The process that refuses a
client remembers it until the window ends and refuses its requests for matches at once, right
guesses included, without asking the database; another process learns it from its own first
refusal. That memory only repeats the shared count, and a restart loses nothing of it.

The client is `request.remote_addr`. Behind a load balancer or proxy, set `TRUSTED_PROXIES` to
the number of proxies in front that append to X-Forwarded-For: werkzeug's ProxyFix then takes
the client from there. Never set it without such a proxy: clients could then name themselves.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from flask import Flask, Response, current_app, g, request
from flask_babel import ngettext
from sqlalchemy.dialects import postgresql, sqlite
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.store.database import write_transaction
from scorekeeper.store.models import GuessWindow, db, utc_now

DEFAULTS = {
    "GUESS_LIMIT": 30,  # wrong guesses a client may make per window
    "GUESS_WINDOW_SECONDS": 600,
    "TRUSTED_PROXIES": 0,  # proxies in front that append the client to X-Forwarded-For
}
MATCH_ARGUMENT = "public_id"  # the URL variable of every route that names a match
MAX_CLIENT_LENGTH = 64
MAX_REMEMBERED = 10_000  # refused clients a process remembers; past that the database decides
EXTENSION_KEY = "scorekeeper.serving.rate_limit"
MATCH_FOUND_KEY = "scorekeeper_match_found"  # in flask.g
# Each dialect's INSERT, which can update the row it would duplicate.
UPSERTS: dict[str, Callable[[type[GuessWindow]], sqlite.Insert | postgresql.Insert]] = {
    "sqlite": sqlite.insert,
    "postgresql": postgresql.insert,
}


@dataclass
class Refusals:
    """The clients this process refused, each until the end of its window."""

    until: dict[str, datetime] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def refused_until(self, client: str, now: datetime) -> datetime | None:
        until = self.until.get(client)
        return until if until is not None and until > now else None

    def remember(self, client: str, until: datetime, now: datetime) -> None:
        with self.lock:
            if len(self.until) >= MAX_REMEMBERED:
                self.until = {known: end for known, end in self.until.items() if end > now}
            if len(self.until) < MAX_REMEMBERED:
                self.until[client] = until


def init_app(app: Flask) -> None:
    """Count wrong guesses at matches and refuse clients who make too many."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    if proxies := app.config["TRUSTED_PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    app.extensions[EXTENSION_KEY] = Refusals()
    app.before_request(refuse_known_guesser)
    app.after_request(count_wrong_guess)


def match_found() -> None:
    """Tell the rate limit that the match the request names exists, so that a 404 after it is no
    wrong guess."""
    setattr(g, MATCH_FOUND_KEY, True)


def refuse_known_guesser() -> None:
    """Refuse a request for a match from a client this process refused, until its window ends."""
    if _names_match():
        now = utc_now()
        until = _refusals().refused_until(_client(), now)
        if until is not None:
            raise _too_many(until, now)


def count_wrong_guess(response: Response) -> Response:
    """Count a failed request for a match; past the limit, answer 429 in its place."""
    if not _guessed_wrong(response.status_code) or not _names_match():
        return response
    now, client = utc_now(), _client()
    start = _window_start(now)
    if _count(client, start) <= current_app.config["GUESS_LIMIT"]:
        return response
    until = start + timedelta(seconds=current_app.config["GUESS_WINDOW_SECONDS"])
    _refusals().remember(client, until, now)
    return current_app.make_response(current_app.handle_http_exception(_too_many(until, now)))


def _guessed_wrong(status: int) -> bool:
    return status == 403 or (status == 404 and not g.get(MATCH_FOUND_KEY, False))


def _names_match() -> bool:
    return MATCH_ARGUMENT in (request.view_args or {})


def _client() -> str:
    return (request.remote_addr or "unknown")[:MAX_CLIENT_LENGTH]


def _refusals() -> Refusals:
    refusals: Refusals = current_app.extensions[EXTENSION_KEY]
    return refusals


def _window_start(now: datetime) -> datetime:
    """Return the start of the window `now` falls in; windows start at multiples of its length
    since the epoch, so every server agrees on them."""
    seconds = current_app.config["GUESS_WINDOW_SECONDS"]
    return datetime.fromtimestamp(now.timestamp() // seconds * seconds, UTC)


def _count(client: str, window_start: datetime) -> int:
    """Add a wrong guess to the client's window, in one statement; return the window's count."""
    upsert = UPSERTS[db.engine.dialect.name](GuessWindow)
    statement = (
        upsert.values(window_start=window_start, client=client, failures=1)
        .on_conflict_do_update(
            index_elements=[GuessWindow.window_start, GuessWindow.client],
            set_={"failures": GuessWindow.failures + 1},
        )
        .returning(GuessWindow.failures)
    )
    with write_transaction():
        failures: int = db.session.execute(statement).scalar_one()
        if failures == 1:  # the client's first in this window: forget earlier windows, once
            db.session.execute(
                db.delete(GuessWindow).where(GuessWindow.window_start < window_start),
                execution_options={"synchronize_session": False},
            )
    return failures


def _too_many(until: datetime, now: datetime) -> TooManyRequests:
    seconds = math.ceil((until - now).total_seconds())
    message = ngettext(
        "Too many wrong match links or edit tokens came from here. Try again in a minute.",
        "Too many wrong match links or edit tokens came from here. Try again in %(num)s minutes.",
        math.ceil(seconds / 60),
    )
    return TooManyRequests(message, retry_after=seconds)
