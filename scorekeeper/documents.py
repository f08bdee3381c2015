"""The JSON of rounds, of a match's sides and of the export, declared once as pydantic models.

The API builds its bodies on these; the store's export and import and its kept operations read
and write them. They sit between the domain, whose values they carry, and the store. A
model checks the shape of a body only: what a field may hold under the rules is the domain's to
check, so that its messages tell it, and the limits it checks are documented here, not enforced.
`validated` reads a body and tells each problem of shape in the project's own messages.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Annotated, Any, ClassVar, Literal, Self, TypeVar

from pydantic import (
    MISSING,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    RootModel,
    SkipValidation,
    StringConstraints,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic.config import JsonValue
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import (
    ErrorDetails,
    InitErrorDetails,
    PydanticCustomError,
    PydanticKnownError,
    PydanticUndefined,
)
from pydantic_core.core_schema import CoreSchema

from scorekeeper.domain.dealing import Seat
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.labels import field_label
from scorekeeper.domain.problems import N_, Problem, ProblemsError, as_whole_number
from scorekeeper.domain.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    SETTING_KEYS,
    SETTING_RANGES,
    BookCounts,
    CardValues,
    DeckCount,
    MeldMinimumMode,
    Permission,
    WildRatio,
)
from scorekeeper.domain.setup import MAX_NAME_LENGTH, SideSpec
from scorekeeper.domain.validation import MIN_SIDES
from scorekeeper.i18n import LANGUAGES

FORMAT: Literal["scorekeeper-match"] = "scorekeeper-match"
FORMAT_VERSION: Literal[1] = 1
CLUB_FORMAT: Literal["scorekeeper-club"] = "scorekeeper-club"


class Body(BaseModel):
    """A JSON object of the API or of the export: strict types, and no field it does not name."""

    model_config = ConfigDict(strict=True, extra="forbid")
    # Whether the body's `sides` are a round's: their problems name the side (`validated`).
    round_sides: ClassVar[bool] = False


B = TypeVar("B", bound=Body)


def _given(value: object) -> object:
    """Read a null as a value left out, which a required field is told it needs."""
    if value is None:
        raise PydanticKnownError("missing")
    return as_whole_number(value)


def _flag_or_whole(value: object) -> object:
    """Count a flag as exports before counts did: true counts 1 and false 0."""
    return int(value) if isinstance(value, bool) else as_whole_number(value)


def documented(default: Any = PydanticUndefined, **schema: JsonValue) -> Any:
    """Return a field with limits for the OpenAPI document alone: the domain checks them, and
    tells what is wrong in its own words."""
    return Field(default=default, json_schema_extra=schema)


Whole = Annotated[int, BeforeValidator(as_whole_number)]
Count = Annotated[Whole, documented(minimum=0)]
RoundNumber = Annotated[int, BeforeValidator(_given), documented(minimum=1)]
FlagOrCount = Annotated[
    int,
    BeforeValidator(_flag_or_whole),
    Field(description="The side's players who cut exactly the cards; true counts 1."),
    documented(type=["integer", "boolean"], minimum=0),
]
# A side's name in a round, read as the calculator has always read it; a name of the setup is
# checked by `setup_problems`, which also refuses line breaks.
Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME_LENGTH, pattern=r"\S")]
SetupName = Annotated[str, documented(minLength=1, maxLength=MAX_NAME_LENGTH)]
# Any value: `exports.language_problems` refuses one not offered, naming those that are.
Language = Annotated[
    Any,
    WithJsonSchema(
        {
            "enum": [*LANGUAGES, None],
            "description": "The language the match's PDFs print in; null: each reader's own.",
        }
    ),
]


class MeldedCards(Body):
    """Melded cards counted by kind."""

    jokers: Count = 0
    twos: Count = 0
    aces: Count = 0
    eights_to_kings: Count = 0
    fours_to_sevens: Count = 0

    def counts(self) -> CardCounts:
        return CardCounts(**self.model_dump())


class CardsLeft(MeldedCards):
    """Cards left over counted by kind: black threes too, which never meld."""

    black_threes: Count = 0


class RoundSide(Body):
    """One side's entry in a round; every field left out is 0 or false. Cards are given as
    points (`melded_points`, `leftover_points`) or counted by kind (`melded`, `leftover`)."""

    name: Name | None | MISSING = Field(
        default=MISSING, description="Not stored: the match's side, in order."
    )
    clean_books: Count = 0
    dirty_books: Count = 0
    wild_books: Count = 0
    melded_points: Count | MISSING = MISSING
    melded: MeldedCards | MISSING = MISSING
    red_threes: Count = 0
    red_threes_held: Count = 0
    went_out: bool = False
    leftover_points: Count | MISSING = MISSING
    leftover: CardsLeft | MISSING = MISSING
    deal_bonus: FlagOrCount = 0
    running_score: Whole | MISSING = Field(
        default=MISSING, description="The side's total before the round."
    )

    @model_validator(mode="after")
    def _cards_given_once(self) -> Self:
        """Refuse cards given both as points and as counts."""
        twice = [
            InitErrorDetails(
                type=PydanticCustomError("points_and_counts", "given as points and as counts"),
                loc=(cards,),
                input=getattr(self, cards),
            )
            for cards in ("melded", "leftover")
            if MISSING not in (getattr(self, cards), getattr(self, f"{cards}_points"))
        ]
        if twice:
            raise ValidationError.from_exception_data(type(self).__name__, twice)
        return self

    def entry(self) -> SideEntry:
        return SideEntry(
            name=self.name.strip() if isinstance(self.name, str) else "",
            clean_books=self.clean_books,
            dirty_books=self.dirty_books,
            wild_books=self.wild_books,
            melded=_cards(self.melded_points, self.melded),
            red_threes=self.red_threes,
            red_threes_held=self.red_threes_held,
            went_out=self.went_out,
            leftover=_cards(self.leftover_points, self.leftover),
            deal_bonus=self.deal_bonus,
            running_score=0 if self.running_score is MISSING else self.running_score,
        )

    @classmethod
    def of(cls, side: SideEntry) -> Self:
        """Return a side's entry as the API takes it: its name if it has one, its cards as
        points or as counts, and no running score, which the match counts."""
        given: dict[str, Any] = {key: getattr(side, key) for key in _ENTRY_FIELDS}
        if side.name:
            given["name"] = side.name
        for key, cards, model in (
            ("melded", side.melded, MeldedCards),
            ("leftover", side.leftover, CardsLeft),
        ):
            if isinstance(cards, CardCounts):
                given[key] = model.model_validate(cards, from_attributes=True)
            else:
                given[f"{key}_points"] = cards
        return cls.model_validate(given)


def _cards(points: int | MISSING, counts: MeldedCards | MISSING) -> int | CardCounts:
    """Return cards as counted by kind, else as points, else none."""
    if counts is not MISSING:
        return counts.counts()
    return 0 if points is MISSING else points


_ENTRY_FIELDS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "red_threes",
    "red_threes_held",
    "went_out",
    "deal_bonus",
)
# A sequence, which the calculator's sides, that name themselves, may narrow.
RoundSides = Annotated[
    Sequence[RoundSide], Field(min_length=1), documented(minItems=MIN_SIDES, maxItems=MAX_PLAYERS)
]


def side_entries(sides: Sequence[RoundSide]) -> tuple[SideEntry, ...]:
    return tuple(side.entry() for side in sides)


class EnteredRound(Body):
    """A round of a stored match as a table entered it: one entry per side, in order."""

    round_sides = True
    round: RoundNumber
    sides: RoundSides

    def entry(self) -> RoundEntry:
        return RoundEntry(round_number=self.round, sides=side_entries(self.sides))


class TableRound(EnteredRound):
    """A round with the players at its table, who decide how many decks it draws from."""

    players: Whole | None = documented(None, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    side_players: list[Annotated[Whole, documented(minimum=1)]] | None = documented(
        None, maxItems=MAX_PLAYERS, description="Each side's players, in the order of the sides."
    )

    def entry(self) -> RoundEntry:
        side_players = None if self.side_players is None else tuple(self.side_players)
        return replace(super().entry(), players=self.players, side_players=side_players)


def parse_round(data: Mapping[str, Any]) -> RoundEntry:
    """Return the entry of a round's JSON with its table's players, as an operation keeps it;
    raise `ProblemsError` for what is of the wrong shape."""
    return validated(TableRound, data).entry()


class SideSetup(Body):
    """A side as its match begins: its name and its players, in seating order."""

    name: SetupName
    players: list[SetupName] = documented(minItems=1)

    def spec(self) -> SideSpec:
        return SideSpec(self.name, tuple(self.players))

    @classmethod
    def of(cls, spec: SideSpec) -> Self:
        return cls(name=spec.name, players=list(spec.players))


class SeatOf(Body):
    """A player by place: their side's, from 0, and theirs among its players, from 0."""

    side: Count
    player: Count

    def seat(self) -> Seat:
        return Seat(self.side, self.player)

    @classmethod
    def of(cls, seat: Seat) -> Self:
        return cls(side=seat.side, player=seat.player)


