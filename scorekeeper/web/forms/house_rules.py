"""House rules: a set-up form field for every setting of the rule set, built from rules.py."""

from __future__ import annotations

import enum
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from functools import cache
from itertools import groupby

from flask_babel import lazy_gettext as _l
from wtforms import Form
from wtforms.fields import (  # type: ignore[attr-defined]  # types-WTForms lacks SelectChoice
    Field,
    SelectChoice,
    StringField,
)

from scorekeeper.domain.labels import SETTING_LABELS as DOMAIN_SETTING_LABELS
from scorekeeper.domain.problems import is_whole_number
from scorekeeper.domain.rules import (
    DEFAULT_PRESET,
    PRESETS,
    SETTING_KEYS,
    SETTING_RANGES,
    RuleSet,
    house_rule_keys,
)
from scorekeeper.domain.rules_card import points_text
from scorekeeper.i18n import format_number
from scorekeeper.web.forms.fields import NUMERIC, SIGNED, SingleSelectField, stripped


class SettingKind(enum.Enum):
    NUMBER = "number"
    NUMBERS = "numbers"  # one number per round
    YES_NO = "yes_no"
    CHOICE = "choice"


NO_LIMIT = "no-limit"  # the form's word for a setting left at None
YES, NO = "yes", "no"

# Setting names come from the domain, so messages and form labels say the same thing.
SETTING_LABELS: Mapping[str, str] = {key: _l(label) for key, label in DOMAIN_SETTING_LABELS.items()}
CHOICE_LABELS: Mapping[str, str] = {
    "players+1": _l("One more than the players"),
    "players": _l("One per player"),
    "by_round": _l("The round"),
    "by_score": _l("The side's score"),
    "naturals_at_least_double": _l("At least twice as many naturals as wilds"),
    "naturals_exceed_wilds": _l("More naturals than wilds"),
    "asked": _l("Asked"),
    "required": _l("Required"),
    "none": _l("Not needed"),
    NO_LIMIT: _l("No limit"),
    YES: _l("Yes"),
    NO: _l("No"),
}


@dataclass(frozen=True)
class HouseRule:
    """One setting of the rule set as the set-up form offers it, nested ones by their path."""

    path: tuple[str, ...]
    kind: SettingKind
    choices: tuple[object, ...] = ()
    signed: bool = False

    @property
    def name(self) -> str:
        """Return the form field's name (nested settings joined by a double underscore)."""
        return "__".join(self.path)

    @property
    def key(self) -> str:
        """Return the setting's name in rules.py, the API and its problems."""
        return ".".join(self.path)

    @property
    def label(self) -> str:
        return SETTING_LABELS.get(self.key, self.key)

    def value_of(self, rules: RuleSet) -> object:
        value: object = rules
        for part in self.path:
            value = getattr(value, part)
        return value

    def form_value(self, value: object) -> str:
        """Return a setting's value as the form writes it."""
        if value is None:
            return NO_LIMIT
        if isinstance(value, bool):
            return YES if value else NO
        if isinstance(value, enum.Enum):
            return str(value.value)
        if isinstance(value, tuple):
            return ", ".join(str(item) for item in value)
        return str(value)

    def display(self, value: object) -> str:
        """Return a setting's value as a person reads it, in the request's language: a number
        as the rules cards print it, with its group separators and a true minus sign."""
        if is_whole_number(value):
            return points_text(value, format_number)
        return str(self.choice_label(value))

    def choice_label(self, value: object) -> str:
        """Return a setting's value as a person reads it, translated only when it is shown: the
        form classes are built once, in no request's language."""
        text = self.form_value(value)
        return CHOICE_LABELS.get(text, text)

    def parse(self, text: str) -> object:
        """Return what was typed as an override value; raise ValueError if it is no number."""
        if self.kind is SettingKind.YES_NO:
            return text == YES
        if self.kind is SettingKind.NUMBERS:
            return [int(item) for item in re.split(r"[\s,;]+", text.strip(" ,;"))]
        if self.kind is SettingKind.NUMBER or text.lstrip("-").isdigit():
            return int(text)
        return None if text == NO_LIMIT else text

    def field(self) -> Field:
        """Return the unbound form field; left empty, the setting keeps the preset's value."""
        if self.kind in (SettingKind.NUMBER, SettingKind.NUMBERS):
            render_kw = SIGNED if self.signed else NUMERIC
            if self.kind is SettingKind.NUMBERS:
                render_kw = {**render_kw, "inputmode": "text", "pattern": r"[0-9,;\s]*"}
            return StringField(self.label, filters=[stripped], render_kw=render_kw)
        keep = SelectChoice("", _l("As the preset"))
        options = [SelectChoice(self.form_value(c), self.choice_label(c)) for c in self.choices]
        return SingleSelectField(self.label, choices=[keep, *options], default="")


