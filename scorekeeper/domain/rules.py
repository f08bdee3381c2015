"""Rule sets: the four presets, house-rule overrides and their validation (docs/rules.md)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import cached_property
from typing import Any

from scorekeeper.domain.labels import ENTRY_LABELS, setting_label
from scorekeeper.domain.problems import (
    N_,
    NP_,
    Problem,
    ProblemsError,
    Template,
    Term,
    as_whole_number,
    is_whole_number,
)


class CardKind(enum.Enum):
    """The categories a table counts cards in; the value is the key of a count."""

    JOKERS = "jokers"
    TWOS = "twos"
    ACES = "aces"
    EIGHTS_TO_KINGS = "eights_to_kings"
    FOURS_TO_SEVENS = "fours_to_sevens"
    BLACK_THREES = "black_threes"

    # Cached on the member: scoring and validation read these for every card count, and a
    # table lookup keyed by an Enum member is slow (its hash is Python code).
    @cached_property
    def value_key(self) -> str:
        """Return the key of this kind's value in `CardValues`."""
        return _VALUE_KEYS[self]

    @cached_property
    def per_deck(self) -> int:
        """Return how many cards of this kind one 54-card deck holds."""
        return _CARDS_PER_DECK[self]

    @property
    def ranks(self) -> int:
        """Return how many ranks the kind holds: a deck has SUITS cards of each."""
        return self.per_deck // SUITS

    def in_decks(self, decks: int) -> int:
        """Return how many cards of the kind `decks` decks shuffled together hold."""
        return self.per_deck * decks

    @property
    def label(self) -> Term:
        """Return the kind's name as a table says it."""
        return ENTRY_LABELS[self.value]


_VALUE_KEYS = {
    CardKind.JOKERS: "joker",
    CardKind.TWOS: "two",
    CardKind.ACES: "ace",
    CardKind.EIGHTS_TO_KINGS: "eight_to_king",
    CardKind.FOURS_TO_SEVENS: "four_to_seven",
    CardKind.BLACK_THREES: "black_three",
}
SUITS = 4  # cards of each rank in a deck
_CARDS_PER_DECK = {
    CardKind.JOKERS: 2,
    CardKind.TWOS: SUITS,
    CardKind.ACES: SUITS,
    CardKind.EIGHTS_TO_KINGS: 6 * SUITS,
    CardKind.FOURS_TO_SEVENS: 4 * SUITS,
    CardKind.BLACK_THREES: 2,
}
RED_THREES_PER_DECK = 2
MIN_PLAYERS = 2  # one alone plays no game
MAX_PLAYERS = 6
BOOK_SIZE = 7
MELD_SIZES = range(3, BOOK_SIZE + 1)
MELDED_KINDS = tuple(kind for kind in CardKind if kind is not CardKind.BLACK_THREES)
NATURAL_KINDS = (CardKind.ACES, CardKind.EIGHTS_TO_KINGS, CardKind.FOURS_TO_SEVENS)
NATURAL_RANKS = sum(kind.per_deck for kind in NATURAL_KINDS) // SUITS  # A, K ... 4: 11
WILD_KINDS = (CardKind.JOKERS, CardKind.TWOS)

# The canasta-style minimum by running score (ja-canasta-variant): (lowest score, minimum).
BY_SCORE_MINIMUMS = ((3000, 120), (1500, 90), (0, 50))
BY_SCORE_MINIMUM_BELOW_ZERO = 15


class MeldMinimumMode(enum.StrEnum):
    BY_ROUND = "by_round"
    BY_SCORE = "by_score"


class WildRatio(enum.StrEnum):
    NATURALS_AT_LEAST_DOUBLE = "naturals_at_least_double"
    NATURALS_EXCEED_WILDS = "naturals_exceed_wilds"

    def allows(self, naturals: int, wilds: int) -> bool:
        """Return whether a meld with these naturals may hold these wilds."""
        if self is WildRatio.NATURALS_AT_LEAST_DOUBLE:
            return naturals >= 2 * wilds
        return naturals > wilds


