"""The set-up form: the match's name, its players and how they sit, the preset and house rules."""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import force_locale, get_locale, gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms.fields import (  # type: ignore[attr-defined]  # types-WTForms lacks SelectChoice
    Field,
    FieldList,
    FormField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import InputRequired, Length, ValidationError

from scorekeeper.domain.dealing import Seat, listing
from scorekeeper.domain.problems import Problem, ProblemsError
from scorekeeper.domain.rules import (
    DEFAULT_PRESET,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    RuleSet,
    build_rules,
)
from scorekeeper.domain.setup import MAX_NAME_LENGTH
from scorekeeper.i18n import LANGUAGES, LOCALES, problem_message
from scorekeeper.store import SideSpec
from scorekeeper.web.forms.fields import (
    NAME_TOO_LONG,
    NOT_A_WHOLE_NUMBER,
    SingleRadioField,
    SingleSelectField,
    add_error,
    name_field,
    stripped,
)
from scorekeeper.web.forms.house_rules import (
    HouseRule,
    changed_house_rules,
    house_rules,
    house_rules_form_class,
)

Validator = Callable[[FlaskForm, Field], None]


@dataclass(frozen=True)
class Seating:
    """How the players sit: each alone, or in teams of players entered one after the other."""

    key: str
    label: str
    teams: int | None = None
    team_size: int = 1

    @property
    def players_needed(self) -> int | None:
        return None if self.teams is None else self.teams * self.team_size

    def split(self, players: Sequence[str]) -> list[tuple[str, ...]]:
        """Return the players of each side, in seating order."""
        size = self.team_size
        return [tuple(players[start : start + size]) for start in range(0, len(players), size)]


SEATINGS = {
    seating.key: seating
    for seating in (
        Seating("individuals", _l("Everyone plays alone")),
        Seating("2x2", _l("2 teams of 2"), teams=2, team_size=2),
        Seating("2x3", _l("2 teams of 3"), teams=2, team_size=3),
        Seating("3x2", _l("3 teams of 2"), teams=3, team_size=2),
    )
}
MOST_TEAMS = max(seating.teams or 0 for seating in SEATINGS.values())


def team_name(players: Iterable[str]) -> str:
    """Return the name a team gets when the table gives it none, such as "Ann & Bob"."""
    # Translators: joins the names of a team's players, as in "Ann & Bob".
    return gettext(" & ").join(players)


def is_named_after_players(side: SideSpec) -> bool:
    """Tell whether a team has the name it got for having none, in any language offered: the
    match may have been set up on a phone showing another."""
    for language in LOCALES:
        with force_locale(language):
            if side.name == team_name(side.players):
                return True
    return False


def seating_of(sides: Sequence[SideSpec]) -> Seating | None:
    """Return how the players of these sides sit, or None for teams the form cannot set up."""
    sizes = {len(side.players) for side in sides}
    if sizes == {1}:
        return SEATINGS["individuals"]
    return next(
        (
            seating
            for seating in SEATINGS.values()
            if seating.teams == len(sides) and {seating.team_size} == sizes
        ),
        None,
    )


def sets_up_again(sides: Sequence[SideSpec]) -> bool:
    """Tell whether the form can set these sides up as they are: in teams it offers, and each
    player alone named after the player, as the form names them (the API may name them else)."""
    seating = seating_of(sides)
    if seating is None:
        return False
    return seating.teams is not None or all(side.name == side.players[0] for side in sides)


# A name that a match after another was given: "Friday (2)".
_NUMBERED_NAME = re.compile(r"(?P<name>.*) \((?P<number>\d+)\)")


def next_name(name: str) -> str:
    """Return the name of the match after one called `name`: "Friday (2)" after "Friday", then
    "Friday (3)", so that a device's list of its matches tells them apart."""
    numbered = _NUMBERED_NAME.fullmatch(name)
    base, number = (numbered["name"], int(numbered["number"]) + 1) if numbered else (name, 2)
    suffix = f" ({number})"
    return base[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix


def values_like(
    name: str,
    preset: str,
    rules: RuleSet,
    sides: Sequence[SideSpec],
    language: str | None,
    *,
    first_dealer: Seat | None = None,
) -> dict[str, object]:
    """Return the set-up form's values for the match after one set up so: its name numbered on,
    its players, seating, team names, preset, house rules, printing language and first dealer,
    each to change at will. Settings that the rules never consult come as the preset has them,
    which scores the same."""
    seating = seating_of(sides)
    # The players' boxes list them side by side, as the match does.
    players = listing([len(side.players) for side in sides])
    values: dict[str, object] = {
        "name": next_name(name),
        "players": [player for side in sides for player in side.players],
        "first_dealer": str(players.index(first_dealer) if first_dealer in players else 0),
        "preset": preset,
        "house": {
            rule.name: rule.form_value(rule.value_of(rules))
            for rule in changed_house_rules(preset, rules)
        },
    }
    # No seating chosen for teams the form cannot seat: the table is to say how they sit.
    values["seating"] = None if seating is None else seating.key
    if seating is not None and seating.teams is not None:
        # A team called after its players is left unnamed, so that it follows their names.
        values["team_names"] = ["" if is_named_after_players(side) else side.name for side in sides]
    if language is not None:
        values["language"] = language
    return values


def _player_choice(box: int, name: str | None = None) -> SelectChoice:
    """Return the choice of the player in box `box`: by name once typed, else as the box is
    labelled, which the set-up script shows again when the name is cleared."""
    label = _l("Player %(number)s", number=box + 1)
    return SelectChoice(str(box), name or label, render_kw={"data-label": label})


class MatchForm(FlaskForm):
    """Set up a match: its name, the players and how they sit, the preset and house rules."""

    name = StringField(
        _l("Name of the match"),
        filters=[stripped],
        validators=[
            InputRequired(_l("Give the match a name, such as Friday at Ann's.")),
            Length(max=MAX_NAME_LENGTH, message=NAME_TOO_LONG),
        ],
    )
    players = FieldList(name_field(), min_entries=MAX_PLAYERS)
    seating = SingleRadioField(
        _l("How do they sit?"),
        choices=[SelectChoice(seating.key, seating.label) for seating in SEATINGS.values()],
        default="individuals",
    )
    first_dealer = SingleSelectField(
        _l("Who deals first?"),
        choices=[_player_choice(box) for box in range(MAX_PLAYERS)],
        default="0",
        validate_choice=False,  # told in the page's language by `validate_first_dealer`
    )
    team_names = FieldList(name_field(), min_entries=MOST_TEAMS)
    preset = SingleRadioField(
        _l("Rules"),
        choices=[SelectChoice(preset.key, _l(preset.name)) for preset in PRESETS.values()],
        default=DEFAULT_PRESET,
    )
    house = FormField(house_rules_form_class())
    language = SingleSelectField(
        _l("Language of the printed sheets"),
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
        default=lambda: str(get_locale()),  # the page's own language
    )
    show_preset = SubmitField(_l("Show this preset's values"))
    chosen_rules: RuleSet | None = None  # set by `validate`

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The players to deal first, each by the name typed in its box, if any yet.
        self.first_dealer.choices = [
            _player_choice(box, field.data) for box, field in enumerate(self.players)
        ]

    def filled_players(self) -> list[Field]:
        return [field for field in self.players if field.data]

    def validate_players(self, field: FieldList[StringField]) -> None:
        count = len(self.filled_players())
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            message = _l(
                "Enter between %(least)s and %(most)s players; you entered %(count)s.",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                count=count,
            )
            raise ValidationError(message)

    def validate_seating(self, field: RadioField) -> None:
        seating = SEATINGS.get(field.data)
        needed = seating.players_needed if seating else None
        count = len(self.filled_players())
        if seating is not None and needed is not None and needed != count:
            message = _l(
                "%(seating)s needs %(needed)s players, but you entered %(count)s: "
                "add or remove names, or choose how else they sit.",
                seating=seating.label,
                needed=needed,
                count=count,
            )
            raise ValidationError(message)

    def validate_first_dealer(self, field: SelectField) -> None:
        box = int(field.data) if str(field.data).isdecimal() else MAX_PLAYERS
        if box >= len(self.players) or not self.players[box].data:
            raise ValidationError(_l("Choose who deals first among the players entered above."))

    @property
    def seating_choice(self) -> Seating:
        return SEATINGS[self.seating.data]

    def dealer_seat(self) -> Seat:
        """Return the first dealer chosen, by side and place in it; the form is valid."""
        chosen = self.players[int(self.first_dealer.data)]
        listed = [field.name for field in self.filled_players()].index(chosen.name)
        size = self.seating_choice.team_size
        return Seat(listed // size, listed % size)

    def side_specs(self) -> list[SideSpec]:
        """Return the sides: each player alone, or the teams with their names or their players'."""
        teams = self.seating_choice.split([field.data for field in self.filled_players()])
        if self.seating_choice.teams is None:
            return [SideSpec(name=players[0], players=players) for players in teams]
        names = [field.data for field in self.team_names]
        return [
            SideSpec(name=name or team_name(players), players=players)
            for name, players in zip(names, teams, strict=False)
        ]

    def overrides(self) -> dict[str, object]:
        """Return the house rules that were filled in, nested as `build_rules` takes them.

        A value that is no number stays in the form with an error; `build_rules` never sees it.
        """
        overrides: dict[str, object] = {}
        for rule in house_rules():
            field = self.house.form[rule.name]
            if not field.data:
                continue
            try:
                value = rule.parse(field.data)
            except ValueError:
                add_error(field, str(NOT_A_WHOLE_NUMBER))
                continue
            key, *part = rule.path
            if part:
                typing.cast(dict[str, object], overrides.setdefault(key, {}))[part[0]] = value
            else:
                overrides[key] = value
        return overrides

    def validate(self, extra_validators: Mapping[str, Sequence[Validator]] | None = None) -> bool:
        """Check the fields, then the rules they choose, showing each problem by its field."""
        fields_valid = super().validate(extra_validators)
        fields_valid = self._unnamed_teams_fit() and fields_valid
        self.chosen_rules = self._checked_rules()
        return fields_valid and self.chosen_rules is not None

    def _unnamed_teams_fit(self) -> bool:
        """Refuse a team left without a name whose players' names, joined, are too long to
        name it: the table is asked for a name of its own, beside the empty box."""
        if self.players.errors or self.seating.errors or self.seating_choice.teams is None:
            return True
        fit = True
        for field, side in zip(self.team_names, self.side_specs(), strict=False):
            if not field.data and len(side.name) > MAX_NAME_LENGTH:
                message = gettext(
                    "Named after its players, this team's name would be longer than %(most)s "
                    "characters: give the team a shorter name here.",
                    most=MAX_NAME_LENGTH,
                )
                add_error(field, message)
                fit = False
        return fit

    def _checked_rules(self) -> RuleSet | None:
        overrides = self.overrides()
        if self.preset.data not in PRESETS or self.house.errors:
            return None
        try:
            return build_rules(self.preset.data, overrides)
        except ProblemsError as error:
            self.show_problems(error.problems)
            return None

    def changed(self, rule: HouseRule) -> bool:
        """Return whether the house rule was given a value other than the preset's."""
        field = self.house.form[rule.name]
        if not field.data:
            return False
        preset = PRESETS.get(self.preset.data, PRESETS[DEFAULT_PRESET])
        try:
            return rule.parse(field.data) != rule.parse(
                rule.form_value(rule.value_of(preset.rules))
            )
        except ValueError:
            return True

    def changed_rules(self) -> list[HouseRule]:
        return [rule for rule in house_rules() if self.changed(rule)]

    def show_problems(self, problems: Iterable[Problem]) -> None:
        """Put each problem of the rules or the store next to the field it is about."""
        for problem in problems:
            field, message = self._field_of(problem)
            if field is None:
                self.form_errors.append(message)
            else:
                add_error(field, message)

    def _field_of(self, problem: Problem) -> tuple[Field | None, str]:
        path = problem.field.removeprefix("rules.")
        by_key = {rule.key: rule for rule in house_rules()}
        setting = re.sub(r"\[\d+\]$", "", path)  # meld_minimums[2] is meld_minimums' problem
        if setting in by_key:
            rule = by_key[setting]
            # Name the setting as the form labels it, not by its key.
            labelled = Problem(
                problem.field, problem.template, {**problem.params, "setting": rule.label}
            )
            return self.house.form[rule.name], problem_message(labelled)
        return self._setup_field(path), problem_message(problem)

    def _setup_field(self, path: str) -> Field | None:
        if path in ("name", "preset", "first_dealer"):
            return self[path]
        if path == "sides":
            return self.players
        match = re.fullmatch(r"sides\[(\d+)\]\.(name|players\[(\d+)\])", path)
        if match is None:
            return None
        side, seat = int(match[1]), int(match[3] or 0)
        if match[2] == "name" and self.seating_choice.teams is not None:
            return self.team_names[side] if side < len(self.team_names) else None
        players = self.filled_players()
        index = side * self.seating_choice.team_size + seat
        return players[index] if index < len(players) else None