def _house_rule(path: tuple[str, ...], hint: object) -> HouseRule:
    if hint is bool:
        return HouseRule(path, SettingKind.YES_NO, (True, False))
    if hint is int:
        signed = SETTING_RANGES[".".join(path)].low < 0
        return HouseRule(path, SettingKind.NUMBER, signed=signed)
    if typing.get_origin(hint) is tuple:
        return HouseRule(path, SettingKind.NUMBERS)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return HouseRule(path, SettingKind.CHOICE, tuple(hint))
    return _union_rule(path, typing.get_args(hint))


def _union_rule(path: tuple[str, ...], members: tuple[object, ...]) -> HouseRule:
    """Return a choice of the union's named values and of the numbers the setting takes."""
    choices: list[object] = []
    for member in members:
        if member is types.NoneType:
            choices.append(None)
        elif isinstance(member, type) and issubclass(member, enum.Enum):
            choices += list(member)
    if int in members:
        numbers = SETTING_RANGES[".".join(path)]
        choices += range(numbers.low, numbers.high + 1, numbers.step)
    return HouseRule(path, SettingKind.CHOICE, tuple(choices))


@cache
def house_rules() -> tuple[HouseRule, ...]:
    """Return a form entry for every setting, nested settings (card values...) one per part."""
    hints = typing.get_type_hints(RuleSet)
    rules: list[HouseRule] = []
    for key in SETTING_KEYS:
        hint = hints[key]
        if isinstance(hint, type) and is_dataclass(hint):
            part_hints = typing.get_type_hints(hint)
            rules += [_house_rule((key, f.name), part_hints[f.name]) for f in fields(hint)]
        else:
            rules.append(_house_rule((key,), hint))
    return tuple(rules)


def house_rules_form_class() -> type[Form]:
    """Return the house-rules sub-form, built from the rule set's settings."""
    return type("HouseRulesForm", (Form,), {rule.name: rule.field() for rule in house_rules()})


def preset_values() -> dict[str, dict[str, dict[str, str]]]:
    """Return each preset's value of every house rule, as the form writes it and as read."""
    return {
        key: {
            rule.name: {
                "value": rule.form_value(rule.value_of(preset.rules)),
                "text": rule.display(rule.value_of(preset.rules)),
            }
            for rule in house_rules()
        }
        for key, preset in PRESETS.items()
    }


def house_rule_groups() -> list[tuple[str, tuple[HouseRule, ...]]]:
    """Return the house rules by setting, in the rule set's order: nested parts share a group."""
    return [(key, tuple(rules)) for key, rules in groupby(house_rules(), lambda rule: rule.path[0])]


def changed_house_rules(preset: str, rules: RuleSet) -> list[HouseRule]:
    """Return the house rules in which a game under `rules` differs from one under the preset."""
    changed = house_rule_keys(preset if preset in PRESETS else DEFAULT_PRESET, rules)
    return [rule for rule in house_rules() if rule.key in changed]
