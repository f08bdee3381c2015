"""Rounds: entered, edited and deleted, each change checked against lost updates (the round's
version) and double taps (the form's operation id)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext
from werkzeug.http import quote_etag
from werkzeug.wrappers import Response

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.validation import points_step, round_number_problems
from scorekeeper.store import MatchView, ScoredRound
from scorekeeper.store.models import Match
from scorekeeper.web.app_shell import release
from scorekeeper.web.forms import (
    COUNTS,
    NOT_A_WHOLE_NUMBER,
    DeleteRoundForm,
    RoundForm,
    hidden_number,
    new_operation_id,
    round_form,
)
from scorekeeper.web.matches.blueprint import Page, bp, editable_match, sent_from_the_phone


class Meanwhile(StrEnum):
    """What another phone did to a round since its form was shown here, as its page says."""

    CHANGED = "changed"  # saving again replaces it
    CHANGED_BEFORE_DELETE = "changed-before-delete"  # deleting again deletes it
    DELETED = "deleted"  # saving again enters it again


@bp.route("/m/<public_id:public_id>/edit/<token>/rounds/new", methods=["GET", "POST"])
@sent_from_the_phone
def new_round(public_id: str, token: str) -> Page | Response:
    match = editable_match(public_id, token)
    view = store.match_view(match)
    form, number = new_round_form(view)
    if number is None:
        flash(gettext("Every round of this match is entered; edit a round to change it."))
        return standings_redirect(match, token)
    if not form.is_submitted():
        return _new_round_shown(view, form, number, token)
    if not form.validate():
        return _unsaved_page(view, form, number)
    entry = form.entry(number)
    try:
        store.add_round(match, entry, operation_id=form.operation.data or None)
    except ProblemsError as error:
        return _refused_new_round(match, token, form, entry, error)
    flash(gettext("Round %(round)s is saved.", round=number))
    # At the top of the standings: the next round's button, the leader and every total.
    return standings_redirect(match, token)


def _refused_new_round(
    match: Match, token: str, form: RoundForm, entry: RoundEntry, error: ProblemsError
) -> Page | Response:
    """Answer a new round the store refused: impossible as typed, or entered meanwhile, by
    another phone or by this form sent before (perhaps since changed)."""
    view = store.current_view(match)
    number = entry.round_number
    if isinstance(error, store.OperationIdRefused):  # saved before from this form, since changed
        return _changed_meanwhile_page(view, form, number)
    entered = view.entered_round(number)
    if entered is None:
        form.show_problems(error.problems)
        return round_page(view, form, number), 422
    if not entry.same_cards(entered.entry):
        return _conflict_page(view, form, entered)
    flash(gettext("Round %(round)s was already entered: here it is.", round=number))
    return standings_redirect(match, token, number)


def _new_round_shown(view: MatchView, form: RoundForm, number: int, token: str) -> Response:
    """Show the form of the round asked for, under its own address: a round asked for that the
    match has not, or has entered already, gives way to the next one to enter."""
    asked = request.args.get("round", type=int)
    if asked is None or asked == number:
        return kept_form(view, number, lambda: round_page(view, form, number))
    if view.entered_round(asked):
        flash(gettext("Round %(round)s is already entered.", round=asked))
    url = url_for(".new_round", public_id=view.match.public_id, token=token, round=number)
    return redirect(url, 303)


@bp.route("/m/<public_id:public_id>/edit/<token>/rounds/<int:number>", methods=["GET", "POST"])
@sent_from_the_phone
def edit_round(public_id: str, token: str, number: int) -> Page | Response:
    match = editable_match(public_id, token)
    view = store.match_view(match)
    if request.method == "POST" and (deleted := _deleted_meanwhile_page(view, number)):
        return deleted
    stored = stored_round(view, number)
    form = edit_round_form(view, stored)
    if not form.is_submitted():
        return kept_form(view, number, lambda: round_page(view, form, number, stored=stored))
    if not form.validate():
        return _unsaved_page(view, form, number, stored)
    try:
        store.replace_round(
            match,
            number,
            form.entry(number),
            version=hidden_number(form.version) or 0,
            operation_id=form.operation.data or None,
        )
    except store.StaleVersion as stale:
        return _conflict_page(view, form, stale.current)
    except (store.RoundNotFound, store.OperationIdRefused):
        # Deleted meanwhile on another phone, or saved before from this form, since changed.
        return _changed_meanwhile_page(store.current_view(match), form, number)
    except ProblemsError as error:
        form.show_problems(error.problems)
        return round_page(view, form, number, stored=stored), 422
    flash(gettext("Round %(round)s is saved.", round=number))
    return standings_redirect(match, token, number)


@bp.post("/m/<public_id:public_id>/edit/<token>/rounds/<int:number>/delete")
@sent_from_the_phone
def delete_round(public_id: str, token: str, number: int) -> Page | Response:
    match = editable_match(public_id, token)
    view = store.match_view(match)
    delete_form = DeleteRoundForm()
    if not delete_form.validate():
        abort(400)
    try:
        # A repeated operation id (a double tap) deletes nothing more, even once the round is gone.
        store.delete_round(
            match,
            number,
            version=hidden_number(delete_form.version) or 0,
            operation_id=delete_form.operation.data or None,
        )
    except store.RoundNotFound:  # deleted meanwhile, on another phone: as this phone meant
        flash(gettext("Round %(round)s was already deleted.", round=number))
        return standings_redirect(match, token)
    except store.StaleVersion as stale:
        shown = _form(view, stale.current.entry, from_request=False)
        return _conflict_page(view, shown, stale.current, Meanwhile.CHANGED_BEFORE_DELETE)
    except ProblemsError as error:
        stored = stored_round(view, number)
        form = stored_round_form(view, stored)
        form.show_problems(error.problems)
        return round_page(view, form, number, stored=stored), 422
    flash(gettext("Round %(round)s is deleted.", round=number))
    return standings_redirect(match, token)


def new_round_form(view: MatchView) -> tuple[RoundForm, int | None]:
    """Return the form of a new round, as posted, and the round it enters: None when the
    match has every round already."""
    form = _form(view, round_number=_round_asked_for(view))
    number = hidden_number(form.round_number)
    if form.is_submitted() and (number is None or round_number_problems(view.rules, number)):
        abort(400)  # only a form changed by hand names no round, or one the match does not have
    return form, number


def _round_asked_for(view: MatchView) -> int | None:
    """Return the round `?round=` asks a form for, where the match lacks it, else the next round:
    a phone keeps the forms of the rounds still to play, to enter them offline one after another."""
    asked = request.args.get("round", type=int)
    if asked is None or round_number_problems(view.rules, asked) or view.entered_round(asked):
        return view.next_round
    return asked


def edit_round_form(view: MatchView, stored: ScoredRound) -> RoundForm:
    """Return the form of a stored round: as posted, or on a GET as the round was stored."""
    shown = None if request.method == "POST" else stored.entry
    return _form(view, shown, version=stored.version)


def stored_round_form(view: MatchView, stored: ScoredRound) -> RoundForm:
    """Return the form of a stored round as it was stored, whatever the request posted."""
    return _form(view, stored.entry, from_request=False, version=stored.version)


def _form(view: MatchView, entry: RoundEntry | None = None, **options: Any) -> RoundForm:
    """Return the round form of the match: a card per side, a box per player of a pair."""
    players = store.side_players(view.match)
    return round_form(view.side_names, view.rules, entry, side_players=players, **options)


def form_etag(view: MatchView, number: int) -> str:
    """Return the ETag of round `number`'s form, new or stored, as a header carries it."""
    return quote_etag(_form_tag(view, number), weak=True)