# -- Settings ------------------------------------------------------------------------------------


def _choice(choices: type[enum.StrEnum]) -> dict[str, Any]:
    return {"type": "string", "enum": [member.value for member in choices]}


def _in_range(key: str) -> dict[str, Any]:
    """Return the schema of the whole numbers a setting takes (`rules.SETTING_RANGES`)."""
    numbers = SETTING_RANGES[key]
    schema: dict[str, Any] = {"type": "integer", "minimum": numbers.low, "maximum": numbers.high}
    if numbers.step > 1:
        schema["multipleOf"] = numbers.step
    return schema


def _object(properties: dict[str, Any], required: Sequence[str] = ()) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    return {**schema, "required": list(required)} if required else schema


def _record_of(key: str, record: type) -> dict[str, Any]:
    return _object({f.name: _in_range(f"{key}.{f.name}") for f in fields(record)})


class Settings(RootModel[dict[str, Any]]):
    """A complete set of settings, as the presets list them (docs/rules.md, "Every setting").
    The domain's `build_rules` checks them; their schema comes from its ranges and choices."""

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        types: dict[str, Any] = {
            "decks": {"oneOf": [_in_range("decks"), _choice(DeckCount)]},
            "meld_minimum_mode": _choice(MeldMinimumMode),
            "meld_minimums": {"type": "array", "items": _in_range("meld_minimums"), "minItems": 1},
            "card_values": _record_of("card_values", CardValues),
            "wild_books_allowed": {"type": "boolean"},
            "max_wilds_per_meld": {"oneOf": [_in_range("max_wilds_per_meld"), {"type": "null"}]},
            "wild_ratio": _choice(WildRatio),
            "going_out_requires": _record_of("going_out_requires", BookCounts),
            "red_threes_laid_down": {"type": "boolean"},
            "permission_to_go_out": _choice(Permission),
        }
        return _object(
            {key: types.get(key) or _in_range(key) for key in SETTING_KEYS}, SETTING_KEYS
        )


