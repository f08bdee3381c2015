"""Log lines without edit tokens: one redaction, on every logger that sees request URLs.

`init_app` covers the app's own log and the development server's request log (`make run`);
`gunicorn_conf.RedactingLogger` covers gunicorn's access and error logs (`make serve`).
"""

from __future__ import annotations

import logging
import re

from flask import Flask

REDACTED = "[redacted]"
# Edit tokens are URL-safe base64: the token is the path segment after /m/<public id>/edit/,
# or a club's /c/<public id>/edit/.
TOKEN_IN_PATH = re.compile(r"(/[mc]/[^/\s?#]+/edit/)[^/\s?#\"']+")
BEARER_TOKEN = re.compile(r"(\bBearer\s+)[^\s\"',;]+", re.IGNORECASE)


def redact_tokens(text: str) -> str:
    """Return `text` with every edit token in a match's or club's URL or a bearer header
    replaced."""
    text = TOKEN_IN_PATH.sub(rf"\g<1>{REDACTED}", text)
    return BEARER_TOKEN.sub(rf"\g<1>{REDACTED}", text)


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
    """Redact tokens from the app's log and the development server's request log."""
    for logger in (app.logger, logging.getLogger("werkzeug")):
        logger.addFilter(REDACT_TOKENS)
    if app.logger.level == logging.NOTSET:
        app.logger.setLevel(logging.INFO)  # start-up facts, such as the SQLite protection in use