def _form_tag(view: MatchView, number: int) -> str:
    # The form looks the same while the match stays at its version, in one language and release.
    return f"{release()}.{get_locale()}.{view.match.version}.{number}"


def kept_form(view: MatchView, number: int, page: Callable[[], str]) -> Response:
    """Answer a round form's GET with its validator. A phone keeps the forms of a match's
    rounds, to enter and correct them offline: the standings give each one's ETag, and a form
    asked for again with If-None-Match costs a 304 while it would look the same."""
    tag = _form_tag(view, number)
    if request.if_none_match.contains_weak(tag):
        response = Response(status=304)
    else:
        response = make_response(page())
    response.set_etag(tag, weak=True)  # beside no-store: only the phone's own copy is kept
    return response


def _deleted_meanwhile_page(view: MatchView, number: int) -> Page | None:
    """Show a correction of a round deleted since its form was drawn (the match lacks it, and
    the form's version is one a deleted round reached) with what was typed, to enter again;
    None for a round that never was."""
    if view.entered_round(number) is not None:
        return None
    form = _form(view)
    version = hidden_number(form.version) or 0
    if not 0 < version <= view.match.round_version_floor:
        return None
    return _changed_meanwhile_page(view, form, number)


def stored_round(view: MatchView, number: int) -> ScoredRound:
    stored = view.entered_round(number)
    if stored is None:
        abort(404)
    return stored


