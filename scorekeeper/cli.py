"""`flask --app scorekeeper ...` commands."""

from __future__ import annotations

import click
from flask import Flask
from flask_migrate import upgrade


@click.command("init-db")
def init_db_command() -> None:
    """Create or upgrade the database schema to the newest migration."""
    upgrade()
    click.echo("The database is up to date.")


def init_app(app: Flask) -> None:
    app.cli.add_command(init_db_command)
