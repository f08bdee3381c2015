"""Setting up a match: its name, players, seating, preset and house rules."""

from __future__ import annotations

from collections.abc import Callable

from flask import flash, redirect, render_template, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from scorekeeper import store
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import DEFAULT_PRESET
from scorekeeper.serving.http import match_or_404
from scorekeeper.serving.security import hand_out_token
from scorekeeper.store.models import Club
from scorekeeper.web.forms import (
    SEATINGS,
    SETTING_LABELS,
    MatchForm,
    house_rule_groups,
    preset_values,
    sets_up_again,
    values_like,
)
from scorekeeper.web.matches.blueprint import Page, bp


@bp.route("/matches/new", methods=["GET", "POST"])
def new() -> Page | Response:
    form = MatchForm()
    if not form.is_submitted() or form.show_preset.data:
        return setup_page(form)
    return set_up(form, setup_page)


def set_up(
    form: MatchForm, page: Callable[[MatchForm], str], *, club: Club | None = None
) -> Page | Response:
    """Store the match a sent set-up form describes, in `club` if given, and go to its links;
    else show the form again on `page` with what is wrong."""
    if not form.validate() or form.chosen_rules is None:
        return page(form), 422
    try:
        created = store.create_match(
            form.name.data or "",  # required: the form refused it empty
            form.preset.data,
            form.chosen_rules,
            form.side_specs(),
            language=form.language.data,
            first_dealer=form.dealer_seat(),
            club=club,
        )
    except ProblemsError as error:
        form.show_problems(error.problems)
        return page(form), 422
    flash(gettext("The match is ready. Keep the edit link: it is the only way to enter scores."))
    url = url_for("matches.share", public_id=created.match.public_id, token=created.edit_token)
    hand_out_token()
    return redirect(url, 303)


@bp.get("/m/<public_id:public_id>/again")
def again(public_id: str) -> str:
    """Set up another match like this one, for a table that plays on: the same players, seating,
    rules and printing language, each to change before it begins. The deal passes on round the
    table: whoever would deal the round after this match's last deals the next match's first."""
    match = match_or_404(public_id)
    sides = store.sides_of(match)
    if not sets_up_again(sides):
        message = gettext(
            "This form cannot seat the sides of %(match)s as they were: check the players, how "
            "they sit and the team names before you begin.",
            match=match.name,
        )
        flash(message)
    rules = store.rules_of(match)
    dealer = store.dealer_of(match, rules.rounds + 1)
    values = values_like(
        match.name, match.preset, rules, sides, match.language, first_dealer=dealer
    )
    return setup_page(MatchForm(data=values))


def setup_page(form: MatchForm, template: str = "matches/new.html", **more: object) -> str:
    """Render the set-up form: a match's own, or, with `template` and `more`, a club's."""
    return render_template(
        template,
        form=form,
        house_rule_groups=house_rule_groups(),
        setting_labels=SETTING_LABELS,
        preset_values=preset_values(),
        default_preset=DEFAULT_PRESET,  # for a preset posted by hand that is none
        seatings={key: [seating.teams, seating.team_size] for key, seating in SEATINGS.items()},
        **more,
    )
