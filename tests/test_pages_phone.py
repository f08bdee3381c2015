"""What a phone's service worker asks of a match's pages: changes to rounds sent on their
Idempotency-Key, which need no session (a change that waited on the phone may outlive its
cookie); round forms kept on the phone and asked for again with a validator; and the answers a
change meets when another phone changed the match before it arrived."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from page_parts import data_json
from test_pages_match import side
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.store.models import Round, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": True}


# A round worked out by hand: Us score 2565, Them 825.
WORKED_ROUND = {
    "went_out": "0",
    **side(0, melded_mode="points", clean_books=2, dirty_books=2, melded_points=765),
    **side(1, melded_mode="points", clean_books=1, melded_points=310, leftover_points=85),
}


class Phone:
    """A phone whose session ended: each change goes as its service worker sends it, with the
    form's operation id as its Idempotency-Key and no CSRF token."""

    def __init__(self, app: Flask, stored: StoredMatch) -> None:
        self.client = app.test_client()
        self.edit = f"/m/{stored.public_id}/edit/{stored.edit_token}"

    def send(self, path: str, operation: str, **fields: str) -> TestResponse:
        headers = {"Idempotency-Key": operation}
        return self.client.post(
            f"{self.edit}{path}", data={"operation": operation, **fields}, headers=headers
        )

    def enter(self, number: int, operation: str | None = None) -> TestResponse:
        operation = operation or f"enter-{number}"
        return self.send("/rounds/new", operation, round_number=str(number), **WORKED_ROUND)


@pytest.fixture
def phone(app: Flask, create_match: CreateMatch) -> Phone:
    return Phone(app, create_match())


def stored_rounds(app: Flask) -> list[tuple[int, int]]:
    with app.app_context():
        return [(row.number, row.version) for row in db.session.scalars(db.select(Round))]


def text(response: TestResponse) -> str:
    return response.get_data(as_text=True)


# -- Changes on their Idempotency-Key ------------------------------------------------------------


def test_a_round_sent_on_its_idempotency_key_is_stored_without_a_session(
    phone: Phone, app: Flask
) -> None:
    response = phone.enter(1)

    assert response.status_code == 303
    assert response.headers["Location"] == phone.edit
    assert stored_rounds(app) == [(1, 1)]


def test_a_round_sent_again_on_its_idempotency_key_is_stored_once(phone: Phone, app: Flask) -> None:
    assert [phone.enter(1, "once").status_code for _ in range(3)] == [303, 303, 303]
    assert stored_rounds(app) == [(1, 1)]


def test_a_key_that_is_not_the_forms_operation_id_stands_for_no_csrf_token(
    phone: Phone, app: Flask
) -> None:
    fields = {"operation": "enter-1", "round_number": "1", **WORKED_ROUND}
    headers = {"Idempotency-Key": "another"}

    response = phone.client.post(f"{phone.edit}/rounds/new", data=fields, headers=headers)

    assert response.status_code == 400
    assert "This form had expired" in text(response)
    assert stored_rounds(app) == []


def test_a_correction_and_a_deletion_go_on_their_idempotency_key_too(
    phone: Phone, app: Flask
) -> None:
    phone.enter(1)
    quiet = {**WORKED_ROUND, **side(1, leftover_points=20)}

    corrected = phone.send("/rounds/1", "correct-1", version="1", **quiet)
    deleted = phone.send("/rounds/1/delete", "delete-1", version="2")

    assert [corrected.status_code, deleted.status_code] == [303, 303]
    assert stored_rounds(app) == []


# -- Changes that meet another phone's -----------------------------------------------------------


def test_a_correction_of_a_round_deleted_before_it_arrived_keeps_what_was_typed(
    phone: Phone, app: Flask
) -> None:
    phone.enter(1)
    phone.send("/rounds/1/delete", "delete-1", version="1")  # another phone, meanwhile

    response = phone.send("/rounds/1", "correct-1", version="1", **WORKED_ROUND)

    assert response.status_code == 409
    page = text(response)
    assert "Someone else deleted this round meanwhile" in page
    assert 'value="765"' in page
    assert f'action="{phone.edit}/rounds/new"' in page
    assert stored_rounds(app) == []


def test_a_correction_of_a_round_that_never_was_is_not_found(phone: Phone) -> None:
    phone.enter(1)

    assert phone.send("/rounds/2", "correct-2", version="1", **WORKED_ROUND).status_code == 404


