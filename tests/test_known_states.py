"""Matches' states as this host last knew them: shared by the app's processes, never trusted.

The slots are tested on their own; the rest runs where the app keeps states, PostgreSQL, and
checks that a round entered on a state the match has left is entered as on one read afresh.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app, store
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import MAX_PLAYERS, SETTING_RANGES, build_rules
from scorekeeper.domain.setup import MAX_NAME_LENGTH
from scorekeeper.store import known_states
from scorekeeper.store.known_states import KnownStates, SharedSlots
from scorekeeper.store.match_state import MatchState, StoredRound, state_of
from scorekeeper.store.models import Round, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import Stored, StoredMatch

WENT_OUT = {"clean_books": 2, "dirty_books": 2, "melded_points": 765, "went_out": True}
STAYED_IN = {"clean_books": 1, "melded_points": 310, "leftover_points": 85}
COUNTED = SideEntry(
    clean_books=1,
    melded=CardCounts(aces=7, eights_to_kings=3),
    leftover=CardCounts(fours_to_sevens=2, black_threes=1),
)


# -- The shared slots ----------------------------------------------------------------------------


def test_a_slot_gives_back_what_was_put_under_its_key_and_nothing_else() -> None:
    slots = SharedSlots(16, slot_size=256)

    slots.put(b"match-a", b"state of a")

    assert slots.get(b"match-a") == b"state of a"
    assert slots.get(b"match-b") is None


def test_keys_that_share_a_slot_take_turns_in_it() -> None:
    slots = SharedSlots(1, slot_size=256)

    slots.put(b"match-a", b"state of a")
    slots.put(b"match-b", b"state of b")

    assert (slots.get(b"match-a"), slots.get(b"match-b")) == (None, b"state of b")


def test_a_slot_discarded_gives_back_nothing() -> None:
    slots = SharedSlots(16, slot_size=256)
    slots.put(b"match-a", b"state of a")

    slots.discard(b"match-a")

    assert slots.get(b"match-a") is None


def test_a_value_too_big_for_its_slot_leaves_no_older_one() -> None:
    slots = SharedSlots(1, slot_size=256)
    slots.put(b"match-a", b"state of a")

    slots.put(b"match-a", b"x" * 256)

    assert slots.get(b"match-a") is None


def test_a_slot_caught_half_written_counts_as_empty() -> None:
    old, new = SharedSlots(1, slot_size=256), SharedSlots(1, slot_size=256)
    old.put(b"match-a", b"a" * 100)
    new.put(b"match-a", b"b" * 100)

    for written in (10, 60, 120):  # the header, the key, the value: as far as a writer got
        torn = SharedSlots(1, slot_size=256)
        torn._memory[:] = new._memory[:written] + old._memory[written:]

        assert torn.get(b"match-a") is None


def test_processes_forked_after_the_slots_were_made_share_them() -> None:
    slots = SharedSlots(16, slot_size=256)
    slots.put(b"from-parent", b"parent's")

    child = os.fork()
    if child == 0:  # pragma: no cover (the child's work is checked by its exit status)
        seen = slots.get(b"from-parent") == b"parent's"
        slots.put(b"from-child", b"child's")
        os._exit(0 if seen else 1)
    _, status = os.waitpid(child, 0)

    assert os.waitstatus_to_exitcode(status) == 0
    assert slots.get(b"from-child") == b"child's"


def test_the_largest_match_the_rules_allow_is_kept() -> None:
    sides = [f"{index} {'x' * (MAX_NAME_LENGTH - 2)}" for index in range(MAX_PLAYERS)]
    rounds = SETTING_RANGES["rounds"].high
    state = MatchState(
        id=2**31 - 1,
        public_id="p" * 22,
        edit_token_hash="0" * 64,
        version=10_000,
        round_version_floor=10_000,
        settings=json.dumps(build_rules("standard").as_settings()),
        side_ids=tuple(range(2**31 - MAX_PLAYERS, 2**31)),
        side_names=tuple(sides),
        side_players=(1,) * MAX_PLAYERS,
        rounds={
            number: StoredRound(2**31 - number, 10_000, _counted_round(number, sides))
            for number in range(1, rounds + 1)
        },
    )
    known = KnownStates(1)

    known.remember(state)

    assert known.recall(state.public_id) == replace(state, recalled=True)


def _counted_round(number: int, sides: list[str]) -> RoundEntry:
    """Return a round in which every side counted its cards by kind, each count its own."""
    entries = tuple(
        SideEntry(
            name,
            clean_books=number + index,
            dirty_books=number * index,
            melded=CardCounts(*(100 * number + 10 * index + kind for kind in range(5))),
            leftover=CardCounts(*(200 * number + 10 * index + kind for kind in range(6))),
        )
        for index, name in enumerate(sides)
    )
    return RoundEntry(number, entries, len(sides), (1,) * len(sides))


# -- Where states are kept -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("database", "slots", "kept"),
    [("postgresql+psycopg://db.example/scores", 4096, True), ("sqlite://", 4096, False)]
    + [("postgresql+psycopg://db.example/scores", 0, False)],
)
def test_states_are_kept_where_a_round_is_stored_in_one_statement(
    database: str, slots: int, kept: bool
) -> None:
    config = {"SQLALCHEMY_DATABASE_URI": database, "KNOWN_MATCH_STATES": slots}

    app = create_app({"TESTING": True, "SECRET_KEY": "test", **config})

    assert (known_states.EXTENSION_KEY in app.extensions) is kept


# -- Entering rounds on known states -------------------------------------------------------------


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Return the public ids of the matches that the API read to change, as read."""
    seen: list[str] = []
    read = store.match_to_change

    def counted(public_id: str) -> Any:
        seen.append(public_id)
        return read(public_id)

    monkeypatch.setattr(store, "match_to_change", counted)
    return seen


