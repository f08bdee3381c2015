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
from scorekeeper.store.models import (
    Club,
    ClubPlayer,
    Entry,
    Match,
    Player,
    Side,
    db,
    table_of,
    utc_now,
)
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

    @property
    def finished(self) -> bool:
        """Tell whether any match the records count is finished: else they count nothing."""
        return any(entry.record.played for entry in self.players)

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
    match = table_of(Match).c
    matches = db.session.execute(
        sa.select(match.id, match.public_id, match.name, match.preset, match.created_at)
        .add_columns(match.finished)
        .where(match.club_id == club.id)
        .order_by(match.created_at.desc(), match.id.desc())
    ).all()
    sides = _sides(club)
    return tuple(
        MatchResult(key, name, preset, began, finished, sides[match_id])
        for match_id, key, name, preset, began, finished in matches
    )


def _sides(club: Club) -> dict[int, tuple[SideResult, ...]]:
    """Return the sides of every match of the club, in order, by match, each with its total,
    its name and the numbers of its club players.

    The tables' own columns, not the models' attributes, and no order asked of the database:
    a club's thousands of rows are read as they come, and put in order here."""
    side, player, match = table_of(Side).c, table_of(Player).c, table_of(Match).c
    rows = db.session.execute(
        sa.select(side.match_id, side.position, side.name, side.total, player.club_player_id)
        .join_from(table_of(Side), table_of(Match), match.id == side.match_id)
        .join(table_of(Player), player.side_id == side.id)
        .where(match.club_id == club.id)
    ).all()
    numbers = {member.id: member.number for member in club.players}
    sides: dict[int, dict[int, tuple[str, int, list[int]]]] = defaultdict(dict)
    for match_id, position, name, total, member in rows:
        of_match = sides[match_id]
        if position not in of_match:
            of_match[position] = (name, total, [])
        if member in numbers:
            of_match[position][2].append(numbers[member])
    return {match_id: _in_order(found) for match_id, found in sides.items()}


def _in_order(sides: dict[int, tuple[str, int, list[int]]]) -> tuple[SideResult, ...]:
    """Return a match's sides by their positions, each side's players by their numbers."""
    return tuple(
        SideResult(tuple(sorted(players)), total, name)
        for name, total, players in (sides[position] for position in sorted(sides))
    )


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