# -- The export ----------------------------------------------------------------------------------


# When an exported match or club began. Read leniently: one whose beginning cannot be read
# begins when it is imported.
Began = Annotated[Any, WithJsonSchema({"type": ["string", "null"], "format": "date-time"})]


class MatchExport(Body):
    """A complete match, as exported and imported. An import ignores fields it does not know."""

    model_config = ConfigDict(extra="ignore")
    format: Literal["scorekeeper-match"]
    format_version: Literal[1]
    name: SetupName
    preset: str
    settings: Settings
    language: Language = None
    created_at: Began = None
    sides: list[SideSetup]
    first_dealer: SeatOf | None = Field(
        None, description="Who dealt round 1; left out: side 1's first player."
    )
    rounds: list[EnteredRound] = []


class ClubMember(Body):
    """A player of a club: their number in the club, and their name."""

    id: Annotated[Whole, documented(minimum=1)]
    name: SetupName


class ClubExport(Body):
    """A club with its players and the export of each of its matches, as exported and
    imported. An import ignores fields it does not know, and reads each match as a match's
    import, which tells its own problems."""

    model_config = ConfigDict(extra="ignore")
    format: Literal["scorekeeper-club"]
    format_version: Literal[1]
    name: SetupName
    language: Language = None
    created_at: str | None = Field(
        default=None, description="When the club began; one that cannot be read, when imported."
    )
    players: list[ClubMember] = []
    matches: list[SkipValidation[MatchExport]] = []


# -- Problems of shape ---------------------------------------------------------------------------

