"""A club as its pages, the API and its PDF read it: its matches' results and the records the
domain makes of them.

Each match keeps its result on its rows, written with every change to its rounds
(`rounds.keep_result`): the results of all of a club's matches are two queries, whatever their
number, and no round is scored to read them. A player's page reads that player's rounds too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

import sqlalchemy as sa

from scorekeeper.domain.entries import SideEntry
from scorekeeper.domain.records import (
    MatchResult,
    PairRecord,
    PlayedMatch,
    PlayerRecord,
    Record,
    RecordFilter,
    RoundAverages,
    SideResult,
    matches_of,
    partnerships,
    player_records,
    round_averages,
)
from scorekeeper.store.models import Club, ClubPlayer, Entry, Match, Player, Side, db, utc_now
from scorekeeper.store.scores import side_entry


@dataclass(frozen=True)
class ClubView:
    """A club's matches that its records count, newest first, and those records."""

    club: Club
    members: Mapping[int, str]  # each player's name by their number in the club
    results: tuple[MatchResult, ...]
    players: tuple[PlayerRecord, ...]
    pairs: tuple[PairRecord, ...]
    record_filter: RecordFilter

    def names(self, numbers: Iterable[int]) -> list[str]:
        """Return the names of the players with these numbers."""
        return [self.members[number] for number in numbers]


def club_view(
    club: Club, record_filter: RecordFilter | None = None, today: date | None = None
) -> ClubView:
    """Return the club's matches that `record_filter` keeps on `today` (UTC's by default) and
    their records."""
    record_filter = record_filter or RecordFilter()
    shown = tuple(record_filter.applied(match_results(club), today or utc_now().date()))
    return ClubView(
        club=club,
        members=members(club),
        results=shown,
        players=player_records([member.number for member in club.players], shown),
        pairs=partnerships(shown),
        record_filter=record_filter,
    )


@dataclass(frozen=True)
class PlayerView:
    """A club's player: the matches they play in, newest first, their record, and what their
    side did in an average round."""

    club: Club
    player: ClubPlayer
    members: Mapping[int, str]
    matches: tuple[PlayedMatch, ...]
    record: Record
    averages: RoundAverages


def player_view(club: Club, player: ClubPlayer) -> PlayerView:
    """Return the player's matches in the club, their record and their round averages, all of
    them finished matches' but the list of matches."""
    results = match_results(club)
    (found,) = player_records([player.number], results)
    return PlayerView(
        club=club,
        player=player,
        members=members(club),
        matches=matches_of(player.number, results),
        record=found.record,
        averages=round_averages(_finished_entries(club, player)),
    )


def members(club: Club) -> dict[int, str]:
    return {member.number: member.name for member in club.players}


def match_results(club: Club) -> tuple[MatchResult, ...]:
    """Return the result of every match of the club, newest first, as their rows keep it."""
    matches = db.session.execute(
        sa.select(
            Match.id, Match.public_id, Match.name, Match.preset, Match.created_at, Match.finished
        )
        .where(Match.club_id == club.id)
        .order_by(Match.created_at.desc(), Match.id.desc())
    ).all()
    sides = _sides(club)
    return tuple(
        MatchResult(key, name, preset, began, finished, sides[match_id])
        for match_id, key, name, preset, began, finished in matches
    )


def _sides(club: Club) -> dict[int, tuple[SideResult, ...]]:
    """Return the sides of every match of the club, in order, by match, each with its total,
    its name and the numbers of its club players."""
    rows = db.session.execute(
        sa.select(Side.match_id, Side.position, Side.name, Side.total, ClubPlayer.number)
        .join(Match, Match.id == Side.match_id)
        .join(Player, Player.side_id == Side.id)
        .outerjoin(ClubPlayer, ClubPlayer.id == Player.club_player_id)
        .where(Match.club_id == club.id)
        .order_by(Side.match_id, Side.position, Player.position)
    ).all()
    sides: dict[int, dict[int, tuple[str, int, list[int]]]] = defaultdict(dict)
    for match_id, position, name, total, number in rows:
        _name, _total, players = sides[match_id].setdefault(position, (name, total, []))
        if number is not None:
            players.append(number)
    return {
        match_id: tuple(
            SideResult(tuple(numbers), total, name) for name, total, numbers in found.values()
        )
        for match_id, found in sides.items()
    }


def _finished_entries(club: Club, player: ClubPlayer) -> list[SideEntry]:
    """Return the entries of the player's side in every round of the club's finished matches."""
    statement = (
        sa.select(Entry)
        .join(Side, Side.id == Entry.side_id)
        .join(Player, Player.side_id == Side.id)
        .join(Match, Match.id == Side.match_id)
        .where(Player.club_player_id == player.id, Match.club_id == club.id, Match.finished)
    )
    return [side_entry(entry, "") for entry in db.session.scalars(statement)]
