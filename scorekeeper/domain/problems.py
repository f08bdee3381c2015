"""Problems the domain finds in what a table entered, kept translatable and free of Flask."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from gettext import NullTranslations
from typing import Protocol, TypeGuard

# Messages stay in English where no language is asked for: the CLI, the domain's own errors.
ENGLISH = NullTranslations()


class Translations(Protocol):
    """A language's messages, as `gettext` and Babel's catalogs give them."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def N_(message: str) -> str:
    """Mark a message for extraction; the web layer translates it when it is shown."""
    return message


@dataclass(frozen=True)
class Plural:
    """A message whose wording follows one of its numbers, such as "1 deck" and "2 decks"."""

    singular: str
    plural: str
    count: str  # the parameter whose number picks the form

    def translated(self, translations: Translations, params: Mapping[str, object]) -> str:
        count = params[self.count]
        assert is_whole_number(count), f"{self.count} picks the form: a whole number"
        return translations.ngettext(self.singular, self.plural, count)


# A problem's message before it is translated: one wording, or a wording per number.
Template = str | Plural


def NP_(singular: str, plural: str, count: str) -> Plural:
    """Mark a message with plural forms for extraction; `count` names the parameter whose
    number picks the form in each language."""
    return Plural(singular, plural, count)


class Term(str):
    """A word filled into a message that is translated along with the message."""


def T_(word: str) -> Term:
    """Mark a word for extraction and for translation wherever a message holds it."""
    return Term(word)


FieldOfSide = tuple[int, str]  # a side's index and one of its fields


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry: where it is, and a message saying how to fix it.

    The message is a template with ``%(name)s`` placeholders, or a `Plural` of two, so that it
    can be translated before the parameters are filled in.
    """

    field: str
    template: Template
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)
    side: int | None = None
    # A problem of the whole table, such as more of a card than the decks hold: the sides'
    # fields that add up to it, each as (side, field), so that a form can show it beside them.
    adds_up: tuple[FieldOfSide, ...] = ()

    def message(
        self, translations: Translations = ENGLISH, number: Callable[[int], str] = str
    ) -> str:
        """Return the message in the language of `translations`, numbers shown by `number`."""
        params = {key: _shown(value, translations, number) for key, value in self.params.items()}
        if isinstance(self.template, Plural):
            return self.template.translated(translations, self.params) % params
        return translations.gettext(self.template) % params

    def concerns(self, side: int) -> bool:
        """Tell whether the problem is side `side`'s: its own, or one of the whole table that
        its fields add up to, or that names no side's fields and so is every side's."""
        if self.side is not None:
            return self.side == side
        return not self.adds_up or any(index == side for index, _ in self.adds_up)

    def of_side(self, side: int, label: str) -> Problem:
        """Return this problem as one of a side, its message led by the side's name."""
        params = {"side": label, "problem": self}
        return Problem(
            field=self.field, template=N_("%(side)s: %(problem)s"), params=params, side=side
        )

    def of_round(self, number: int) -> Problem:
        """Return this problem as one of the whole change, its message led by the round it is
        in: a round other than the one a form or request names."""
        params = {"round": number, "problem": self}
        return Problem(field="round", template=N_("Round %(round)s: %(problem)s"), params=params)

    def as_dict(
        self, translations: Translations = ENGLISH, number: Callable[[int], str] = str
    ) -> dict[str, object]:
        """Return the problem as the API's error object; a problem of the whole table also
        names the sides' fields that add up to it."""
        error: dict[str, object] = {
            "side": self.side,
            "field": self.field,
            "message": self.message(translations, number),
        }
        if self.adds_up:
            error["adds_up"] = [{"side": side, "field": field} for side, field in self.adds_up]
        return error


def is_whole_number(value: object) -> TypeGuard[int]:
    """Tell whether a value read from JSON or a setting is a whole number: true and false,
    which Python counts as 1 and 0, are not."""
    return isinstance(value, int) and not isinstance(value, bool)


def as_whole_number(value: object) -> object:
    """Return a whole number written with a decimal point, 2.0, as that number, as JSON
    Schema's integer takes it; any other value as it is, for the checks to judge."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _shown(value: object, translations: Translations, number: Callable[[int], str]) -> object:
    if isinstance(value, Term):
        return translations.gettext(value)
    if isinstance(value, Problem):
        return value.message(translations, number)
    if is_whole_number(value):
        return number(value)
    return value


class ProblemsError(ValueError):
    """Raised with every problem found, so a form or the API can show them all at once."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.message() for problem in problems))
        self.problems = problems
