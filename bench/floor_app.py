"""The bench's floors: the least a database page or write costs here, served like the app.

A Flask app of three routes on `FLOOR_DATABASE_URL`: one indexed SELECT rendered through a small
template; one indexed SELECT of a single value answered as a conditional GET (its ETag, 304 when
the client holds it); and one INSERT + COMMIT. On SQLite it uses the app's own connection
settings (WAL, synchronous FULL, busy timeout) and takes the write lock up front, as the app's
writes do. The bench serves it with the app's gunicorn configuration: `gunicorn --config
python:scorekeeper.serving.gunicorn_conf --pythonpath bench 'floor_app:create_app()'`.
"""

from __future__ import annotations

import os
import sqlite3
from functools import cache
from typing import Any

import psycopg
from flask import Flask, Response, render_template, request
from jinja2 import DictLoader
from sqlalchemy import make_url

from scorekeeper.store.database import SQLITE_PRAGMAS

TABLE = "floor_item"
PAGE_TEMPLATE = "item.html"
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ item[1] }}</title></head>
<body><main><h1>{{ item[1] }}</h1><p>Score: {{ item[2] }}</p></main></body></html>
"""


def connect(database_url: str) -> Any:
    """Return a DB-API connection to the database, set up as the app sets up its own."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        connected = sqlite3.connect(url.database or "", isolation_level=None)
        for pragma in SQLITE_PRAGMAS:
            connected.execute(pragma)
        return connected
    return psycopg.connect(
        **url.translate_connect_args(username="user", database="dbname"), **url.query
    )


@cache  # one connection per worker process: sync workers serve one request at a time
def connection() -> Any:
    return connect(os.environ["FLOOR_DATABASE_URL"])


def mark(database: Any) -> str:
    """Return the driver's placeholder for a query parameter."""
    return "?" if isinstance(database, sqlite3.Connection) else "%s"


def begin(database: Any) -> None:
    """Begin a write transaction; SQLite takes its write lock now, as the app's writes do."""
    if isinstance(database, sqlite3.Connection):
        database.execute("BEGIN IMMEDIATE")  # PostgreSQL's driver begins by itself


def create_schema(database_url: str, rows: int) -> None:
    """Create the floor's table with `rows` rows to read; the bench calls this before serving."""
    database = connect(database_url)
    key = "INTEGER" if isinstance(database, sqlite3.Connection) else "SERIAL"
    begin(database)
    columns = f"id {key} PRIMARY KEY, name VARCHAR(60), score INTEGER"
    database.execute(f"CREATE TABLE {TABLE} ({columns})")
    insert = f"INSERT INTO {TABLE} (name, score) VALUES ({mark(database)}, {mark(database)})"
    database.cursor().executemany(insert, [(f"Item {n}", n) for n in range(rows)])
    database.commit()
    database.close()


def select_page(key: int) -> str:
    database = connection()
    query = f"SELECT id, name, score FROM {TABLE} WHERE id = {mark(database)}"
    return render_template(PAGE_TEMPLATE, item=database.execute(query, (key,)).fetchone())


def select_version(key: int) -> Response:
    database = connection()
    query = f"SELECT score FROM {TABLE} WHERE id = {mark(database)}"
    response = Response()
    response.set_etag(str(database.execute(query, (key,)).fetchone()[0]))
    return response.make_conditional(request)


def insert() -> tuple[str, int]:
    database = connection()
    begin(database)
    values = f"({mark(database)}, {mark(database)})"
    database.execute(f"INSERT INTO {TABLE} (name, score) VALUES {values}", ("Written", 1))
    database.commit()
    return "", 201


def create_app() -> Flask:
    app = Flask(__name__)
    # A loader, as an app's template folder is: compiled once per worker, not per request.
    app.jinja_env.loader = DictLoader({PAGE_TEMPLATE: PAGE})
    app.add_url_rule("/floor/items/<int:key>", view_func=select_page)
    app.add_url_rule("/floor/items/<int:key>/version", view_func=select_version)
    app.add_url_rule("/floor/items", view_func=insert, methods=["POST"])
    return app
