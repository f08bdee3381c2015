"""Hypothesis fills every form of the pages with anything: never a 5xx, and a refusal saves nothing.

Each form is found on its page as a browser would find it, with every field it holds (hidden ones
too); each field gets a plausible value, one of its choices, or something hostile: huge, negative,
not a number, control characters, left out. An answer that is not a redirect must leave the
database as it was; a redirect must stay on this site. `make soak` tries many more examples.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from soak import scaled
from sqlalchemy import func

from scorekeeper.store.models import Club, ClubPlayer, Match, Round, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateClub, StoredMatch

HOSTILE = st.one_of(
    st.sampled_from(["", " ", "-1", "-0", "+5", "1e3", "1.5", "1,000", "NaN", "inf", "0x1F"]),
    st.sampled_from(["٣", "\x00", "\u202e12", "\r\n", "9" * 40, "x" * 10_000]),
    st.sampled_from(["https://evil.example/", "//evil.example", "javascript:alert(1)"]),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.text(max_size=30),  # any code point, control characters included
)
PLAUSIBLE = st.integers(min_value=0, max_value=12).map(str)
TOO_BIG_FOR_A_REQUEST = "x" * 300_000  # past MAX_CONTENT_LENGTH


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


@dataclass
class Form:
    action: str
    fields: dict[str, list[str]] = field(default_factory=dict)  # name -> choices offered
    files: set[str] = field(default_factory=set)  # the file fields among them
    documents: set[str] = field(default_factory=set)  # fields that take a match's export


class FormFinder(HTMLParser):
    """Collect the POST forms of a page: their actions, fields and the choices each offers."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "form" and (attributes.get("method") or "").lower() == "post":
            self.current = Form(attributes.get("action") or "")
            self.forms.append(self.current)
        elif self.current is not None and tag in ("input", "select", "textarea", "button"):
            name = attributes.get("name")
            if name:
                self._note_kind(self.current, name, tag, attributes.get("type"))
                choices = self.current.fields.setdefault(name, [])
                if attributes.get("value") is not None:
                    choices.append(attributes["value"] or "")
        elif self.current is not None and tag == "option":
            last = list(self.current.fields)[-1]
            self.current.fields[last].append(attributes.get("value") or "")

    @staticmethod
    def _note_kind(form: Form, name: str, tag: str, kind: str | None) -> None:
        if kind == "file":
            form.files.add(name)
        if kind == "file" or tag == "textarea":
            form.documents.add(name)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None


def forms_on(client: FlaskClient, page: str) -> list[Form]:
    response = client.get(page)
    assert response.status_code == 200, page
    finder = FormFinder()
    finder.feed(response.get_data(as_text=True))
    assert finder.forms, f"{page} shows no form"
    return finder.forms


@st.composite
def documents(draw: st.DrawFn, export: dict[str, Any]) -> str:
    """Return a match's export as is, with one of its values changed, or any JSON at all."""
    changed = dict(export)
    changed[draw(st.sampled_from(sorted(export)))] = draw(JSON)
    return json.dumps(draw(st.sampled_from([export, changed]) | JSON))


@st.composite
def filled(draw: st.DrawFn, form: Form, export: dict[str, Any]) -> dict[str, Any]:
    """Return a submission of the form: each field plausible, chosen, hostile or left out."""
    data: dict[str, Any] = {}
    for name, choices in form.fields.items():
        options = [st.none(), PLAUSIBLE, HOSTILE]
        options += [st.sampled_from(choices)] * 3 if choices else []
        options += [documents(export)] * 3 if name in form.documents else []
        value = draw(st.one_of(options))
        if value is not None and name in form.files:
            data[name] = (io.BytesIO(value.encode()), "match.json")
        elif value is not None:
            data[name] = value
    return data


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    """Return the test app's configuration: the forms' values are fuzzed, not their CSRF token."""
    return {**app_config, "WTF_CSRF_ENABLED": False, "GUESS_LIMIT": 10**9}


@pytest.fixture
def export(client: FlaskClient, match_with_round_1: StoredMatch) -> dict[str, Any]:
    return client.get(f"/api/v1/matches/{match_with_round_1.public_id}/export").json


@pytest.fixture
def pages(match_with_round_1: StoredMatch, create_club: CreateClub) -> dict[str, str]:
    """Return every page that holds a form."""
    match = match_with_round_1
    edit = f"/m/{match.public_id}/edit/{match.edit_token}"
    club = create_club()
    club_edit = f"/c/{club.public_id}/edit/{club.edit_token}"
    return {
        "set-up": "/matches/new",
        "import": "/matches/import",
        "standings": edit,
        "new round": f"{edit}/rounds/new",
        "round edit": f"{edit}/rounds/1",
        "new club": "/clubs/new",
        "club": club_edit,
        "club's match": f"{club_edit}/matches/new",
    }


def saved_state(app: Flask) -> tuple[Any, ...]:
    """Return everything a form could change in the database, to compare before and after."""
    with app.app_context():
        matches = db.session.execute(
            db.select(Match.id, Match.version, Match.name, Match.club_id)
        ).all()
        rounds = db.session.execute(db.select(Round.match_id, Round.number, Round.version)).all()
        clubs = db.session.execute(db.select(Club.id, Club.name)).all()
        players = db.session.execute(db.select(ClubPlayer.club_id, ClubPlayer.name)).all()
        return (
            sorted(matches),
            sorted(rounds),
            db.session.scalar(func.count(Round.id)),
            sorted(clubs),
            sorted(players),
        )


Submit = Callable[[Form, dict[str, Any]], None]


@pytest.fixture
def submit(app: Flask, client: FlaskClient) -> Submit:
    """Return a function that posts a form and checks the answer and what it saved."""

    def post(form: Form, data: dict[str, Any]) -> None:
        before = saved_state(app)
        response = client.post(form.action, data=data)
        assert response.status_code < 500, (form.action, data)
        if response.status_code in (301, 302, 303, 307, 308):
            assert (response.location or "").startswith("/"), response.location
            assert not (response.location or "").startswith("//"), response.location
        else:
            assert saved_state(app) == before, (response.status_code, form.action, data)

    return post


@pytest.fixture
def forms(client: FlaskClient, pages: dict[str, str], page: str) -> list[Form]:
    """Return the forms of the page as it first shows: later examples may have changed it."""
    return forms_on(client, pages[page])


@pytest.mark.parametrize(
    "page",
    [
        "set-up",
        "import",
        "standings",
        "new round",
        "round edit",
        "new club",
        "club",
        "club's match",
    ],
)
@settings(
    max_examples=scaled(25, 400),
    deadline=None,
    # One app and database take every example, as one server takes every request.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_values_in_any_form_get_an_answer_and_a_refusal_saves_nothing(
    forms: list[Form], export: dict[str, Any], submit: Submit, data: st.DataObject
) -> None:
    form = data.draw(st.sampled_from(forms))
    submit(form, data.draw(filled(form, export)))


def test_a_form_too_big_to_read_is_refused_and_saves_nothing(
    client: FlaskClient, pages: dict[str, str], submit: Submit
) -> None:
    for page in pages.values():
        for form in forms_on(client, page):
            submit(form, dict.fromkeys(form.fields, TOO_BIG_FOR_A_REQUEST))
