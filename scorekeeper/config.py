"""Default configuration; `instance/config.py` and the environment override it."""

from __future__ import annotations

from scorekeeper import ROOT


class Defaults:
    SECRET_KEY = "dev"  # replaced by instance/config.py, which `make run` writes
    SQLALCHEMY_DATABASE_URI = f"sqlite:///{ROOT / 'instance' / 'scorekeeper.sqlite'}"
    SQLALCHEMY_ENGINE_OPTIONS: dict[str, object] = {}
    MAX_CONTENT_LENGTH = 256 * 1024
    BABEL_DEFAULT_LOCALE = "en"
    BABEL_TRANSLATION_DIRECTORIES = str(ROOT / "scorekeeper" / "translations")
    WTF_CSRF_TIME_LIMIT = None  # a form may stay open for a whole evening's game
