"""Matches: their creation from names and rules, their edit tokens and their rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import joinedload, selectinload

from scorekeeper.domain.dealing import Seat, deal_place, dealer, dealer_problems
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import DEFAULT_PRESET, RuleSet, build_rules
from scorekeeper.domain.setup import SideSpec, setup_problems
from scorekeeper.store.clubs import held, join_club
from scorekeeper.store.database import write_transaction
from scorekeeper.store.links import new_links
from scorekeeper.store.models import Club, Match, Player, Round, Side, db


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
    first_dealer: Seat | None = None,
    club: Club | None = None,
) -> CreatedMatch:
    """Store a new match under `rules`, its PDFs printed in `language` (None: each reader's),
    its first round dealt by `first_dealer` (None: side 1's first player), in `club` if given,
    whose players its players are (`clubs.join_club`); raise `ProblemsError` and store nothing
    on bad names or a dealer the sides do not have."""
    created = new_match(name, preset, rules, sides, first_dealer=first_dealer)
    created.match.language = language
    with write_transaction():
        if club is not None:
            join_club(created.match, held(club))
        db.session.add(created.match)
    return created


def new_match(
    name: str,
    preset: str,
    rules: RuleSet,
    sides: Sequence[SideSpec],
    *,
    first_dealer: Seat | None = None,
) -> CreatedMatch:
    """Return a checked match, not yet stored, with its edit token; its names as typed are
    checked, and stored without the spaces around them."""
    players = [len(side.players) for side in sides]
    problems = setup_problems(name, preset, sides)
    if first_dealer is not None and not problems:
        problems = dealer_problems(players, first_dealer)
    if problems:
        raise ProblemsError(problems)
    name = name.strip()
    sides = [SideSpec(side.name.strip(), tuple(p.strip() for p in side.players)) for side in sides]
    links = new_links()
    match = Match(
        public_id=links.public_id,
        name=name,
        preset=preset,
        settings=rules.as_settings(),
        edit_token_hash=links.token_hash,
        first_dealer=0 if first_dealer is None else deal_place(players, first_dealer),
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
    return CreatedMatch(match=match, edit_token=links.edit_token)


# Loads a match whole in two queries: its sides and players joined to its row, then its rounds
# joined to their entries.
WHOLE_MATCH = (
    joinedload(Match.sides).joinedload(Side.players),
    selectinload(Match.rounds).joinedload(Round.entries),
)


def get_match(public_id: str) -> Match | None:
    """Return the match with this public id, its sides and rounds loaded, or None."""
    statement = sa.select(Match).where(Match.public_id == public_id).options(*WHOLE_MATCH)
    return db.session.scalars(statement).unique().one_or_none()


def find_match(public_id: str) -> Match | None:
    """Return the match with this public id, nothing else loaded yet, or None."""
    return db.session.scalar(sa.select(Match).where(Match.public_id == public_id))


def reloaded(match: Match, *, held: bool = False) -> Match:
    """Return the match read afresh and whole, as stored now; `held`, inside a write
    transaction, holds its row until the transaction ends, so that no other change comes first."""
    statement = (
        sa.select(Match)
        .where(Match.id == match.id)
        .options(*WHOLE_MATCH)
        .execution_options(populate_existing=True)
    )
    if held:
        statement = statement.with_for_update(of=Match)
    return db.session.scalars(statement).unique().one()


def match_version(public_id: str) -> int | None:
    """Return the version of the match with this id, reading nothing else; None if there is none."""
    return db.session.scalar(sa.select(Match.version).where(Match.public_id == public_id))


def rules_of(match: Match) -> RuleSet:
    """Return the match's rules as stored when it began; presets changing later do not touch it."""
    return build_rules(DEFAULT_PRESET, match.settings)


def sides_of(match: Match) -> tuple[SideSpec, ...]:
    """Return the match's sides as it began: their names and players, in seating order."""
    return tuple(
        SideSpec(side.name, tuple(player.name for player in side.players)) for side in match.sides
    )


def dealer_of(match: Match, round_number: int) -> Seat:
    """Return who deals round `round_number` of the match, or would deal it: past the last
    round, the deal goes on round the table into the next match."""
    return dealer(side_players(match), round_number, first_dealer=match.first_dealer)


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
