"""The blueprint the match pages join, the template helpers they share, finding a match."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import ParamSpec, TypeVar

from babel.lists import format_list
from flask import Blueprint, Response, current_app, g, request
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import Forbidden

from scorekeeper import store
from scorekeeper.extensions import csrf
from scorekeeper.i18n import problem_message
from scorekeeper.serving.http import error_page, match_or_404, opened_by
from scorekeeper.store import MatchView
from scorekeeper.store.models import Match
from scorekeeper.web.forms import marked_fields, messages

bp = Blueprint("matches", __name__)

# What each part of a side's round score is called, in the order a breakdown lists them.
BREAKDOWN_LABELS = {
    "books": _l("Books"),
    "melded": _l("Melded cards"),
    "red_threes": _l("Red threes"),
    "going_out": _l("Going out"),
    "deal_bonus": _l("Deal bonus"),
    "leftover": _l("Cards left over"),
}

Page = str | tuple[str, int]
Params = ParamSpec("Params")
Answer = TypeVar("Answer")
IDEMPOTENCY_KEY = "Idempotency-Key"


@bp.app_template_filter()
def names_list(names: Sequence[str]) -> str:
    """Return names as a sentence lists them: "Ann, Bob and Cy"."""
    return format_list(list(names), locale=get_locale())


bp.add_app_template_filter(messages)
bp.add_app_template_filter(marked_fields)
bp.add_app_template_filter(problem_message)


@bp.app_template_global()
def breakdown_labels() -> dict[str, str]:
    """Return the name of each part of a round's score, translated once for a page."""
    return {part: str(label) for part, label in BREAKDOWN_LABELS.items()}


@bp.app_template_filter()
def leader_names(view: MatchView) -> list[str]:
    """Return the names of the sides at the top of the standings."""
    return [view.side_names[index] for index in view.standings.leaders]


@bp.errorhandler(store.TokenRefused)
def token_replaced(_error: store.TokenRefused) -> Response:
    """A new edit link replaced the one a change came through while it was being made."""
    return error_page(Forbidden())


def editable_match(public_id: str, token: str) -> Match:
    """Return the match the token opens for editing; refuse a wrong token with 403."""
    return opened_by(match_or_404(public_id), token)


def sent_from_the_phone(view: Callable[Params, Answer]) -> Callable[Params, Answer]:
    """Let a change to a round through on its Idempotency-Key, when that is the form's own
    operation id, in place of the session's CSRF token.

    The service worker sends every change to a round so, and a change that waited on the phone
    may arrive after the session cookie its CSRF token belongs to has ended (the browser was
    closed). It needs no cookie for its authority: the edit token in its address opens the
    match, and no page of another site can make a browser send a header of its own without a
    CORS preflight, which this app never allows, so the header shows the change comes from the
    app's own pages. Without the header, the CSRF token is checked as on any form.
    """

    @wraps(view)
    def checked(*args: Params.args, **kwargs: Params.kwargs) -> Answer:
        key = request.headers.get(IDEMPOTENCY_KEY)
        if key and key == request.form.get("operation"):
            g.csrf_valid = True  # as Flask-WTF marks a request whose token it checked
        elif current_app.config["WTF_CSRF_ENABLED"]:
            csrf.protect()
        return view(*args, **kwargs)

    return csrf.exempt(checked)
