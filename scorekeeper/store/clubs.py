"""Clubs: their creation, their players, and the matches that join them.

A club's players are named once. A match joins a club with each of its players matched to the
club's player of that name (`club.name_key`), or added to the club as a new player: so a match
set up from the club's list, one set up by hand and attached later, and an imported one all
find their players the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.domain.club import club_problems, name_key, player_problems, repeated_players
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.store.database import write_transaction
from scorekeeper.store.links import new_links
from scorekeeper.store.models import Club, ClubPlayer, Match, db


@dataclass(frozen=True)
class CreatedClub:
    """A new club with its edit token, which is shown this once and stored only as a hash."""

    club: Club
    edit_token: str


def create_club(name: str, *, language: str | None = None) -> CreatedClub:
    """Store a new club, its PDFs printed in `language` (None: each reader's); raise
    `ProblemsError` and store nothing on a bad name."""
    created = new_club(name, language)
    with write_transaction():
        db.session.add(created.club)
    return created


def new_club(name: str, language: str | None) -> CreatedClub:
    """Return a checked club, not yet stored, with its edit token."""
    if problems := club_problems(name):
        raise ProblemsError(problems)
    name = name.strip()
    links = new_links()
    club = Club(
        public_id=links.public_id, name=name, edit_token_hash=links.token_hash, language=language
    )
    return CreatedClub(club=club, edit_token=links.edit_token)


def get_club(public_id: str) -> Club | None:
    """Return the club with this public id, its players loaded, or None."""
    statement = sa.select(Club).where(Club.public_id == public_id).options(_PLAYERS)
    return db.session.scalar(statement)


_PLAYERS = selectinload(Club.players)


def add_player(club: Club, name: str) -> ClubPlayer:
    """Add a player called `name` to the club; raise `ProblemsError`, adding nothing, when it
    is no name or a name the club has."""
    with write_transaction():
        return _new_player(held(club), name)


def join_club(match: Match, club: Club) -> None:
    """Make `match` the club's, each of its players the club's player of that name, a name the
    club lacks added to it; inside a write transaction that holds the club (`held`) or stored
    it. Raise `ProblemsError` for a match that names a player twice."""
    names = [[player.name for player in side.players] for side in match.sides]
    if problems := repeated_players(names):
        raise ProblemsError(problems)
    members = {member.name_key: member for member in club.players}
    for player in (player for side in match.sides for player in side.players):
        key = name_key(player.name)
        if key not in members:
            members[key] = _new_player(club, player.name)
        player.club_player = members[key]
    match.club_id = club.id


def attach_match(club: Club, match: Match) -> bool:
    """Make a stored match the club's (`join_club`); return False when it was the club's
    already. Raise `ProblemsError` when it belongs to another club."""
    with write_transaction():
        # Held, so that attaching it to two clubs at once attaches it to one.
        db.session.refresh(match, ["club_id", "version"], with_for_update=True)
        if match.club_id == club.id:
            return False
        if match.club_id is not None:
            template = N_("%(match)s belongs to another club: a match belongs to one club only.")
            raise ProblemsError([Problem("match", template, {"match": match.name})])
        join_club(match, held(club))
    return True


def members_named(club: Club, numbers: Iterable[int]) -> dict[int, str]:
    """Return the name of each club player numbered in `numbers` that the club has."""
    wanted = set(numbers)
    return {member.number: member.name for member in club.players if member.number in wanted}


def player_numbered(club: Club, number: int) -> ClubPlayer | None:
    return next((member for member in club.players if member.number == number), None)


def held(club: Club) -> Club:
    """Return the club read afresh with its players, held until the write transaction ends, so
    that two players added at once get a number each and never one name."""
    statement = (
        sa.select(Club)
        .where(Club.id == club.id)
        .options(_PLAYERS)
        .execution_options(populate_existing=True)
        .with_for_update(of=Club)
    )
    return db.session.scalars(statement).one()


def add_numbered_player(club: Club, number: int, name: str) -> None:
    """Add a player under the number they had in an exported club, inside a write transaction;
    raise `ProblemsError` as `add_player` does."""
    _new_player(club, name, number)


def _new_player(club: Club, name: str, number: int | None = None) -> ClubPlayer:
    """Add a player called `name`, as typed, to the club, numbered after the last one unless
    told."""
    if problems := player_problems(name, {member.name_key for member in club.players}):
        raise ProblemsError(problems)
    name = name.strip()
    if number is None:
        number = max((member.number for member in club.players), default=0) + 1
    player = ClubPlayer(number=number, name=name, name_key=name_key(name))
    club.players.append(player)
    return player
