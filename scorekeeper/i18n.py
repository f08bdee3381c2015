"""Languages: which one a request is served in, and translation of the domain's messages."""

from __future__ import annotations

from flask import request
from flask_babel import gettext

from scorekeeper.problems import Problem

LANGUAGES = {"en": "English"}
LANGUAGE_COOKIE = "lang"


def select_locale() -> str:
    """Return the language picked on the page, else the browser's best match, else English."""
    picked = request.cookies.get(LANGUAGE_COOKIE)
    if picked in LANGUAGES:
        return picked
    return request.accept_languages.best_match(LANGUAGES) or "en"


def problem_dict(problem: Problem) -> dict[str, object]:
    """Return a domain problem as an API error, in the request's language."""
    return problem.as_dict(gettext)


def problem_message(problem: Problem) -> str:
    """Return a domain problem's message in the request's language."""
    return problem.message(gettext)
