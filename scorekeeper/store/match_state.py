"""A match as a change to its rounds reads it: its version, rules, sides and stored rounds.

Round changes are the app's busiest writes, and loading a match into ORM objects cost more than
everything else one does; so they read the match in two Core statements on the request's
connection, and write it with Core statements too (`scorekeeper.store.rounds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Row

from scorekeeper.entries import RoundEntry
from scorekeeper.models import Entry, Match, Player, Round, Side, db
from scorekeeper.rules import RuleSet
from scorekeeper.store.matches import stored_rules
from scorekeeper.store.scores import Drafts, side_entry

MATCH, SIDE, PLAYER = Match.__table__, Side.__table__, Player.__table__
ROUND, ENTRY = Round.__table__, Entry.__table__

_PLAYERS = sa.select(sa.func.count()).where(PLAYER.c.side_id == SIDE.c.id).scalar_subquery()
_MATCH_AND_SIDES = (
    sa.select(
        MATCH.c.version,
        MATCH.c.round_version_floor,
        MATCH.c.settings,
        SIDE.c.id.label("side_id"),
        SIDE.c.name.label("side_name"),
        _PLAYERS.label("players"),
    )
    .join_from(MATCH, SIDE)
    .where(MATCH.c.id == sa.bindparam("match_id"))
    .order_by(SIDE.c.position)
)
_ROUNDS = (
    sa.select(
        ROUND.c.id.label("round_id"),
        ROUND.c.number,
        ROUND.c.version,
        *(column for column in ENTRY.c if column.name not in ("id", "round_id")),
    )
    .join_from(ROUND, ENTRY)
    .where(ROUND.c.match_id == sa.bindparam("match_id"))
    .order_by(ROUND.c.number)
)
# Every writer holds the match's row while it writes (SQLite: the whole database).
_LOCKED_VERSION = (
    sa.select(MATCH.c.version).where(MATCH.c.id == sa.bindparam("match_id")).with_for_update()
)


@dataclass(frozen=True)
class StoredRound:
    """A stored round: its row, its version and its entry as the domain reads it."""

    id: int
    version: int
    entry: RoundEntry


@dataclass(frozen=True)
class MatchState:
    """A match as read at one version: what a change to its rounds decides on."""

    id: int
    version: int
    round_version_floor: int
    rules: RuleSet
    side_ids: tuple[int, ...]
    side_names: tuple[str, ...]
    players: int
    rounds: dict[int, StoredRound]  # by round number

    def drafts(self) -> Drafts:
        """Return the stored rounds, ready to be scored."""
        return {number: (stored.version, stored.entry) for number, stored in self.rounds.items()}


def read_state(match_id: int) -> MatchState:
    """Return the match as stored now, on the request's connection: inside a write transaction,
    as the transaction sees it."""
    connection = db.session.connection()
    sides = connection.execute(_MATCH_AND_SIDES, {"match_id": match_id}).all()
    names = tuple(row.side_name for row in sides)
    players = sum(row.players for row in sides)
    side_ids = tuple(row.side_id for row in sides)
    rows = connection.execute(_ROUNDS, {"match_id": match_id})
    rounds = {
        number: _stored_round(number, list(entries), side_ids, names, players)
        for number, entries in groupby(rows, key=lambda row: row.number)
    }
    first = sides[0]
    return MatchState(
        id=match_id,
        version=first.version,
        round_version_floor=first.round_version_floor,
        rules=stored_rules(first.settings),
        side_ids=side_ids,
        side_names=names,
        players=players,
        rounds=rounds,
    )


def _stored_round(
    number: int,
    entries: list[Row[Any]],
    side_ids: tuple[int, ...],
    names: tuple[str, ...],
    players: int,
) -> StoredRound:
    by_side = {entry.side_id: entry for entry in entries}
    pairs = zip(side_ids, names, strict=True)
    sides = tuple(side_entry(by_side[side], name) for side, name in pairs)
    first = entries[0]
    return StoredRound(first.round_id, first.version, RoundEntry(number, sides, players=players))


def locked_version(match_id: int) -> int:
    """Return the match's version, holding the match until the write transaction ends."""
    version: int = db.session.connection().scalar(_LOCKED_VERSION, {"match_id": match_id})
    return version
