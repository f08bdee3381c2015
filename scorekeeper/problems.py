"""Problems the domain finds in what a table entered, kept translatable and free of Flask."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


def N_(message: str) -> str:
    """Mark a message for extraction; the web layer translates it when it is shown."""
    return message


class Term(str):
    """A word filled into a message that is translated along with the message."""


def T_(word: str) -> Term:
    """Mark a word for extraction and for translation wherever a message holds it."""
    return Term(word)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry: where it is, and a message saying how to fix it.

    The message is a template with ``%(name)s`` placeholders so that it can be translated
    before the parameters are filled in.
    """

    field: str
    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    side: int | None = None

    def message(self, translate: Callable[[str], str] = str) -> str:
        """Return the message in the language `translate` gives."""
        params = {
            key: translate(value) if isinstance(value, Term) else value
            for key, value in self.params.items()
        }
        return translate(self.template) % params

    def as_dict(self, translate: Callable[[str], str] = str) -> dict[str, object]:
        """Return the problem as the API's error object."""
        return {"side": self.side, "field": self.field, "message": self.message(translate)}


class ProblemsError(ValueError):
    """Raised with every problem found, so a form or the API can show them all at once."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.message() for problem in problems))
        self.problems = problems
