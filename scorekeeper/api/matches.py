"""JSON API v1 for stored matches: create, read, enter and edit rounds, export and import.

Reading needs only the match's unguessable id; changing it needs its edit token as a bearer
token. Rounds carry a version as their ETag, and changes must name it in If-Match, so that two
phones at one table cannot overwrite each other's entries unknowingly. A change sent with an
Idempotency-Key applies once, however often it is retried.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from typing import NoReturn

from flask import Response, abort, current_app, jsonify, request, send_file, url_for
from flask_babel import gettext
from werkzeug.exceptions import PreconditionRequired, Unauthorized

from scorekeeper import store
from scorekeeper.api import answer, bearer_token, body_as, bp, error_list, json_body
from scorekeeper.api.schemas import (
    CreatedMatch,
    CreateMatchRequest,
    Error,
    NewMatch,
    RotatedToken,
    RoundEdit,
    StaleRound,
    StoredRound,
)
from scorekeeper.api.schemas import Match as MatchAnswer
from scorekeeper.documents import EnteredRound
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.i18n import LANGUAGES, problem_dict
from scorekeeper.serving import rate_limit
from scorekeeper.serving.http import names_version
from scorekeeper.serving.security import hand_out_token
from scorekeeper.store import ScoredRound
from scorekeeper.store.exports import language_problems
from scorekeeper.store.models import Club, Match

IDEMPOTENCY_KEY = "Idempotency-Key"


@bp.errorhandler(store.StaleVersion)
def _stale(error: store.StaleVersion) -> tuple[Response, int]:
    current = error.current
    message = gettext(
        "Round %(round)s changed since you read it: here it is now, at version %(version)s.",
        round=current.number,
        version=current.version,
    )
    errors = [Error(side=None, field="If-Match", message=message)]
    response = answer(StaleRound(errors=errors, current=StoredRound.of(current)))
    response.set_etag(str(current.version))
    return response, 412


@bp.errorhandler(store.RoundNotFound)
def _round_not_found(error: store.RoundNotFound) -> tuple[Response, int]:
    message = gettext("This match has no round %(round)s.", round=error.args[0])
    return error_list(message, "round"), 404


@bp.errorhandler(store.OperationIdRefused)
def _operation_id_refused(error: store.OperationIdRefused) -> tuple[Response, int]:
    # The store names its keyword; the client sent a header.
    problems = [
        replace(problem, field=IDEMPOTENCY_KEY, params={**problem.params, "field": IDEMPOTENCY_KEY})
        for problem in error.problems
    ]
    return jsonify(errors=[problem_dict(problem) for problem in problems]), 422


@bp.errorhandler(store.TokenRefused)
def _token_refused(_error: store.TokenRefused) -> tuple[Response, int]:
    """A new edit link replaced the token while its change was being made: as a wrong token."""
    return error_list(_wrong_token_message()), 403


@bp.errorhandler(Unauthorized)
def _unauthorized(error: Unauthorized) -> tuple[Response, int]:
    response = error_list(error.description or "")
    response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    return response, 401


# -- Matches -------------------------------------------------------------------------------------


@bp.post("/matches")
def create_match() -> tuple[Response, int, dict[str, str]]:
    body = body_as(CreateMatchRequest)
    return created_match(new_match(body, [side.spec() for side in body.sides]))


def new_match(
    body: NewMatch, sides: Sequence[store.SideSpec], *, club: Club | None = None
) -> store.CreatedMatch:
    """Store the match a body sets up, with these sides, in `club` if given."""
    if problems := language_problems(body.language, LANGUAGES):
        raise ProblemsError(problems)
    rules = body.given_rules
    return store.create_match(
        body.name,
        rules.preset,
        rules.rule_set(),
        sides,
        language=body.language,
        first_dealer=body.dealer(),
        club=club,
    )


@bp.post("/matches/import")
def import_match() -> tuple[Response, int, dict[str, str]]:
    return created_match(store.import_match(json_body()))


def created_match(created: store.CreatedMatch) -> tuple[Response, int, dict[str, str]]:
    """Answer a new match: 201 with its id, edit token and links, located at its API page."""
    location = url_for("api.get_match", public_id=created.match.public_id, _external=True)
    hand_out_token()
    return answer(match_links(created)), 201, {"Location": location}


def match_links(created: store.CreatedMatch) -> CreatedMatch:
    """Return a new match's id, its edit token (shown this once) and its links."""
    public_id = created.match.public_id
    return CreatedMatch(
        id=public_id,
        edit_token=created.edit_token,
        edit_url=_edit_url(public_id, created.edit_token),
        view_url=url_for("matches.view", public_id=public_id, _external=True),
    )


def _edit_url(public_id: str, token: str) -> str:
    return url_for("matches.edit", public_id=public_id, token=token, _external=True)


@bp.post("/matches/<public_id:public_id>/token")
def rotate_token(public_id: str) -> Response:
    """Replace the edit token; a retry under the same Idempotency-Key, which still brings the
    replaced token, gets the same new one."""
    match = _match(public_id, whole=False)
    try:
        token = store.rotate_token_once(
            match,
            _bearer_token(),
            operation_id=_operation_id(),
            secret=current_app.config["SECRET_KEY"],
        )
    except store.TokenRefused:
        _wrong_token()
    return answer(RotatedToken(edit_token=token, edit_url=_edit_url(public_id, token)))