class Permission(enum.StrEnum):
    ASKED = "asked"
    REQUIRED = "required"
    NONE = "none"


class DeckCount(enum.StrEnum):
    PLAYERS_PLUS_ONE = "players+1"
    PLAYERS = "players"


@dataclass(frozen=True)
class CardValues:
    joker: int = 50
    two: int = 20
    ace: int = 20
    eight_to_king: int = 10
    four_to_seven: int = 5
    black_three: int = 5

    def of(self, kind: CardKind) -> int:
        """Return the points of one card of `kind`."""
        points: int = getattr(self, kind.value_key)
        return points

    # Cached on the instance, which is frozen: validation asks for it in every round.
    @cached_property
    def deck_points(self) -> int:
        """Return the points of all the cards of one deck."""
        return sum(kind.per_deck * self.of(kind) for kind in CardKind)


@dataclass(frozen=True)
class BookCounts:
    clean: int = 0
    dirty: int = 0
    wild: int = 0


@dataclass(frozen=True)
class RuleSet:
    """A complete set of settings: every one that docs/rules.md lists."""

    decks: int | DeckCount = DeckCount.PLAYERS_PLUS_ONE
    hand_size: int = 13
    foot_size: int = 13
    rounds: int = 4
    meld_minimum_mode: MeldMinimumMode = MeldMinimumMode.BY_ROUND
    meld_minimums: tuple[int, ...] = (50, 90, 120, 150)
    card_values: CardValues = CardValues()
    clean_book: int = 500
    dirty_book: int = 300
    wild_book: int = 1500
    wild_books_allowed: bool = True
    max_wilds_per_meld: int | None = 2
    wild_ratio: WildRatio = WildRatio.NATURALS_AT_LEAST_DOUBLE
    going_out_requires: BookCounts = BookCounts(clean=2, dirty=2)
    going_out_bonus: int = 100
    red_threes_laid_down: bool = True
    red_three_bonus: int = 100
    red_three_unmelded: int = -100
    red_three_held: int = -100
    discard_pickup: int = 7
    permission_to_go_out: Permission = Permission.ASKED
    deal_bonus: int = 0

    def deck_count(self, players: int) -> int:
        """Return how many decks are shuffled together for `players` players."""
        if self.decks is DeckCount.PLAYERS_PLUS_ONE:
            return players + 1
        if self.decks is DeckCount.PLAYERS:
            return players
        return self.decks

    def meld_minimum(self, round_number: int, running_score: int = 0) -> int:
        """Return the opening-meld minimum of a round, or of a side's running score."""
        if self.meld_minimum_mode is MeldMinimumMode.BY_SCORE:
            return by_score_minimum(running_score)
        return self.meld_minimums[round_number - 1]

    def most_wilds_in_meld(self, size: int) -> int:
        """Return the most wild cards a mixed meld of `size` cards may hold."""
        wilds = max((w for w in range(size + 1) if self.wild_ratio.allows(size - w, w)), default=0)
        if self.max_wilds_per_meld is not None:
            wilds = min(wilds, self.max_wilds_per_meld)
        return wilds

    @cached_property
    def most_wilds_in_book(self) -> int:
        """Return the most wild cards a dirty book may hold."""
        return self.most_wilds_in_meld(BOOK_SIZE)

    @property
    def fewest_naturals_in_book(self) -> int:
        """Return the fewest natural cards a dirty book may hold."""
        return BOOK_SIZE - self.most_wilds_in_book

    def most_wilds_carried(self, naturals: int) -> int:
        """Return the most wild cards that `naturals` natural cards can hold in melds of their
        ranks, in constant time for any count, however absurd."""
        carried = self._most_wilds_carried
        if naturals < len(carried):
            return carried[naturals]
        # Past the table, a best sharing always holds a meld of the best share of naturals.
        size, wilds = self._best_share
        melds = -(-(naturals - len(carried) + 1) // size)  # enough to land inside the table
        return carried[naturals - melds * size] + melds * wilds

    @cached_property
    def _best_share(self) -> tuple[int, int]:
        """Return the natural cards of the meld that holds the most wilds for each natural, and
        those wilds."""
        per_meld = self._most_wilds_by_naturals
        size = max(range(1, BOOK_SIZE + 1), key=lambda n: (per_meld[n] / n, -n))
        return size, per_meld[size]

    @cached_property
    def _most_wilds_carried(self) -> tuple[int, ...]:
        """Return the most wilds n naturals hold, over every way to share them among melds, for
        every n up to where a best sharing surely holds a meld of the best share: of any
        `size` melds of other shares, some hold a multiple of `size` naturals together, which
        melds of the best share would hold as well; so a best sharing needs fewer than `size`
        of them, fewer than BOOK_SIZE * size naturals."""
        per_meld = self._most_wilds_by_naturals
        most = [0]
        for total in range(1, BOOK_SIZE * (BOOK_SIZE + 1) + 1):
            most.append(
                max(most[total - n] + per_meld[n] for n in range(1, min(total, BOOK_SIZE) + 1))
            )
        return tuple(most)

    @cached_property
    def _most_wilds_by_naturals(self) -> tuple[int, ...]:
        """Return the most wild cards one meld holds, by the natural cards in it."""
        return tuple(
            max(w for w in range(BOOK_SIZE - n + 1) if w <= self.most_wilds_in_meld(n + w))
            for n in range(BOOK_SIZE + 1)
        )

    def book_value(self, books: BookCounts) -> int:
        """Return the bonus for these books."""
        return (
            books.clean * self.clean_book
            + books.dirty * self.dirty_book
            + books.wild * self.wild_book
        )

    def cheapest_books(self, books: BookCounts) -> int:
        """Return the fewest card points that can make up these books at these card values."""
        clean, dirty, wild = self._cheapest_book_points
        return books.clean * clean + books.dirty * dirty + books.wild * wild

    # Cached on the instance, which is frozen: validation asks for every side of every round.
    @cached_property
    def _cheapest_book_points(self) -> tuple[int, int, int]:
        """Return the fewest card points of one clean, one dirty and one wild book."""
        values = self.card_values
        natural = min(values.of(kind) for kind in NATURAL_KINDS)
        wild = min(values.of(kind) for kind in WILD_KINDS)
        dirty = min(
            (BOOK_SIZE - w) * natural + w * wild
            for w in range(1, max(self.most_wilds_in_book, 1) + 1)
        )
        return BOOK_SIZE * natural, dirty, BOOK_SIZE * wild

    def as_settings(self) -> dict[str, Any]:
        """Return the settings as plain JSON values under their documented keys."""
        settings: dict[str, Any] = _plain(self)
        return settings

    @cached_property
    def unused_settings(self) -> frozenset[str]:
        """Return the settings that these rules never consult, whatever their values."""
        unused = set()
        if self.meld_minimum_mode is MeldMinimumMode.BY_SCORE:
            unused.add("meld_minimums")
        if not self.wild_books_allowed:
            unused.add("wild_book")
        if not self.red_threes_laid_down:
            unused |= {"red_three_bonus", "red_three_unmelded"}
        return frozenset(unused)

    @cached_property
    def unplayed_entries(self) -> frozenset[str]:
        """Return the side entries that these rules leave out, which a side never has: wild
        books, red threes laid down, deal bonuses."""
        played = {
            "wild_books": self.wild_books_allowed,
            "red_threes": self.red_threes_laid_down,
            "deal_bonus": bool(self.deal_bonus),
        }
        return frozenset(name for name, is_played in played.items() if not is_played)


def _plain(value: Any) -> Any:
    # Not dataclasses.asdict, which deep-copies every value: these are immutable, and a copy
    # made the settings cost more than building the rules from them.
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


def by_score_minimum(running_score: int) -> int:
    """Return the canasta-style opening minimum for a side with this running score."""
    for lowest, minimum in BY_SCORE_MINIMUMS:
        if running_score >= lowest:
            return minimum
    return BY_SCORE_MINIMUM_BELOW_ZERO


@dataclass(frozen=True)
class Preset:
    """A full rule set under a name. `source` names the documents it follows by short keys, for
    the API and whoever maintains the rules; `origin` says the same in words, for
    players, translated where it is shown."""

    key: str
    name: str
    source: str
    origin: str
    rules: RuleSet


PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        Preset(
            key="standard",
            name=N_("Standard"),
            source="ja-canasta-variant, ko-club Standard",
            origin=N_(
                "The game most tables play, as a card-game site and a Hand and Foot club "
                "set it out."
            ),
            rules=RuleSet(),
        ),
        Preset(
            key="simple",
            name=N_("Simple"),
            source="ko-club Simple",
            origin=N_("A Hand and Foot club's simpler game: smaller hands, fewer books to go out."),
            rules=RuleSet(
                hand_size=11,
                foot_size=11,
                wild_books_allowed=False,
                max_wilds_per_meld=None,
                wild_ratio=WildRatio.NATURALS_EXCEED_WILDS,
                going_out_requires=BookCounts(clean=1, dirty=1),
            ),
        ),
        Preset(
            key="strict",
            name=N_("Strict"),
            source="ko-club Strict, ja-gamerules, be-gamerules",
            origin=N_(
                "A Hand and Foot club's strict game, as the best-known pages of official rules "
                "give it."
            ),
            rules=RuleSet(
                decks=5,
                going_out_requires=BookCounts(clean=2, dirty=2, wild=1),
                permission_to_go_out=Permission.REQUIRED,
            ),
        ),
        Preset(
            key="partnership-11",
            name=N_("Partnership 11"),
            source="nl-partnership",
            origin=N_("A family's favourite game for two teams of two, with 11-card hands."),
            rules=RuleSet(
                decks=DeckCount.PLAYERS,
                hand_size=11,
                foot_size=11,
                wild_books_allowed=False,
                red_threes_laid_down=False,
                red_three_held=-300,
                discard_pickup=5,
                permission_to_go_out=Permission.REQUIRED,
                deal_bonus=300,
            ),
        ),
    )
}
DEFAULT_PRESET = "standard"
SETTING_KEYS = tuple(f.name for f in fields(RuleSet))


