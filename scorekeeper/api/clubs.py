"""JSON API v1 for clubs: create one, add its players and matches, read its records, export and
import it.

As for a match, reading needs only the club's unguessable id, and changing it the club's edit
token as a bearer token: 401 without one, 403 with a wrong one.
"""

from __future__ import annotations

import io
from typing import NoReturn

from flask import Response, abort, current_app, request, send_file, url_for
from flask_babel import gettext

from scorekeeper import store
from scorekeeper.api import answer, bearer_token, body_as, bp, json_body
from scorekeeper.api.matches import created_match, match_links, new_match
from scorekeeper.api.schemas import Club as ClubAnswer
from scorekeeper.api.schemas import (
    ClubPlayer,
    CreateClubMatchRequest,
    CreateClubRequest,
    CreatedClub,
    ImportedClub,
    NewClubPlayer,
)
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.records import RecordFilter
from scorekeeper.i18n import LANGUAGES
from scorekeeper.serving import rate_limit
from scorekeeper.serving.security import hand_out_token
from scorekeeper.store.exports import language_problems
from scorekeeper.store.models import Club

Created = tuple[Response, int, dict[str, str]]


@bp.post("/clubs")
def create_club() -> Created:
    body = body_as(CreateClubRequest)
    if problems := language_problems(body.language, LANGUAGES):
        raise ProblemsError(problems)
    created = store.create_club(body.name, language=body.language)
    return _created(_club_links(created), created.club.public_id)


@bp.post("/clubs/import")
def import_club() -> Created:
    """A club's export stored as a new club, its matches as new matches: every one with new
    links, all answered this once. It holds every match of the club, so it may be larger than
    other bodies."""
    request.max_content_length = current_app.config["MAX_CLUB_IMPORT_LENGTH"]
    imported = store.import_club(json_body())
    body = ImportedClub(
        **_club_links(imported.club).model_dump(),
        matches=[match_links(match) for match in imported.matches],
    )
    return _created(body, imported.club.club.public_id)


def _created(body: CreatedClub, public_id: str) -> Created:
    location = url_for("api.get_club", public_id=public_id, _external=True)
    hand_out_token()
    return answer(body), 201, {"Location": location}


def _club_links(created: store.CreatedClub) -> CreatedClub:
    public_id, token = created.club.public_id, created.edit_token
    return CreatedClub(
        id=public_id,
        edit_token=token,
        edit_url=url_for("clubs.edit", public_id=public_id, token=token, _external=True),
        view_url=url_for("clubs.view", public_id=public_id, _external=True),
    )


@bp.get("/clubs/<public_id:public_id>")
def get_club(public_id: str) -> Response:
    """The club's players with their records, which `preset` and `period` may filter, and its
    matches, newest first."""
    record_filter = RecordFilter.read(request.args.get("preset"), request.args.get("period"))
    view = store.club_view(_club(public_id), record_filter)
    return answer(ClubAnswer.of(view, _match_view_url))


def _match_view_url(public_id: str) -> str:
    return url_for("matches.view", public_id=public_id, _external=True)


@bp.post("/clubs/<public_id:public_id>/players")
def add_club_player(public_id: str) -> tuple[Response, int]:
    club = _editable(public_id)
    member = store.add_player(club, body_as(NewClubPlayer).name)
    return answer(ClubPlayer(id=member.number, name=member.name)), 201


@bp.post("/clubs/<public_id:public_id>/matches")
def create_club_match(public_id: str) -> Created:
    """A match of the club, its players named by their ids in the club."""
    club = _editable(public_id)
    body = body_as(CreateClubMatchRequest)
    sides = body.side_specs(store.members_named(club, _ids(body)))
    return created_match(new_match(body, sides, club=club))


def _ids(body: CreateClubMatchRequest) -> list[int]:
    return [player for side in body.sides for player in side.players]


@bp.get("/clubs/<public_id:public_id>/export")
def export_club(public_id: str) -> Response:
    club = _club(public_id)
    document = current_app.json.dumps(store.export_club(club))
    name = f"{club.name} {club.created_at:%Y-%m-%d}.json"
    data = io.BytesIO(document.encode())
    return send_file(data, mimetype="application/json", as_attachment=True, download_name=name)


def _club(public_id: str) -> Club:
    club = store.get_club(public_id)
    if club is None:
        _no_such_club()
    rate_limit.match_found()  # the club the URL's `public_id` names exists
    return club


def _no_such_club() -> NoReturn:
    abort(404, gettext("There is no club with this id; check the link."))


def _editable(public_id: str) -> Club:
    """Return the club when the request's bearer token is its edit token."""
    club = _club(public_id)
    token = bearer_token(gettext("Send the club's edit token as Authorization: Bearer <token>."))
    if not store.token_opens(club, token):
        abort(403, gettext("This edit token does not open this club."))
    return club
