"""Every state-changing route, found by walking the URL map, is guarded against cross-site use.

A form route refuses a request without its CSRF token (400) and changes nothing. An API route
takes no cookie for authority, so it is exempt from CSRF, and what a cross-site page could send
it (no bearer token, a form or text/plain body) changes nothing; a route on a stored match also
refuses a JSON request without its bearer token. New routes join the walk by themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flask_wtf.csrf
import pytest
from flask import Flask, request
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.routing import Rule

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.extensions import csrf
from scorekeeper.store.models import db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateClub, CreateMatch

STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
API_PREFIX = "/api/"
# A cross-site form can send these without a CORS preflight; the body looks like JSON to a
# server that parses any body as JSON.
CROSS_SITE_BODIES: list[dict[str, Any]] = [
    {"data": {"name": "Forged", "round": "1"}},
    {"data": '{"name": "Forged", "round": 1, "sides": []}', "content_type": "text/plain"},
]

Route = tuple[Rule, str]


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": True}


@pytest.fixture
def csrf_checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Return the endpoints whose requests had their CSRF token checked, as they arrive."""
    checked: list[str] = []
    validate = flask_wtf.csrf.validate_csrf

    def recording_validate(*args: Any, **kwargs: Any) -> None:
        checked.append(request.endpoint or "")
        validate(*args, **kwargs)

    monkeypatch.setattr(flask_wtf.csrf, "validate_csrf", recording_validate)
    return checked


def state_changing_routes(app: Flask) -> list[Route]:
    return [
        (rule, method)
        for rule in app.url_map.iter_rules()
        for method in sorted(STATE_CHANGING & (rule.methods or set()))
    ]


CLUB_PATHS = ("/c/", "/api/v1/clubs")


def url_of(app: Flask, route: Route, known: dict[str, str]) -> str:
    """Return the route's URL with the known match, or the known club on a club's route."""
    rule, method = route
    if rule.rule.startswith(CLUB_PATHS):
        known = {**known, "public_id": known["club_id"], "token": known["club_token"]}
    values = {argument: known.get(argument, "1") for argument in rule.arguments}
    return app.url_map.bind("localhost").build(rule.endpoint, values, method=method)


def database_rows(app: Flask) -> dict[str, list[Any]]:
    with app.app_context():
        return {
            table.name: list(db.session.execute(select(table).order_by(*table.primary_key)))
            for table in db.metadata.sorted_tables
        }


def csrf_offences(app: Flask, client: FlaskClient, known: dict[str, str]) -> list[str]:
    """Return what each state-changing route does wrong when sent without a CSRF token."""
    offences = []
    for route in state_changing_routes(app):
        rule, method = route
        url = url_of(app, route, known)
        check = api_route_offences if rule.rule.startswith(API_PREFIX) else form_route_offences
        offences += [f"{method} {url}: {offence}" for offence in check(app, client, route, url)]
    return offences


def form_route_offences(app: Flask, client: FlaskClient, route: Route, url: str) -> list[str]:
    before = database_rows(app)
    status = client.open(url, method=route[1], data={"name": "Forged"}).status_code
    offences = [] if status == 400 else [f"answered {status} without a CSRF token, not 400"]
    if database_rows(app) != before:
        offences.append("changed the database without a CSRF token")
    return offences


def api_route_offences(app: Flask, client: FlaskClient, route: Route, url: str) -> list[str]:
    (rule, method), before = route, database_rows(app)
    statuses = [client.open(url, method=method, **body).status_code for body in CROSS_SITE_BODIES]
    offences = [f"answered {status} to a cross-site body" for status in statuses if status >= 500]
    if database_rows(app) != before:
        offences.append("changed the database on a request a cross-site page could send")
    if "public_id" in rule.arguments:
        status = client.open(url, method=method, json={}).status_code
        if status != 401 or database_rows(app) != before:
            offences.append(f"answered {status} to a request without a bearer token, not 401")
    return offences


@pytest.fixture
def known_values(app: Flask, create_match: CreateMatch, create_club: CreateClub) -> dict[str, str]:
    """Return URL values naming a real match, its token and its round 1, and a real club and
    its token, so routes get past their 404s."""
    stored = create_match()
    club = create_club()
    with app.app_context():
        match = store.get_match(stored.public_id)
        assert match is not None
        store.add_round(match, RoundEntry(1, (SideEntry(), SideEntry())))
    return {
        "public_id": stored.public_id,
        "token": stored.edit_token,
        "number": "1",
        "club_id": club.public_id,
        "club_token": club.edit_token,
    }


def test_every_state_changing_route_is_guarded_against_cross_site_requests(
    app: Flask, client: FlaskClient, known_values: dict[str, str]
) -> None:
    assert state_changing_routes(app), "the walk finds the routes that change data"
    assert csrf_offences(app, client, known_values) == []


def test_every_form_route_goes_through_the_csrf_check_and_no_api_route_does(
    app: Flask, client: FlaskClient, known_values: dict[str, str], csrf_checked: list[str]
) -> None:
    routes = state_changing_routes(app)
    for route in routes:
        client.open(url_of(app, route, known_values), method=route[1], data={})
    form_endpoints = {rule.endpoint for rule, _ in routes if not rule.rule.startswith(API_PREFIX)}
    assert set(csrf_checked) == form_endpoints


def add_probe_route(app: Flask, url: str, view: Callable[..., str]) -> None:
    """Register a route the way a careless new feature might: exempt from CSRF."""
    app.add_url_rule(url, "probe", csrf.exempt(view), methods=["POST"])


def forged_write() -> str:
    db.session.execute(db.metadata.tables["match"].delete())
    db.session.commit()
    return "done"


@pytest.mark.own_app  # a route of its own
@pytest.mark.parametrize("url", ["/probe", "/api/v1/matches/<public_id>/probe"])
def test_the_walk_catches_a_new_route_that_escapes_the_check(
    app: Flask, client: FlaskClient, known_values: dict[str, str], url: str
) -> None:
    add_probe_route(app, url, lambda **_: forged_write())
    assert any("probe" in offence for offence in csrf_offences(app, client, known_values))
