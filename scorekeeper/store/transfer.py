"""A stored match in and out as documents: the JSON export and import, and the CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import RuleSet
from scorekeeper.i18n import LANGUAGES
from scorekeeper.store.database import write_transaction
from scorekeeper.store.exports import match_document, prefixed, read_document, view_csv
from scorekeeper.store.matches import CreatedMatch, new_match, side_specs
from scorekeeper.store.models import Match, db
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
    created = new_match(document.name, document.preset, document.rules, side_specs(document.sides))
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
