"""A brake on guessing match ids and edit tokens: a key that keeps guessing wrong is answered 429.

A request that names a match (`public_id` in its URL) and fails with 403 (a wrong edit token)
or 404 (an unknown match) is a wrong guess. A 404 once `match_found` was told of the match is
of a round not entered yet, which a phone asks for in good faith, and a 401 sent no token: neither
guessed anything.

Each wrong guess counts against rate-limit keys: always the client's address (for IPv6 its /64
network, which one household or club gets whole and may fill with addresses at will), and for a
wrong edit token the match too, so that guessing one match's token from many addresses is slowed
as well. A key may have `GUESS_LIMIT` wrong guesses within any `GUESS_WINDOW_SECONDS`: a sliding
window, in which each guess counts from the moment it was made until it is that old. A wrong
guess past a key's limit is answered 429 with Retry-After, the time until enough of the key's
guesses have aged out for the next one to be answered.

Only wrong guesses are ever refused. A request that presents a correct edit token, or asks for a
match that exists (its page, its poll, its PDFs), is answered whatever was guessed before, at the
same address or anywhere else: one guesser on a club's shared network, or behind the same proxy,
locks nobody else out. The limit cannot hide from a guesser that a guess was right, then, since
a right one is answered; the random bits of match ids (128) and edit tokens (256) are what make
guessing hopeless. What it does is keep wrong guesses cheap and visible: past the limit, a
process that refused a key answers its wrong guesses without writing anything, and the 429s in
the access log tell an operator who is guessing.

The guesses are stored in the database, so that every app server behind a load balancer adds to
one count and a restart forgets none; a wrong guess under the limit costs one write transaction.

The client is `request.remote_addr`. Behind a load balancer or proxy, set `TRUSTED_PROXIES` to
the number of proxies in front that append to X-Forwarded-For: werkzeug's ProxyFix then takes
the client from there. Never set it without such a proxy: clients could then name themselves.
"""

from __future__ import annotations

import enum
import ipaddress
import math
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from flask import Flask, Response, current_app, g, request
from flask_babel import ngettext
from sqlalchemy import and_, or_
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.store.database import write_transaction
from scorekeeper.store.models import WrongGuess, db, utc_now

DEFAULTS = {
    "GUESS_LIMIT": 30,  # wrong guesses a key may have within any window
    "GUESS_WINDOW_SECONDS": 600,
    "TRUSTED_PROXIES": 0,  # proxies in front that append the client to X-Forwarded-For
}
MATCH_ARGUMENT = "public_id"  # the URL variable of every route that names a match
MAX_KEY_LENGTH = 64
IPV6_NETWORK_BITS = 64  # the network a household, or a club's Wi-Fi, gets at the least
MAX_REMEMBERED = 10_000  # refused keys a process remembers; past that the database decides
EXTENSION_KEY = "scorekeeper.serving.rate_limit"
MATCH_FOUND_KEY = "scorekeeper_match_found"  # in flask.g


class Scope(enum.StrEnum):
    """What a rate-limit key names."""

    ADDRESS = "address"
    MATCH = "match"


Key = tuple[Scope, str]


@dataclass(frozen=True)
class Refusal:
    """A key past its limit, refused until its next guess would be within it again."""

    scope: Scope
    until: datetime


@dataclass
class Refusals:
    """The keys this process refused, each until its refusal ends."""

    until: dict[Key, datetime] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def refusal(self, keys: Sequence[Key], now: datetime) -> Refusal | None:
        """Return the longest refusal among `keys` still in force, if any."""
        found = [Refusal(key[0], until) for key in keys if (until := self.until.get(key))]
        return latest([refusal for refusal in found if refusal.until > now])

    def remember(self, key: Key, until: datetime, now: datetime) -> None:
        with self.lock:
            if len(self.until) >= MAX_REMEMBERED:
                self.until = {known: end for known, end in self.until.items() if end > now}
            if len(self.until) < MAX_REMEMBERED:
                self.until[key] = until


def latest(refusals: Sequence[Refusal]) -> Refusal | None:
    return max(refusals, key=lambda refusal: refusal.until, default=None)


