"""Languages: which one a request is served in, and translation of the domain's messages.

The languages offered are the catalogs in `translations/`: adding one is `make translations-init
LANG=xx`, translating its catalog and compiling it (docs/developing.md).
"""

from __future__ import annotations

import decimal
from functools import lru_cache
from pathlib import Path
from typing import TypeGuard

from babel import Locale, numbers
from flask import request
from flask_babel import get_locale, get_translations, gettext
from flask_wtf.csrf import CSRFError
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header

from scorekeeper.domain.problems import N_, Problem

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "lang"

# Werkzeug describes its errors in English; a page or API answer says these instead, unless the
# code that raised the error gave its own (already translated) description.
HTTP_ERROR_MESSAGES = {
    400: N_("The request could not be read. Go back, reload the page and try again."),
    401: N_("This needs the match's edit token."),
    403: N_("This link does not open this page: check that you have the whole link."),
    404: N_("There is nothing at this address: check the link."),
    405: N_("This address does not take that kind of request."),
    413: N_("The request is too large."),
    415: N_("The request's content type is not one this address takes."),
    500: N_("Something went wrong on our side. Try again in a moment."),
}
CSRF_MESSAGE = N_(
    "This form has expired or was not sent from this site. Reload the page and send it again."
)


def native_name(code: str) -> str:
    """Return a language's name in that language, as a menu starts it: 日本語, Беларуская."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def catalog_languages(directory: Path = TRANSLATIONS) -> dict[str, str]:
    """Return the languages that have a catalog, code -> own name, in the order of their names."""
    codes = (path.parents[1].name for path in directory.glob("*/LC_MESSAGES/messages.po"))
    return dict(sorted(((code, native_name(code)) for code in codes), key=lambda item: item[1]))


LANGUAGES = catalog_languages()
# Parsed once: flask_babel takes a Locale as it is, where it would parse a code every request.
LOCALES = {code: Locale.parse(code) for code in (*LANGUAGES, DEFAULT_LANGUAGE)}
BROWSER_HEADERS_KEPT = 256  # Accept-Language headers whose best language is remembered
NUMBERS_KEPT = 4096  # numbers whose written form is remembered, per language


def is_offered(code: object) -> TypeGuard[str]:
    """Return whether `code`, whatever a client sent, names one of the languages offered."""
    return isinstance(code, str) and code in LANGUAGES


def select_locale() -> Locale:
    """Return the language picked on the page, else the browser's best match, else English."""
    picked = request.cookies.get(LANGUAGE_COOKIE)
    if is_offered(picked):
        return LOCALES[picked]
    return LOCALES[browsers_language(request.headers.get("Accept-Language", ""))]


@lru_cache(maxsize=BROWSER_HEADERS_KEPT)
def browsers_language(accept_language: str) -> str:
    """Return the offered language that an Accept-Language header prefers most, else English.
    Kept per header: a phone sends the same one with every request."""
    accepted = parse_accept_header(accept_language, LanguageAccept)
    return accepted.best_match(LANGUAGES) or DEFAULT_LANGUAGE


def digit_group() -> str:
    """Return the separator of the request's language between groups of three digits ("1,200"
    in English, "1.200" in Dutch): the pages print numbers with it and read them back so."""
    return str(numbers.get_group_symbol(get_locale()))


def format_number(number: int) -> str:
    """Return a whole number as the request's language writes it: "1,200", "1.200"."""
    return written_number(number, get_locale())


@lru_cache(maxsize=NUMBERS_KEPT)
def written_number(number: int, locale: Locale | None) -> str:
    """Return a whole number as `locale` writes it. Kept: a match's pages and report, and a
    club's page, write the same few hundred numbers over and over, and Babel's formatting of
    one costs many times a lookup."""
    return numbers.format_decimal(number, locale=locale)


def problem_dict(problem: Problem) -> dict[str, object]:
    """Return a domain problem as an API error, in the request's language."""
    return problem.as_dict(get_translations(), format_typed_number)


def problem_message(problem: Problem) -> str:
    """Return a domain problem's message in the request's language."""
    return problem.message(get_translations(), format_typed_number)


def format_typed_number(number: int) -> str:
    """Return a number a problem tells of as the request's language writes it; one of more
    digits than Babel's decimals hold, which only a mistyped field gives, as its digits."""
    try:
        return format_number(number)
    except decimal.InvalidOperation:
        return str(number)


def http_error_message(error: HTTPException) -> str:
    """Return what went wrong in the request's language: the error's own description when the
    code that raised it gave one, else a translated message for its status."""
    if isinstance(error, CSRFError):
        return gettext(CSRF_MESSAGE)
    template = HTTP_ERROR_MESSAGES.get(error.code or 500)
    if error.description != type(error).description or template is None:
        return error.description or ""
    return gettext(template)
