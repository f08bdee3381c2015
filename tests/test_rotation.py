"""Rotating the edit token: a new token shown once, only its digest kept, old links dead at once."""

from __future__ import annotations

import hashlib
import logging
import re
import uuid
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from worked_example import STAYED_IN, WENT_OUT

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.store import edit_tokens
from scorekeeper.store.database import write_transaction
from scorekeeper.store.models import Match, Operation, db, utc_now

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import AtOnce, CreateMatch, StoredMatch

ROUND_ONE = {"round": 1, "sides": [{"melded_points": 60}, {"melded_points": 50}]}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def match(create_match: CreateMatch) -> StoredMatch:
    return create_match()


def rotate(client: FlaskClient, match: StoredMatch, token: str | None = None) -> str:
    """Rotate the match's token through the API and return the new one."""
    response = client.post(
        f"/api/v1/matches/{match.public_id}/token", headers=bearer(token or match.edit_token)
    )
    assert response.status_code == 200
    return response.json["edit_token"]


# -- In the store --------------------------------------------------------------------------------


def test_a_rotated_token_opens_the_match_and_the_old_one_no_longer_does(
    in_app: None, match: StoredMatch
) -> None:
    stored = store.get_match(match.public_id)
    assert stored is not None

    token = store.rotate_token_once(stored, match.edit_token, operation_id=None, secret="test")

    db.session.expire_all()
    assert store.token_opens(stored, token)
    assert not store.token_opens(stored, match.edit_token)


def test_only_the_digest_of_a_rotated_token_is_stored(in_app: None, match: StoredMatch) -> None:
    stored = store.get_match(match.public_id)
    assert stored is not None

    token = store.rotate_token_once(stored, match.edit_token, operation_id=None, secret="test")

    kept = db.session.scalar(db.select(Match.edit_token_hash))
    assert kept == hashlib.sha256(token.encode()).hexdigest()
    assert len(token) >= 43 and token != match.edit_token


# -- Through the API and the pages ---------------------------------------------------------------


def test_rotating_answers_the_new_token_and_its_edit_link_privately(
    client: FlaskClient, match: StoredMatch
) -> None:
    response = client.post(
        f"/api/v1/matches/{match.public_id}/token", headers=bearer(match.edit_token)
    )

    assert response.status_code == 200
    token = response.json["edit_token"]
    assert response.json["edit_url"] == f"http://localhost/m/{match.public_id}/edit/{token}"
    assert response.headers["Cache-Control"] == "no-store"


def test_after_rotation_old_links_change_nothing_and_new_ones_work(
    client: FlaskClient, match: StoredMatch
) -> None:
    token = rotate(client, match)
    rounds = f"/api/v1/matches/{match.public_id}/rounds"

    assert client.post(rounds, json=ROUND_ONE, headers=bearer(match.edit_token)).status_code == 403
    assert client.get(f"/m/{match.public_id}/edit/{match.edit_token}").status_code == 403
    assert client.post(rounds, json=ROUND_ONE, headers=bearer(token)).status_code == 201
    assert client.get(f"/m/{match.public_id}/edit/{token}").status_code == 200


def test_a_rotation_retried_through_the_api_under_its_idempotency_key_answers_the_same_token(
    client: FlaskClient, match: StoredMatch
) -> None:
    url = f"/api/v1/matches/{match.public_id}/token"
    headers = {**bearer(match.edit_token), "Idempotency-Key": str(uuid.uuid4())}

    first, retried = client.post(url, headers=headers), client.post(url, headers=headers)

    assert first.status_code == retried.status_code == 200
    assert first.json == retried.json
    fresh = {**bearer(match.edit_token), "Idempotency-Key": str(uuid.uuid4())}
    assert client.post(url, headers=fresh).status_code == 403  # the old token, a new request


def test_a_token_rotated_twice_keeps_only_the_last(client: FlaskClient, match: StoredMatch) -> None:
    second = rotate(client, match)
    third = rotate(client, match, second)

    rounds = f"/api/v1/matches/{match.public_id}/rounds"
    assert client.post(rounds, json=ROUND_ONE, headers=bearer(second)).status_code == 403
    assert client.post(rounds, json=ROUND_ONE, headers=bearer(third)).status_code == 201


@pytest.mark.parametrize(
    ("authorization", "status"),
    [(None, 401), ("Bearer not-the-token", 403), ("theirs", 403)],
    ids=["view link", "wrong token", "another match's token"],
)
def test_rotating_needs_the_current_token_of_this_match(
    client: FlaskClient,
    create_match: CreateMatch,
    match: StoredMatch,
    authorization: str | None,
    status: int,
) -> None:
    if authorization == "theirs":
        authorization = f"Bearer {create_match('Saturday').edit_token}"
    headers = {"Authorization": authorization} if authorization else {}

    response = client.post(f"/api/v1/matches/{match.public_id}/token", headers=headers)

    assert response.status_code == status
    assert response.json["errors"]
    rounds = f"/api/v1/matches/{match.public_id}/rounds"
    assert client.post(rounds, json=ROUND_ONE, headers=bearer(match.edit_token)).status_code == 201


