"""A stored match or club as documents: the re-importable JSON exports and a match's CSV.

Free of the database: the store hands in a `MatchView` and receives plain domain values back.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from scorekeeper.documents import (
    CLUB_FORMAT,
    FORMAT,
    FORMAT_VERSION,
    ClubExport,
    EnteredRound,
    MatchExport,
    RoundSide,
    SeatOf,
    Settings,
    SideSetup,
    validated,
)
from scorekeeper.domain.dealing import Seat
from scorekeeper.domain.entries import (
    COUNT_KEYS,
    MELDED_COUNT_KEYS,
    CardCounts,
    RoundEntry,
    SideEntry,
)
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import RuleSet, build_rules
from scorekeeper.domain.scoring import Breakdown
from scorekeeper.store.matches import dealer_of, sides_of

if TYPE_CHECKING:
    from scorekeeper.store.scores import MatchView

_BREAKDOWN_KEYS = tuple(f.name for f in fields(Breakdown))
CSV_COLUMNS = (
    "round",
    "side",
    "clean_books",
    "dirty_books",
    "wild_books",
    "melded_points",
    *(f"melded.{key}" for key in MELDED_COUNT_KEYS),
    "red_threes",
    "red_threes_held",
    "went_out",
    "leftover_points",
    *(f"leftover.{key}" for key in COUNT_KEYS),
    "deal_bonus",
    *(f"breakdown.{key}" for key in _BREAKDOWN_KEYS),
    "score",
    "running_total",
)
# A cell starting with one of these is a formula to a spreadsheet; a name must stay a name.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def counts_json(cards: CardCounts, keys: tuple[str, ...]) -> dict[str, int]:
    """Return card counts under `keys`, as the API and the database hold them."""
    return {key: getattr(cards, key) for key in keys}


def side_entry_json(side: SideEntry) -> dict[str, Any]:
    """Return a side's entry as the API takes it, so that it reads back to the same entry."""
    return RoundSide.of(side).model_dump()


def match_document(view: MatchView) -> dict[str, Any]:
    """Return the complete, re-importable export of a match."""
    return match_export(view).model_dump(mode="json")


def match_export(view: MatchView) -> MatchExport:
    """Return the complete, re-importable export of a match, as the model it is read into."""
    match = view.match
    return MatchExport(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        name=match.name,
        preset=match.preset,
        settings=Settings(match.settings),
        language=match.language,
        created_at=match.created_at.isoformat(),
        sides=[SideSetup.of(side) for side in sides_of(match)],
        first_dealer=SeatOf.of(dealer_of(match, 1)),
        rounds=[
            EnteredRound(round=scored.number, sides=[RoundSide.of(s) for s in scored.entry.sides])
            for scored in view.rounds
        ],
    )


@dataclass(frozen=True)
class MatchDocument:
    """An import, checked for shape: the store still checks names and scores every round."""

    name: str
    preset: str
    rules: RuleSet
    language: str | None
    sides: list[dict[str, Any]]  # as a JSON body gives them to `side_specs`
    rounds: tuple[RoundEntry, ...]
    created_at: datetime | None  # when the exported match began, if the export says readably
    first_dealer: Seat | None  # who dealt round 1, if the export says


def language_problems(language: object, offered: Collection[str]) -> list[Problem]:
    """Refuse a match's language that is neither null nor one of those `offered`."""
    if language is None or (isinstance(language, str) and language in offered):
        return []
    template = N_("%(field)s must be null or one of the languages offered: %(choices)s.")
    params = {"field": "language", "choices": ", ".join(sorted(offered))}
    return [Problem("language", template, params)]


def read_document(data: Mapping[str, Any], languages: Collection[str]) -> MatchDocument:
    """Return the match an export describes, in one of the `languages` offered, or none; raise
    `ProblemsError` for what cannot be read."""
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        template = N_("This is not a match exported by scorekeeper (format %(format)s, version 1).")
        raise ProblemsError([Problem("format", template, {"format": FORMAT})])
    export = validated(MatchExport, data)
    problems = _repeated_rounds(export.rounds) + language_problems(export.language, languages)
    try:
        rules = built_rules(export.preset, export.settings.root, under=("", "settings."))
    except ProblemsError as error:
        raise ProblemsError(error.problems + problems) from None
    if problems:
        raise ProblemsError(problems)
    return MatchDocument(
        name=export.name,
        preset=export.preset,
        rules=rules,
        language=export.language,
        sides=[side.model_dump() for side in export.sides],
        rounds=tuple(entered.entry() for entered in export.rounds),
        created_at=_timestamp(export.created_at),
        first_dealer=export.first_dealer.seat() if export.first_dealer else None,
    )