# -- Validation of overrides -------------------------------------------------------------------

_Parser = Callable[[str, object], tuple[Any, list[Problem]]]


def _problem(key: str, template: Template, **params: object) -> Problem:
    return Problem(field=key, template=template, params={"setting": setting_label(key), **params})


@dataclass(frozen=True)
class IntegerRange:
    """The whole numbers a setting takes: from `low` to `high` in steps of `step`."""

    low: int
    high: int
    step: int = 1

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high and not value % self.step

    def parse(self, key: str, value: object) -> tuple[Any, list[Problem]]:
        value = as_whole_number(value)
        if not is_whole_number(value):
            return None, [_problem(key, N_("%(setting)s must be a whole number."))]
        if not self.low <= value <= self.high:
            template = N_("%(setting)s must be between %(low)s and %(high)s.")
            return None, [_problem(key, template, low=self.low, high=self.high)]
        if value % self.step:
            template = N_("%(setting)s must be a multiple of %(step)s.")
            return None, [_problem(key, template, step=self.step)]
        return value, []


_POINTS = IntegerRange(0, 10000, step=5)
_SIGNED_POINTS = IntegerRange(-10000, 10000, step=5)
_CARD_VALUE = IntegerRange(0, 1000)
_BOOKS_REQUIRED = IntegerRange(0, 10)
# The whole numbers each setting takes ("meld_minimums" per round, "decks" when a number).
SETTING_RANGES: Mapping[str, IntegerRange] = {
    "decks": IntegerRange(1, 20),
    "hand_size": IntegerRange(3, 30),
    "foot_size": IntegerRange(3, 30),
    "rounds": IntegerRange(1, 12),
    "meld_minimums": IntegerRange(0, 5000, step=5),
    **{f"card_values.{f.name}": _CARD_VALUE for f in fields(CardValues)},
    "clean_book": _POINTS,
    "dirty_book": _POINTS,
    "wild_book": _POINTS,
    "max_wilds_per_meld": IntegerRange(1, 6),
    **{f"going_out_requires.{f.name}": _BOOKS_REQUIRED for f in fields(BookCounts)},
    "going_out_bonus": _POINTS,
    "red_three_bonus": _SIGNED_POINTS,
    "red_three_unmelded": _SIGNED_POINTS,
    "red_three_held": _SIGNED_POINTS,
    "discard_pickup": IntegerRange(0, 100),
    "deal_bonus": _POINTS,
}


