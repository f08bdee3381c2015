"""Stored matches: create them, enter and edit their rounds, and read them back scored.

Every score and every refusal comes from the domain. This module loads and saves, and fills in
what the domain needs from the match: side names, the player count and running scores.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.orm import selectinload

from scorekeeper.database import write_transaction
from scorekeeper.entries import COUNT_KEYS, MELDED_COUNT_KEYS, CardCounts, RoundEntry, SideEntry
from scorekeeper.exports import counts_json, match_document, prefixed, read_document, view_csv
from scorekeeper.models import Entry, Match, Player, Round, Side, db, utc_now
from scorekeeper.payloads import MAX_NAME_LENGTH
from scorekeeper.problems import N_, Problem, ProblemsError
from scorekeeper.rules import DEFAULT_PRESET, RuleSet, build_rules
from scorekeeper.scoring import RoundScore, Standings, score_round, standings
from scorekeeper.validation import MAX_PLAYERS

EDIT_TOKEN_BYTES = 32
PUBLIC_ID_BYTES = 16
MIN_SIDES = 2  # a match is played against somebody


@dataclass(frozen=True)
class SideSpec:
    """A side as a match begins: its name and its players, in seating order."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class CreatedMatch:
    """A new match with its edit token, which is shown this once and stored only as a hash."""

    match: Match
    edit_token: str


@dataclass(frozen=True)
class ScoredRound:
    """A stored round: its entry as the domain sees it (running scores filled in) and its score."""

    number: int
    version: int
    entry: RoundEntry
    score: RoundScore


@dataclass(frozen=True)
class MatchView:
    """Everything a standings page, the API or a PDF shows of a match."""

    match: Match
    rules: RuleSet
    side_names: tuple[str, ...]
    rounds: tuple[ScoredRound, ...]
    standings: Standings
    next_round: int | None


class StaleVersion(Exception):
    """The round changed since the client read it; `current` is the round as it is now."""

    def __init__(self, current: ScoredRound) -> None:
        super().__init__(f"round {current.number} is at version {current.version}")
        self.current = current


class RoundNotFound(LookupError):
    """The match has no round of that number."""