def init_app(app: Flask) -> None:
    """Count wrong guesses at matches and refuse those past the limit."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    if proxies := app.config["TRUSTED_PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    app.extensions[EXTENSION_KEY] = Refusals()
    app.after_request(count_wrong_guess)


def match_found() -> None:
    """Tell the rate limit that the match the request names exists, so that a 404 after it is no
    wrong guess."""
    setattr(g, MATCH_FOUND_KEY, True)


def was_match_found() -> bool:
    """Tell whether the match the request names was found."""
    return bool(g.get(MATCH_FOUND_KEY, False))


def count_wrong_guess(response: Response) -> Response:
    """Count a request for a match that guessed wrong; past a key's limit, answer 429 in its
    place. Any other answer goes out as it is."""
    if not _guessed_wrong(response.status_code) or not _names_match():
        return response
    now, keys = utc_now(), _keys(response.status_code)
    refusal = _refusals().refusal(keys, now) or _count(keys, now)
    if refusal is None:
        return response
    return current_app.make_response(current_app.handle_http_exception(_too_many(refusal, now)))


def _guessed_wrong(status: int) -> bool:
    return status == 403 or (status == 404 and not was_match_found())


def _names_match() -> bool:
    return MATCH_ARGUMENT in (request.view_args or {})


def _keys(status: int) -> list[Key]:
    """Return the keys a wrong guess counts against: the address, and the match whose edit
    token it got wrong (a 403 is only answered for a match that exists)."""
    keys = [(Scope.ADDRESS, address_key(request.remote_addr or "unknown"))]
    if status == 403:
        public_id: str = (request.view_args or {})[MATCH_ARGUMENT]
        keys.append((Scope.MATCH, public_id[:MAX_KEY_LENGTH]))
    return keys


def address_key(address: str) -> str:
    """Return the key a client's address counts under: the address, or an IPv6 address's /64
    network; an IPv4 address that IPv6 carries counts as itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:MAX_KEY_LENGTH]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_NETWORK_BITS), strict=False))
    return str(ip)


def _refusals() -> Refusals:
    refusals: Refusals = current_app.extensions[EXTENSION_KEY]
    return refusals


def _count(keys: Sequence[Key], now: datetime) -> Refusal | None:
    """Count a wrong guess against each key, in one write transaction; return the longest
    refusal of a key it takes past the limit, which this process then remembers."""
    limit = current_app.config["GUESS_LIMIT"]
    window = timedelta(seconds=current_app.config["GUESS_WINDOW_SECONDS"])
    guesses = [{"scope": scope, "key": key, "guessed_at": now} for scope, key in keys]
    with write_transaction():
        db.session.execute(db.insert(WrongGuess), guesses)
        counted = _guessed_since(keys, now - window)
        if any(len(times) == 1 for times in counted.values()):  # a key's first: forget, once
            _forget_older(now - window)
    # Past the limit, the next guess is within it once all but `limit - 1` have aged out.
    refused = {key: times[-limit] + window for key, times in counted.items() if len(times) > limit}
    for key, until in refused.items():
        _refusals().remember(key, until, now)
    refusals = [Refusal(scope, until) for (scope, _), until in refused.items()]
    return latest(refusals)


def _guessed_since(keys: Sequence[Key], since: datetime) -> dict[Key, list[datetime]]:
    """Return when each key's wrong guesses after `since` were made, the oldest first."""
    of_keys = or_(*(and_(WrongGuess.scope == scope, WrongGuess.key == key) for scope, key in keys))
    rows = db.session.execute(
        db.select(WrongGuess.scope, WrongGuess.key, WrongGuess.guessed_at)
        .where(of_keys, WrongGuess.guessed_at > since)
        .order_by(WrongGuess.guessed_at)
    )
    counted: dict[Key, list[datetime]] = defaultdict(list)
    for scope, key, guessed_at in rows:
        counted[Scope(scope), key].append(guessed_at)
    return counted


def _forget_older(than: datetime) -> None:
    db.session.execute(
        db.delete(WrongGuess).where(WrongGuess.guessed_at <= than),
        execution_options={"synchronize_session": False},
    )


def _too_many(refusal: Refusal, now: datetime) -> TooManyRequests:
    seconds = math.ceil((refusal.until - now).total_seconds())
    minutes = math.ceil(seconds / 60)
    if refusal.scope is Scope.MATCH:
        message = ngettext(
            "Too many wrong edit tokens were tried for this match. Try again in a minute.",
            "Too many wrong edit tokens were tried for this match. Try again in %(num)s minutes.",
            minutes,
        )
    else:
        message = ngettext(
            "Too many wrong match links or edit tokens came from here. Try again in a minute.",
            "Too many wrong match links or edit tokens came from here. "
            "Try again in %(num)s minutes.",
            minutes,
        )
    return TooManyRequests(message, retry_after=seconds)
