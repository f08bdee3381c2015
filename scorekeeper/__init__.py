"""scorekeeper: score Hand and Foot at the table, under the table's own house rules."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent


def create_app(
    test_config: dict[str, Any] | None = None,
    *,
    config_object: str = "scorekeeper.config.Defaults",
) -> Flask:
    """Create the app: `config_object`, then instance config, environment and `test_config`."""
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    _configure(app, config_object, test_config)

    from scorekeeper import extensions
    from scorekeeper.serving import content_length, logs, rate_limit, security, static_files

    logs.init_app(app)
    static_files.init_app(app)  # before security: static files get its headers too
    security.init_app(app)
    content_length.init_app(app)
    extensions.init_app(app)
    rate_limit.init_app(app)  # after security: its 429 answers get the security headers too

    _register_blueprints(app)
    return app


def _configure(app: Flask, config_object: str, test_config: dict[str, Any] | None) -> None:
    """Load the configuration: `config_object`, then instance config, environment, `test_config`."""
    app.config.from_object(config_object)
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("SCOREKEEPER")
    if database_url := os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    if secret_key := os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key
    if test_config is not None:
        app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the documented key order


def _register_blueprints(app: Flask) -> None:
    """Add every area's routes: the API, the pages, printing, and the CLI commands."""
    from scorekeeper.serving.http import PublicIdConverter

    app.url_map.converters["public_id"] = PublicIdConverter  # before the routes that use it
    import scorekeeper.api.calculator  # noqa: F401  (its routes join api.bp)
    import scorekeeper.api.clubs  # noqa: F401
    import scorekeeper.api.matches  # noqa: F401
    from scorekeeper import api, cli, printing
    from scorekeeper.printing import pdf
    from scorekeeper.web import app_shell, clubs, language, matches, pages

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(app_shell.bp)
    app.register_blueprint(language.bp)
    app.register_blueprint(matches.bp)
    app.register_blueprint(clubs.bp)
    pdf.init_app(app)  # imports WeasyPrint now, not on the first PDF request
    app.register_blueprint(printing.bp)
    cli.init_app(app)