def _integer(key: str, value: object) -> tuple[Any, list[Problem]]:
    return SETTING_RANGES[key.split("[")[0]].parse(key, value)


def _optional(parser: _Parser) -> _Parser:
    def parse(key: str, value: object) -> tuple[Any, list[Problem]]:
        return (None, []) if value is None else parser(key, value)

    return parse


def _boolean(key: str, value: object) -> tuple[Any, list[Problem]]:
    if not isinstance(value, bool):
        return None, [_problem(key, N_("%(setting)s must be true or false."))]
    return value, []


def _choice(enum_type: type[enum.StrEnum]) -> _Parser:
    choices = [member.value for member in enum_type]

    def parse(key: str, value: object) -> tuple[Any, list[Problem]]:
        if value not in choices:
            template = N_("%(setting)s must be one of: %(choices)s.")
            return None, [_problem(key, template, choices=", ".join(choices))]
        return enum_type(value), []

    return parse


_DECK_COUNTS = frozenset(member.value for member in DeckCount)


def _decks(key: str, value: object) -> tuple[Any, list[Problem]]:
    if isinstance(value, str):
        if value in _DECK_COUNTS:
            return DeckCount(value), []
        template = N_('%(setting)s must be a number of decks, "players+1" or "players".')
        return None, [_problem(key, template)]
    return _integer(key, value)