def test_deleting_a_round_deleted_already_says_so_and_changes_nothing(
    phone: Phone, app: Flask
) -> None:
    phone.enter(1)
    phone.enter(2)
    phone.send("/rounds/1/delete", "delete-on-one-phone", version="1")

    response = phone.send("/rounds/1/delete", "delete-on-another", version="1")

    assert response.status_code == 303
    assert "Round 1 was already deleted." in text(phone.client.get(response.headers["Location"]))
    assert stored_rounds(app) == [(2, 1)]


def test_the_form_of_a_round_entered_already_gives_way_to_the_next_under_its_address(
    phone: Phone,
) -> None:
    phone.enter(1)

    response = phone.client.get(f"{phone.edit}/rounds/new?round=1")

    assert response.status_code == 303
    assert response.headers["Location"] == f"{phone.edit}/rounds/new?round=2"
    page = text(phone.client.get(response.headers["Location"]))
    assert "Round 1 is already entered." in page
    assert "Round 2 of 4" in page


def test_the_form_of_a_round_the_match_has_not_gives_way_to_the_next(phone: Phone) -> None:
    response = phone.client.get(f"{phone.edit}/rounds/new?round=9")

    assert response.headers["Location"] == f"{phone.edit}/rounds/new?round=1"


# -- Round forms kept on the phone ---------------------------------------------------------------


def test_a_round_form_unchanged_since_the_phone_kept_it_costs_a_304(phone: Phone) -> None:
    form = f"{phone.edit}/rounds/new?round=2"
    kept = phone.client.get(form)

    again = phone.client.get(form, headers={"If-None-Match": kept.headers["ETag"]})

    assert kept.status_code == 200 and kept.headers["ETag"].startswith('W/"')
    assert kept.headers["Cache-Control"] == "no-store"  # the browser's cache keeps no token page
    assert again.status_code == 304
    assert again.get_data() == b""


@pytest.mark.parametrize("change", ["round entered", "language"])
def test_a_round_form_that_would_look_otherwise_is_sent_again(phone: Phone, change: str) -> None:
    form = f"{phone.edit}/rounds/new?round=2"
    tag = phone.client.get(form).headers["ETag"]
    if change == "round entered":
        phone.enter(1)
    else:
        phone.client.set_cookie("lang", "nl")

    again = phone.client.get(form, headers={"If-None-Match": tag})

    assert again.status_code == 200
    assert again.headers["ETag"] != tag


def test_a_stored_rounds_form_is_kept_with_a_validator_too(phone: Phone) -> None:
    phone.enter(1)
    kept = phone.client.get(f"{phone.edit}/rounds/1")

    again = phone.client.get(
        f"{phone.edit}/rounds/1", headers={"If-None-Match": kept.headers["ETag"]}
    )

    assert again.status_code == 304


# -- The standings a phone reads ----------------------------------------------------------------


def rounds_to_enter(page: str) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = data_json(page, "next-rounds")
    return rounds


def test_the_standings_name_each_round_still_to_play_with_its_form_and_its_dealer(
    phone: Phone,
) -> None:
    phone.enter(1)
    phone.enter(3)

    page = text(phone.client.get(phone.edit))

    rounds = rounds_to_enter(page)
    assert [
        {key: value for key, value in next_round.items() if key != "etag"} for next_round in rounds
    ] == [
        {
            "round": number,
            "url": f"{phone.edit}/rounds/new?round={number}",
            "label": f"Enter round {number}",
            "dealer": f"{dealer} deals round {number}.",
        }
        for number, dealer in ((2, "Cy"), (4, "Di"))
    ]
    # Each form's ETag, as the form's own answer gives it: the phone asks for none it has.
    for next_round in rounds:
        assert phone.client.get(next_round["url"]).headers["ETag"] == next_round["etag"]
    assert f'href="{phone.edit}/rounds/new?round=2" data-enter-round>Enter round 2<' in page


def test_a_finished_match_tells_its_page_to_stop_asking_for_changes(
    phone: Phone, app: Flask
) -> None:
    assert "data-finished" not in text(phone.client.get(phone.edit))
    for number in range(1, 5):
        phone.enter(number)

    assert "data-finished" in text(phone.client.get(phone.edit))
    assert rounds_to_enter(text(phone.client.get(phone.edit))) == []


def test_a_release_names_its_service_worker_and_its_forms_alike(app: Flask) -> None:
    with app.test_request_context():
        from scorekeeper.web.app_shell import release

        name = release()
    worker = create_app(app.config).test_client().get("/sw.js")

    assert re.fullmatch(r"[0-9a-f]{16}", name)
    assert f'"version": "{name}"' in text(worker)