@bp.get("/matches/<public_id:public_id>")
def get_match(public_id: str) -> Response:
    version = _version_held(public_id)
    if version is not None:
        response = Response(status=304)
    else:
        match = _match(public_id)
        version = match.version
        response = answer(MatchAnswer.of(store.match_view(match)))
    response.set_etag(str(version))
    response.cache_control.no_cache = True
    return response


def _version_held(public_id: str) -> int | None:
    """Return the match's version when If-None-Match holds it: a polling phone whose match did
    not change costs one indexed read of that version, no rounds loaded and nothing scored."""
    if not request.if_none_match:
        return None
    version = store.match_version(public_id)
    if version is None:
        _no_such_match()
    return version if names_version(request.if_none_match, version, weak=True) else None


# -- Rounds --------------------------------------------------------------------------------------


@bp.post("/matches/<public_id:public_id>/rounds")
def add_round(public_id: str) -> tuple[Response, int, dict[str, str]]:
    match = _editable(public_id)
    scored = store.add_round(match, _round_body(), operation_id=_operation_id())
    location = url_for("api.get_round", public_id=public_id, number=scored.number, _external=True)
    return _round_response(scored), 201, {"Location": location}


@bp.get("/matches/<public_id:public_id>/rounds/<int:number>")
def get_round(public_id: str, number: int) -> Response:
    view = store.match_view(_match(public_id))
    scored = view.entered_round(number)
    if scored is None:
        raise store.RoundNotFound(number)
    return _round_response(scored)


@bp.put("/matches/<public_id:public_id>/rounds/<int:number>")
def replace_round(public_id: str, number: int) -> Response:
    match = _editable(public_id)
    version = _if_match_version(match, number)
    entry = _round_body(number)
    scored = store.replace_round(
        match, number, entry, version=version, operation_id=_operation_id()
    )
    return _round_response(scored)


@bp.delete("/matches/<public_id:public_id>/rounds/<int:number>")
def delete_round(public_id: str, number: int) -> tuple[str, int]:
    match = _editable(public_id)
    version = _if_match_version(match, number)
    store.delete_round(match, number, version=version, operation_id=_operation_id())
    return "", 204


def _operation_id() -> str | None:
    """Return the request's Idempotency-Key: a retry that sends it again applies nothing."""
    return request.headers.get(IDEMPOTENCY_KEY)


def _round_body(number: int | None = None) -> RoundEntry:
    """Return the entry of a round's body; in an edit, its round number is the URL's."""
    if number is None:
        return body_as(EnteredRound).entry()
    return body_as(RoundEdit).entry(number)


def _round_response(scored: ScoredRound) -> Response:
    response = answer(StoredRound.of(scored))
    response.set_etag(str(scored.version))
    return response


# -- Export --------------------------------------------------------------------------------------


@bp.get("/matches/<public_id:public_id>/export")
def export_match(public_id: str) -> Response:
    match = _match(public_id)
    document = current_app.json.dumps(store.export_match(match))
    return _download(document, match, "json", "application/json")


@bp.get("/matches/<public_id:public_id>/export.csv")
def export_csv(public_id: str) -> Response:
    match = _match(public_id)
    return _download(store.match_csv(match), match, "csv", "text/csv")


def _download(text: str, match: Match, extension: str, mimetype: str) -> Response:
    """Return `text` as a file named after the match and the day it began."""
    name = f"{match.name} {match.created_at:%Y-%m-%d}.{extension}"
    data = io.BytesIO(text.encode())
    return send_file(data, mimetype=mimetype, as_attachment=True, download_name=name)


# -- Finding and opening matches -----------------------------------------------------------------


def _match(public_id: str, *, whole: bool = True) -> Match:
    """Return the match, loaded whole or (for a new edit token) bare."""
    match = (store.get_match if whole else store.find_match)(public_id)
    if match is None:
        _no_such_match()
    rate_limit.match_found()
    return match


def _no_such_match() -> NoReturn:
    abort(404, gettext("There is no match with this id; check the link."))


def _editable(public_id: str) -> Match:
    """Return the match, loaded whole, when the request's bearer token is its edit token."""
    match = _match(public_id)
    if not store.token_opens(match, _bearer_token()):
        _wrong_token()
    return match


def _bearer_token() -> str:
    return bearer_token(gettext("Send the match's edit token as Authorization: Bearer <token>."))


def _wrong_token() -> NoReturn:
    abort(403, _wrong_token_message())


def _wrong_token_message() -> str:
    return gettext("This edit token does not open this match.")


def _if_match_version(match: Match, number: int) -> int:
    """Return the round version that If-Match names: the round's own where one of its tags is
    (RFC 9110: any tag may match), else 0, which no round has."""
    if not request.if_match or request.if_match.star_tag:
        raise PreconditionRequired(
            gettext("Send If-Match with the round's ETag, so that no one's entry is overwritten.")
        )
    stored = next((row for row in match.rounds if row.number == number), None)
    return stored.version if stored and names_version(request.if_match, stored.version) else 0
