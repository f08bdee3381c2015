"""A new round stored in one statement on PostgreSQL: claimed, inserted whole, or not at all.

The store's own tests run on both databases and cover what a change does whichever way it is
written; these are PostgreSQL's alone, where the one statement is used.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pytest

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.store import round_at_once, rounds
from scorekeeper.store.database import single_write
from scorekeeper.store.match_state import state_of
from scorekeeper.store.models import Entry, Match, Operation, Round, db, utc_now

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import Stored

WENT_OUT = SideEntry(clean_books=2, dirty_books=2, melded=765, red_threes=1, went_out=True)
STAYED_IN = SideEntry(clean_books=1, melded=310, red_threes=1, leftover=85)
SIX_PLAYERS = [(name, (name,)) for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")]


pytestmark = pytest.mark.usefixtures("postgres_only")


@pytest.fixture
def no_write_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make a write transaction of the store's round changes fail the test."""

    @contextmanager
    def refused() -> Iterator[Any]:
        raise AssertionError("a write transaction, where one statement would do")
        yield  # a generator, as the context manager it stands in for

    monkeypatch.setattr(rounds, "write_connection", refused)


def count(model: type[Any]) -> int:
    return db.session.scalar(db.select(db.func.count()).select_from(model)) or 0


@pytest.mark.parametrize("sides", [2, 6])
@pytest.mark.parametrize("operation_id", [None, "a-double-tap-guard"])
def test_a_new_round_is_stored_whole_in_one_statement(
    stored: Stored, no_write_transaction: None, sides: int, operation_id: str | None
) -> None:
    match = stored(sides=SIX_PLAYERS[:sides])
    entry = RoundEntry(1, (WENT_OUT, *[STAYED_IN] * (sides - 1)))

    scored = store.add_round(match, entry, operation_id=operation_id)

    assert (scored.number, scored.version) == (1, 1)
    view = store.match_view(match)
    assert [s.score for s in view.rounds[0].score.sides] == [s.score for s in scored.score.sides]
    assert (count(Round), count(Entry), match.version) == (1, sides, 2)
    assert count(Operation) == (0 if operation_id is None else 1)
    if operation_id is not None:  # sent again, it answers as the first time and stores nothing
        assert store.add_round(match, entry, operation_id=operation_id) == scored
        assert (count(Round), match.version) == (1, 2)


@pytest.mark.parametrize(
    ("versions_since", "token_replaced"),
    [(1, False), (0, True)],
    ids=["another change came first", "the edit token was replaced"],
)
def test_a_claim_of_a_match_as_it_no_longer_is_stores_nothing(
    stored: Stored, versions_since: int, token_replaced: bool
) -> None:
    match = stored()
    state = state_of(match.id)
    claim = {
        "match": match.id,
        "read_version": state.version + versions_since,  # as if read before another change
        "read_token_hash": "0" * 64 if token_replaced else state.edit_token_hash,
        "version": state.version + versions_since + 1,
        "round_version_floor": 0,
        "updated_at": utc_now(),
    }
    now = utc_now()
    round_row = {"number": 1, "version": 1, "created_at": now, "updated_at": now}
    entry_rows = [
        {"side_id": side_id, **rounds.entry_columns(STAYED_IN)} for side_id in state.side_ids
    ]
    operation = {
        "id": str(uuid.uuid4()),
        "kind": "add",
        "round_number": 1,
        "round_version": 1,
        "entry": {},
        "created_at": now,
    }

    with single_write() as connection:
        round_id = round_at_once.add_at_once(connection, claim, round_row, entry_rows, operation)

    assert round_id is None
    assert (count(Round), count(Entry), count(Operation)) == (0, 0, 0)
    assert db.session.scalar(db.select(Match.version)) == state.version
