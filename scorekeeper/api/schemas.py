"""The API's own request and answer bodies, built on the store's documents.

Each is declared once: a request is read into it (`documents.validated`), an answer is one
dumped, and the OpenAPI document's schemas are generated from both (`api.openapi`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Self

from pydantic import MISSING, Field

from scorekeeper import store
from scorekeeper.documents import (
    Body,
    EnteredRound,
    Language,
    MatchExport,
    Name,
    RoundSide,
    RoundSides,
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
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import DEFAULT_PRESET, MAX_PLAYERS, PRESETS, SETTING_KEYS, RuleSet
from scorekeeper.domain.validation import MIN_SIDES
from scorekeeper.store.exports import built_rules

# -- Requests ------------------------------------------------------------------------------------


class Rules(Body):
    """A preset and the house rules that differ from it."""

    preset: str = Field(default=DEFAULT_PRESET, json_schema_extra={"enum": list(PRESETS)})
    overrides: dict[str, Any] | None = Field(
        default=None,
        description="Settings of RULES.md section 5 that differ from the preset.",
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


class CreateMatchRequest(UnderRules):
    """A new match: its name, its rules and its sides, each with its players."""

    name: SetupName
    sides: list[SideSetup] = documented(minItems=MIN_SIDES, maxItems=MAX_PLAYERS)
    language: Language = None


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
    rounds: list[MatchRound]
    totals: list[int]
    next_round: int | None
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
            rounds=[
                MatchRound.of(scored, running_totals=list(totals))
                for scored, totals in zip(view.rounds, standings.running_totals, strict=True)
            ],
            totals=list(standings.totals),
            next_round=view.next_round,
            next_meld_minimums=_list_or_none(standings.next_meld_minimums),
            finished=standings.finished,
            winner=None if standings.winner is None else view.side_names[standings.winner],
            draw=standings.draw,
        )


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
)