@dataclass(frozen=True)
class ClubDocument:
    """A club's import, checked for shape: its matches are each read as a match's import."""

    name: str
    language: str | None
    created_at: datetime | None
    players: tuple[tuple[int, str], ...]  # each player's number and name
    matches: tuple[object, ...]  # each to be read as a match's export


def read_club_document(data: Mapping[str, Any], languages: Collection[str]) -> ClubDocument:
    """Return the club an export describes; raise `ProblemsError` for what cannot be read."""
    if data.get("format") != CLUB_FORMAT or data.get("format_version") != FORMAT_VERSION:
        template = N_("This is not a club exported by scorekeeper (format %(format)s, version 1).")
        raise ProblemsError([Problem("format", template, {"format": CLUB_FORMAT})])
    export = validated(ClubExport, data)
    if problems := language_problems(export.language, languages) + _repeated_ids(export):
        raise ProblemsError(problems)
    return ClubDocument(
        name=export.name,
        language=export.language,
        created_at=_timestamp(export.created_at),
        players=tuple((player.id, player.name) for player in export.players),
        matches=tuple(data["matches"]) if export.matches else (),
    )


def _repeated_ids(export: ClubExport) -> list[Problem]:
    """Refuse a player's id that is no number from 1, or another player's."""
    twice = N_("Player %(id)s appears twice: give each player an id of their own.")
    below_one = N_("A player's id is a whole number from 1, not %(id)s.")
    players = export.players
    return [
        Problem(f"players[{index}].id", below_one if player.id < 1 else twice, {"id": player.id})
        for index, player in enumerate(players)
        if player.id < 1 or any(earlier.id == player.id for earlier in players[:index])
    ]


def built_rules(
    preset: str, settings: Mapping[str, object] | None, *, under: tuple[str, str]
) -> RuleSet:
    """Return the preset's rules with `settings` applied; raise `ProblemsError` with each
    problem placed under the prefix `under` gives the preset's field, or the settings'."""
    try:
        return build_rules(preset, settings)
    except ProblemsError as error:
        preset_at, settings_at = under
        raise ProblemsError(
            [
                prefixed(problem, preset_at if problem.field == "preset" else settings_at)
                for problem in error.problems
            ]
        ) from None


def _repeated_rounds(rounds: Sequence[EnteredRound]) -> list[Problem]:
    template = N_("Round %(round)s appears twice: keep one of them.")
    return [
        Problem(f"rounds[{index}].round", template, {"round": entered.round})
        for index, entered in enumerate(rounds)
        if any(earlier.round == entered.round for earlier in rounds[:index])
    ]


def _timestamp(value: object) -> datetime | None:
    """Return an ISO 8601 timestamp, in UTC when it names no zone; None if unreadable."""
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


def prefixed(problem: Problem, prefix: str) -> Problem:
    """Return the problem with its field placed under `prefix`."""
    return Problem(prefix + problem.field, problem.template, problem.params, problem.side)


def view_csv(view: MatchView) -> str:
    """Return one CSV row per side per round: the entry, the breakdown, score and running total."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for scored, totals in zip(view.rounds, view.standings.running_totals, strict=True):
        for side, score, total in zip(scored.entry.sides, scored.score.sides, totals, strict=True):
            breakdown = score.breakdown.as_dict()
            writer.writerow(
                [scored.number, _safe_cell(side.name), *_entry_cells(side)]
                + [breakdown[key] for key in _BREAKDOWN_KEYS]
                + [score.score, total]
            )
    return out.getvalue()


def _entry_cells(side: SideEntry) -> list[object]:
    def cards(cards: int | CardCounts, keys: tuple[str, ...]) -> list[object]:
        if isinstance(cards, CardCounts):
            return ["", *counts_json(cards, keys).values()]
        return [cards, *[""] * len(keys)]

    return [
        side.clean_books,
        side.dirty_books,
        side.wild_books,
        *cards(side.melded, MELDED_COUNT_KEYS),
        side.red_threes,
        side.red_threes_held,
        side.went_out,
        *cards(side.leftover, COUNT_KEYS),
        side.deal_bonus,
    ]


def _safe_cell(text: str) -> str:
    return f"'{text}" if text.startswith(_FORMULA_STARTS) else text
