"""The API's own request and answer bodies, built on the store's documents.

Each is declared once: a request is read into it (`documents.validated`), an answer is one
dumped, and the OpenAPI document's schemas are generated from both (`api.openapi`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Self

from pydantic import MISSING, Field

from scorekeeper import store
from scorekeeper.documents import (
    Body,
    ClubExport,
    EnteredRound,
    Language,
    MatchExport,
    Name,
    RoundSide,
    RoundSides,
    SeatOf,
    Settings,
    SetupName,
    SideSetup,
    TableRound,
    Whole,
    documented,
    side_entries,
)
from scorekeeper.domain import melds as domain_melds
from scorekeeper.domain import scoring
from scorekeeper.domain.dealing import Seat
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import DEFAULT_PRESET, MAX_PLAYERS, PRESETS, SETTING_KEYS, RuleSet
from scorekeeper.domain.setup import SideSpec
from scorekeeper.domain.validation import MIN_SIDES
from scorekeeper.store.exports import built_rules

# -- Requests ------------------------------------------------------------------------------------


class Rules(Body):
    """A preset and the house rules that differ from it."""

    preset: str = Field(default=DEFAULT_PRESET, json_schema_extra={"enum": list(PRESETS)})
    overrides: dict[str, Any] | None = Field(
        default=None,
        description="The settings that differ from the preset, under the keys docs/rules.md lists.",
        json_schema_extra={"propertyNames": {"enum": list(SETTING_KEYS)}},
    )

    def rule_set(self) -> RuleSet:
        return built_rules(self.preset, self.overrides, under=("rules.", "rules.overrides."))


class UnderRules(Body):
    """A body played under rules: the default preset's when left out or null."""

    rules: Rules | None = None

    @property
    def given_rules(self) -> Rules:
        return self.rules or Rules()


class Side(RoundSide):
    """One side's entry in a round scored apart, which names the side."""

    name: Name


class ScoreRequest(UnderRules, TableRound):
    """A round to score; nothing is stored."""

    sides: Sequence[Side] = Field(min_length=1, json_schema_extra={"maxItems": MAX_PLAYERS})


class RoundEdit(Body):
    """A round entered again in place of the one of the URL."""

    round_sides = True
    round: Whole | None = documented(None, minimum=1, description="The URL's, if given.")
    sides: RoundSides

    def entry(self, number: int) -> RoundEntry:
        """Return the entry as round `number`, the URL's; refuse a body naming another."""
        if self.round not in (None, number):
            template = N_("round is %(given)s, but this is round %(round)s: send its own number.")
            raise ProblemsError(
                [Problem("round", template, {"given": self.round, "round": number})]
            )
        return RoundEntry(round_number=number, sides=side_entries(self.sides))


# The checker answers any count: one below 0 makes the meld invalid.
MeldCount = Annotated[Whole, Field(description="Below 0 makes the meld invalid.")]


class Meld(Body):
    """A meld about to be laid down. Any rank and count is checked: a meld that no cards can
    make is answered invalid."""

    rank: str = Field(
        examples=list(domain_melds.RANKS),
        description="A, K ... 4, or wild; any other rank makes the meld invalid.",
    )
    naturals: MeldCount = 0
    twos: MeldCount = 0
    jokers: MeldCount = 0

    def meld(self) -> domain_melds.Meld:
        """Return the meld, its rank written as the checker knows it: K for k, wild for Wild."""
        rank = self.rank.strip()
        rank = domain_melds.WILD_RANK if rank.lower() == domain_melds.WILD_RANK else rank.upper()
        return domain_melds.Meld(rank, naturals=self.naturals, twos=self.twos, jokers=self.jokers)


class MeldCheckRequest(UnderRules):
    """Melds about to be laid down in `round`, by a side at `running_score`."""

    round: Whole = documented(1, minimum=1)
    running_score: Whole = 0
    melds: list[Meld] = Field(min_length=1)


class NewMatch(UnderRules):
    """What a new match is set up with, but its sides: its name, rules, language and dealer."""

    name: SetupName
    language: Language = None
    first_dealer: SeatOf | None = Field(
        None, description="Who deals round 1, by side and player; left out: side 1's first player."
    )

    def dealer(self) -> Seat | None:
        return None if self.first_dealer is None else self.first_dealer.seat()


class CreateMatchRequest(NewMatch):
    """A new match: its name, its rules and its sides, each with its players."""

    sides: list[SideSetup] = documented(minItems=MIN_SIDES, maxItems=MAX_PLAYERS)


class CreateClubRequest(Body):
    """A new club: its name, and the language its season report prints in."""

    name: SetupName
    language: Language = None


class NewClubPlayer(Body):
    """A player who joins a club."""

    name: SetupName


ClubPlayerId = Annotated[Whole, documented(minimum=1, description="A player's id in the club.")]


