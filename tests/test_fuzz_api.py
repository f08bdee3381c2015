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

from scorekeeper.api.openapi import openapi_document
from scorekeeper.serving.http import PublicIdConverter

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment
    from conftest import CreateClub, StoredClub, StoredMatch

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
def club(create_club: CreateClub) -> StoredClub:
    return create_club()


@schema.parametrize()
@settings(
    max_examples=scaled(15, 300),
    deadline=None,
    # One app and database serve every example of an operation, as one server would.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_operation_answers_as_documented_and_never_fails(
    case: schemathesis.Case,
    running_app: Flask,
    match_with_round_1: StoredMatch,
    club: StoredClub,
) -> None:
    # A well-formed id becomes the stored match's or club's, so that requests reach it; a
    # malformed one stays, to be refused.
    opened = club if case.path.startswith("/api/v1/clubs") else match_with_round_1
    generated_id = (case.path_parameters or {}).get("public_id")
    if isinstance(generated_id, str) and re.fullmatch(PublicIdConverter.regex, generated_id):
        case.path_parameters["public_id"] = opened.public_id
        if case.headers and "Authorization" in case.headers:
            case.headers["Authorization"] = f"Bearer {opened.edit_token}"
    # The in-process client reads bodies as sent, and JSON is sent compressed when it may be.
    case.headers = {**(case.headers or {}), "Accept-Encoding": "identity"}
    case.call_and_validate()
