"""The database models: timestamps, versions, constraints and cascades."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.exc import IntegrityError

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.store.database import write_transaction
from scorekeeper.store.models import (
    Base,
    Entry,
    Match,
    Operation,
    Player,
    Round,
    Side,
    db,
)

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch

ROUND_ONE = RoundEntry(1, (SideEntry(melded=60), SideEntry(melded=50)))


def stored_match(create_match: CreateMatch) -> Match:
    match = store.get_match(create_match().public_id)
    assert match is not None
    return match


def count(model: type[Base]) -> int:
    return db.session.scalar(db.select(db.func.count()).select_from(model)) or 0


def test_timestamps_come_back_in_utc_with_their_zone(
    in_app: None, create_match: CreateMatch
) -> None:
    match = stored_match(create_match)

    assert match.created_at.tzinfo is not None
    assert match.created_at.utcoffset() == timedelta(0)
    assert abs(datetime.now(UTC) - match.created_at) < timedelta(minutes=5)


def test_a_timestamp_in_another_zone_is_stored_as_the_same_instant(
    in_app: None, create_match: CreateMatch
) -> None:
    match = stored_match(create_match)
    evening = datetime(2026, 11, 27, 20, 30, tzinfo=timezone(timedelta(hours=-5)))

    with write_transaction():
        match.updated_at = evening
    db.session.expire_all()

    assert match.updated_at == evening
    assert match.updated_at.tzinfo == UTC


def test_a_new_match_and_a_new_round_start_at_version_1(
    in_app: None, create_match: CreateMatch
) -> None:
    match = stored_match(create_match)
    assert match.version == 1

    with write_transaction():
        match.rounds.append(Round(number=1))

    assert match.rounds[0].version == 1


def test_two_rounds_of_one_number_cannot_be_stored(in_app: None, create_match: CreateMatch) -> None:
    match = stored_match(create_match)

    with pytest.raises(IntegrityError), write_transaction():
        match.rounds.extend([Round(number=1), Round(number=1)])

    assert count(Round) == 0


def test_two_matches_cannot_share_a_public_id(in_app: None, create_match: CreateMatch) -> None:
    ids = [create_match().public_id for _ in range(2)]  # before reading: reads hold a snapshot
    first, second = (store.get_match(public_id) for public_id in ids)
    assert first is not None and second is not None

    with pytest.raises(IntegrityError), write_transaction():
        second.public_id = first.public_id


def test_deleting_a_match_deletes_its_sides_players_rounds_entries_and_operations(
    in_app: None, create_match: CreateMatch
) -> None:
    match = stored_match(create_match)
    store.add_round(match, ROUND_ONE, operation_id="tap-1")

    with write_transaction():
        db.session.delete(match)

    models = (Match, Side, Player, Round, Entry, Operation)
    assert [count(model) for model in models] == [0, 0, 0, 0, 0, 0]


def test_a_new_match_has_no_round_version_floor(in_app: None, create_match: CreateMatch) -> None:
    assert stored_match(create_match).round_version_floor == 0


def test_an_operation_id_is_stored_once_in_the_whole_database(
    in_app: None, create_match: CreateMatch
) -> None:
    ids = [create_match().public_id for _ in range(2)]  # before reading: reads hold a snapshot
    ours, theirs = (store.get_match(public_id) for public_id in ids)
    assert ours is not None and theirs is not None
    store.add_round(ours, ROUND_ONE, operation_id="tap-1")

    with pytest.raises(IntegrityError), write_transaction():
        db.session.add(Operation(id="tap-1", match_id=theirs.id, kind="add", round_number=1))

    assert count(Operation) == 1


def test_sides_players_and_rounds_load_in_their_order(
    in_app: None, create_match: CreateMatch
) -> None:
    match = store.get_match(
        create_match(sides=[("B", ["Zoe", "Al"]), ("A", ["Cy"]), ("C", ["Di"])]).public_id
    )
    assert match is not None
    three_sides = RoundEntry(0, (SideEntry(),) * 3)
    for number in (3, 1, 2):
        store.add_round(match, RoundEntry(number, three_sides.sides))

    assert [side.name for side in match.sides] == ["B", "A", "C"]
    assert [player.name for player in match.sides[0].players] == ["Zoe", "Al"]
    assert [row.number for row in match.rounds] == [1, 2, 3]