class ClubSideSetup(Body):
    """A side of a club's match: its name, and its players by their ids in the club."""

    name: SetupName
    players: list[ClubPlayerId] = documented(minItems=1)

    def spec(self, members: Mapping[int, str], index: int) -> SideSpec:
        """Return the side with its players' names; raise `ProblemsError` for an id the club
        does not have."""
        template = N_("The club has no player %(id)s: add them first, or pick another.")
        problems = [
            Problem(f"sides[{index}].players[{seat}]", template, {"id": id_}, side=index)
            for seat, id_ in enumerate(self.players)
            if id_ not in members
        ]
        if problems:
            raise ProblemsError(problems)
        return SideSpec(self.name, tuple(members[id_] for id_ in self.players))


class CreateClubMatchRequest(NewMatch):
    """A new match of a club: as a new match, each side's players given by their ids."""

    sides: list[ClubSideSetup] = documented(minItems=MIN_SIDES, maxItems=MAX_PLAYERS)

    def side_specs(self, members: Mapping[int, str]) -> list[SideSpec]:
        """Return the sides with their players' names, refusing every id the club lacks."""
        specs, problems = [], []
        for index, side in enumerate(self.sides):
            try:
                specs.append(side.spec(members, index))
            except ProblemsError as error:
                problems += error.problems
        if problems:
            raise ProblemsError(problems)
        return specs


# -- Answers -------------------------------------------------------------------------------------


class Preset(Body):
    key: str
    name: str
    source: str
    settings: Settings


class PresetList(Body):
    presets: list[Preset]


class Breakdown(Body):
    """The parts of a side's round score, which add up to it."""

    books: int
    melded: int
    red_threes: int
    going_out: int
    deal_bonus: int
    leftover: int


class SideScore(Body):
    name: str
    score: int
    meld_minimum: int
    breakdown: Breakdown

    @classmethod
    def of(cls, side: scoring.SideScore, **more: Any) -> Self:
        """Return a side's score, and `more` of the fields of a subclass."""
        breakdown = Breakdown.model_validate(side.breakdown, from_attributes=True)
        return cls(
            name=side.name,
            score=side.score,
            meld_minimum=side.meld_minimum,
            breakdown=breakdown,
            **more,
        )


class RoundScore(Body):
    round: int
    meld_minimum: int | None
    sides: list[SideScore]

    @classmethod
    def of(cls, result: scoring.RoundScore) -> Self:
        sides = [SideScore.of(side) for side in result.sides]
        return cls(round=result.round_number, meld_minimum=result.meld_minimum, sides=sides)


class MeldVerdict(Body):
    valid: bool
    points: int
    problems: list[str]


class MeldCheck(Body):
    minimum: int
    points: int
    meets: bool
    short_by: int
    melds: list[MeldVerdict]

    @classmethod
    def of(cls, result: domain_melds.MeldCheck, message: Callable[[Problem], str]) -> Self:
        """Return the check of melds, each problem told by `message`."""
        verdicts = [
            MeldVerdict(
                valid=meld.valid, points=meld.points, problems=[*map(message, meld.problems)]
            )
            for meld in result.melds
        ]
        return cls(
            minimum=result.minimum,
            points=result.points,
            meets=result.meets,
            short_by=result.short_by,
            melds=verdicts,
        )


class AddsUp(Body):
    side: int
    field: str


class Error(Body):
    side: int | None
    field: str | None
    message: str
    adds_up: list[AddsUp] | MISSING = Field(
        default=MISSING,
        description="For a problem of the whole table, such as more of a card than the decks "
        "hold: the sides' fields that add up to it.",
    )


class Errors(Body):
    errors: list[Error]


class RefusedRound(Errors):
    sides: list[SideScore | None] | MISSING = Field(
        default=MISSING,
        description="Each side's score, null for a side that a problem concerns: its own, one "
        "its fields add up to, or one of the whole table that names no side's fields. Left out "
        "when the body itself could not be read.",
    )


class StoredSideScore(SideScore):
    running_score: int
    entry: Side


class StoredRound(Body):
    """A stored round: its score and breakdown per side, with the entry behind it."""

    version: int
    round: int
    meld_minimum: int | None
    sides: list[StoredSideScore]

    @classmethod
    def of(cls, scored: store.ScoredRound, **more: Any) -> Self:
        """Return a stored round, and `more` of the fields of a subclass."""
        score = scored.score
        sides = [
            StoredSideScore.of(side, running_score=entry.running_score, entry=Side.of(entry))
            for side, entry in zip(score.sides, scored.entry.sides, strict=True)
        ]
        return cls(
            version=scored.version,
            round=score.round_number,
            meld_minimum=score.meld_minimum,
            sides=sides,
            **more,
        )


class MatchRound(StoredRound):
    running_totals: list[int]


class StaleRound(Errors):
    current: StoredRound


