"""Operation ids: a double tap or a retried request changes a match once and answers as before."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse
from worked_example import STAYED_IN, STAYED_IN_JSON, WENT_OUT, WENT_OUT_JSON

from scorekeeper import store
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.store import idempotency
from scorekeeper.store.database import write_transaction
from scorekeeper.store.models import Base, Match, Operation, Round, db, utc_now

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import AtOnce, CreateMatch, Stored, StoredMatch

# The hand-worked round: 2565 and 825 points.
ROUND_ONE = RoundEntry(1, (WENT_OUT, STAYED_IN))
ROUND_ONE_SWAPPED = RoundEntry(1, (STAYED_IN, WENT_OUT))
Enter = Callable[..., TestResponse]


def new_id() -> str:
    return str(uuid.uuid4())


def count(model: type[Base]) -> int:
    return db.session.scalar(db.select(db.func.count()).select_from(model)) or 0


# -- In the store --------------------------------------------------------------------------------


def test_a_round_added_twice_under_one_operation_id_is_stored_once(stored: Stored) -> None:
    match, operation_id = stored(), new_id()

    first = store.add_round(match, ROUND_ONE, operation_id=operation_id)
    again = store.add_round(match, ROUND_ONE, operation_id=operation_id)

    assert again == first
    assert count(Round) == 1
    assert match.version == 2


def test_a_replacement_repeated_under_its_operation_id_applies_once(stored: Stored) -> None:
    match, operation_id = stored(), new_id()
    store.add_round(match, ROUND_ONE)

    first = store.replace_round(match, 1, ROUND_ONE_SWAPPED, version=1, operation_id=operation_id)
    again = store.replace_round(match, 1, ROUND_ONE_SWAPPED, version=1, operation_id=operation_id)

    assert again == first
    assert first.version == 2
    assert match.version == 3


def test_a_deletion_repeated_later_leaves_the_round_entered_since(stored: Stored) -> None:
    match, operation_id = stored(), new_id()
    store.add_round(match, ROUND_ONE)
    store.delete_round(match, 1, version=1, operation_id=operation_id)
    store.add_round(match, ROUND_ONE_SWAPPED)

    store.delete_round(match, 1, version=1, operation_id=operation_id)

    assert store.match_view(match).standings.totals == (825, 2565)


def test_a_repeat_answers_with_the_round_as_first_stored_whatever_happened_since(
    stored: Stored,
) -> None:
    match, operation_id = stored(overrides={"meld_minimum_mode": "by_score"}), new_id()
    store.add_round(match, ROUND_ONE)
    second = RoundEntry(2, (SideEntry(melded=90), SideEntry(melded=50)))
    first = store.add_round(match, second, operation_id=operation_id)
    store.replace_round(match, 2, RoundEntry(2, (STAYED_IN, WENT_OUT)), version=1)
    store.replace_round(match, 1, ROUND_ONE_SWAPPED, version=1)

    again = store.add_round(match, second, operation_id=operation_id)

    assert again == first
    assert [side.running_score for side in again.entry.sides] == [2565, 825]


def test_a_round_entered_as_card_counts_repeats_as_card_counts(stored: Stored) -> None:
    match, operation_id = stored(), new_id()
    counted = SideEntry(melded=CardCounts(aces=4, eights_to_kings=5), leftover=CardCounts(twos=1))
    entry = RoundEntry(1, (counted, STAYED_IN))

    first = store.add_round(match, entry, operation_id=operation_id)

    assert store.add_round(match, entry, operation_id=operation_id) == first


@pytest.mark.parametrize("change", ["another round", "another kind", "another match"])
def test_an_operation_id_used_for_another_change_is_refused_and_changes_nothing(
    stored: Stored, change: str
) -> None:
    match, other, operation_id = stored(), stored(name="Saturday"), new_id()
    store.add_round(match, ROUND_ONE, operation_id=operation_id)

    with pytest.raises(store.OperationIdRefused) as refused:
        if change == "another round":
            store.add_round(match, RoundEntry(2, ROUND_ONE.sides), operation_id=operation_id)
        elif change == "another kind":
            store.replace_round(match, 1, ROUND_ONE_SWAPPED, version=1, operation_id=operation_id)
        else:
            store.add_round(other, ROUND_ONE, operation_id=operation_id)

    assert [problem.field for problem in refused.value.problems] == ["operation_id"]
    assert (count(Round), match.version, other.version) == (1, 2, 1)


@pytest.mark.parametrize("operation_id", ["", "x" * 65, "tab\there", "clé"])
def test_a_malformed_operation_id_is_refused(stored: Stored, operation_id: str) -> None:
    match = stored()

    with pytest.raises(store.OperationIdRefused):
        store.add_round(match, ROUND_ONE, operation_id=operation_id)

    assert count(Round) == 0


def test_a_refused_change_leaves_its_operation_id_free_for_the_corrected_one(
    stored: Stored,
) -> None:
    match, operation_id = stored(), new_id()
    with pytest.raises(ProblemsError):
        store.add_round(match, RoundEntry(1, (WENT_OUT, WENT_OUT)), operation_id=operation_id)

    scored = store.add_round(match, ROUND_ONE, operation_id=operation_id)

    assert [side.score for side in scored.score.sides] == [2565, 825]
    assert count(Operation) == 1


def test_a_change_without_an_operation_id_keeps_no_operation(stored: Stored) -> None:
    match = stored()
    store.add_round(match, ROUND_ONE)
    store.replace_round(match, 1, ROUND_ONE_SWAPPED, version=1)
    store.delete_round(match, 1, version=2)

    assert count(Operation) == 0


def test_two_requests_with_one_operation_id_at_once_apply_it_once(
    app: Flask, create_match: CreateMatch, at_once: AtOnce
) -> None:
    public_id, operation_id = create_match().public_id, new_id()

    answers = at_once(
        public_id, lambda match: store.add_round(match, ROUND_ONE, operation_id=operation_id)
    )

    assert len(answers) == 2 and answers[0] == answers[1]
    with app.app_context():
        assert (count(Round), count(Operation)) == (1, 1)
        assert db.session.scalar(db.select(Match.version)) == 2


def test_the_unique_id_decides_when_a_twin_was_stored_after_the_lookup(
    stored: Stored, monkeypatch: pytest.MonkeyPatch
) -> None:
    match, operation_id = stored(), new_id()
    first = store.add_round(match, ROUND_ONE, operation_id=operation_id)
    store.delete_round(match, 1, version=1)  # the round goes; the operation stays
    looked_up, lookups = idempotency.applied, []

    def missed_once(change: idempotency.Change) -> Operation | None:
        lookups.append(change)  # as if the twin committed just after this first lookup
        return None if len(lookups) == 1 else looked_up(change)

    monkeypatch.setattr(idempotency, "applied", missed_once)

    again = store.add_round(match, ROUND_ONE, operation_id=operation_id)

    assert again == first
    assert len(lookups) == 2
    assert count(Round) == 0  # the first attempt's work was rolled back
    assert match.version == 3


def test_operations_older_than_two_days_are_forgotten_on_the_next_change(
    stored: Stored,
) -> None:
    match, old_id = stored(), new_id()
    store.add_round(match, ROUND_ONE, operation_id=old_id)
    with write_transaction():
        db.session.execute(db.update(Operation).values(created_at=utc_now() - timedelta(days=3)))

    store.replace_round(match, 1, ROUND_ONE_SWAPPED, version=1, operation_id=new_id())

    assert db.session.get(Operation, old_id) is None
    assert count(Operation) == 1


# -- Through the API -----------------------------------------------------------------------------


def headers(match: StoredMatch, key: str, version: int | None = None) -> dict[str, str]:
    sent = {"Authorization": f"Bearer {match.edit_token}", "Idempotency-Key": key}
    return sent | ({"If-Match": f'"{version}"'} if version else {})


@pytest.fixture
def enter(client: FlaskClient) -> Callable[..., TestResponse]:
    """Return a function that posts a round to a match under an Idempotency-Key."""

    def post(match: StoredMatch, number: int, key: str) -> TestResponse:
        body = {"round": number, "sides": [WENT_OUT_JSON, STAYED_IN_JSON]}
        rounds = f"/api/v1/matches/{match.public_id}/rounds"
        return client.post(rounds, json=body, headers=headers(match, key))

    return post


def stored_rounds(app: Flask) -> list[tuple[int, int]]:
    with app.app_context():
        return [(row.number, row.version) for row in db.session.scalars(db.select(Round))]


def test_a_retried_round_post_answers_as_the_first_and_stores_one_round(
    app: Flask, create_match: CreateMatch, enter: Enter
) -> None:
    match, key = create_match(), new_id()

    first = enter(match, 1, key)
    again = enter(match, 1, key)

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json == first.json
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Location"] == first.headers["Location"]
    assert stored_rounds(app) == [(1, 1)]


def test_a_retried_round_put_answers_as_the_first_and_bumps_the_version_once(
    app: Flask, client: FlaskClient, create_match: CreateMatch, enter: Enter
) -> None:
    match, key = create_match(), new_id()
    enter(match, 1, new_id())
    url = f"/api/v1/matches/{match.public_id}/rounds/1"
    body = {"sides": [STAYED_IN_JSON, WENT_OUT_JSON]}

    first = client.put(url, json=body, headers=headers(match, key, version=1))
    again = client.put(url, json=body, headers=headers(match, key, version=1))

    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json == first.json
    assert again.headers["ETag"] == first.headers["ETag"] == '"2"'
    assert stored_rounds(app) == [(1, 2)]


def test_a_retried_round_delete_answers_as_the_first(
    app: Flask, client: FlaskClient, create_match: CreateMatch, enter: Enter
) -> None:
    match, key = create_match(), new_id()
    enter(match, 1, new_id())
    url = f"/api/v1/matches/{match.public_id}/rounds/1"

    first = client.delete(url, headers=headers(match, key, version=1))
    again = client.delete(url, headers=headers(match, key, version=1))

    assert (first.status_code, again.status_code) == (204, 204)
    assert stored_rounds(app) == []


@pytest.mark.parametrize("key", ["", "x" * 65, "clé"])
def test_an_idempotency_key_that_is_not_one_is_refused(
    app: Flask, create_match: CreateMatch, enter: Enter, key: str
) -> None:
    response = enter(create_match(), 1, key)

    assert response.status_code == 422
    assert [error["field"] for error in response.json["errors"]] == ["Idempotency-Key"]
    assert stored_rounds(app) == []


def test_an_idempotency_key_sent_again_with_another_request_is_refused(
    app: Flask, create_match: CreateMatch, enter: Enter
) -> None:
    match, key = create_match(), new_id()
    enter(match, 1, key)

    response = enter(match, 2, key)

    assert response.status_code == 422
    error = response.json["errors"][0]
    assert error["field"] == "Idempotency-Key"
    assert error["message"].startswith("Idempotency-Key was already used")
    assert stored_rounds(app) == [(1, 1)]


def test_an_idempotency_key_sent_again_with_other_scores_for_the_round_is_refused(
    app: Flask, client: FlaskClient, create_match: CreateMatch, enter: Enter
) -> None:
    match, key = create_match(), new_id()
    enter(match, 1, new_id())
    url = f"/api/v1/matches/{match.public_id}/rounds/1"
    first = client.put(
        url, json={"sides": [STAYED_IN_JSON, WENT_OUT_JSON]}, headers=headers(match, key, version=1)
    )

    changed = {"sides": [STAYED_IN_JSON, {**WENT_OUT_JSON, "melded_points": 800}]}
    again = client.put(url, json=changed, headers=headers(match, key, version=1))

    assert (first.status_code, again.status_code) == (200, 422)
    assert again.json["errors"][0]["field"] == "Idempotency-Key"
    assert stored_rounds(app) == [(1, 2)]
