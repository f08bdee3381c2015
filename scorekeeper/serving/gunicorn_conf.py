"""Gunicorn's settings for `make serve`:
`gunicorn --config python:scorekeeper.serving.gunicorn_conf`.

The environment sets the address (`BIND`), the number of workers (`WEB_CONCURRENCY`), the log
level (`LOG_LEVEL`) and which proxies may say the request came over HTTPS
(`FORWARDED_ALLOW_IPS`, read by gunicorn itself); the app reads `SECRET_KEY` and `DATABASE_URL`.
"""

from __future__ import annotations

import gc
import os
import signal
from datetime import timedelta
from typing import TYPE_CHECKING

from flask import Flask
from gunicorn.arbiter import Arbiter
from gunicorn.config import Config
from gunicorn.glogging import Logger
from gunicorn.http.message import Request
from gunicorn.http.wsgi import Response
from gunicorn.workers.base import Worker

from scorekeeper.serving.logs import MATCHED_TOKEN, REDACT_TOKENS, redact_tokens
from scorekeeper.store.models import db

if TYPE_CHECKING:
    from gunicorn._types import _EnvironType
    from gunicorn.glogging import _AtomsDict


class RedactingLogger(Logger):
    """Gunicorn's logger, with edit tokens taken out of the access and error logs: the token
    the router matched from every part of an access log line, and any other by its pattern."""

    def setup(self, cfg: Config) -> None:
        super().setup(cfg)
        self.access_log.addFilter(REDACT_TOKENS)
        self.error_log.addFilter(REDACT_TOKENS)

    def atoms(
        self, resp: Response, req: Request, environ: _EnvironType, request_time: timedelta
    ) -> _AtomsDict:
        """Return the parts of an access log line, read from the request with the token that
        the router matched taken out of its URL, whatever its spelling, and its other headers."""
        if token := environ.get(MATCHED_TOKEN):
            environ = {
                name: redact_tokens(value, token) if isinstance(value, str) else value
                for name, value in environ.items()
            }
        return super().atoms(resp, req, environ, request_time)


wsgi_app = "scorekeeper:create_app(config_object='scorekeeper.config.Production')"
bind = os.environ.get("BIND", "127.0.0.1:8000")
# Sync workers: with two cores they serve database-bound pages faster than threads do.
worker_class = "sync"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
timeout = 30  # longer than SQLite's busy timeout, so a waiting writer is not killed
graceful_timeout = 20
# Load the app (and WeasyPrint, which takes a second to import) once, in the master: a worker
# then starts at once, as a fork, when it is recycled.
preload_app = True
# Recycle workers now and then, jittered so that they do not all restart at once; not often,
# since a new worker begins with none of the view pages the old one kept.
max_requests = 20_000
max_requests_jitter = 2_000
accesslog = "-"  # stdout
errorlog = "-"  # stderr
loglevel = os.environ.get("LOG_LEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
logger_class = RedactingLogger
# No runtime control socket: its path is per user, so several servers on one host would share it.
control_socket_disable = True


def freeze_loaded_objects() -> None:
    """Move every object loaded so far (the app, WeasyPrint, fonts) out of the collector's reach.

    A worker's full collections then skip them (some 150,000 objects, whose scan would stall
    whichever request set one off), and their memory pages stay shared with the master. Garbage
    is collected first, so none is kept for good.
    """
    gc.collect()
    gc.freeze()


def pre_fork(server: Arbiter, worker: Worker) -> None:
    """Freeze the loaded app in the master, for the worker about to be forked."""
    freeze_loaded_objects()


def post_fork(server: Arbiter, worker: Worker) -> None:
    """Let a worker told to stop as it boots stop at once, and give it database connections of
    its own: none may cross the fork."""
    # Until gunicorn sets the worker's own handlers, the master's inherited one would swallow a
    # SIGTERM (the server stopping as this worker boots), and the worker would serve on until the
    # master killed it after the graceful timeout. It has taken no request yet: it may just stop.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    app = server.app.wsgi()
    if not isinstance(app, Flask) or "sqlalchemy" not in app.extensions:
        return  # another app served with this configuration, such as the bench's floors
    with app.app_context():
        db.engine.dispose(close=False)