class CreatedMatch(Body):
    id: str
    edit_token: str = Field(description="Shown once: keep it.")
    edit_url: str = Field(json_schema_extra={"format": "uri"})
    view_url: str = Field(json_schema_extra={"format": "uri"})


class RotatedToken(Body):
    edit_token: str = Field(description="Shown once: keep it.")
    edit_url: str = Field(json_schema_extra={"format": "uri"})


class Match(Body):
    """A match: its rules, its sides, its scored rounds with running totals, and its result."""

    id: str
    name: str
    preset: str
    rules: Settings
    language: Language
    version: int
    created_at: str = Field(json_schema_extra={"format": "date-time"})
    updated_at: str = Field(json_schema_extra={"format": "date-time"})
    sides: list[SideSetup]
    first_dealer: SeatOf = Field(description="Who dealt round 1, by side and player.")
    rounds: list[MatchRound]
    totals: list[int]
    next_round: int | None
    next_dealer: str | None = Field(description="Who deals the next round, by name.")
    next_meld_minimums: list[int] | None
    finished: bool
    winner: str | None = Field(description="A side's name.")
    draw: bool

    @classmethod
    def of(cls, view: store.MatchView) -> Self:
        match, standings = view.match, view.standings
        return cls(
            id=match.public_id,
            name=match.name,
            preset=match.preset,
            rules=Settings(match.settings),
            language=match.language,
            version=match.version,
            created_at=match.created_at.isoformat(),
            updated_at=match.updated_at.isoformat(),
            sides=[SideSetup.of(side) for side in store.sides_of(match)],
            first_dealer=SeatOf.of(store.dealer_of(match, 1)),
            rounds=[
                MatchRound.of(scored, running_totals=list(totals))
                for scored, totals in zip(view.rounds, standings.running_totals, strict=True)
            ],
            totals=list(standings.totals),
            next_round=view.next_round,
            next_dealer=None if view.next_round is None else view.dealer(view.next_round),
            next_meld_minimums=_list_or_none(standings.next_meld_minimums),
            finished=standings.finished,
            winner=None if standings.winner is None else view.side_names[standings.winner],
            draw=standings.draw,
        )


class CreatedClub(CreatedMatch):
    """A new club: its id, and its edit token, shown this once, with its links."""


class ImportedClub(CreatedClub):
    """A club imported as a new one, with each of its matches imported as a new match."""

    matches: list[CreatedMatch]


class ClubPlayer(Body):
    id: int = Field(description="The player's id in the club.")
    name: str


class ClubPlayerRecord(ClubPlayer):
    """A player's record in the club's finished matches, as the query filters them."""

    played: int
    won: int = Field(description="A draw counts as played, not won.")
    win_rate: float | None = Field(description="won / played; null before any is played.")
    average_score: float | None = Field(
        description="The mean final total of the player's side; null before any is played."
    )
    best_score: int | None


class ClubMatch(Body):
    id: str
    name: str
    finished: bool
    winner: str | None = Field(description="A side's name; null in a draw or while playing.")
    view_url: str = Field(json_schema_extra={"format": "uri"})


class Club(Body):
    """A club: its players with their records, and its matches, newest first."""

    name: str
    players: list[ClubPlayerRecord]
    matches: list[ClubMatch]

    @classmethod
    def of(cls, view: store.ClubView, view_url: Callable[[str], str]) -> Self:
        """Return the club's records; `view_url` makes the view link of a match's id."""
        players = [
            ClubPlayerRecord(
                id=entry.player,
                name=view.members[entry.player],
                played=entry.record.played,
                won=entry.record.won,
                win_rate=entry.record.win_rate,
                average_score=entry.record.average_score,
                best_score=entry.record.best_score,
            )
            for entry in view.players
        ]
        matches = [
            ClubMatch(
                id=result.key,
                name=result.name,
                finished=result.finished,
                winner=None if result.winner is None else result.leader_names[0],
                view_url=view_url(result.key),
            )
            for result in view.results
        ]
        return cls(name=view.club.name, players=players, matches=matches)


def _list_or_none(values: tuple[int, ...] | None) -> list[int] | None:
    return None if values is None else list(values)


# The bodies of the OpenAPI document: requests as they are read, answers as they are dumped.
REQUESTS: tuple[type[Body], ...] = (
    ScoreRequest,
    MeldCheckRequest,
    CreateMatchRequest,
    EnteredRound,
    RoundEdit,
    MatchExport,
    CreateClubRequest,
    NewClubPlayer,
    CreateClubMatchRequest,
    ClubExport,
)
ANSWERS: tuple[type[Body], ...] = (
    PresetList,
    RoundScore,
    MeldCheck,
    Errors,
    RefusedRound,
    CreatedMatch,
    RotatedToken,
    StoredRound,
    StaleRound,
    Match,
    MatchExport,
    CreatedClub,
    ImportedClub,
    ClubPlayer,
    Club,
    ClubExport,
)