def enter(client: FlaskClient, match: StoredMatch, number: int, token: str | None = None) -> Any:
    return client.post(
        f"/api/v1/matches/{match.public_id}/rounds",
        json={"round": number, "sides": [WENT_OUT, STAYED_IN]},
        headers={"Authorization": f"Bearer {token or match.edit_token}"},
    )


def test_a_stored_round_leaves_the_match_as_a_read_finds_it(
    postgres_only: None, stored: Stored
) -> None:
    match = stored()
    assert store.recalled_match(match.public_id) is None

    for number in (1, 2):
        known = store.recalled_match(match.public_id) or match
        store.add_round(known, RoundEntry(number, (COUNTED, SideEntry(melded=120, leftover=40))))

    read_afresh = state_of(match.id)
    assert read_afresh.rounds.keys() == {1, 2}
    assert store.recalled_match(match.public_id) == replace(read_afresh, recalled=True)


def test_a_refused_round_leaves_nothing_known(postgres_only: None, stored: Stored) -> None:
    match = stored()

    with pytest.raises(ProblemsError):
        store.add_round(match, RoundEntry(1, (SideEntry(clean_books=-1), SideEntry())))

    assert store.recalled_match(match.public_id) is None


def test_rounds_entered_one_after_another_read_the_match_once(
    postgres_only: None, client: FlaskClient, match_with_round_1: StoredMatch, reads: list[str]
) -> None:
    for number in (2, 3, 4):
        assert enter(client, match_with_round_1, number).status_code == 201

    assert reads == []  # known since round 1 was stored


@pytest.fixture
def known_match(
    postgres_only: None, client: FlaskClient, match_with_round_1: StoredMatch
) -> StoredMatch:
    """Return a match of two rounds, the second entered through the API: this host knows it."""
    assert enter(client, match_with_round_1, 2).status_code == 201
    return match_with_round_1


ChangeMade = Callable[[], AbstractContextManager[None]]


@pytest.fixture(params=[False, True], ids=["here", "on another server"])
def elsewhere(request: pytest.FixtureRequest) -> bool:
    """Tell whether the test's change to the match is made as another server would."""
    return bool(request.param)


@pytest.fixture
def change_made(app: Flask, known_match: StoredMatch, elsewhere: bool) -> ChangeMade:
    """Return a context in which to change the known match on this host, or as another server
    would: this host then still knows the match as it was before."""

    @contextmanager
    def made() -> Iterator[None]:
        with app.app_context():
            known_before = store.recalled_match(known_match.public_id)
        assert known_before is not None
        yield
        if elsewhere:
            with app.app_context():
                known_states.remember(known_before)

    return made


def test_a_round_entered_after_an_edit_is_decided_on_the_match_as_edited(
    client: FlaskClient, known_match: StoredMatch, change_made: ChangeMade, reads: list[str]
) -> None:
    match = known_match
    url = f"/api/v1/matches/{match.public_id}/rounds/1"
    edited = {"round": 1, "sides": [STAYED_IN, WENT_OUT]}
    headers = {"Authorization": f"Bearer {match.edit_token}", "If-Match": '"1"'}
    with change_made():
        assert client.put(url, json=edited, headers=headers).status_code == 200
    totals = client.get(f"/api/v1/matches/{match.public_id}").json["totals"]

    third = enter(client, match, 3)

    assert third.status_code == 201
    assert [side["running_score"] for side in third.json["sides"]] == totals
    assert reads == [match.public_id] * 2  # the edit's, and the third round's afresh


def test_a_round_deleted_since_the_match_was_known_can_be_entered_again(
    client: FlaskClient, known_match: StoredMatch, change_made: ChangeMade
) -> None:
    match = known_match
    headers = {"Authorization": f"Bearer {match.edit_token}", "If-Match": '"1"'}
    with change_made():
        deleted = client.delete(f"/api/v1/matches/{match.public_id}/rounds/2", headers=headers)
        assert deleted.status_code == 204

    entered = enter(client, match, 2)

    assert entered.status_code == 201, entered.json
    assert entered.json["round"] == 2


def test_a_replaced_edit_token_enters_nothing_though_the_match_was_known_with_it(
    app: Flask,
    client: FlaskClient,
    known_match: StoredMatch,
    change_made: ChangeMade,
    elsewhere: bool,
) -> None:
    match = known_match
    with change_made():
        rotated = client.post(
            f"/api/v1/matches/{match.public_id}/token",
            headers={"Authorization": f"Bearer {match.edit_token}"},
        )
        assert rotated.status_code == 200
    with app.app_context():
        assert (store.recalled_match(match.public_id) is not None) is elsewhere

    assert enter(client, match, 3).status_code == 403
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Round.id))) == 2
    assert enter(client, match, 3, token=rotated.json["edit_token"]).status_code == 201
