"""A club's forms sent with a CSRF token that no longer holds: shown again as sent, as a match's
are (`matches.expired`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError

from scorekeeper.web.clubs.blueprint import bp, editable_club
from scorekeeper.web.clubs.pages import club_page
from scorekeeper.web.clubs.setup import club_match_form, club_match_page, new_club_page
from scorekeeper.web.forms.clubs import AttachForm, ClubForm, PlayerForm
from scorekeeper.web.matches.expired import PageToShow, shown_again


@bp.errorhandler(CSRFError)
def form_expired(_error: CSRFError) -> ResponseReturnValue:
    return shown_again(SHOWN_AGAIN)


def _new_club() -> PageToShow:
    return partial(new_club_page, ClubForm())


def _new_player(public_id: str, token: str) -> PageToShow:
    club = editable_club(public_id, token)
    return partial(club_page, club, token=token, player_form=PlayerForm())


def _attached_match(public_id: str, token: str) -> PageToShow:
    club = editable_club(public_id, token)
    return partial(club_page, club, token=token, attach_form=AttachForm())


def _new_match(public_id: str, token: str) -> PageToShow:
    club = editable_club(public_id, token)
    return partial(club_match_page, club, token, club_match_form(club))


# For each form route of the blueprint: load what its page needs, refusing what the view refuses
# (a wrong edit token), and return the page to show.
SHOWN_AGAIN: dict[str, Callable[..., PageToShow]] = {
    "clubs.new": _new_club,
    "clubs.add_player": _new_player,
    "clubs.attach_match": _attached_match,
    "clubs.new_match": _new_match,
}
