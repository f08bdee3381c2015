"""Flask extensions, created once and bound to each app by `init_app`."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_babel import Babel, get_locale
from flask_migrate import Migrate
from flask_wtf import CSRFProtect

from scorekeeper.i18n import select_locale
from scorekeeper.store import database
from scorekeeper.store.models import db

MIGRATIONS = Path(__file__).resolve().parent / "store" / "migrations"

babel = Babel()
csrf = CSRFProtect()
migrate = Migrate(directory=str(MIGRATIONS), render_as_batch=True)


def init_app(app: Flask) -> None:
    database.init_app(app)
    migrate.init_app(app, db)
    babel.init_app(app, locale_selector=select_locale)
    csrf.init_app(app)
    app.jinja_env.globals["get_locale"] = get_locale