class ImpossibleRound(ProblemsError):
    """A stored or new round the domain refuses, given the rounds before it."""

    def __init__(self, round_number: int, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.round_number = round_number


# -- Matches -------------------------------------------------------------------------------------


def create_match(name: str, preset: str, rules: RuleSet, sides: Sequence[SideSpec]) -> CreatedMatch:
    """Store a new match under `rules`; raise `ProblemsError` and store nothing on bad names."""
    created = new_match(name, preset, rules, sides)
    with write_transaction():
        db.session.add(created.match)
    return created


def new_match(name: str, preset: str, rules: RuleSet, sides: Sequence[SideSpec]) -> CreatedMatch:
    """Return a checked match, not yet stored, with its edit token."""
    name = name.strip()
    sides = [SideSpec(side.name.strip(), tuple(p.strip() for p in side.players)) for side in sides]
    problems = _setup_problems(name, preset, sides)
    if problems:
        raise ProblemsError(problems)
    token = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
    match = Match(
        public_id=secrets.token_urlsafe(PUBLIC_ID_BYTES),
        name=name,
        preset=preset,
        settings=rules.as_settings(),
        edit_token_hash=_digest(token),
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


def _setup_problems(name: str, preset: str, sides: Sequence[SideSpec]) -> list[Problem]:
    problems = _name_problems("name", name) + _preset_problems(preset)
    if not MIN_SIDES <= len(sides) <= MAX_PLAYERS:
        template = N_("Enter between %(least)s and %(most)s sides.")
        problems.append(Problem("sides", template, {"least": MIN_SIDES, "most": MAX_PLAYERS}))
    seen: set[str] = set()
    for index, side in enumerate(sides):
        problems += _side_problems(index, side, seen)
        seen.add(side.name.casefold())
    players = sum(len(side.players) for side in sides)
    if players > MAX_PLAYERS:
        template = N_("%(players)s players entered, but a match has at most %(most)s.")
        problems.append(Problem("sides", template, {"players": players, "most": MAX_PLAYERS}))
    return problems


def _side_problems(index: int, side: SideSpec, taken: set[str]) -> list[Problem]:
    field = f"sides[{index}]"
    problems = _name_problems(f"{field}.name", side.name, side=index)
    if side.name and side.name.casefold() in taken:
        template = N_("Another side is already called %(name)s: give each side its own name.")
        problems.append(Problem(f"{field}.name", template, {"name": side.name}, side=index))
    if not side.players:
        template = N_("%(field)s needs at least one player.")
        problems.append(Problem(f"{field}.players", template, {"field": field}, side=index))
    for seat, player in enumerate(side.players):
        problems += _name_problems(f"{field}.players[{seat}]", player, side=index)
    return problems


def _name_problems(field: str, name: str, *, side: int | None = None) -> list[Problem]:
    if 1 <= len(name) <= MAX_NAME_LENGTH:
        return []
    template = N_("%(field)s must be a name of 1 to %(most)s characters.")
    return [Problem(field, template, {"field": field, "most": MAX_NAME_LENGTH}, side=side)]


def _preset_problems(preset: str) -> list[Problem]:
    try:
        build_rules(preset)
    except ProblemsError as error:
        return [replace(problem, field="rules.preset") for problem in error.problems]
    return []


def get_match(public_id: str) -> Match | None:
    """Return the match with this public id, its sides and rounds loaded, or None."""
    return db.session.scalar(
        db.select(Match)
        .filter_by(public_id=public_id)
        .options(
            selectinload(Match.sides).selectinload(Side.players),
            selectinload(Match.rounds).selectinload(Round.entries),
        )
    )


def token_opens(match: Match, token: str | None) -> bool:
    """Return whether `token` is the match's edit token, comparing digests in constant time."""
    return token is not None and hmac.compare_digest(_digest(token), match.edit_token_hash)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rules_of(match: Match) -> RuleSet:
    """Return the match's rules as stored when it began; presets changing later do not touch it."""
    return build_rules(DEFAULT_PRESET, match.settings)


def side_names(match: Match) -> tuple[str, ...]:
    return tuple(side.name for side in match.sides)


def player_count(match: Match) -> int:
    return sum(len(side.players) for side in match.sides)


# -- Reading rounds ------------------------------------------------------------------------------

# A round about to be scored: its version and its entry, keyed by round number.
Drafts = dict[int, tuple[int, RoundEntry]]


def match_view(match: Match) -> MatchView:
    """Return the match with every round scored in order, and its standings."""
    rules = rules_of(match)
    rounds = scored_rounds(rules, _stored_drafts(match))
    scores = [tuple(side.score for side in scored.score.sides) for scored in rounds]
    entered = {scored.number for scored in rounds}
    return MatchView(
        match=match,
        rules=rules,
        side_names=side_names(match),
        rounds=rounds,
        standings=standings(rules, side_names(match), scores),
        next_round=next((n for n in range(1, rules.rounds + 1) if n not in entered), None),
    )


def running_scores_before(match: Match, round_number: int) -> tuple[int, ...]:
    """Return each side's total over the stored rounds before `round_number`."""
    totals = (0,) * len(match.sides)
    for scored in match_view(match).rounds:
        if scored.number < round_number:
            totals = _plus(totals, scored.score)
    return totals


def scored_rounds(rules: RuleSet, drafts: Drafts) -> tuple[ScoredRound, ...]:
    """Score the rounds in order, each side's running score the sum of its earlier rounds.

    Raises `ImpossibleRound` for the first round the domain refuses.
    """
    totals: tuple[int, ...] | None = None
    rounds = []
    for number in sorted(drafts):
        version, entry = drafts[number]
        totals = totals or (0,) * len(entry.sides)
        entry = replace(
            entry,
            sides=tuple(
                replace(side, running_score=total)
                for side, total in zip(entry.sides, totals, strict=True)
            ),
        )
        try:
            score = score_round(rules, entry)
        except ProblemsError as error:
            raise ImpossibleRound(number, error.problems) from None
        rounds.append(ScoredRound(number=number, version=version, entry=entry, score=score))
        totals = _plus(totals, score)
    return tuple(rounds)


def _plus(totals: tuple[int, ...], score: RoundScore) -> tuple[int, ...]:
    return tuple(total + side.score for total, side in zip(totals, score.sides, strict=True))


def _stored_drafts(match: Match) -> Drafts:
    return {row.number: (row.version, _stored_entry(match, row)) for row in match.rounds}


def _stored_entry(match: Match, row: Round) -> RoundEntry:
    by_side = {entry.side_id: entry for entry in row.entries}
    sides = tuple(_side_entry(by_side[side.id], side.name) for side in match.sides)
    return RoundEntry(round_number=row.number, sides=sides, players=player_count(match))


def _side_entry(entry: Entry, name: str) -> SideEntry:
    return SideEntry(
        name=name,
        clean_books=entry.clean_books,
        dirty_books=entry.dirty_books,
        wild_books=entry.wild_books,
        melded=_cards(entry.melded_points, entry.melded_counts),
        red_threes=entry.red_threes,
        red_threes_held=entry.red_threes_held,
        went_out=entry.went_out,
        leftover=_cards(entry.leftover_points, entry.leftover_counts),
        deal_bonus=entry.deal_bonus,
    )


def _cards(points: int | None, counts: Mapping[str, int] | None) -> int | CardCounts:
    return CardCounts.from_mapping(counts) if counts is not None else points or 0


# -- Writing rounds ------------------------------------------------------------------------------


def add_round(match: Match, entry: RoundEntry) -> ScoredRound:
    """Store a new round; raise `ProblemsError` and store nothing when the domain refuses it."""
    with write_transaction():
        _lock(match)
        if _round_row(match, entry.round_number) is not None:
            template = N_("Round %(round)s is already entered: edit it instead.")
            raise ProblemsError([Problem("round", template, {"round": entry.round_number})])
        number = entry.round_number
        scored = _numbered(_rescored(match, number, (1, _for_match(match, entry))), number)
        match.rounds.append(_new_round(match, scored.entry))
        _touch(match)
    return scored


def replace_round(match: Match, number: int, entry: RoundEntry, *, version: int) -> ScoredRound:
    """Replace a round read at `version`; raise `StaleVersion` when it changed since."""
    with write_transaction():
        row = _round_at(match, number, version)
        entry = _for_match(match, replace(entry, round_number=number))
        scored = _numbered(_rescored(match, number, (row.version + 1, entry)), number)
        by_side = {stored.side_id: stored for stored in row.entries}
        for side, side_entry in zip(match.sides, scored.entry.sides, strict=True):
            _fill(by_side[side.id], side_entry)
        row.version += 1
        row.updated_at = utc_now()
        _touch(match)
    return scored


def delete_round(match: Match, number: int, *, version: int) -> None:
    """Delete a round read at `version`; raise `StaleVersion` when it changed since."""
    with write_transaction():
        row = _round_at(match, number, version)
        _rescored(match, number, None)
        match.rounds.remove(row)
        _touch(match)


def _lock(match: Match) -> None:
    """Hold the match until the transaction ends, and read it afresh: another writer may have
    changed it since this request loaded it."""
    db.session.expire_all()
    db.session.refresh(match, with_for_update=True)


def _touch(match: Match) -> None:
    match.version += 1
    match.updated_at = utc_now()


def _round_row(match: Match, number: int) -> Round | None:
    return next((row for row in match.rounds if row.number == number), None)


def _round_at(match: Match, number: int, version: int) -> Round:
    _lock(match)
    row = _round_row(match, number)
    if row is None:
        raise RoundNotFound(number)
    if row.version != version:
        raise StaleVersion(_numbered(scored_rounds(rules_of(match), _stored_drafts(match)), number))
    return row


def _for_match(match: Match, entry: RoundEntry) -> RoundEntry:
    """Return the entry with the match's side names and player count, one side each."""
    if len(entry.sides) != len(match.sides):
        template = N_("Enter one side per side of this match: %(count)s, in its order.")
        raise ProblemsError([Problem("sides", template, {"count": len(match.sides)})])
    sides = tuple(
        replace(side, name=name) for side, name in zip(entry.sides, side_names(match), strict=True)
    )
    return replace(entry, sides=sides, players=player_count(match))


def _rescored(
    match: Match, number: int, change: tuple[int, RoundEntry] | None
) -> tuple[ScoredRound, ...]:
    """Score the match as it would be after the change (None deletes), refusing a broken round.

    In `by_score` matches a round's minimum follows the rounds before it, so a change can make a
    later round impossible; the table then corrects that round first.
    """
    drafts = _stored_drafts(match)
    drafts.pop(number, None)
    if change is not None:
        drafts[number] = change
    try:
        return scored_rounds(rules_of(match), drafts)
    except ImpossibleRound as error:
        if error.round_number == number:
            raise
        template = N_("This would make round %(round)s impossible as entered: correct it first.")
        header = Problem("round", template, {"round": error.round_number})
        raise ProblemsError([header, *error.problems]) from None


def _numbered(rounds: Sequence[ScoredRound], number: int) -> ScoredRound:
    return next(scored for scored in rounds if scored.number == number)


def _new_round(match: Match, entry: RoundEntry) -> Round:
    row = Round(number=entry.round_number)
    for side, side_entry in zip(match.sides, entry.sides, strict=True):
        stored = Entry(side=side)
        _fill(stored, side_entry)
        row.entries.append(stored)
    return row


def _fill(stored: Entry, side: SideEntry) -> None:
    stored.clean_books = side.clean_books
    stored.dirty_books = side.dirty_books
    stored.wild_books = side.wild_books
    stored.melded_points, stored.melded_counts = _points_or_counts(side.melded, MELDED_COUNT_KEYS)
    stored.red_threes = side.red_threes
    stored.red_threes_held = side.red_threes_held
    stored.went_out = side.went_out
    stored.leftover_points, stored.leftover_counts = _points_or_counts(side.leftover, COUNT_KEYS)
    stored.deal_bonus = side.deal_bonus


def _points_or_counts(
    cards: int | CardCounts, keys: tuple[str, ...]
) -> tuple[int | None, dict[str, int] | None]:
    if isinstance(cards, CardCounts):
        return None, counts_json(cards, keys)
    return cards, None


# -- Export and import ---------------------------------------------------------------------------


def export_match(match: Match) -> dict[str, Any]:
    """Return the complete export of a match, which `import_match` reads back."""
    return match_document(match_view(match))


def match_csv(match: Match) -> str:
    """Return the match's rounds as CSV, one row per side per round."""
    return view_csv(match_view(match))


def import_match(data: Mapping[str, Any]) -> CreatedMatch:
    """Store an exported match as a new one, with a new id and edit token.

    Raises `ProblemsError`, storing nothing, when the export is damaged or any round impossible.
    """
    document = read_document(data)
    created = new_match(document.name, document.preset, document.rules, side_specs(document.sides))
    match = created.match
    match.language = document.language
    drafts: Drafts = {}
    for index, entry in enumerate(document.rounds):
        try:
            drafts[entry.round_number] = (1, _for_match(match, entry))
        except ProblemsError as error:
            raise ProblemsError(
                [prefixed(p, f"rounds[{index}].") for p in error.problems]
            ) from None
    try:
        rounds = scored_rounds(document.rules, drafts)
    except ImpossibleRound as error:
        index = next(
            i for i, e in enumerate(document.rounds) if e.round_number == error.round_number
        )
        raise ProblemsError([prefixed(p, f"rounds[{index}].") for p in error.problems]) from None
    with write_transaction():
        match.rounds = [_new_round(match, scored.entry) for scored in rounds]
        db.session.add(match)
    return created


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
