"""Schemathesis drives every operation of the OpenAPI document with valid and invalid requests.

Every answer must be one the document promises: its status, content type, headers and schema,
never a 5xx, and a request the document forbids must be refused with a 4xx. Operations on a
stored match get a real match and its edit token, so that the fuzzing reaches its rounds.
`make test` tries a few examples per operation; `make soak` many more.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from soak import scaled

from scorekeeper import store
from scorekeeper.converters import PublicIdConverter
from scorekeeper.entries import RoundEntry, SideEntry
from scorekeeper.openapi import openapi_document

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

CHECKS = {
    # The document describes well-formed requests; the rules of the game refuse many of those
    # (a book more than the decks hold, a name twice) with 422 and their problems, by design.
    "positive_data_acceptance": {"enabled": False},
    # A change without If-Match is answered 428 Precondition Required (RFC 6585), not 400.
    "missing_required_header": {"expected-statuses": [428]},
}


class RunningApp:
    """The WSGI app that the schema calls: it hands each request to the running test's app."""

    app: Flask | None = None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        assert self.app is not None, "set by the running_app fixture"
        return self.app(environ, start_response)


RUNNING_APP = RunningApp()
schema = schemathesis.openapi.from_dict(
    openapi_document(), config=SchemathesisConfig.from_dict({"checks": CHECKS})
)
schema.app = RUNNING_APP  # as schemathesis.openapi.from_wsgi sets it


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    """Return the test app's configuration with room for every wrong guess the fuzzing makes."""
    return {**app_config, "GUESS_LIMIT": 10**9}


@pytest.fixture
def running_app(app: Flask) -> Iterator[Flask]:
    RUNNING_APP.app = app
    yield app
    RUNNING_APP.app = None


@pytest.fixture
def stored_match(app: Flask, create_match: Any) -> dict[str, str]:
    """Return the path parameter and headers that open a stored match with one round in it."""
    match = create_match()
    with app.app_context():
        stored = store.get_match(match.public_id)
        assert stored is not None
        sides = (SideEntry("", clean_books=1, melded=310), SideEntry("", leftover=20))
        store.add_round(stored, RoundEntry(1, sides, 0))
    return {"public_id": match.public_id, "token": match.edit_token}


@schema.parametrize()
@settings(
    max_examples=scaled(15, 300),
    deadline=None,
    # One app and database serve every example of an operation, as one server would.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_operation_answers_as_documented_and_never_fails(
    case: schemathesis.Case, running_app: Flask, stored_match: dict[str, str]
) -> None:
    # A well-formed id becomes the stored match's, so that requests reach it; a malformed one
    # stays, to be refused.
    generated_id = (case.path_parameters or {}).get("public_id")
    if isinstance(generated_id, str) and re.fullmatch(PublicIdConverter.regex, generated_id):
        case.path_parameters["public_id"] = stored_match["public_id"]
        if case.headers and "Authorization" in case.headers:
            case.headers["Authorization"] = f"Bearer {stored_match['token']}"
    case.call_and_validate()
