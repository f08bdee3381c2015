"""Rotating the edit token: a new token shown once, only its digest kept, old links dead at once."""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient

from scorekeeper import store
from scorekeeper.models import Match, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch

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

    token = store.rotate_token(stored)

    db.session.expire_all()
    assert store.token_opens(stored, token)
    assert not store.token_opens(stored, match.edit_token)


def test_only_the_digest_of_a_rotated_token_is_stored(in_app: None, match: StoredMatch) -> None:
    stored = store.get_match(match.public_id)
    assert stored is not None

    token = store.rotate_token(stored)

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