def _meld_minimums(key: str, value: object) -> tuple[Any, list[Problem]]:
    if not isinstance(value, list | tuple) or not value:
        return None, [_problem(key, N_("%(setting)s must be a list with one minimum per round."))]
    problems: list[Problem] = []
    minimums = []
    for index, item in enumerate(value):
        minimum, item_problems = _integer(f"{key}[{index}]", item)
        minimums.append(minimum)
        problems += item_problems
    return tuple(minimums), problems


def _record(record_type: type) -> _Parser:
    """Parse a nested setting, given in full or in part; missing keys keep the preset's value."""
    keys = [f.name for f in fields(record_type)]

    def parse(key: str, value: object) -> tuple[Any, list[Problem]]:
        if not isinstance(value, Mapping):
            template = N_("%(setting)s must be an object with the keys %(keys)s.")
            return None, [_problem(key, template, keys=", ".join(keys))]
        problems: list[Problem] = []
        parsed = {}
        for item_key, item_value in value.items():
            path = f"{key}.{item_key}"
            if item_key not in keys:
                template = N_("%(setting)s is not a setting; use one of %(keys)s.")
                problems.append(_problem(path, template, keys=", ".join(keys)))
                continue
            parsed[item_key], item_problems = _integer(path, item_value)
            problems += item_problems
        return parsed, problems

    return parse


_PARSERS: dict[str, _Parser] = {
    "decks": _decks,
    "hand_size": _integer,
    "foot_size": _integer,
    "rounds": _integer,
    "meld_minimum_mode": _choice(MeldMinimumMode),
    "meld_minimums": _meld_minimums,
    "card_values": _record(CardValues),
    "clean_book": _integer,
    "dirty_book": _integer,
    "wild_book": _integer,
    "wild_books_allowed": _boolean,
    "max_wilds_per_meld": _optional(_integer),
    "wild_ratio": _choice(WildRatio),
    "going_out_requires": _record(BookCounts),
    "going_out_bonus": _integer,
    "red_threes_laid_down": _boolean,
    "red_three_bonus": _integer,
    "red_three_unmelded": _integer,
    "red_three_held": _integer,
    "discard_pickup": _integer,
    "permission_to_go_out": _choice(Permission),
    "deal_bonus": _integer,
}
_NESTED = {"card_values": CardValues, "going_out_requires": BookCounts}


