"""A match as it begins: its sides and players, and the names a table may give them."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scorekeeper.domain.labels import field_label
from scorekeeper.domain.problems import N_, Problem, ProblemsError
from scorekeeper.domain.rules import MAX_PLAYERS, build_rules
from scorekeeper.domain.validation import MIN_SIDES

MAX_NAME_LENGTH = 60
# Unicode's control characters, line and paragraph separators, and surrogates.
_BREAKING_CATEGORIES = frozenset({"Cc", "Zl", "Zp", "Cs"})
# The format characters a name may hold: the zero-width non-joiner and joiner, the left-to-right
# and right-to-left marks, and the tags that make a flag of a region.
_NAME_FORMAT_CHARACTERS = frozenset(
    "\u200c\u200d\u200e\u200f" + "".join(map(chr, range(0xE0020, 0xE0080)))
)


@dataclass(frozen=True)
class SideSpec:
    """A side as a match begins: its name and its players, in seating order."""

    name: str
    players: tuple[str, ...]


def setup_problems(name: str, preset: str, sides: Sequence[SideSpec]) -> list[Problem]:
    problems = name_problems("name", name) + _preset_problems(preset)
    if not MIN_SIDES <= len(sides) <= MAX_PLAYERS:
        template = N_("Enter between %(least)s and %(most)s sides.")
        problems.append(Problem("sides", template, {"least": MIN_SIDES, "most": MAX_PLAYERS}))
    seen: set[str] = set()
    for index, side in enumerate(sides):
        problems += _side_problems(index, side, seen)
        seen.add(side.name.strip().casefold())
    players = sum(len(side.players) for side in sides)
    if players > MAX_PLAYERS:
        template = N_("%(players)s players entered, but a match has at most %(most)s.")
        problems.append(Problem("sides", template, {"players": players, "most": MAX_PLAYERS}))
    return problems


def _side_problems(index: int, side: SideSpec, taken: set[str]) -> list[Problem]:
    field = f"sides[{index}]"
    problems = name_problems(f"{field}.name", side.name, side=index)
    if side.name.strip() and side.name.strip().casefold() in taken:
        template = N_("Another side is already called %(name)s: give each side its own name.")
        problems.append(Problem(f"{field}.name", template, {"name": side.name}, side=index))
    if not side.players:
        template = N_("Side %(number)s needs at least one player.")
        params = {"number": index + 1}
        problems.append(Problem(f"{field}.players", template, params, side=index))
    for seat, player in enumerate(side.players):
        problems += name_problems(f"{field}.players[{seat}]", player, side=index)
    return problems


def name_problems(field: str, name: str, *, side: int | None = None) -> list[Problem]:
    """Refuse a name, as typed, that is empty, longer than `MAX_NAME_LENGTH` or broken over
    lines. The spaces around a name are no part of it, which is stored without them, but they
    count towards its length as typed, as the API's document says."""
    named = name.strip()
    if named and len(name) <= MAX_NAME_LENGTH and _fits_one_line(named):
        return []
    template = N_("%(field)s must be a name of 1 to %(most)s characters on one line.")
    params = {"field": field_label(field), "most": MAX_NAME_LENGTH}
    return [Problem(field, template, params, side=side)]


def _fits_one_line(name: str) -> bool:
    """Tell whether a name holds no control character, line break, lone surrogate or format
    character but those names are written with: names end up in headers, file names and the
    standings, where a line break breaks things and a bidi override turns the text after it
    around. Spaces of every width belong to names, as do the joiners of emoji and of many
    scripts, the marks of writing direction and the tags of flags."""
    categories = ((char, unicodedata.category(char)) for char in name)
    return all(
        category not in _BREAKING_CATEGORIES
        and (category != "Cf" or char in _NAME_FORMAT_CHARACTERS)
        for char, category in categories
    )


def _preset_problems(preset: str) -> list[Problem]:
    try:
        build_rules(preset)
    except ProblemsError as error:
        return [replace(problem, field="rules.preset") for problem in error.problems]
    return []
