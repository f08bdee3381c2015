"""The standings of a match: on the view link for everyone, on the edit link with its controls."""

from __future__ import annotations

from flask import render_template, url_for
from flask_babel import gettext

from scorekeeper import store
from scorekeeper.domain.rules import PRESETS
from scorekeeper.serving.http import match_or_404
from scorekeeper.store import MatchView
from scorekeeper.web.forms import changed_house_rules
from scorekeeper.web.matches.blueprint import bp, editable_match
from scorekeeper.web.matches.rounds import form_etag


@bp.get("/m/<public_id:public_id>")
def view(public_id: str) -> str:
    return standings_page(store.match_view(match_or_404(public_id)))


@bp.get("/m/<public_id:public_id>/edit/<token>")
def edit(public_id: str, token: str) -> str:
    return standings_page(store.match_view(editable_match(public_id, token)), token=token)


def standings_page(view: MatchView, *, token: str | None = None) -> str:
    public_id = view.match.public_id
    round_urls = {
        number: url_for(".edit_round", public_id=public_id, token=token, number=number)
        for number in (scored.number for scored in view.rounds)
        if token is not None
    }
    corrections = [{"url": url, "etag": form_etag(view, n)} for n, url in round_urls.items()]
    return render_template(
        "matches/standings.html",
        view=view,
        token=token,
        round_urls=round_urls,
        corrections=corrections,
        chart=view.chart(),
        preset=PRESETS.get(view.match.preset),
        house_rules=changed_house_rules(view.match.preset, view.rules),
        rounds_to_enter=_rounds_to_enter(view, token),
    )


def _rounds_to_enter(view: MatchView, token: str | None) -> list[dict[str, object]]:
    """Return the rounds still to play, in order, each with its form's address and ETag, the
    label of the button to it and who deals it. The first is the next to enter; a phone with
    rounds waiting on it offers the first that none of them enters (queued-rounds.js), and
    keeps every one's form, as of its ETag, to enter it offline."""
    if token is None:
        return []
    public_id = view.match.public_id
    return [
        {
            "round": number,
            "url": url_for(".new_round", public_id=public_id, token=token, round=number),
            "etag": form_etag(view, number),
            "label": gettext("Enter round %(round)s", round=number),
            "dealer": gettext(
                "%(player)s deals round %(round)s.", player=view.dealer(number), round=number
            ),
        }
        for number in range(1, view.rules.rounds + 1)
        if view.entered_round(number) is None
    ]
