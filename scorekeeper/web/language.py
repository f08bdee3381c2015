"""Blueprint for the language picker that every page carries: the choice is kept in a cookie."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, request, url_for
from flask_babel import get_locale, gettext
from werkzeug.wrappers import Response

from scorekeeper.i18n import LANGUAGE_COOKIE, LANGUAGES, digit_group

COOKIE_LIFETIME = timedelta(days=365)
# Characters a browser drops or reads as a slash, which could turn a path into another site.
UNSAFE_IN_PATH = frozenset("\\\t\r\n")

bp = Blueprint("language", __name__)


@bp.post("/language")
def pick() -> Response:
    """Remember the language picked, then go back to the page it was picked on."""
    code = request.form.get("lang", "")
    if code not in LANGUAGES:
        abort(400, description=gettext("Choose one of the languages offered."))
    response = redirect(same_site_path(request.form.get("next")), 303)
    response.set_cookie(
        LANGUAGE_COOKIE,
        code,
        max_age=COOKIE_LIFETIME,
        secure=current_app.config["SESSION_COOKIE_SECURE"],
        httponly=True,
        samesite="Lax",
    )
    return response


def same_site_path(target: str | None) -> str:
    """Return `target` when it is a path on this site, else the home page: never another site."""
    if (
        not target
        or not target.startswith("/")
        or target.startswith("//")
        or not target.isprintable()
        or UNSAFE_IN_PATH.intersection(target)
        or urlsplit(target).netloc
    ):
        return url_for("pages.index")
    return target


@bp.app_template_filter()
def first_upper(text: str) -> str:
    """Return text with its first letter made a capital, as a label starts; Jinja's own
    `capitalize` lowers the rest too, which turns 8〜K into 8〜k."""
    return text[:1].upper() + text[1:]


@bp.app_context_processor
def language_choices() -> dict[str, object]:
    """Give every template the languages offered and the one the page is in."""
    return {"languages": LANGUAGES, "language": str(get_locale()), "digit_group": digit_group()}


@bp.after_app_request
def vary_by_language(response: Response) -> Response:
    """Tell caches that a page depends on the language cookie and the browser's languages."""
    if request.endpoint != "static":
        response.vary.update(("Cookie", "Accept-Language"))
    return response
