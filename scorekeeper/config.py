"""Configurations: `Defaults` for development and tests, `Production` for `make serve`.

`instance/config.py`, then the environment (`SCOREKEEPER_*`, `DATABASE_URL`, `SECRET_KEY`)
override either one.
"""

from __future__ import annotations

from scorekeeper import ROOT
from scorekeeper.i18n import TRANSLATIONS


class Defaults:
    SECRET_KEY: str | None = "dev"  # replaced by instance/config.py, which `make run` writes
    REQUIRE_REAL_SECRET_KEY = False
    SQLALCHEMY_DATABASE_URI = f"sqlite:///{ROOT / 'instance' / 'scorekeeper.sqlite'}"
    SQLALCHEMY_ENGINE_OPTIONS: dict[str, object] = {}
    MAX_CONTENT_LENGTH = 256 * 1024
    # A club's export holds every match of the club: 500 matches of four rounds are 1.3 MB.
    MAX_CLUB_IMPORT_LENGTH = 4 * 1024 * 1024
    BABEL_DEFAULT_LOCALE = "en"
    BABEL_TRANSLATION_DIRECTORIES = str(TRANSLATIONS)  # the catalogs that name the languages
    WTF_CSRF_TIME_LIMIT = None  # a form may stay open for a whole evening's game
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"


class Production(Defaults):
    """Serving for real, behind HTTPS, with a secret key that the operator provides."""

    SECRET_KEY = None
    REQUIRE_REAL_SECRET_KEY = True
    SESSION_COOKIE_SECURE = True
    PREFERRED_URL_SCHEME = "https"