def test_rotating_writes_neither_token_to_any_log(
    client: FlaskClient, match: StoredMatch, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        token = rotate(client, match)

    assert token not in caplog.text
    assert match.edit_token not in caplog.text


# -- Once per form submission: the new edit link of a double tap ---------------------------------

SECRET = "a secret key of the app, long enough to be one"
Opened = tuple[Match, str]


@pytest.fixture
def opened(in_app: None, match: StoredMatch) -> Opened:
    """Return the stored match, loaded in this test's session, and its edit token."""
    loaded = store.get_match(match.public_id)
    assert loaded is not None
    db.session.rollback()  # end the read, as a request does before it writes
    return loaded, match.edit_token


def operation_id() -> str:
    return uuid.uuid4().hex


def rotate_once(match: Match, token: str, operation: str | None, secret: str = SECRET) -> str:
    return store.rotate_token_once(match, token, operation_id=operation, secret=secret)


def count_operations() -> int:
    return db.session.scalar(db.select(db.func.count()).select_from(Operation)) or 0


def test_a_rotation_repeated_under_its_operation_id_gives_the_same_new_token(
    opened: Opened,
) -> None:
    (match, old), operation = opened, operation_id()

    new = rotate_once(match, old, operation)
    again = rotate_once(match, old, operation)

    assert again == new
    assert store.token_opens(match, new) and not store.token_opens(match, old)
    assert count_operations() == 1


def test_a_derived_token_is_shaped_like_a_random_one_and_depends_on_all_it_is_made_of() -> None:
    made_of = ("secret", "match", "operation", "old token")
    changed_one = [(*made_of[:i], "other", *made_of[i + 1 :]) for i in range(len(made_of))]

    tokens = {edit_tokens.derived_token(*parts) for parts in [made_of, *changed_one]}

    assert len(tokens) == 1 + len(made_of)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43}", token) for token in tokens)
    assert edit_tokens.derived_token(*made_of) == edit_tokens.derived_token(*made_of)


def test_the_retired_token_under_a_new_operation_id_is_refused_and_changes_nothing(
    opened: Opened,
) -> None:
    match, old = opened
    new = rotate_once(match, old, operation_id())

    with pytest.raises(store.TokenRefused):
        rotate_once(match, old, operation_id())

    assert store.token_opens(match, new)
    assert count_operations() == 1


@pytest.mark.parametrize("operation", [None, "tap"], ids=["without an id", "with one"])
def test_a_token_that_never_opened_the_match_is_refused(
    opened: Opened, operation: str | None
) -> None:
    match, token = opened
    with pytest.raises(store.TokenRefused):
        rotate_once(match, "not-the-token", operation)
    assert store.token_opens(match, token)
    assert count_operations() == 0


def test_a_repeat_after_the_link_was_replaced_again_is_refused(opened: Opened) -> None:
    (match, old), operation = opened, operation_id()
    second = rotate_once(match, old, operation)
    third = rotate_once(match, second, operation_id())

    with pytest.raises(store.TokenRefused):
        rotate_once(match, old, operation)

    assert store.token_opens(match, third)


def test_a_repeat_after_its_window_is_refused(opened: Opened) -> None:
    (match, old), operation = opened, operation_id()
    new = rotate_once(match, old, operation)
    long_ago = utc_now() - edit_tokens.REPEAT_WINDOW - timedelta(seconds=1)
    with write_transaction():
        db.session.execute(db.update(Operation).values(created_at=long_ago))

    with pytest.raises(store.TokenRefused):
        rotate_once(match, old, operation)

    assert store.token_opens(match, new)


def test_an_operation_id_used_for_a_round_is_refused_for_a_new_link(opened: Opened) -> None:
    (match, old), operation = opened, operation_id()
    store.add_round(match, RoundEntry(1, (WENT_OUT, STAYED_IN)), operation_id=operation)

    with pytest.raises(store.OperationIdRefused):
        rotate_once(match, old, operation)

    assert store.token_opens(match, old)


def test_without_an_operation_id_a_rotation_keeps_no_operation_and_cannot_repeat(
    opened: Opened,
) -> None:
    match, old = opened

    new = rotate_once(match, old, None)

    assert store.token_opens(match, new)
    with pytest.raises(store.TokenRefused):
        rotate_once(match, old, None)
    assert count_operations() == 0


def test_two_identical_requests_at_once_rotate_the_token_once(
    app: Flask, match: StoredMatch, at_once: AtOnce
) -> None:
    operation = operation_id()

    answers = at_once(
        match.public_id, lambda loaded: rotate_once(loaded, match.edit_token, operation)
    )

    assert len(answers) == 2 and answers[0] == answers[1]
    with app.app_context():
        loaded = store.get_match(match.public_id)
        assert loaded is not None and store.token_opens(loaded, answers[0])
        assert count_operations() == 1