def build_rules(
    preset: str = DEFAULT_PRESET, overrides: Mapping[str, object] | None = None
) -> RuleSet:
    """Return the preset's rules with the house-rule overrides applied.

    Raises `ProblemsError` listing every unknown key, wrong type or impossible value.
    """
    if preset not in PRESETS:
        template = N_("%(preset)s is not a preset; choose one of %(presets)s.")
        params = {"preset": preset, "presets": ", ".join(PRESETS)}
        raise ProblemsError([Problem(field="preset", template=template, params=params)])
    rules = PRESETS[preset].rules
    changes: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, value in (overrides or {}).items():
        if key not in _PARSERS:
            template = N_("%(setting)s is not a house rule this scorekeeper knows.")
            problems.append(_problem(key, template))
            continue
        parsed, value_problems = _PARSERS[key](key, value)
        problems += value_problems
        if key in _NESTED:
            parsed = replace(getattr(rules, key), **(parsed or {}))
        changes[key] = parsed
    if problems:
        raise ProblemsError(problems)
    rules = replace(rules, **changes)
    # A single house rule changes what follows from it in the preset, unless set as well.
    if "meld_minimums" not in changes and "rounds" in changes:
        rules = _played_minimums(rules, rules.rounds)
    if not rules.wild_books_allowed and not _sets_wild_books_to_go_out(overrides or {}):
        rules = replace(rules, going_out_requires=replace(rules.going_out_requires, wild=0))
    _check_consistency(rules)
    return rules


def _played_minimums(rules: RuleSet, rounds: int) -> RuleSet:
    """Return the rules with their minimums of `rounds` rounds: a table that plays fewer rounds
    keeps the preset's minimums of the rounds it plays, one that plays more keeps the last
    round's minimum for the rounds after it."""
    minimums = rules.meld_minimums
    more = (minimums[-1],) * (rounds - len(minimums))
    return replace(rules, meld_minimums=minimums[:rounds] + more)


def _sets_wild_books_to_go_out(overrides: Mapping[str, object]) -> bool:
    """Tell whether the overrides set the wild books a side needs to go out."""
    required = overrides.get("going_out_requires")
    return isinstance(required, Mapping) and "wild" in required


def _check_consistency(rules: RuleSet) -> None:
    problems = []
    by_round = rules.meld_minimum_mode is MeldMinimumMode.BY_ROUND
    if by_round and len(rules.meld_minimums) != rules.rounds:
        template: Template = NP_(
            "%(setting)s: the match has %(rounds)s round, so give %(rounds)s minimum, "
            "not %(count)s.",
            "%(setting)s: the match has %(rounds)s rounds, so give %(rounds)s minimums, "
            "not %(count)s.",
            "rounds",
        )
        problems.append(
            _problem("meld_minimums", template, count=len(rules.meld_minimums), rounds=rules.rounds)
        )
    if rules.going_out_requires.wild and not rules.wild_books_allowed:
        template = N_(
            "%(setting)s to go out: these rules forbid wild books, so require none or allow them."
        )
        problems.append(_problem("going_out_requires.wild", template))
    if problems:
        raise ProblemsError(problems)


def house_rule_keys(preset: str, rules: RuleSet) -> tuple[str, ...]:
    """Return the settings in which a game under `rules` differs from one under the preset,
    nested ones part by part (``card_values.joker``), in the rule set's order: those changed,
    except those that `rules` never consult."""
    # Fewer rounds drop the preset's later minimums, which is no house rule of its own.
    base = _by_key(_played_minimums(PRESETS[preset].rules, rules.rounds).as_settings())
    return tuple(
        key
        for key, value in _by_key(rules.as_settings()).items()
        if base[key] != value and key.split(".")[0] not in rules.unused_settings
    )


def _by_key(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Return the settings with nested ones spread out under dotted keys."""
    spread: dict[str, Any] = {}
    for key, value in settings.items():
        if isinstance(value, Mapping):
            spread |= {f"{key}.{part}": item for part, item in value.items()}
        else:
            spread[key] = value
    return spread
