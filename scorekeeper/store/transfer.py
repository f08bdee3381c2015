"""A stored match or club in and out as documents: the JSON exports and imports, a match's CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from scorekeeper.documents import CLUB_FORMAT, FORMAT_VERSION, ClubExport, ClubMember
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import RuleSet
from scorekeeper.i18n import LANGUAGES
from scorekeeper.store.clubs import CreatedClub, add_numbered_player, join_club, new_club
from scorekeeper.store.database import write_transaction
from scorekeeper.store.exports import (
    match_document,
    match_export,
    prefixed,
    read_club_document,
    read_document,
    view_csv,
)
from scorekeeper.store.matches import WHOLE_MATCH, CreatedMatch, new_match, side_specs
from scorekeeper.store.models import Club, Match, db
from scorekeeper.store.rounds import entry_for_match, keep_result, new_round_row
from scorekeeper.store.scores import (
    ImpossibleRound,
    ScoredRound,
    match_view,
    scored_rounds,
    standings_after,
)


def export_match(match: Match) -> dict[str, Any]:
    """Return the complete export of a match, which `import_match` reads back."""
    return match_document(match_view(match))


def match_csv(match: Match) -> str:
    """Return the match's rounds as CSV, one row per side per round."""
    return view_csv(match_view(match))


def import_match(data: Mapping[str, Any]) -> CreatedMatch:
    """Store an exported match as a new one, with a new id and edit token, begun when the
    exported match began.

    Raises `ProblemsError`, storing nothing, when the export is damaged or any round impossible.
    """
    document = read_document(data, LANGUAGES)
    created = new_match(
        document.name,
        document.preset,
        document.rules,
        side_specs(document.sides),
        first_dealer=document.first_dealer,
    )
    match = created.match
    match.language = document.language
    if document.created_at is not None:
        match.created_at = document.created_at
    rounds = _imported_rounds(match, document.rules, document.rounds)
    with write_transaction():
        match.rounds = [new_round_row(match, scored) for scored in rounds]
        keep_result(match, standings_after(match, document.rules, rounds))
        db.session.add(match)
    return created


@dataclass(frozen=True)
class ImportedClub:
    """A club stored from its export, with its new edit token, and each of its matches'."""

    club: CreatedClub
    matches: tuple[CreatedMatch, ...]


def export_club(club: Club) -> dict[str, Any]:
    """Return the complete export of a club, its matches' exports in the order they began,
    which `import_club` reads back."""
    statement = (
        sa.select(Match)
        .where(Match.club_id == club.id)
        .order_by(Match.created_at, Match.id)
        .options(*WHOLE_MATCH)
    )
    matches = db.session.scalars(statement).unique()
    return ClubExport(
        format=CLUB_FORMAT,
        format_version=FORMAT_VERSION,
        name=club.name,
        language=club.language,
        created_at=club.created_at.isoformat(),
        players=[ClubMember(id=member.number, name=member.name) for member in club.players],
        matches=[match_export(match_view(match)) for match in matches],
    ).model_dump(mode="json")


def import_club(data: Mapping[str, Any]) -> ImportedClub:
    """Store an exported club as a new one, with its players and each of its matches as a new
    match, every one with a new id and edit token: all of them, or none.

    Raises `ProblemsError`, storing nothing, with the problems of every part that is damaged.
    """
    document = read_club_document(data, LANGUAGES)
    created = new_club(document.name, document.language)
    if document.created_at is not None:
        created.club.created_at = document.created_at
    with write_transaction():
        db.session.add(created.club)
        _imported_players(created.club, document.players)
        db.session.flush()  # the club's id, which its matches join
        matches = _imported_matches(created.club, document.matches)
    return ImportedClub(created, matches)


def _imported_players(club: Club, players: Sequence[tuple[int, str]]) -> None:
    problems = []
    for index, (number, name) in enumerate(players):
        try:
            add_numbered_player(club, number, name.strip())
        except ProblemsError as error:
            problems += [prefixed(problem, f"players[{index}].") for problem in error.problems]
    if problems:
        raise ProblemsError(problems)


def _imported_matches(club: Club, documents: Sequence[object]) -> tuple[CreatedMatch, ...]:
    """Store each match's export as a new match of the club; raise `ProblemsError` with the
    problems of every damaged one, each placed under its match."""
    created, problems = [], []
    for index, document in enumerate(documents):
        field = f"matches[{index}]"
        if not isinstance(document, Mapping):
            problems.append(Problem(field, NOT_A_MATCH, {"field": field}))
            continue
        try:
            imported = import_match(document)
            join_club(imported.match, club)
            created.append(imported)
        except ProblemsError as error:
            problems += [prefixed(problem, f"{field}.") for problem in error.problems]
    if problems:
        raise ProblemsError(problems)
    return tuple(created)


NOT_A_MATCH = N_("%(field)s must be a match exported by scorekeeper, a JSON object.")


def _imported_rounds(
    match: Match, rules: RuleSet, entries: Sequence[RoundEntry]
) -> tuple[ScoredRound, ...]:
    """Score the export's rounds in order; a problem is placed at its round in the export."""
    index_of = {entry.round_number: index for index, entry in enumerate(entries)}
    try:
        drafts = {entry.round_number: (1, entry_for_match(match, entry)) for entry in entries}
        return scored_rounds(rules, drafts)
    except ImpossibleRound as error:
        prefix = f"rounds[{index_of[error.round_number]}]."
        raise ProblemsError([prefixed(problem, prefix) for problem in error.problems]) from None
