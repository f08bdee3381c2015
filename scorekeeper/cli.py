"""`flask --app scorekeeper ...` commands: the schema, backups, and matches as JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import IO, Any

import click
from flask import Flask
from flask.cli import with_appcontext
from flask_migrate import upgrade

from scorekeeper import store
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.store import CreatedMatch
from scorekeeper.store.database import write_transaction
from scorekeeper.store.exports import prefixed
from scorekeeper.store.models import Match, db


@click.command("init-db")
def init_db_command() -> None:
    """Create or upgrade the database schema to the newest migration."""
    upgrade()
    click.echo("The database is up to date.")


# -- Backup --------------------------------------------------------------------------------------


@click.command("backup")
@with_appcontext
@click.argument("destination", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(destination: Path) -> None:
    """Copy the SQLite database to DESTINATION, consistent even while the app writes.

    On PostgreSQL, back up with pg_dump, or write every match as JSON with `flask export`.
    """
    if db.engine.url.get_backend_name() != "sqlite":
        raise click.ClickException(
            "This database is PostgreSQL: back it up with pg_dump (pg_dump --format=custom "
            '"$DATABASE_URL" > scorekeeper.dump), or write every match as JSON with '
            "`flask --app scorekeeper export`."
        )
    if destination.exists():
        raise click.ClickException(f"{destination} exists already: name a new file.")
    problems = _online_backup(destination)
    if problems:
        destination.unlink()
        raise click.ClickException(f"The copy failed its integrity check: {problems}")
    click.echo(f"Backed up the database to {destination}; its integrity check is ok.")


def _online_backup(destination: Path) -> str | None:
    """Copy the database with SQLite's online backup API; return the copy's problems, if any."""
    # The engine's own connection: its driver and settings, and no checkpoint when it closes.
    source = db.engine.raw_connection()
    try:
        driver, sqlite = db.engine.dialect.dbapi, source.driver_connection
        assert driver is not None and sqlite is not None, "an open SQLite connection"
        with closing(driver.connect(str(destination))) as copy:
            # One step: the copy is the snapshot of a single read transaction, which in WAL mode
            # never holds up the app's writers.
            sqlite.backup(copy)
            verdict = [row[0] for row in copy.execute("PRAGMA integrity_check")]
    finally:
        source.close()
    return None if verdict == ["ok"] else "; ".join(verdict)


# -- Export and import ---------------------------------------------------------------------------


@click.command("export")
@with_appcontext
@click.option("--match", "public_id", metavar="ID", help="Export this match only, as one object.")
@click.argument("output", type=click.File("w", encoding="utf-8"), default="-")
def export_command(output: IO[str], public_id: str | None) -> None:
    """Write every match as a JSON list (or one match as an object) to OUTPUT, stdout by default.

    `flask import` and the API's import read it back.
    """
    _consistent_snapshot()
    if public_id is not None:
        match = store.get_match(public_id)
        if match is None:
            raise click.ClickException(f"There is no match with the id {public_id}.")
        json.dump(store.export_match(match), output, ensure_ascii=False)
        output.write("\n")
        return
    output.write("[")
    for index, document in enumerate(_every_export()):
        output.write(",\n" if index else "\n")
        json.dump(document, output, ensure_ascii=False)
    output.write("\n]\n")


def _consistent_snapshot() -> None:
    """Read every match from one snapshot of the database, as it was when the export began."""
    # SQLite reads in one transaction already; PostgreSQL needs asking for one snapshot.
    if db.engine.url.get_backend_name() == "postgresql":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


def _every_export() -> Iterator[dict[str, Any]]:
    """Yield the export of every match in the order they were created, a few in memory at once."""
    public_ids = db.session.scalars(db.select(Match.public_id).order_by(Match.id)).all()
    for public_id in public_ids:
        match = store.get_match(public_id)
        if match is not None:
            yield store.export_match(match)
        db.session.expunge_all()  # the snapshot stays, the loaded matches go


@click.command("import")
@with_appcontext
@click.argument("source", type=click.File("r", encoding="utf-8"))
def import_command(source: IO[str]) -> None:
    """Store the matches of an export in SOURCE as new matches: all of them, or none.

    Prints each new match's id and edit token, the only way to edit it.
    """
    try:
        data = json.load(source)
    except (json.JSONDecodeError, RecursionError) as error:
        raise click.ClickException(f"{source.name} is not JSON: {error}") from None
    documents, prefix = (data, "matches[{}].") if isinstance(data, list) else ([data], "")
    try:
        with write_transaction():
            created = _import_documents(documents, prefix)
    except ProblemsError as error:
        messages = "\n".join(_problem_line(problem) for problem in error.problems)
        raise click.ClickException(f"Nothing was imported:\n{messages}") from None
    for new in created:
        click.echo(f"{new.match.public_id}\t{new.edit_token}\t{new.match.name}")
    click.echo(f"Imported {len(created)} matches.", err=True)


def _import_documents(documents: list[object], prefix: str) -> list[CreatedMatch]:
    """Store every export; raise `ProblemsError` with the problems of all the broken ones."""
    created, problems = [], []
    for index, document in enumerate(documents):
        try:
            created.append(_import_document(document, prefix.format(index)))
        except ProblemsError as error:
            problems += error.problems
    if problems:
        raise ProblemsError(problems)
    return created


def _import_document(document: object, prefix: str) -> CreatedMatch:
    """Store one export as a new match."""
    if not isinstance(document, Mapping):
        template = N_("%(field)s must be a match exported by scorekeeper, a JSON object.")
        field = prefix.rstrip(".") or "body"
        raise ProblemsError([Problem(field, template, {"field": field})])
    try:
        return store.import_match(document)
    except ProblemsError as error:
        raise ProblemsError([prefixed(problem, prefix) for problem in error.problems]) from None


def _problem_line(problem: Problem) -> str:
    # A command has no request to choose a language from: the messages stay in English.
    return f"  {problem.field}: {problem.message()}"


def init_app(app: Flask) -> None:
    for command in (init_db_command, backup_command, export_command, import_command):
        app.cli.add_command(command)
