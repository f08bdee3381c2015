"""A match's links on the pages: a new edit link that retires the old one, and a match imported
from its export as a new match with links of its own."""

from __future__ import annotations

import html
import io
import json
import re
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient
from page_parts import errors_next_to, recent_entry

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.store.models import Match, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch

SHARE_URL = re.compile(r"/m/(?P<public_id>[^/]+)/edit/(?P<token>[^/]+)/share")


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": False}


def edit_url(public_id: str, token: str) -> str:
    return f"/m/{public_id}/edit/{token}"


def page_of(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def match_count(app: Flask) -> int:
    with app.app_context():
        return len(db.session.scalars(db.select(Match)).all())


# -- A new edit link -----------------------------------------------------------------------------


def test_the_edit_page_offers_a_new_edit_link_behind_a_second_step_and_the_view_page_does_not(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    action = f'action="{edit_url(match.public_id, match.edit_token)}/new-link"'

    edit_page = page_of(client, edit_url(match.public_id, match.edit_token))
    view_page = page_of(client, f"/m/{match.public_id}")

    assert re.search(
        rf'<details class="danger-zone">\s*<summary>[^<]+</summary>\s*<form method="post" {action}',
        edit_page,
    )
    assert "new-link" not in view_page


def test_a_new_edit_link_opens_the_match_and_the_old_one_stops_working(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    old = edit_url(match.public_id, match.edit_token)

    response = client.post(f"{old}/new-link")

    assert response.status_code == 303
    link = SHARE_URL.fullmatch(response.location)
    assert link is not None and link["token"] != match.edit_token
    share = page_of(client, response.location)
    new = edit_url(match.public_id, link["token"])
    assert "old one no longer opens the match" in html.unescape(share)
    assert f'value="http://localhost{new}"' in share
    assert client.get(old).status_code == 403
    assert client.get(f"{old}/rounds/new").status_code == 403
    assert client.post(f"{old}/new-link").status_code == 403
    assert page_of(client, new)


def test_the_page_showing_a_new_edit_link_has_this_device_remember_it_instead_of_the_old(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()

    response = client.post(f"{edit_url(match.public_id, match.edit_token)}/new-link")

    remembered = recent_entry(page_of(client, response.location))
    link = SHARE_URL.fullmatch(response.location)
    assert link is not None
    assert remembered["id"] == match.public_id and remembered["role"] == "edit"
    assert remembered["url"] == f"http://localhost{edit_url(match.public_id, link['token'])}"


def test_a_double_tap_on_new_edit_link_shows_both_taps_the_same_new_link(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    old = edit_url(match.public_id, match.edit_token)
    tap = {"operation": uuid.uuid4().hex}  # what the page's form sends, twice

    first = client.post(f"{old}/new-link", data=tap)
    second = client.post(f"{old}/new-link", data=tap)

    assert (first.status_code, second.status_code) == (303, 303)
    assert second.location == first.location
    link = SHARE_URL.fullmatch(second.location)
    assert link is not None and link["token"] != match.edit_token
    assert "old one no longer opens the match" in html.unescape(page_of(client, second.location))
    assert page_of(client, edit_url(match.public_id, link["token"]))
    assert client.get(old).status_code == 403


def test_the_edit_pages_new_link_form_sends_an_operation_id_that_a_double_tap_repeats(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    old = edit_url(match.public_id, match.edit_token)
    form = re.search(r'name="operation" type="hidden" value="([0-9a-f]{32})"', page_of(client, old))
    assert form is not None
    operation = form[1]

    first = client.post(f"{old}/new-link", data={"operation": operation})
    second = client.post(f"{old}/new-link", data={"operation": operation})

    assert first.status_code == second.status_code == 303
    assert first.location == second.location


def test_a_new_tap_from_the_retired_edit_link_is_refused(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    old = edit_url(match.public_id, match.edit_token)
    first = client.post(f"{old}/new-link", data={"operation": uuid.uuid4().hex})

    again = client.post(f"{old}/new-link", data={"operation": uuid.uuid4().hex})

    assert again.status_code == 403
    assert page_of(client, first.location)  # the link of the first tap still opens the match


def test_a_new_edit_link_with_an_operation_id_no_operation_can_have_is_refused(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    old = edit_url(match.public_id, match.edit_token)

    response = client.post(f"{old}/new-link", data={"operation": "x" * 65})

    assert response.status_code == 400
    assert page_of(client, old)


def test_each_new_edit_link_form_carries_an_operation_id_of_its_own(app: Flask) -> None:
    template = "{{ new_edit_link_form().operation }}"
    with app.test_request_context("/", method="POST", data={"operation": "posted elsewhere"}):
        fields = [render_template_string(template) for _ in range(2)]

    ids = [re.search(r'name="operation" type="hidden" value="([0-9a-f]{32})"', f) for f in fields]
    assert ids[0] and ids[1] and ids[0][1] != ids[1][1]


# -- Importing a match ---------------------------------------------------------------------------


@pytest.fixture
def exported(app: Flask, create_match: CreateMatch) -> Callable[..., dict[str, Any]]:
    """Return a factory of a stored match's export, with a quiet round 1 and round 2 entered."""

    def export(**options: object) -> dict[str, Any]:
        stored = create_match(**options)
        with app.app_context():
            match = store.get_match(stored.public_id)
            assert match is not None
            for number in (1, 2):
                sides = (SideEntry(clean_books=1, melded=200), SideEntry(melded=150))
                store.add_round(match, RoundEntry(number, sides))
            return store.export_match(match)

    return export


def upload(document: object) -> dict[str, Any]:
    """Return the import form's fields with `document` as the chosen file."""
    content = document if isinstance(document, bytes) else json.dumps(document).encode()
    return {"file": (io.BytesIO(content), "friday.json"), "text": ""}


@pytest.mark.parametrize("sent_as", ["file", "text"])
def test_an_imported_match_is_a_new_match_with_its_own_links_and_the_same_rounds(
    client: FlaskClient, app: Flask, exported: Callable[..., dict[str, Any]], sent_as: str
) -> None:
    document = exported(name="Friday", overrides={"going_out_bonus": 200})
    data = upload(document) if sent_as == "file" else {"text": json.dumps(document)}

    response = client.post("/matches/import", data=data)

    assert response.status_code == 303
    link = SHARE_URL.fullmatch(response.location)
    assert link is not None
    assert "imported as a new one" in page_of(client, response.location)
    with app.app_context():
        imported = store.get_match(link["public_id"])
        assert imported is not None and store.token_opens(imported, link["token"])
        copy = store.export_match(imported)
    assert copy["rounds"] == document["rounds"] and copy["settings"] == document["settings"]
    assert copy["name"] == "Friday" and match_count(app) == 2


def round_two_impossible(document: dict[str, Any]) -> dict[str, Any]:
    document["rounds"][1]["sides"][0]["melded_points"] = 40  # under round 2's meld minimum
    return document


@pytest.mark.parametrize(
    ("data", "field_id", "message"),
    [
        ({"text": "{not json"}, "text", "not JSON"),
        ({"text": "[1, 2]"}, "text", "not a match's export"),
        (upload(b"\xff\xfe\x00binary"), "file", "not text"),
        (upload({"format": "something else"}), "file", "not a match exported by scorekeeper"),
        ({}, "file", "Choose the exported file, or paste what it holds."),
        ({**upload({}), "text": "{}"}, "text", "not both"),
        ({"text": "[" * 5000}, "text", "not JSON"),  # nested deeper than Python parses
        ({"text": "1" * 5000}, "text", "not JSON"),  # a number longer than int() takes
    ],
)
def test_an_export_that_cannot_be_read_is_refused_next_to_its_field_and_nothing_is_stored(
    client: FlaskClient, app: Flask, data: dict[str, Any], field_id: str, message: str
) -> None:
    response = client.post("/matches/import", data=data)

    assert response.status_code == 422
    assert message in errors_next_to(response.get_data(as_text=True), field_id)
    assert match_count(app) == 0


def test_an_impossible_round_in_an_export_is_named_by_its_round_and_nothing_is_stored(
    client: FlaskClient, app: Flask, exported: Callable[..., dict[str, Any]]
) -> None:
    document = round_two_impossible(exported())
    before = match_count(app)

    response = client.post("/matches/import", data={"text": json.dumps(document)})

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r"Round 2: Us: .*meld minimum of 90", errors_next_to(page, "text"))
    assert json.dumps(document) in html.unescape(page)  # the pasted text stays to be corrected
    assert match_count(app) == before


def test_a_file_too_large_to_be_an_export_is_refused_next_to_the_file_field(
    client: FlaskClient, app: Flask
) -> None:
    too_large = b" " * (app.config["MAX_CONTENT_LENGTH"] + 1)

    response = client.post("/matches/import", data=upload(too_large))

    assert response.status_code == 413
    assert "larger than a match's export can be" in errors_next_to(
        response.get_data(as_text=True), "file"
    )
    assert match_count(app) == 0


def test_the_import_form_is_linked_from_the_home_page_and_my_matches(client: FlaskClient) -> None:
    for url in ("/", "/recent"):
        assert 'href="/matches/import"' in page_of(client, url)

    page = page_of(client, "/matches/import")
    assert 'enctype="multipart/form-data"' in page and 'type="file"' in page
    assert "<textarea" in page and 'name="csrf_token"' in page
