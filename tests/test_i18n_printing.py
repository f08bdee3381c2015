"""A match's PDFs print in the language chosen at set-up, whatever language the page is in; the
paper follows the browser's region."""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from werkzeug.test import TestResponse

from scorekeeper import store
from scorekeeper.store.models import db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch

SHARE_URL = re.compile(r"/m/(?P<public_id>[^/]+)/edit/[^/]+/share")
MATCH_PDFS = ("report", "sheet", "rules", "pocket")
# A word each language's rules cards and score sheets print: the book, as its sources say.
BOOK = {"en": "book", "ja": "ブック", "ko": "책", "nl": "stapel", "be": "кніг"}
# What the report of a match without rounds says about it.
NO_ROUND_YET = {
    "ja": "まだラウンドが入力されていません",
    "ko": "아직 입력한 라운드가 없습니다",
    "nl": "nog geen ronde ingevuld",
    "be": "яшчэ ніводнага раўнда не ўведзена",
}
A4, LETTER = (595, 842), (612, 792)


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": False}


def set_up(client: FlaskClient, page_language: str, **fields: str) -> str:
    """Set a match up through the form on a page in `page_language`; return its public id."""
    form = {"name": "Friday", "seating": "individuals", "preset": "standard"}
    players = {f"players-{index}": name for index, name in enumerate(("Ann", "Bob"))}
    response = client.post(
        "/matches/new", data=form | players | fields, headers={"Accept-Language": page_language}
    )
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    found = SHARE_URL.fullmatch(response.location)
    assert found is not None
    return found["public_id"]


def pdf_text(response: TestResponse) -> str:
    assert response.status_code == 200
    pages = PdfReader(io.BytesIO(response.data)).pages
    return " ".join(page.extract_text() for page in pages).casefold()


def stored_language(app: Flask, public_id: str) -> str | None:
    with app.app_context():
        match = store.get_match(public_id)
        assert match is not None
        return match.language


@pytest.mark.parametrize("language", ["ja", "be"])
def test_the_set_up_form_offers_the_pages_language_for_the_printed_sheets(
    client: FlaskClient, language: str
) -> None:
    page = client.get("/matches/new", headers={"Accept-Language": language}).get_data(as_text=True)
    assert re.search(rf'<option selected value="{language}">', page)


@pytest.mark.parametrize("kind", MATCH_PDFS)
@pytest.mark.parametrize("language", ["ja", "ko", "nl", "be"])
def test_a_matchs_pdfs_print_in_its_language_whatever_the_page_is_in(
    app: Flask, client: FlaskClient, kind: str, language: str
) -> None:
    public_id = set_up(client, "en", language=language)
    assert stored_language(app, public_id) == language
    response = client.get(f"/m/{public_id}/{kind}.pdf", headers={"Accept-Language": "en"})
    expected = NO_ROUND_YET[language] if kind == "report" else BOOK[language]
    assert expected in pdf_text(response)
    page = client.get(f"/m/{public_id}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="en">' in page


def test_a_match_set_up_without_choosing_prints_in_the_set_up_pages_language(
    app: Flask, client: FlaskClient
) -> None:
    public_id = set_up(client, "ko")
    assert stored_language(app, public_id) == "ko"
    response = client.get(f"/m/{public_id}/rules.pdf", headers={"Accept-Language": "nl"})
    assert BOOK["ko"] in pdf_text(response)


@pytest.mark.parametrize("language", [None, "xx", "fr"])
def test_a_match_without_a_language_offered_prints_in_the_readers(
    app: Flask, client: FlaskClient, create_match: CreateMatch, language: str | None
) -> None:
    public_id = create_match().public_id
    with app.app_context():
        match = store.get_match(public_id)
        assert match is not None
        match.language = language  # as an import from elsewhere may hold
        db.session.commit()
    for kind in MATCH_PDFS:
        response = client.get(f"/m/{public_id}/{kind}.pdf", headers={"Accept-Language": "be"})
        assert response.status_code == 200
    response = client.get(f"/m/{public_id}/rules.pdf", headers={"Accept-Language": "be"})
    assert BOOK["be"] in pdf_text(response)


def test_a_matchs_language_travels_with_its_export(app: Flask, client: FlaskClient) -> None:
    public_id = set_up(client, "en", language="nl")
    export = client.get(f"/api/v1/matches/{public_id}/export").get_json()
    assert export["language"] == "nl"
    imported = client.post("/api/v1/matches/import", json=export).get_json()
    assert stored_language(app, imported["id"]) == "nl"


def test_a_language_not_offered_is_refused_at_set_up(client: FlaskClient) -> None:
    response = client.post(
        "/matches/new",
        data={"name": "Friday", "players-0": "Ann", "players-1": "Bob", "language": "fr"},
    )
    assert response.status_code == 422


@pytest.mark.parametrize(
    ("accept_language", "size"),
    [
        ("ja-JP,ja;q=0.9", A4),
        ("ko-KR", A4),
        ("nl-NL", A4),
        ("nl-BE", A4),
        ("be-BY", A4),
        ("en-GB", A4),
        ("en-US", LETTER),
        ("en-CA,fr-CA;q=0.8", LETTER),
        ("ja", A4),  # no region: A4, the world's paper
    ],
)
def test_the_paper_is_a4_outside_the_letter_countries(
    client: FlaskClient, accept_language: str, size: tuple[int, int]
) -> None:
    response = client.get("/rules/standard/sheet.pdf", headers={"Accept-Language": accept_language})
    page = PdfReader(io.BytesIO(response.data)).pages[0]
    assert (round(page.mediabox.width), round(page.mediabox.height)) == size


def test_a_match_created_through_the_api_prints_in_the_language_it_names(
    client: FlaskClient,
) -> None:
    body = {"name": "Friday", "sides": [{"name": "Us", "players": ["Ann"]}], "language": "ko"}
    body["sides"].append({"name": "Them", "players": ["Cy"]})
    created = client.post("/api/v1/matches", json=body).get_json()
    assert client.get(f"/api/v1/matches/{created['id']}").get_json()["language"] == "ko"
    response = client.get(f"/m/{created['id']}/rules.pdf", headers={"Accept-Language": "en"})
    assert BOOK["ko"] in pdf_text(response)


@pytest.mark.parametrize("language", ["fr", "", 5, {}, ["ja"]])
def test_the_api_refuses_a_language_not_offered(client: FlaskClient, language: object) -> None:
    sides = [{"name": "Us", "players": ["Ann"]}, {"name": "Them", "players": ["Cy"]}]
    body = {"name": "Friday", "sides": sides, "language": language}
    response = client.post("/api/v1/matches", json=body, headers={"Accept-Language": "nl"})
    assert response.status_code == 422
    [error] = response.get_json()["errors"]
    assert error["field"] == "language" and "be, en, ja, ko, nl" in error["message"]
