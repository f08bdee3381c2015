"""The standings of a match: on the view link for everyone, on the edit link with its controls."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from flask import abort, render_template, request, session, url_for
from flask_babel import get_locale

from scorekeeper import store
from scorekeeper.domain.chart import running_totals_chart
from scorekeeper.domain.rules import PRESETS
from scorekeeper.printing import default_paper
from scorekeeper.serving.http import match_or_404
from scorekeeper.store import MatchView
from scorekeeper.web.forms import changed_house_rules
from scorekeeper.web.matches.blueprint import bp, editable_match
from scorekeeper.web.page_cache import RenderedPage, page_cache, render_to_keep


@bp.get("/m/<public_id:public_id>")
def view(public_id: str) -> str | bytes:
    """The page every phone at the table reloads: kept rendered until the match changes."""
    if request.query_string or "_flashes" in session:
        return standings_page(store.match_view(match_or_404(public_id)))
    version = store.match_version(public_id)
    if version is None:
        abort(404)
    # Everything the page shows besides the match: its address, language and paper.
    reader = (request.scheme, request.host, request.script_root, str(get_locale()), default_paper())
    return page_cache().page((public_id, *reader), version, partial(_view_to_keep, public_id))


def _view_to_keep(public_id: str) -> RenderedPage:
    view = store.match_view(match_or_404(public_id))
    return RenderedPage.of(view.match.version, standings_page(view, render=render_to_keep))


@bp.get("/m/<public_id:public_id>/edit/<token>")
def edit(public_id: str, token: str) -> str:
    return standings_page(store.match_view(editable_match(public_id, token)), token=token)


def standings_page(
    view: MatchView,
    *,
    token: str | None = None,
    render: Callable[..., str] = render_template,
) -> str:
    """Render the standings; `render_to_keep` renders them for the page cache."""
    public_id = view.match.public_id
    round_urls = {
        number: url_for(".edit_round", public_id=public_id, token=token, number=number)
        for number in (scored.number for scored in view.rounds)
        if token is not None
    }
    chart = running_totals_chart(
        view.side_names, view.standings.running_totals, view.standings.rounds_total
    )
    return render(
        "matches/standings.html",
        view=view,
        token=token,
        round_urls=round_urls,
        chart=chart,
        preset=PRESETS.get(view.match.preset),
        house_rules=changed_house_rules(view.match.preset, view.rules),
    )
