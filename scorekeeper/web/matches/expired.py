"""Forms sent with a CSRF token that no longer holds: shown again as sent, never a bare 400.

The token fails when the session ended (the browser forgot its cookie, the secret key changed)
while the page stayed open. The page comes back with what was typed and a fresh token, and
nothing is saved or changed until it is sent again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from flask import current_app, flash, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorekeeper import store
from scorekeeper.web.forms import ImportForm, MatchForm
from scorekeeper.web.matches.blueprint import bp, editable_match
from scorekeeper.web.matches.rounds import (
    edit_round_form,
    new_round_form,
    round_page,
    stored_round,
    stored_round_form,
)
from scorekeeper.web.matches.setup import setup_page
from scorekeeper.web.matches.sharing import import_page
from scorekeeper.web.matches.standings import standings_page

PageToShow = Callable[[], str]


@bp.errorhandler(CSRFError)
def form_expired(_error: CSRFError) -> ResponseReturnValue:
    return shown_again(SHOWN_AGAIN)


def shown_again(pages: Mapping[str, Callable[..., PageToShow]]) -> ResponseReturnValue:
    """Show the page of the form again, with what was typed and a fresh token; save nothing.

    `pages` holds, for each form route, what loads its page as the route would."""
    try:
        page = pages[request.endpoint or ""](**(request.view_args or {}))
    except HTTPException as refused:  # a wrong edit token, a round gone: as the view answers
        return current_app.handle_http_exception(refused)
    flash(gettext("This form had expired; check your entries and save again."), "error")
    return page(), 400


def _setup() -> PageToShow:
    return partial(setup_page, MatchForm())


def _import() -> PageToShow:
    return partial(import_page, ImportForm())


def _new_round(public_id: str, token: str) -> PageToShow:
    view = store.match_view(editable_match(public_id, token))
    form, number = new_round_form(view)
    if number is None:  # every round was entered meanwhile
        return partial(standings_page, view, token=token)
    return partial(round_page, view, form, number)


def _edited_round(public_id: str, token: str, number: int) -> PageToShow:
    view = store.match_view(editable_match(public_id, token))
    stored = stored_round(view, number)
    return partial(round_page, view, edit_round_form(view, stored), number, stored=stored)


def _deleted_round(public_id: str, token: str, number: int) -> PageToShow:
    view = store.match_view(editable_match(public_id, token))
    stored = stored_round(view, number)
    return partial(round_page, view, stored_round_form(view, stored), number, stored=stored)


def _new_edit_link(public_id: str, token: str) -> PageToShow:
    view = store.match_view(editable_match(public_id, token))
    return partial(standings_page, view, token=token)


# For each form route of the blueprint: load what its page needs, refusing what the view refuses
# (a wrong edit token, a round gone), and return the page to show.
SHOWN_AGAIN: dict[str, Callable[..., PageToShow]] = {
    "matches.new": _setup,
    "matches.import_match": _import,
    "matches.new_round": _new_round,
    "matches.edit_round": _edited_round,
    "matches.delete_round": _deleted_round,
    "matches.new_edit_link": _new_edit_link,
}