Loc = tuple[int | str, ...]
TEXT = N_("%(field)s must be text, such as Us.")
NOT_A_FIELD = N_("%(field)s is not a field of this request; remove it or check its spelling.")
SETTINGS = N_("%(field)s must be an object of settings.")
# What pydantic found, by its error type, in the project's words.
_KINDS = {
    "extra_forbidden": NOT_A_FIELD,
    "model_type": N_("%(field)s must be a JSON object."),
    "points_and_counts": N_("Give %(field)s either as points or as counts, not both."),
    "int_type": N_("%(field)s must be a whole number, such as 0 or 2."),
    "bool_type": N_("%(field)s must be true or false."),
    "missing": N_("%(field)s is required."),
    "string_type": TEXT,
    "string_too_short": TEXT,
    "string_pattern_mismatch": TEXT,
    "string_too_long": N_("%(field)s is longer than %(most)s characters; shorten it."),
}
_WHEREVER = frozenset({"extra_forbidden", "model_type", "points_and_counts"})
_REQUIRED = {
    "round": N_("%(field)s is required: enter the number of the round."),
    "name": TEXT,
    "id": N_("%(field)s is required: give each player the number they have in the club."),
}
# Lists, told as such for a problem of the list itself or of a plain value in it.
_LISTS = {
    "sides": N_("%(field)s must be a list with one object per side."),
    "side_players": N_("%(field)s must be a list of whole numbers, such as [2, 2]."),
    "players": N_('%(field)s must be a list of names, such as ["Ann", "Bob"].'),
    "melds": N_("%(field)s must be a list of melds."),
    "rounds": N_("%(field)s must be a list of rounds."),
    "matches": N_("%(field)s must be a list of matches, each as a match is exported."),
}
# Lists told by where they are: a club's export lists its players as objects, not names.
_LISTS_AT = {
    ("players",): N_("%(field)s must be a list of the club's players, each with its id and name.")
}
_LIST_KINDS = frozenset({"missing", "list_type", "is_instance_of", "sequence_str", "too_short"})
# Fields whose every problem of shape is told by what they hold.
_FIELDS = {
    "rank": N_("%(field)s must be a rank such as K or 7."),
    "preset": N_("%(field)s must be the key of a preset, such as standard."),
    "overrides": SETTINGS,
    "settings": SETTINGS,
}


def validated(model: type[B], data: Mapping[str, Any]) -> B:
    """Return `data` read into `model`; raise `ProblemsError` with every problem of shape."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = [
            _problem(details, data, model.round_sides)
            for details in error.errors(include_url=False, include_input=False)
        ]
        # A list is told once for all of its wrong items.
        once = {(problem.side, problem.field, problem.message()): problem for problem in problems}
        raise ProblemsError(list(once.values())) from None


def _problem(details: ErrorDetails, data: Mapping[str, Any], round_sides: bool) -> Problem:
    prefix, side, loc = _placed(tuple(details["loc"]), data, round_sides)
    template, loc = _told(details["type"], loc)
    field = prefix + _path(loc)
    # A field unknown is named as sent: in a side, from the side on.
    shown = (_path(loc) if side else field) if template is NOT_A_FIELD else field_label(field)
    params: dict[str, object] = {"field": shown}
    if "max_length" in (context := details.get("ctx", {})):
        params["most"] = context["max_length"]
    problem = Problem(field, template, params)
    return problem if side is None else problem.of_side(*side)


def _path(loc: Loc) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc).lstrip(".")


def _placed(loc: Loc, data: Any, round_sides: bool) -> tuple[str, tuple[int, str] | None, Loc]:
    """Return where a problem at `loc` is: the place of its round in an export, the side of
    the round it is in (its index and name), and its place in there. A side's fields are named
    as in the API; the problem's side says which side."""
    prefix = ""
    if len(loc) > 2 and loc[0] == "rounds" and isinstance(loc[1], int):
        prefix, data, loc, round_sides = f"rounds[{loc[1]}].", data["rounds"][loc[1]], loc[2:], True
    if not (round_sides and len(loc) > 1 and loc[0] == "sides" and isinstance(loc[1], int)):
        return prefix, None, loc
    index, raw = loc[1], data["sides"][loc[1]]
    name = raw.get("name") if isinstance(raw, Mapping) else None
    label = SideEntry(name=name.strip() if isinstance(name, str) else "").label(index)
    return prefix, (index, label), loc[2:] or loc  # a side that is no object is named whole


def _told(kind: str, loc: Loc) -> tuple[str, Loc]:
    """Return the message of a problem of shape, and the place it names."""
    named = loc
    while named and isinstance(named[-1], int):
        named = named[:-1]
    name = str(named[-1]) if named else ""
    if kind in _WHEREVER:
        return _KINDS[kind], loc
    if kind == "missing" and name in _REQUIRED:
        return _REQUIRED[name], loc
    if named in _LISTS_AT and kind in _LIST_KINDS:
        return _LISTS_AT[named], named
    if name in _LISTS and (kind in _LIST_KINDS or named != loc):
        return _LISTS[name], named
    return _FIELDS.get(name) or _KINDS[kind], loc
