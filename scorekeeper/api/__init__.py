"""The JSON API, version 1: its blueprint, its error answers, how it reads a JSON body and
answers one.

The routes join `bp` from `calculator` (nothing stored), `matches` (stored matches) and `clubs`.
"""

from __future__ import annotations

import sys
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext
from pydantic import BaseModel
from werkzeug.exceptions import BadRequest, HTTPException, Unauthorized

from scorekeeper.documents import B, validated
from scorekeeper.domain.problems import N_, ProblemsError
from scorekeeper.extensions import csrf
from scorekeeper.i18n import http_error_message, problem_dict
from scorekeeper.serving.http import error_page, with_error_headers

API_PATHS = "/api/"
bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # the API takes no cookies for authority: a bearer token or nothing


class BadRequestBody(Exception):
    """The body is not a JSON object: its argument says why, as a message to translate."""


NOT_JSON = N_("Send the request body as JSON, with the header Content-Type: application/json.")
UNREADABLE_JSON = N_(
    "The request body is not JSON that can be read: check its brackets, quotes and commas, and "
    "that each number has at most %(digits)s digits."
)
NOT_AN_OBJECT = N_("The request body must be a JSON object.")


@bp.errorhandler(ProblemsError)
def _problems(error: ProblemsError) -> tuple[Response, int]:
    return jsonify(errors=[problem_dict(problem) for problem in error.problems]), 422


def error_list(message: str, field: str | None = None) -> Response:
    """Return the JSON error list of one problem of the whole request."""
    return jsonify(errors=[{"side": None, "field": field, "message": message}])


@bp.errorhandler(BadRequestBody)
def _bad_body(error: BadRequestBody) -> tuple[Response, int]:
    # Python's limit on the digits of a number it reads, which 0 turns off.
    digits = sys.get_int_max_str_digits() or sys.int_info.default_max_str_digits
    message = gettext(error.args[0], digits=digits)
    return error_list(message, "body"), 400


@bp.errorhandler(HTTPException)  # before any error page the app may have for the same code
@bp.app_errorhandler(HTTPException)  # routing errors, which no blueprint sees
def _http_error(error: HTTPException) -> Response:
    """Answer an HTTP error under /api/ as the JSON error list, with its headers (Allow,
    Retry-After...): an unknown path or method too. Other paths get the error page."""
    if not request.path.startswith(API_PATHS):
        return error_page(error)
    response = error_list(http_error_message(error))
    response.status_code = error.code or 500
    return with_error_headers(response, error)


def json_body() -> dict[str, Any]:
    """Return the request's JSON object, or raise `BadRequestBody`."""
    if not request.is_json:
        raise BadRequestBody(NOT_JSON)
    try:
        body = request.get_json()
    except (BadRequest, RecursionError):  # RecursionError: nested too deep for the parser
        raise BadRequestBody(UNREADABLE_JSON) from None
    if not isinstance(body, dict):
        raise BadRequestBody(NOT_AN_OBJECT)
    return body


def body_as(model: type[B]) -> B:
    """Return the request's JSON object read into `model`; raise `ProblemsError` with each field
    of the wrong shape."""
    return validated(model, json_body())


def answer(body: BaseModel) -> Response:
    """Return `body` as the JSON answer."""
    return jsonify(body.model_dump(mode="json"))


def bearer_token(missing: str) -> str:
    """Return the edit token the request sends as its bearer token; answer 401 with the
    message `missing` when it sends none."""
    authorization = request.authorization
    token = authorization.token if authorization and authorization.type == "bearer" else None
    if not token:
        raise Unauthorized(missing)
    return token
