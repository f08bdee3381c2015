"""Log lines without edit tokens: one redaction, on every logger that sees request URLs.

`init_app` covers the app's own log and the development server's request log (`make run`);
`gunicorn_conf.RedactingLogger` covers gunicorn's access and error logs (`make serve`).

A URL may spell a path in percent-escapes (`/m/<id>/%65dit/<token>` opens the edit page as
`/edit/` does), so paths are matched as decoded, and what is replaced is the token as the line
spells it. Gunicorn's access log also loses the exact token that the router matched
(`MATCHED_TOKEN`), wherever the path held it, so that no spelling the router accepts, now or in
a route added later, depends on the pattern below knowing it.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from flask import Flask, request

from scorekeeper.serving.security import TOKEN_ARGUMENT

REDACTED = "[redacted]"
# Edit tokens are URL-safe base64: the token is the path segment after /m/<public id>/edit/,
# or a club's /c/<public id>/edit/.
TOKEN_IN_PATH = re.compile(r"/[mc]/+[^/\s?#]+/+edit/+(?P<token>[^/\s?#\"']+)")
BEARER_TOKEN = re.compile(r"(\bBearer\s+)[^\s\"',;]+", re.IGNORECASE)
# One character as a line spells it: a percent-escape or itself.
SPELLED_CHARACTER = re.compile(r"%[0-9A-Fa-f]{2}|.", re.DOTALL)
MATCHED_TOKEN = "scorekeeper.matched_token"  # WSGI environ key: the edit token the router matched


def redact_tokens(text: str, matched_token: str | None = None) -> str:
    """Return `text` with every edit token in a match's or club's URL, the path segment
    `matched_token`, and every bearer token replaced, however the URL spells them."""
    text = redact_decoded(text, TOKEN_IN_PATH)
    if matched_token:
        text = redact_decoded(text, path_segment(matched_token))
    return BEARER_TOKEN.sub(rf"\g<1>{REDACTED}", text)


def path_segment(value: str) -> re.Pattern[str]:
    """Return a pattern of `value` as a whole path segment, its `token` group."""
    return re.compile(rf"(?<=/)(?P<token>{re.escape(value)})(?=[/?#\s\"']|$)")


def redact_decoded(text: str, pattern: re.Pattern[str]) -> str:
    """Return `text` with the `token` group of each match of `pattern` replaced, matching on the
    text with its percent-escapes decoded, and replacing the characters as the text spells them.
    """
    spelled = SPELLED_CHARACTER.findall(text)
    # One character decoded per one spelled: a match's span in the first is its span in the other.
    decoded = "".join(chr(int(c[1:], 16)) if len(c) == 3 else c for c in spelled)
    kept, end = [], 0
    for match in pattern.finditer(decoded):
        start, stop = match.span("token")
        kept += [*spelled[end:start], REDACTED]
        end = stop
    return "".join(kept + spelled[end:]) if kept else text


class RedactTokens(logging.Filter):
    """Rewrite each record, its message and its traceback, without edit tokens."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed logging call: keep its parts, not its token
            message = f"{record.msg} {record.args!r}"
        record.msg, record.args = redact_tokens(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = redact_tokens(logging.Formatter().formatException(record.exc_info))
        return True


# One instance, so that adding it to a logger again (on each app or gunicorn set-up) is a no-op.
REDACT_TOKENS = RedactTokens()


def init_app(app: Flask) -> None:
    """Redact tokens from the app's log and the development server's request log, and tell the
    server's access log which token the router matched."""
    for logger in (app.logger, logging.getLogger("werkzeug")):
        logger.addFilter(REDACT_TOKENS)
    if app.logger.level == logging.NOTSET:
        app.logger.setLevel(logging.INFO)  # start-up facts, such as the SQLite protection in use
    app.url_value_preprocessor(expose_matched_token)


def expose_matched_token(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Put the edit token the router matched in the WSGI environ, where the server that logs
    the request finds it."""
    if values and values.get(TOKEN_ARGUMENT):
        request.environ[MATCHED_TOKEN] = values[TOKEN_ARGUMENT]
