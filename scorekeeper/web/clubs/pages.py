"""A club's page, on its view link for everyone and on its edit link with the forms that add
players and matches; and the page of each of its players."""

from __future__ import annotations

from typing import Any

from flask import abort, render_template, request, url_for

from scorekeeper import store
from scorekeeper.domain.chart import scores_chart
from scorekeeper.serving.http import club_or_404
from scorekeeper.store.models import Club
from scorekeeper.web.clubs.blueprint import bp, club_or_editable, editable_club, preset_names
from scorekeeper.web.forms.clubs import AttachForm, PlayerForm, RecordFilterForm

# The newest matches and the best partnerships a club's page lists, unless asked for all.
MATCHES_SHOWN = 20
PAIRS_SHOWN = 10


@bp.get("/c/<public_id:public_id>")
def view(public_id: str) -> str:
    return club_page(club_or_404(public_id))


@bp.get("/c/<public_id:public_id>/edit/<token>")
def edit(public_id: str, token: str) -> str:
    return club_page(editable_club(public_id, token), token=token)


def club_page(
    club: Club,
    *,
    token: str | None = None,
    player_form: PlayerForm | None = None,
    attach_form: AttachForm | None = None,
) -> str:
    """Render the club's records as the query filters them, and on its edit link its forms, as
    sent when one of them is shown again."""
    filters = RecordFilterForm(request.args)
    view = store.club_view(club, filters.record_filter())
    every = request.args.getlist("all")
    arguments: dict[str, Any] = {"public_id": club.public_id, "token": token, **filters.query()}
    endpoint = ".edit" if token else ".view"
    return render_template(
        "clubs/club.html",
        view=view,
        token=token,
        filters=filters,
        matches=view.results if "matches" in every else view.results[:MATCHES_SHOWN],
        pairs=view.pairs if "pairs" in every else view.pairs[:PAIRS_SHOWN],
        every_match_url=url_for(endpoint, **arguments, all=[*every, "matches"]),
        every_pair_url=url_for(
            endpoint, **arguments, all=[*every, "pairs"], _anchor="partnerships"
        ),
        preset_names=preset_names(),
        player_form=player_form or PlayerForm(formdata=None),
        attach_form=attach_form or AttachForm(formdata=None),
    )


@bp.get("/c/<public_id:public_id>/players/<int:number>")
@bp.get("/c/<public_id:public_id>/edit/<token>/players/<int:number>")
def player(public_id: str, number: int, token: str | None = None) -> str:
    club = club_or_editable(public_id, token)
    member = store.player_numbered(club, number)
    if member is None:
        abort(404)
    view = store.player_view(club, member)
    chart = scores_chart(member.name, view.record.scores) if view.record.scores else None
    return render_template("clubs/player.html", view=view, token=token, chart=chart)
