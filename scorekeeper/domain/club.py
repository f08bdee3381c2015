"""A club: a group that plays together, its name, and its players, each named once.

A club's matches name their players as any match does; a name is a club's player when it is that
player's name, whatever its case or width ("ann" and "ＡＮＮ" are Ann), so that a table never
types a player twice and a match set up by hand still finds its players.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Sequence

from scorekeeper.domain.problems import N_, Problem
from scorekeeper.domain.setup import name_problems


def name_key(name: str) -> str:
    """Return what two names that are the same player's have in common: the name without
    surrounding spaces, in one case and one width."""
    return unicodedata.normalize("NFKC", name.strip()).casefold()


def club_problems(name: str) -> list[Problem]:
    """Refuse a club's name as a match's is refused: empty, too long or on more than one line."""
    return name_problems("name", name)


def player_problems(name: str, taken: Collection[str]) -> list[Problem]:
    """Refuse a new player's name that is no name, or that a player of the club already has;
    `taken` holds the `name_key` of each."""
    problems = name_problems("name", name)
    if not problems and name_key(name) in taken:
        template = N_("%(name)s is a player of this club already: pick them from the list.")
        problems.append(Problem("name", template, {"name": name}))
    return problems


def repeated_players(sides: Sequence[Sequence[str]]) -> list[Problem]:
    """Refuse a club's match that names one player twice, its sides' players given in order:
    a club's player plays at one place."""
    problems, seen = [], set()
    for index, players in enumerate(sides):
        for seat, player in enumerate(players):
            key = name_key(player)
            if key in seen:
                template = N_("%(name)s plays twice in this match: name each player once.")
                field = f"sides[{index}].players[{seat}]"
                problems.append(Problem(field, template, {"name": player}, side=index))
            seen.add(key)
    return problems
