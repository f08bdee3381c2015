"""Blueprint for the match pages: set up, share, enter and edit rounds, standings.

The edit pages carry the match's edit token in the URL variable `token`; the view page needs none.
Every write answers with a 303 redirect, so reloading a page never enters a round twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.lists import format_list
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale, gettext
from markupsafe import Markup

from scorekeeper import store
from scorekeeper.chart import running_totals_chart
from scorekeeper.forms import (
    SEATINGS,
    SETTING_LABELS,
    DeleteRoundForm,
    MatchForm,
    RoundForm,
    changed_house_rules,
    hidden_number,
    house_rule_groups,
    messages,
    preset_values,
    round_form,
)
from scorekeeper.models import Match
from scorekeeper.problems import ProblemsError
from scorekeeper.qr import qr_svg
from scorekeeper.rules import PRESETS
from scorekeeper.store import MatchView, ScoredRound
from scorekeeper.validation import points_step

bp = Blueprint("matches", __name__)

Page = str | tuple[str, int]


@bp.app_template_global()
def has_endpoint(endpoint: str) -> bool:
    """Return whether the app serves `endpoint`, so pages link only to what exists."""
    return endpoint in current_app.view_functions


@bp.app_template_filter()
def names_list(names: Sequence[str]) -> str:
    """Return names as a sentence lists them: "Ann, Bob and Cy"."""
    return format_list(list(names), locale=get_locale())


bp.add_app_template_filter(messages)


@bp.app_template_filter()
def leader_names(view: MatchView) -> list[str]:
    """Return the names of the sides at the top of the standings."""
    return [view.side_names[index] for index in view.standings.leaders]


def _match_or_404(public_id: str) -> Match:
    match = store.get_match(public_id)
    if match is None:
        abort(404)
    return match


def _editable_match(public_id: str, token: str) -> Match:
    """Return the match the token opens for editing; refuse a wrong token with 403."""
    match = _match_or_404(public_id)
    if not store.token_opens(match, token):
        abort(403)
    return match


# -- Setting up and sharing --------------------------------------------------------------------


@bp.route("/matches/new", methods=["GET", "POST"])
def new() -> Page | Response:
    form = MatchForm()
    if not form.is_submitted() or form.show_preset.data:
        return _setup_page(form)
    if not form.validate() or form.chosen_rules is None:
        return _setup_page(form), 422
    try:
        created = store.create_match(
            form.name.data,
            form.preset.data,
            form.chosen_rules,
            form.side_specs(),
            language=form.language.data,
        )
    except ProblemsError as error:
        form.show_problems(error.problems)
        return _setup_page(form), 422
    flash(gettext("The match is ready. Keep the edit link: it is the only way to enter scores."))
    url = url_for(".share", public_id=created.match.public_id, token=created.edit_token)
    return redirect(url, 303)


def _setup_page(form: MatchForm) -> str:
    return render_template(
        "matches/new.html",
        form=form,
        house_rule_groups=house_rule_groups(),
        setting_labels=SETTING_LABELS,
        preset_values=preset_values(),
        seatings={key: [seating.teams, seating.team_size] for key, seating in SEATINGS.items()},
    )


@bp.get("/m/<public_id>/edit/<token>/share")
def share(public_id: str, token: str) -> str:
    match = _editable_match(public_id, token)
    links = {
        "edit": url_for(".edit", public_id=public_id, token=token, _external=True),
        "view": url_for(".view", public_id=public_id, _external=True),
    }
    titles = {"edit": gettext("Edit link"), "view": gettext("View link")}
    codes = {role: Markup(qr_svg(url, title=titles[role])) for role, url in links.items()}
    return render_template("matches/share.html", match=match, token=token, links=links, codes=codes)


@bp.get("/recent")
def recent() -> str:
    return render_template("matches/recent.html")


# -- Standings -----------------------------------------------------------------------------------


@bp.get("/m/<public_id>")
def view(public_id: str) -> str:
    return _standings_page(store.match_view(_match_or_404(public_id)))


@bp.get("/m/<public_id>/edit/<token>")
def edit(public_id: str, token: str) -> str:
    return _standings_page(store.match_view(_editable_match(public_id, token)), token=token)


def _standings_page(view: MatchView, *, token: str | None = None) -> str:
    public_id = view.match.public_id
    round_urls = {
        number: url_for(".edit_round", public_id=public_id, token=token, number=number)
        for number in (scored.number for scored in view.rounds)
        if token is not None
    }
    chart = running_totals_chart(
        view.side_names, view.standings.running_totals, view.standings.rounds_total
    )
    return render_template(
        "matches/standings.html",
        view=view,
        token=token,
        round_urls=round_urls,
        chart=chart,
        preset=PRESETS.get(view.match.preset),
        house_rules=changed_house_rules(view.match.preset, view.rules),
    )


# -- Rounds ------------------------------------------------------------------------------------


@bp.route("/m/<public_id>/edit/<token>/rounds/new", methods=["GET", "POST"])
def new_round(public_id: str, token: str) -> Page | Response:
    match = _editable_match(public_id, token)
    view = store.match_view(match)
    form = round_form(view.side_names, round_number=view.next_round)
    number = hidden_number(form.round_number)
    if number is None:
        flash(gettext("Every round of this match is entered; edit a round to change it."))
        return _standings_redirect(match, token)
    if not 1 <= number <= view.rules.rounds:
        abort(400)  # only a form changed by hand names a round this match does not have
    if not form.is_submitted():
        return _round_page(view, form, number)
    if not form.validate():
        return _round_page(view, form, number), 422
    try:
        store.add_round(match, form.entry(number), operation_id=form.operation.data or None)
    except ProblemsError as error:
        if _is_entered(match, number):  # a double tap, or another phone was quicker
            flash(gettext("Round %(round)s was already entered: here it is.", round=number))
            return _standings_redirect(match, token, number)
        form.show_problems(error.problems)
        return _round_page(view, form, number), 422
    flash(gettext("Round %(round)s is saved.", round=number))
    return _standings_redirect(match, token, number)


@bp.route("/m/<public_id>/edit/<token>/rounds/<int:number>", methods=["GET", "POST"])
def edit_round(public_id: str, token: str, number: int) -> Page | Response:
    match = _editable_match(public_id, token)
    view = store.match_view(match)
    stored = _stored_round(view, number)
    shown = None if request.method == "POST" else stored.entry
    form = round_form(view.side_names, shown, version=stored.version)
    if not form.is_submitted():
        return _round_page(view, form, number, stored=stored)
    if not form.validate():
        return _round_page(view, form, number, stored=stored), 422
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
    except ProblemsError as error:
        form.show_problems(error.problems)
        return _round_page(view, form, number, stored=stored), 422
    flash(gettext("Round %(round)s is saved.", round=number))
    return _standings_redirect(match, token, number)


@bp.post("/m/<public_id>/edit/<token>/rounds/<int:number>/delete")
def delete_round(public_id: str, token: str, number: int) -> Page | Response:
    match = _editable_match(public_id, token)
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
    except store.RoundNotFound:
        abort(404)
    except store.StaleVersion as stale:
        shown = round_form(view.side_names, stale.current.entry, from_request=False)
        return _conflict_page(view, shown, stale.current)
    except ProblemsError as error:
        stored = _stored_round(view, number)
        form = round_form(view.side_names, stored.entry, from_request=False, version=stored.version)
        form.show_problems(error.problems)
        return _round_page(view, form, number, stored=stored), 422
    flash(gettext("Round %(round)s is deleted.", round=number))
    return _standings_redirect(match, token)


def _stored_round(view: MatchView, number: int) -> ScoredRound:
    stored = next((scored for scored in view.rounds if scored.number == number), None)
    if stored is None:
        abort(404)
    return stored


def _is_entered(match: Match, number: int) -> bool:
    return any(scored.number == number for scored in store.match_view(match).rounds)


def _standings_redirect(match: Match, token: str, number: int | None = None) -> Response:
    anchor = None if number is None else f"round-{number}"
    url = url_for(".edit", public_id=match.public_id, token=token, _anchor=anchor)
    return redirect(url, 303)


def _conflict_page(view: MatchView, form: RoundForm, current: ScoredRound) -> tuple[str, int]:
    """Show the round as it is now beside what was typed; saving again replaces it."""
    form.version.data = str(current.version)
    return _round_page(view, form, current.number, stored=current, conflict=True), 409


def _round_page(
    view: MatchView,
    form: RoundForm,
    number: int,
    *,
    stored: ScoredRound | None = None,
    conflict: bool = False,
) -> str:
    running = store.running_scores_before(view.match, number)
    minimums = [view.rules.meld_minimum(number, score) for score in running]
    delete_form = None if stored is None else DeleteRoundForm(data={"version": stored.version})
    return render_template(
        "matches/round.html",
        token=request.view_args["token"],  # every round page is served under the edit token
        view=view,
        form=form,
        number=number,
        running=running,
        minimums=minimums,
        stored=stored,
        conflict=conflict,
        delete_form=delete_form,
        players=store.player_count(view.match),
        # A step of 0 (every card worth nothing) would leave the steppers stuck: they count by 1.
        points_steps={
            cards: points_step(view.rules, f"{cards}_points") or 1
            for cards in ("melded", "leftover")
        },
        # The calculator API takes the match's rules as overrides of the default preset.
        live_rules={"overrides": view.rules.as_settings()},
    )
