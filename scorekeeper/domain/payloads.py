"""Turn JSON bodies into domain inputs, collecting a problem for every field of the wrong shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.domain.entries import (
    COUNT_KEYS,
    MELDED_COUNT_KEYS,
    CardCounts,
    RoundEntry,
    SideEntry,
)
from scorekeeper.domain.labels import field_label
from scorekeeper.domain.melds import WILD_RANK, Meld
from scorekeeper.domain.problems import N_, Problem, ProblemsError, is_whole_number
from scorekeeper.domain.rules import DEFAULT_PRESET, RuleSet, build_rules
from scorekeeper.domain.setup import MAX_NAME_LENGTH

_SIDE_INTEGERS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "melded_points",
    "red_threes",
    "red_threes_held",
    "leftover_points",
    "running_score",
)
_SIDE_KEYS = frozenset({"name", "melded", "leftover", "went_out", "deal_bonus", *_SIDE_INTEGERS})
_MELD_INTEGERS = ("naturals", "twos", "jokers")


class _Reader:
    """Read typed fields from one JSON object, remembering each problem with its place."""

    def __init__(self, data: object, *, field: str = "", prefix: str | None = None) -> None:
        self.problems: list[Problem] = []
        self.prefix = (f"{field}." if field else "") if prefix is None else prefix
        self.is_object = isinstance(data, Mapping)
        self.data: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        if not self.is_object:
            self.fail(field or "body", N_("%(field)s must be a JSON object."))

    def fail(self, field: str, template: str, **params: object) -> None:
        params = {"field": field_label(field), **params}
        self.problems.append(Problem(field=field, template=template, params=params))

    def refuse_unknown(self, known: frozenset[str] | tuple[str, ...]) -> None:
        template = N_("%(field)s is not a field of this request; remove it or check its spelling.")
        for key in self.data:
            if key not in known:
                field = self.prefix + str(key)
                self.problems.append(
                    Problem(field=field, template=template, params={"field": field})
                )

    def integer(self, key: str, default: int | None = 0) -> int | None:
        value = self.data.get(key, default)
        if value is None and default is None:
            return None
        if not is_whole_number(value):
            self.fail(self.prefix + key, N_("%(field)s must be a whole number, such as 0 or 2."))
            return default
        return value

    def integers(self, key: str) -> tuple[int, ...] | None:
        """Read an optional list of whole numbers."""
        values = self.data.get(key)
        if values is None:
            return None
        if not isinstance(values, list) or not all(map(is_whole_number, values)):
            self.fail(
                self.prefix + key, N_("%(field)s must be a list of whole numbers, such as [2, 2].")
            )
            return None
        return tuple(values)

    def count_or_flag(self, key: str) -> int:
        """Read a count that a client may send as a flag, as exports before counts did: true
        counts 1 and false 0."""
        value = self.data.get(key)
        return int(value) if isinstance(value, bool) else self.integer(key) or 0

    def boolean(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            self.fail(self.prefix + key, N_("%(field)s must be true or false."))
            return False
        return value

    def text(self, key: str, *, required: bool) -> str:
        value = self.data.get(key)
        if value is None and not required:
            return ""
        if not isinstance(value, str) or not value.strip():
            self.fail(self.prefix + key, N_("%(field)s must be text, such as Us."))
            return ""
        if len(value) > MAX_NAME_LENGTH:
            self.fail(
                self.prefix + key,
                N_("%(field)s is longer than %(most)s characters; shorten it."),
                most=MAX_NAME_LENGTH,
            )
        return value.strip()

    def raise_problems(self) -> None:
        if self.problems:
            raise ProblemsError(self.problems)


def parse_rules(data: object) -> RuleSet:
    """Return the rule set named by ``{"preset": ..., "overrides": {...}}``."""
    if data is None:
        return build_rules(DEFAULT_PRESET)
    reader = _Reader(data, field="rules")
    reader.refuse_unknown(("preset", "overrides"))
    preset = reader.data.get("preset", DEFAULT_PRESET)
    overrides = reader.data.get("overrides")
    overrides = {} if overrides is None else overrides
    if not isinstance(preset, str):
        reader.fail("rules.preset", N_("%(field)s must be the key of a preset, such as standard."))
    if not isinstance(overrides, Mapping):
        reader.fail("rules.overrides", N_("%(field)s must be an object of settings."))
    reader.raise_problems()
    try:
        return build_rules(preset, overrides)
    except ProblemsError as error:
        raise ProblemsError([_under_rules(problem) for problem in error.problems]) from None


def _under_rules(problem: Problem) -> Problem:
    prefix = "rules." if problem.field == "preset" else "rules.overrides."
    return Problem(prefix + problem.field, problem.template, problem.params)


def parse_round(data: Mapping[str, Any], *, sides_required: bool = True) -> RoundEntry:
    """Return the round entry of a calculator or round body (its rules are read apart)."""
    reader = _Reader(data)
    round_number = reader.integer("round", default=None)
    if reader.data.get("round") is None:
        reader.fail("round", N_("%(field)s is required: enter the number of the round."))
    players = reader.integer("players", default=None)
    side_players = reader.integers("side_players")
    raw_sides = reader.data.get("sides")
    if not isinstance(raw_sides, list) or not raw_sides:
        reader.fail("sides", N_("%(field)s must be a list with one object per side."))
        raw_sides = []
    sides = []
    for index, raw_side in enumerate(raw_sides):
        side, side_problems = parse_side(raw_side, index, name_required=sides_required)
        sides.append(side)
        reader.problems += side_problems
    reader.raise_problems()
    return RoundEntry(
        round_number=round_number or 0,
        sides=tuple(sides),
        players=players,
        side_players=side_players,
    )


def parse_side(data: object, index: int, *, name_required: bool) -> tuple[SideEntry, list[Problem]]:
    """Return one side's entry and the problems with its fields."""
    # Side fields are named as in the API; the error's "side" says which side.
    reader = _Reader(data, field=f"sides[{index}]", prefix="")
    side = _read_side(reader, name_required=name_required) if reader.is_object else SideEntry()
    label = side.label(index)
    return side, [problem.of_side(index, label) for problem in reader.problems]


