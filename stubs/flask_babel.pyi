# Types for the part of Flask-Babel that scorekeeper uses: the package ships none.
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from babel import Locale
from flask import Flask

class Babel:
    def __init__(self, app: Flask | None = None, **kwargs: Any) -> None: ...
    def init_app(
        self,
        app: Flask,
        *,
        locale_selector: Callable[[], str | Locale | None] | None = None,
        **kwargs: Any,
    ) -> None: ...

def get_locale() -> Locale | None: ...
@contextmanager
def force_locale(locale: str | Locale) -> Iterator[None]: ...
def gettext(string: str, **variables: Any) -> str: ...
def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str: ...

# A LazyString, translated each time it is read: it stands in for a str wherever one is.
def lazy_gettext(string: str, **variables: Any) -> str: ...
def format_date(date: date | datetime | None = None, format: str | None = None) -> str: ...
def format_decimal(number: int | float | Decimal, format: str | None = None) -> str: ...
