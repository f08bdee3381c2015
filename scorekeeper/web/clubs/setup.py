"""Starting a club and sharing its links; adding its players and its matches: set up from its
list of players, or attached by their edit link."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response
from wtforms import Field

from scorekeeper import store
from scorekeeper.domain.problems import Problem, ProblemsError
from scorekeeper.i18n import problem_message
from scorekeeper.serving.security import hand_out_token
from scorekeeper.store.models import Club, Match
from scorekeeper.web.clubs.blueprint import bp, editable_club
from scorekeeper.web.clubs.pages import club_page
from scorekeeper.web.forms import MatchForm, add_error
from scorekeeper.web.forms.clubs import AttachForm, ClubForm, PlayerForm, picked_players
from scorekeeper.web.matches.blueprint import Page
from scorekeeper.web.matches.setup import set_up, setup_page
from scorekeeper.web.qr import link_codes, links_to_share


@bp.route("/clubs/new", methods=["GET", "POST"])
def new() -> Page | Response:
    form = ClubForm()
    if not form.is_submitted():
        return new_club_page(form)
    if not form.validate():
        return new_club_page(form), 422
    try:
        created = store.create_club(form.name.data or "", language=form.language.data)
    except ProblemsError as error:
        _show(form.name, error.problems)
        return new_club_page(form), 422
    flash(gettext("The club is ready. Keep its edit link: it adds players and matches."))
    hand_out_token()
    return redirect(
        url_for(".share", public_id=created.club.public_id, token=created.edit_token), 303
    )


def new_club_page(form: ClubForm) -> str:
    return render_template("clubs/new.html", form=form)


@bp.get("/c/<public_id:public_id>/edit/<token>/share")
def share(public_id: str, token: str) -> str:
    club = editable_club(public_id, token)
    links = links_to_share(public_id, token)
    codes = link_codes(links)
    return render_template("clubs/share.html", club=club, token=token, links=links, codes=codes)


@bp.post("/c/<public_id:public_id>/edit/<token>/players")
def add_player(public_id: str, token: str) -> Page | Response:
    club = editable_club(public_id, token)
    form = PlayerForm()
    if not form.validate():
        return club_page(club, token=token, player_form=form), 422
    try:
        member = store.add_player(club, form.name.data or "")
    except ProblemsError as error:
        _show(form.name, error.problems)
        return club_page(club, token=token, player_form=form), 422
    flash(gettext("%(name)s is a player of the club now.", name=member.name))
    return redirect(url_for(".edit", public_id=public_id, token=token, _anchor="players"), 303)


@bp.post("/c/<public_id:public_id>/edit/<token>/matches/attach")
def attach_match(public_id: str, token: str) -> Page | Response:
    """Make a match the club's, by its edit link: only who keeps its score may."""
    club = editable_club(public_id, token)
    form = AttachForm()
    if not form.validate():
        return club_page(club, token=token, attach_form=form), 422
    link = form.match_link()
    match = None if link is None else _opened_match(*link)
    if match is None:
        message = gettext(
            "This is not the edit link of a match: copy the whole address of its score sheet."
        )
        add_error(form.link, message)
        # A link that opens nothing is a wrong guess at a match, and counts as one.
        return club_page(club, token=token, attach_form=form), 422 if link is None else 403
    try:
        store.attach_match(club, match)
    except ProblemsError as error:
        _show(form.link, error.problems)
        return club_page(club, token=token, attach_form=form), 422
    flash(gettext("%(match)s is a match of the club now.", match=match.name))
    return redirect(url_for(".edit", public_id=public_id, token=token, _anchor="matches"), 303)


def _opened_match(public_id: str, token: str) -> Match | None:
    match = store.get_match(public_id)
    return match if match is not None and store.token_opens(match, token) else None


@bp.route("/c/<public_id:public_id>/edit/<token>/matches/new", methods=["GET", "POST"])
def new_match(public_id: str, token: str) -> Page | Response:
    """Set up a match of the club: the match's own form, its players picked from the club's."""
    club = editable_club(public_id, token)
    form = club_match_form(club)
    page = partial(club_match_page, club, token)
    if not form.is_submitted() or form.show_preset.data:
        return page(form)
    return set_up(form, page, club=club)


def club_match_form(club: Club) -> MatchForm:
    """Return the set-up form of a club's match: as sent, each seat's player picked from the
    club's list or typed new; on a GET, printing in the club's language if it has one."""
    if request.method == "POST":
        return MatchForm(formdata=picked_players(request.form))
    return MatchForm(formdata=None, data={"language": club.language} if club.language else None)


def club_match_page(club: Club, token: str, form: MatchForm) -> str:
    members = [member.name for member in club.players]
    return setup_page(form, "clubs/new_match.html", club=club, token=token, members=members)


def _show(field: Field, problems: Iterable[Problem]) -> None:
    """Show the store's problems next to the one field they are about."""
    for problem in problems:
        add_error(field, problem_message(problem))
