"""Field helpers the forms share: number keyboards, stripped names, errors shown by a field."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable
from uuid import uuid4

from flask_babel import lazy_gettext as _l
from wtforms import Form
from wtforms.fields import (
    Field,
    FieldList,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.validators import Length, Optional
from wtforms.widgets import TextInput

from scorekeeper.domain.setup import MAX_NAME_LENGTH
from scorekeeper.i18n import digit_group

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
# A minus sign needs the full keyboard: phones' number pads have none.
SIGNED = {"inputmode": "text", "pattern": "-?[0-9]*", "autocomplete": "off"}


def stripped(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


# WTForms' own messages come in few languages (no Belarusian): the forms give theirs.
NAME_TOO_LONG = _l("A name has at most %(max)d characters.")
NOT_A_WHOLE_NUMBER = _l("Enter a whole number, such as 0 or 50.")
ONLY_ONE_CHOICE = _l("Choose only one.")


def name_field(label: str = "") -> StringField:
    return StringField(
        label,
        filters=[stripped],
        validators=[Optional(), Length(max=MAX_NAME_LENGTH, message=NAME_TOO_LONG)],
    )


def hidden_number(field: HiddenField) -> int | None:
    """Return a hidden number field's value, or None when it is missing or no number."""
    text = str(field.data or "")
    return int(text) if text.isdecimal() else None  # isdigit() takes "²", which int() refuses


def add_error(field: Field, message: str) -> None:
    """Show `message` next to `field`, after any error the field already has."""
    field.errors = [*field.errors, message]


class CountField(IntegerField):
    """A whole number typed in a box, with or without the digit groups the pages print it with
    ("1,200"), in plain or full-width digits; anything else is refused in the page's language."""

    def process_formdata(self, valuelist: list[str]) -> None:
        typed = [typed_number(value) for value in valuelist]
        if not all(text.isascii() for text in typed):  # int() takes digits of every script
            raise ValueError(str(NOT_A_WHOLE_NUMBER))
        try:
            super().process_formdata(typed)
        except ValueError:
            raise ValueError(str(NOT_A_WHOLE_NUMBER)) from None


def typed_number(text: str) -> str:
    """Return a number as typed, ready to be read: its full-width digits and signs (from a
    Japanese or Korean keyboard) made plain by NFKC, as the page's script reads them too, and
    without the page language's digit groups ("1,200" in English, "1.200" in Dutch). Only whole
    groups of three count: in a language that groups with a comma, "12,5" is no number. A
    language that groups with a space takes any space."""
    text = unicodedata.normalize("NFKC", text)
    group = digit_group()
    separator = r"\s" if group.isspace() else re.escape(group)
    if re.fullmatch(rf"[+-]?[0-9]{{1,3}}(?:{separator}[0-9]{{3}})+", text.strip()):
        return re.sub(separator, "", text)
    return text


class SingleSelectField(SelectField):
    """A choice of one that refuses a request naming several: a browser sends at most one, so
    several come only by hand, and taking the first would store what nobody chose."""

    def process_formdata(self, valuelist: list[str]) -> None:
        if len(valuelist) > 1:
            raise ValueError(str(ONLY_ONE_CHOICE))
        super().process_formdata(valuelist)


class SingleRadioField(SingleSelectField, RadioField):
    """Radio buttons that refuse a request naming more than one of them."""


def count_field(label: str) -> IntegerField:
    """Return a field for a count or a point total; left empty, it counts as 0."""
    return CountField(label, validators=[Optional()], widget=TextInput(), render_kw=NUMERIC)


def messages(field: Field) -> list[str]:
    """Return the field's own error messages; a list of fields also holds its entries' lists."""
    return [str(error) for error in field.errors if not isinstance(error, list | dict)]


@runtime_checkable
class FormWithPartErrors(Protocol):
    """A form some of whose parts can be wrong as a whole, not only field by field: entries of
    a list of sub-forms (the sides of a round), each showing its own list of problems."""

    def part_errors(self, parts: FieldList[Any]) -> Mapping[int, Sequence[str]]:
        """Return what is wrong with each entry of `parts` as a whole, by the entry's index."""
        ...


def marked_fields(form: Form) -> list[str]:
    """Return the ids of the fields that show a problem next to them, in the page's order, and
    those of the lists of problems of a part of the form as a whole (a side of a round)."""
    return [marked for field in form for marked in _marked(form, field)]


def _marked(form: Form, field: Field) -> list[str]:
    if isinstance(field, FormField):
        return marked_fields(field.form)
    if isinstance(field, FieldList):
        of_parts = form.part_errors(field) if isinstance(form, FormWithPartErrors) else {}
        marked = [field.id] if messages(field) else []  # the list's own, as of its length
        for entry in field:
            if of_parts.get(entry.index):
                marked.append(f"{entry.id}-errors")  # shown at the top of the part's card
            marked += _marked(form, entry)
        return marked
    return [field.id] if messages(field) and not isinstance(field, HiddenField) else []


def new_operation_id() -> str:
    """Return an operation id for a form shown anew."""
    return uuid4().hex


def operation_field() -> HiddenField:
    """Return a hidden field with a fresh id per form shown, so that the store applies a change
    once: a double tap or a resent form carries the same id and changes nothing more."""
    return HiddenField(default=new_operation_id)