def standings_redirect(match: Match, token: str, number: int | None = None) -> Response:
    anchor = None if number is None else f"round-{number}"
    url = url_for(".edit", public_id=match.public_id, token=token, _anchor=anchor)
    return redirect(url, 303)


def _unsaved_page(
    view: MatchView, form: RoundForm, number: int, stored: ScoredRound | None = None
) -> tuple[str, int]:
    """Show a form that cannot be saved as it was sent with every problem at once: the fields
    that could not be read, and what the domain refuses in the rest."""
    if not form.sides.missing:
        form.show_problems(store.round_problems(view.match, form.entry(number)))
    return round_page(view, form, number, stored=stored), 422


def _conflict_page(
    view: MatchView,
    form: RoundForm,
    current: ScoredRound,
    meanwhile: Meanwhile = Meanwhile.CHANGED,
) -> tuple[str, int]:
    """Show the round as it is now beside what was typed, for the change to be made again."""
    form.version.data = str(current.version)
    form.operation.data = new_operation_id()  # saving again is a change of its own
    return round_page(view, form, current.number, stored=current, meanwhile=meanwhile), 409


def _changed_meanwhile_page(view: MatchView, form: RoundForm, number: int) -> tuple[str, int]:
    """Show what was typed for a round that changed since the form was shown: as a conflict
    while the round is stored, else as a new round that saving enters again."""
    current = view.entered_round(number)
    if current is not None:
        return _conflict_page(view, form, current)
    form.round_number.data = str(number)
    form.operation.data = new_operation_id()
    return round_page(view, form, number, meanwhile=Meanwhile.DELETED), 409


def round_page(
    view: MatchView,
    form: RoundForm,
    number: int,
    *,
    stored: ScoredRound | None = None,
    meanwhile: Meanwhile | None = None,
) -> str:
    running = view.scores_before(number)
    minimums = view.meld_minimums_in(number)
    # Not from the request, which may be the round form's: its own operation id, the stored version.
    delete_form = (
        None if stored is None else DeleteRoundForm(formdata=None, data={"version": stored.version})
    )
    assert request.view_args is not None, "a routed request"
    return render_template(
        "matches/round.html",
        token=request.view_args["token"],  # every round page is served under the edit token
        view=view,
        form=form,
        number=number,
        running=running,
        minimums=minimums,
        stored=stored,
        meanwhile=meanwhile,
        Meanwhile=Meanwhile,
        delete_form=delete_form,
        side_players=store.side_players(view.match),
        # Each side's players, who may count their own left-over cards.
        player_names=[side.players for side in store.sides_of(view.match)],
        # A step of 0 (every card worth nothing) would leave the steppers stuck: they count by 1.
        points_steps={
            cards: points_step(view.rules, f"{cards}_points") or 1
            for cards in ("melded", "leftover")
        },
        # The calculator API takes the match's rules as overrides of the default preset.
        live_rules={"overrides": view.rules.as_settings()},
        not_a_number=NOT_A_WHOLE_NUMBER,  # what the live score says of a field holding no number
        counts_mode=COUNTS,  # the live score's sign that a side counts its cards by kind
    )
