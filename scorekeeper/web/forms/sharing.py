"""Forms about a match's links: a new edit link, and a match imported from its export."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms.fields import Field, TextAreaField

from scorekeeper.domain.problems import Problem
from scorekeeper.i18n import problem_message
from scorekeeper.web.forms.fields import add_error, operation_field

_ROUND_FIELD = re.compile(r"rounds\[(\d+)\]")


class NewEditLinkForm(FlaskForm):
    """The button that retires the edit link for a new one, with an operation id per page shown,
    so that a double tap ends on one new link."""

    operation = operation_field()


class ImportForm(FlaskForm):
    """Bring in a match from its export: the JSON file, or the text it holds pasted."""

    file = FileField(_l("The exported file"), render_kw={"accept": ".json,application/json"})
    text = TextAreaField(
        _l("Or paste what the file holds"),
        render_kw={"rows": 6, "spellcheck": "false", "autocomplete": "off"},
    )
    document: dict[str, Any] | None = None  # set by `validate`

    @property
    def source(self) -> Field:
        """Return the field the export came in: the file when one was chosen, else the text."""
        return self.file if self.file.data else self.text

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        """Check the fields, then read the export as a JSON object into `document`."""
        fields_valid = super().validate(extra_validators)
        self.document = self._read_document() if fields_valid else None
        return self.document is not None

    def _read_document(self) -> dict[str, Any] | None:
        text = self._source_text()
        if text is None:
            return None
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, or nested past what Python parses
            add_error(self.source, gettext("This is not a match's export: it is not JSON."))
            return None
        if not isinstance(data, dict):
            add_error(self.source, gettext("This is JSON, but not a match's export."))
            return None
        return data

    def _source_text(self) -> str | None:
        if self.file.data and self.text.data:
            add_error(self.text, gettext("Choose a file or paste its text, not both."))
        elif self.file.data:
            try:
                text: str = self.file.data.read().decode("utf-8-sig")  # a BOM is no part of JSON
                return text
            except UnicodeDecodeError:
                add_error(self.file, gettext("This file is not a match's export: it is not text."))
        elif self.text.data:
            return self.text.data
        else:
            add_error(self.file, gettext("Choose the exported file, or paste what it holds."))
        return None

    def show_problems(self, problems: Iterable[Problem]) -> None:
        """Put what the store found wrong with the export next to the field it came in."""
        for problem in problems:
            add_error(self.source, self._located(problem))

    def _located(self, problem: Problem) -> str:
        """Return the problem's message, led by its round when it is in one."""
        found = _ROUND_FIELD.match(problem.field)
        if found is not None:
            problem = problem.of_round(self._round_number(int(found[1])))
        return problem_message(problem)

    def _round_number(self, index: int) -> int:
        """Return the number the export gives its round at `index`, else its place in the list."""
        rounds = (self.document or {}).get("rounds")
        entry = rounds[index] if isinstance(rounds, list) and index < len(rounds) else None
        number = entry.get("round") if isinstance(entry, dict) else None
        return number if type(number) is int else index + 1
