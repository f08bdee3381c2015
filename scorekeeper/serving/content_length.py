"""The limits on request bodies (`MAX_CONTENT_LENGTH`, and a club's import's
`MAX_CLUB_IMPORT_LENGTH`), for bodies sent without a Content-Length.

Werkzeug refuses a body that declares a length over the limit with 413 before reading it. A
chunked body declares none: werkzeug then reads it up to the limit and stops there without a word
(its LimitedStream stops at the limit rather than refusing what follows), so the view saw an
oversized body cut short, JSON or a form that no longer parsed, and answered 400. Read here first,
up to one byte past the limit, the body reaches the app with its length declared, and one over
the limit gets the same 413, page or JSON, as one that said its length. The body is read up to
the largest limit, which only a club's import has: a view sets its own limit, and Flask holds the
declared length to it.

What follows an oversized body is read and thrown away, up to `DISCARDED_PER_LIMIT` times the
limit: gunicorn's sync workers close the connection after answering without reading on, and a
client still sending would see the connection reset rather than its 413.
"""

from __future__ import annotations

import collections
import io
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any

from flask import Flask

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

READ_SIZE = 64 * 1024
DISCARDED_PER_LIMIT = 4


def init_app(app: Flask) -> None:
    """Give chunked request bodies the app's limit on bodies."""
    app.wsgi_app = DeclaredLength(app.wsgi_app, app.config)  # type: ignore[method-assign]


class DeclaredLength:
    """WSGI middleware that reads a body sent without a Content-Length, up to one byte past the
    largest limit, and hands it on with its length declared."""

    def __init__(self, app: WSGIApplication, config: Mapping[str, Any]) -> None:
        self.app = app
        self.config = config

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        limit = largest_limit(self.config)
        if limit is not None and has_undeclared_body(environ):
            stream = environ["wsgi.input"]
            body = b"".join(parts(stream, limit + 1))
            if len(body) > limit:
                collections.deque(parts(stream, DISCARDED_PER_LIMIT * limit), maxlen=0)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            del environ["HTTP_TRANSFER_ENCODING"]  # werkzeug reads no length beside "chunked"
        return self.app(environ, start_response)


def largest_limit(config: Mapping[str, Any]) -> int | None:
    """Return the largest body any view takes, or None when no limit is set."""
    limits = (config.get(key) for key in ("MAX_CONTENT_LENGTH", "MAX_CLUB_IMPORT_LENGTH"))
    return max((int(limit) for limit in limits if limit is not None), default=None)


def has_undeclared_body(environ: WSGIEnvironment) -> bool:
    """Tell whether the request has a chunked body that the server has decoded and ends: the
    only kind that may be read without a Content-Length."""
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    declared = bool(environ.get("CONTENT_LENGTH"))
    return chunked and not declared and bool(environ.get("wsgi.input_terminated"))


def parts(stream: IO[bytes], size: int) -> Iterator[bytes]:
    """Yield the stream's next `size` bytes in parts, or all that is left of it if less."""
    left = size
    while left > 0 and (part := stream.read(min(left, READ_SIZE))):
        yield part
        left -= len(part)