def _read_side(reader: _Reader, *, name_required: bool) -> SideEntry:
    name = reader.text("name", required=name_required)
    reader.refuse_unknown(_SIDE_KEYS)
    numbers = {key: reader.integer(key) or 0 for key in _SIDE_INTEGERS}
    melded = _cards(reader, "melded", MELDED_COUNT_KEYS, numbers.pop("melded_points"))
    leftover = _cards(reader, "leftover", COUNT_KEYS, numbers.pop("leftover_points"))
    # Keyed by SideEntry's own field names, which a type checker cannot follow into a dict.
    fields: dict[str, Any] = numbers
    return SideEntry(
        name=name,
        melded=melded,
        leftover=leftover,
        went_out=reader.boolean("went_out"),
        deal_bonus=reader.count_or_flag("deal_bonus"),
        **fields,
    )


def _cards(reader: _Reader, key: str, count_keys: tuple[str, ...], points: int) -> int | CardCounts:
    if key not in reader.data:
        return points
    if f"{key}_points" in reader.data:
        reader.fail(key, N_("Give %(field)s either as points or as counts, not both."))
    counts = _Reader(reader.data[key], field=key)
    counts.refuse_unknown(count_keys)
    values = {name: counts.integer(name) or 0 for name in count_keys}
    reader.problems += counts.problems
    return CardCounts(**values)


def parse_melds(data: object) -> list[Meld]:
    """Return the melds of a meld-check body."""
    if not isinstance(data, list) or not data:
        problem = Problem("melds", N_("%(field)s must be a list of melds."), {"field": "melds"})
        raise ProblemsError([problem])
    melds = []
    problems: list[Problem] = []
    for index, raw in enumerate(data):
        reader = _Reader(raw, field=f"melds[{index}]")
        if reader.is_object:
            melds.append(_read_meld(reader))
        problems += reader.problems
    if problems:
        raise ProblemsError(problems)
    return melds


def _read_meld(reader: _Reader) -> Meld:
    reader.refuse_unknown(("rank", *_MELD_INTEGERS))
    rank = reader.data.get("rank")
    if not isinstance(rank, str):
        reader.fail(reader.prefix + "rank", N_("%(field)s must be a rank such as K or 7."))
        rank = ""
    counts = {key: reader.integer(key) or 0 for key in _MELD_INTEGERS}
    return Meld(rank=_normal_rank(rank), **counts)


def _normal_rank(rank: str) -> str:
    rank = rank.strip()
    return WILD_RANK if rank.lower() == WILD_RANK else rank.upper()


def optional_integer(data: Mapping[str, Any], key: str, default: int) -> int:
    """Return an optional whole number of a body, or raise `ProblemsError`."""
    reader = _Reader(data)
    value = reader.integer(key, default=default)
    reader.raise_problems()
    return default if value is None else value
