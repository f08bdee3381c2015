"""A match as a change to its rounds reads it: its version, rules, sides and stored rounds.

Round changes are the app's busiest writes, and loading a match into ORM objects cost more than
everything else one does; so they read the match in one statement run on the driver
(`scorekeeper.store.statements`), and write it so too (`scorekeeper.store.rounds`). The first
read, made before the change holds the match, runs outside any transaction: the change compares
the version it read when it writes, so a read that another change overtook is never written on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import groupby
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.rules import RuleSet
from scorekeeper.store.database import single_read
from scorekeeper.store.matches import stored_rules
from scorekeeper.store.models import Entry, Match, Player, Round, Side, table_of
from scorekeeper.store.scores import Drafts, side_entry
from scorekeeper.store.statements import DriverStatement

MATCH, SIDE, PLAYER = table_of(Match), table_of(Side), table_of(Player)
ROUND, ENTRY = table_of(Round), table_of(Entry)
# What a side entered: an entry's columns but its keys.
ENTRY_VALUES = tuple(
    column.name for column in ENTRY.c if column.name not in ("id", "round_id", "side_id")
)
# Rule sets kept, by the settings' stored text: matches mostly share a few presets.
RULE_SETS_KEPT = 256

_PLAYERS = sa.select(sa.func.count()).where(PLAYER.c.side_id == SIDE.c.id).scalar_subquery()
# One row per side and round, rounds in order and sides in seating order; before the first
# round, one row per side with no round.
_MATCH_SIDES_AND_ROUNDS = (
    sa.select(
        MATCH.c.id,
        MATCH.c.public_id,
        MATCH.c.edit_token_hash,
        MATCH.c.version,
        MATCH.c.round_version_floor,
        # As stored, unparsed: the text names its rule set in the cache of them.
        sa.cast(MATCH.c.settings, sa.Text).label("settings"),
        SIDE.c.id.label("side_id"),
        SIDE.c.name.label("side_name"),
        _PLAYERS.label("players"),
        ROUND.c.id.label("round_id"),
        ROUND.c.number,
        ROUND.c.version.label("round_version"),
        *(ENTRY.c[name] for name in ENTRY_VALUES),
    )
    .join_from(MATCH, SIDE)
    .outerjoin(ENTRY, ENTRY.c.side_id == SIDE.c.id)
    .outerjoin(ROUND, ROUND.c.id == ENTRY.c.round_id)
    .order_by(ROUND.c.number, SIDE.c.position)
)
_BY_ID = DriverStatement(_MATCH_SIDES_AND_ROUNDS.where(MATCH.c.id == sa.bindparam("match")))
_BY_PUBLIC_ID = DriverStatement(
    _MATCH_SIDES_AND_ROUNDS.where(MATCH.c.public_id == sa.bindparam("match"))
)
# Which match a change claims: the one it read, at the version and with the edit token it read,
# so that the claim changes no row when another change came first.
CLAIMED = (
    (MATCH.c.id == sa.bindparam("match"))
    & (MATCH.c.version == sa.bindparam("read_version"))
    & (MATCH.c.edit_token_hash == sa.bindparam("read_token_hash"))
)
# Every writer holds the match's row while it writes (SQLite: the whole database).
_HOLD_MATCH = DriverStatement(
    sa.select(MATCH.c.id).where(MATCH.c.id == sa.bindparam("match_id")).with_for_update()
)


@dataclass(frozen=True)
class StoredRound:
    """A stored round: its row, its version and its entry as the domain reads it."""

    id: int
    version: int
    entry: RoundEntry


@dataclass(frozen=True)
class MatchState:
    """A match as read at one version: what a change to its rounds decides on, and the digest
    of the edit token that may make the change."""

    id: int
    public_id: str
    edit_token_hash: str
    version: int
    round_version_floor: int
    settings: str  # the rules' settings as stored, which name their rule set
    side_ids: tuple[int, ...]
    side_names: tuple[str, ...]
    side_players: tuple[int, ...]  # each side's players, in seating order
    rounds: dict[int, StoredRound]  # by round number
    # As this host last knew the match (`known_states`), not as read for this change.
    recalled: bool = False

    @property
    def rules(self) -> RuleSet:
        return _rules(self.settings)

    def drafts(self) -> Drafts:
        """Return the stored rounds, ready to be scored."""
        return {number: (stored.version, stored.entry) for number, stored in self.rounds.items()}


def match_to_change(public_id: str) -> MatchState | None:
    """Return the match with this public id as stored now, or None: read outside any
    transaction, for a change that compares the version when it writes."""
    with single_read() as connection:
        return _read(connection, _BY_PUBLIC_ID, public_id)


def state_of(match_id: int) -> MatchState:
    """Return the match as stored now, read as `match_to_change` reads it."""
    with single_read() as connection:
        state = _read(connection, _BY_ID, match_id)
    assert state is not None, "a stored match"
    return state


def held_state(connection: Connection, match_id: int) -> MatchState:
    """Return the match as stored now, holding it until the write transaction on `connection`
    ends."""
    _HOLD_MATCH.rows(connection, {"match_id": match_id})
    state = _read(connection, _BY_ID, match_id)
    assert state is not None, "a stored match"
    return state


def _read(connection: Connection, by: DriverStatement, key: int | str) -> MatchState | None:
    rows = by.rows(connection, {"match": key})
    if not rows:
        return None
    by_round = [(number, list(sides)) for number, sides in groupby(rows, lambda row: row.number)]
    seated = by_round[0][1]  # every round has a row for each side, in seating order
    names = tuple(row.side_name for row in seated)
    side_players = tuple(row.players for row in seated)
    side_ids = tuple(row.side_id for row in seated)
    first = rows[0]
    return MatchState(
        id=first.id,
        public_id=first.public_id,
        edit_token_hash=first.edit_token_hash,
        version=first.version,
        round_version_floor=first.round_version_floor,
        settings=first.settings,
        side_ids=side_ids,
        side_names=names,
        side_players=side_players,
        rounds={
            number: _stored_round(number, entries, names, side_players)
            for number, entries in by_round
            if number is not None
        },
    )


def with_new_round(
    state: MatchState,
    round_id: int,
    round_row: Mapping[str, Any],
    entry_rows: Sequence[Mapping[str, Any]],
) -> MatchState:
    """Return the match as a read finds it once a new round is stored under `round_id`, from
    the rows stored: the round's, and its entries' in seating order."""
    entries = [
        SimpleNamespace(round_id=round_id, round_version=round_row["version"], **row)
        for row in entry_rows
    ]
    number = round_row["number"]
    stored = _stored_round(number, entries, state.side_names, state.side_players)
    rounds = dict(sorted({**state.rounds, number: stored}.items()))
    return replace(state, version=state.version + 1, rounds=rounds, recalled=False)


@lru_cache(maxsize=RULE_SETS_KEPT)
def _rules(settings: str) -> RuleSet:
    return stored_rules(json.loads(settings))


def _stored_round(
    number: int, entries: list[Any], names: tuple[str, ...], side_players: tuple[int, ...]
) -> StoredRound:
    """Return a round from its rows, one per side in seating order."""
    sides = tuple(side_entry(entry, name) for entry, name in zip(entries, names, strict=True))
    first = entries[0]
    return StoredRound(
        first.round_id,
        first.round_version,
        RoundEntry(number, sides, sum(side_players), side_players),
    )
