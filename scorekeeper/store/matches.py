"""Matches: their creation from names and rules, their edit tokens and their rules."""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.orm import joinedload, selectinload

from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import DEFAULT_PRESET, RuleSet, build_rules
from scorekeeper.domain.setup import SideSpec, setup_problems
from scorekeeper.store.database import single_read, write_transaction
from scorekeeper.store.models import Match, Player, Round, Side, db, table_of
from scorekeeper.store.statements import DriverStatement

EDIT_TOKEN_BYTES = 32
PUBLIC_ID_BYTES = 16
PUBLIC_ID_LENGTH = math.ceil(PUBLIC_ID_BYTES * 8 / 6)  # base64 characters, no padding


@dataclass(frozen=True)
class CreatedMatch:
    """A new match with its edit token, which is shown this once and stored only as a hash."""

    match: Match
    edit_token: str


def create_match(
    name: str,
    preset: str,
    rules: RuleSet,
    sides: Sequence[SideSpec],
    *,
    language: str | None = None,
) -> CreatedMatch:
    """Store a new match under `rules`, its PDFs printed in `language` (None: each reader's);
    raise `ProblemsError` and store nothing on bad names."""
    created = new_match(name, preset, rules, sides)
    created.match.language = language
    with write_transaction():
        db.session.add(created.match)
    return created


def new_match(name: str, preset: str, rules: RuleSet, sides: Sequence[SideSpec]) -> CreatedMatch:
    """Return a checked match, not yet stored, with its edit token."""
    name = name.strip()
    sides = [SideSpec(side.name.strip(), tuple(p.strip() for p in side.players)) for side in sides]
    problems = setup_problems(name, preset, sides)
    if problems:
        raise ProblemsError(problems)
    token = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
    match = Match(
        public_id=secrets.token_urlsafe(PUBLIC_ID_BYTES),
        name=name,
        preset=preset,
        settings=rules.as_settings(),
        edit_token_hash=token_digest(token),
        sides=[
            Side(
                position=index,
                name=side.name,
                players=[
                    Player(position=seat, name=player) for seat, player in enumerate(side.players)
                ],
            )
            for index, side in enumerate(sides)
        ],
    )
    return CreatedMatch(match=match, edit_token=token)


# Loads a match whole in two queries: its sides and players joined to its row, then its rounds
# joined to their entries.
WHOLE_MATCH = (
    joinedload(Match.sides).joinedload(Side.players),
    selectinload(Match.rounds).joinedload(Round.entries),
)


_BY_PUBLIC_ID = sa.select(Match).where(Match.public_id == sa.bindparam("public_id"))
_WHOLE_BY_PUBLIC_ID = _BY_PUBLIC_ID.options(*WHOLE_MATCH)


def get_match(public_id: str) -> Match | None:
    """Return the match with this public id, its sides and rounds loaded, or None."""
    found = db.session.scalars(_WHOLE_BY_PUBLIC_ID, {"public_id": public_id})
    return found.unique().one_or_none()


def find_match(public_id: str) -> Match | None:
    """Return the match with this public id, nothing else loaded yet, or None: for a request that
    checks the edit token before it changes a round, which reads the match itself."""
    return db.session.scalar(_BY_PUBLIC_ID, {"public_id": public_id})


# For the pages and answers that only need to know whether a match changed, the view page above
# all, which every phone at a table reloads: run on the driver, as the round changes' reads are.
_MATCH = table_of(Match)
_VERSION_BY_PUBLIC_ID = DriverStatement(
    sa.select(_MATCH.c.version).where(_MATCH.c.public_id == sa.bindparam("public_id"))
)


def match_version(public_id: str) -> int | None:
    """Return the version of the match with this id, reading nothing else; None if there is none."""
    with single_read() as connection:
        rows = _VERSION_BY_PUBLIC_ID.rows(connection, {"public_id": public_id})
    return rows[0].version if rows else None


class Guarded(Protocol):
    """A match as loaded or as read for a change: either holds its edit token's digest."""

    @property
    def edit_token_hash(self) -> str: ...


def token_opens(match: Guarded, token: str | None) -> bool:
    """Return whether `token` is the match's edit token, comparing digests in constant time."""
    return token is not None and hmac.compare_digest(token_digest(token), match.edit_token_hash)


def token_digest(token: str) -> str:
    """Return the digest an edit token is stored as: the token itself is never stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def rules_of(match: Match) -> RuleSet:
    """Return the match's rules as stored when it began; presets changing later do not touch it."""
    return stored_rules(match.settings)


def stored_rules(settings: Mapping[str, object]) -> RuleSet:
    """Return the rules a match stored as its settings."""
    return build_rules(DEFAULT_PRESET, settings)


def sides_of(match: Match) -> tuple[SideSpec, ...]:
    """Return the match's sides as it began: their names and players, in seating order."""
    return tuple(
        SideSpec(side.name, tuple(player.name for player in side.players)) for side in match.sides
    )


def side_names(match: Match) -> tuple[str, ...]:
    return tuple(side.name for side in match.sides)


def side_players(match: Match) -> tuple[int, ...]:
    return tuple(len(side.players) for side in match.sides)


def side_specs(data: object) -> tuple[SideSpec, ...]:
    """Return the sides of a JSON body; a value that is not a name becomes "", which
    `create_match` then refuses under its field."""
    sides = data if isinstance(data, list) else []
    return tuple(
        SideSpec(
            name=_text(side.get("name")),
            players=tuple(_text(player) for player in _list(side.get("players"))),
        )
        for side in (item if isinstance(item, Mapping) else {} for item in sides)
    )


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []
