"""Fixtures shared by every test: an app on a throwaway database, its client and CLI runner."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade

from scorekeeper import create_app, store
from scorekeeper.models import db
from scorekeeper.rules import build_rules


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
        }
    )
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@dataclass(frozen=True)
class StoredMatch:
    """A match a test stored: what a client needs to reach it."""

    public_id: str
    edit_token: str


TWO_PAIRS = (("Us", ("Ann", "Bob")), ("Them", ("Cy", "Di")))
CreateMatch = Callable[..., StoredMatch]


@pytest.fixture
def create_match(app: Flask) -> CreateMatch:
    """Return a factory that stores a match: two pairs under standard rules unless told."""

    def create(
        name: str = "Friday",
        *,
        preset: str = "standard",
        overrides: Mapping[str, object] | None = None,
        sides: Sequence[tuple[str, Sequence[str]]] = TWO_PAIRS,
    ) -> StoredMatch:
        specs = [store.SideSpec(side, tuple(players)) for side, players in sides]
        with app.app_context():
            created = store.create_match(name, preset, build_rules(preset, overrides), specs)
            return StoredMatch(created.match.public_id, created.edit_token)

    return create
