"""The meld checker of a match: may a side's opening meld be laid down, and does it reach the
side's minimum in the round to play? Open to the whole table, as it changes nothing."""

from __future__ import annotations

from flask import render_template, request
from flask_babel import gettext
from wtforms.fields import SelectChoice  # type: ignore[attr-defined]  # types-WTForms lacks it

from scorekeeper import store
from scorekeeper.domain.melds import MeldCheck, MeldResult, check_melds, meld_ranks
from scorekeeper.serving.http import match_or_404
from scorekeeper.store import MatchView
from scorekeeper.web.forms import NOT_A_WHOLE_NUMBER
from scorekeeper.web.forms.melds import MeldCheckForm
from scorekeeper.web.matches.blueprint import bp, editable_match

# A check shown: the domain's answer, and each meld's by the form row it was entered in.
Checked = tuple[MeldCheck, dict[int, MeldResult]]


@bp.get("/m/<public_id:public_id>/melds")
@bp.get("/m/<public_id:public_id>/edit/<token>/melds")
def meld_check(public_id: str, token: str | None = None) -> str:
    match = match_or_404(public_id) if token is None else editable_match(public_id, token)
    view = store.match_view(match)
    number = view.next_round or view.rules.rounds  # after the last round, its minimum
    form = MeldCheckForm(
        _side_choices(view, view.meld_minimums_in(number)),
        ranks=meld_ranks(view.rules),
        formdata=request.args or None,
    )
    running = view.scores_before(number)
    checked = _checked(form, view, number, running) if request.args else None
    return render_template(
        "matches/melds.html",
        view=view,
        token=token,
        number=number,
        form=form,
        check=checked,
        running=running,  # each side's, for the live check's running score
        # The calculator API takes the match's rules as overrides of the default preset.
        live_rules={"overrides": view.rules.as_settings()},
        not_a_number=NOT_A_WHOLE_NUMBER,
    )


def _side_choices(view: MatchView, minimums: tuple[int, ...]) -> list[SelectChoice]:
    """Return a choice per side, each named with the minimum its opening meld must reach."""
    return [
        SelectChoice(
            str(index), gettext("%(side)s: at least %(minimum)s", side=name, minimum=minimum)
        )
        for index, (name, minimum) in enumerate(zip(view.side_names, minimums, strict=True))
    ]


def _checked(
    form: MeldCheckForm, view: MatchView, number: int, running: tuple[int, ...]
) -> Checked | None:
    """Return the check of the melds entered; None while a box cannot be read or none is
    entered, which the form's errors then say."""
    valid = form.validate()
    laid_down = form.laid_down()
    if not valid or not laid_down:
        return None
    score = running[form.side_index()]
    check = check_melds(
        view.rules,
        [meld for _, meld in laid_down],
        round_number=number,
        running_score=score,
        numbers=[row + 1 for row, _ in laid_down],  # each by the row it was entered in
    )
    rows = {row: result for (row, _), result in zip(laid_down, check.melds, strict=True)}
    return check, rows
