"""Blueprint for the JSON API, version 1: the calculator and its OpenAPI document."""

from __future__ import annotations

import sys
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext
from werkzeug.exceptions import BadRequest, HTTPException

from scorekeeper.entries import RoundEntry
from scorekeeper.exports import unknown_keys
from scorekeeper.extensions import csrf
from scorekeeper.i18n import http_error_message, problem_dict
from scorekeeper.melds import MeldCheck, check_melds
from scorekeeper.openapi import openapi_document
from scorekeeper.pages import error_page, with_error_headers
from scorekeeper.payloads import optional_integer, parse_melds, parse_round, parse_rules
from scorekeeper.problems import N_, Problem, ProblemsError
from scorekeeper.rules import PRESETS, RuleSet
from scorekeeper.scoring import RoundScore, SideScore, score_round, scores_apart

API_PATHS = "/api/"
SCORE_KEYS = ("rules", "round", "players", "side_players", "sides")
MELD_CHECK_KEYS = ("rules", "round", "running_score", "melds")
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


def json_body(known: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Return the request's JSON object, or raise `BadRequestBody`; with `known`, raise
    `ProblemsError` for any other key, as the OpenAPI document forbids them."""
    if not request.is_json:
        raise BadRequestBody(NOT_JSON)
    try:
        body = request.get_json()
    except (BadRequest, RecursionError):  # RecursionError: nested too deep for the parser
        raise BadRequestBody(UNREADABLE_JSON) from None
    if not isinstance(body, dict):
        raise BadRequestBody(NOT_AN_OBJECT)
    if known is not None and (problems := unknown_keys(body, known)):
        raise ProblemsError(problems)
    return body


@bp.get("/presets")
def presets() -> Response:
    return jsonify(
        presets=[
            {
                "key": preset.key,
                "name": gettext(preset.name),
                "source": preset.source,
                "settings": preset.rules.as_settings(),
            }
            for preset in PRESETS.values()
        ]
    )


@bp.post("/score")
def score() -> Response | tuple[Response, int]:
    body = json_body(SCORE_KEYS)
    rules = parse_rules(body.get("rules"))
    entry = parse_round(body)
    try:
        return jsonify(round_score_json(score_round(rules, entry)))
    except ProblemsError as refused:
        return _refused_round(rules, entry, refused.problems), 422


def _refused_round(rules: RuleSet, entry: RoundEntry, problems: list[Problem]) -> Response:
    """Answer a round the engine refuses with its problems, and the score of each side that
    none of them concerns (null for the others), as a form shows it while the table types."""
    sides = [
        None if scored is None else side_score_json(scored)
        for scored in scores_apart(rules, entry, problems)
    ]
    return jsonify(errors=[problem_dict(problem) for problem in problems], sides=sides)


def round_score_json(result: RoundScore) -> dict[str, Any]:
    """Return a scored round as the API shows it."""
    return {
        "round": result.round_number,
        "meld_minimum": result.meld_minimum,
        "sides": [side_score_json(side) for side in result.sides],
    }


def side_score_json(side: SideScore) -> dict[str, Any]:
    """Return one side's score in a round as the API shows it."""
    return {
        "name": side.name,
        "score": side.score,
        "meld_minimum": side.meld_minimum,
        "breakdown": side.breakdown.as_dict(),
    }


@bp.post("/meld-check")
def meld_check() -> Response:
    body = json_body(MELD_CHECK_KEYS)
    rules = parse_rules(body.get("rules"))
    round_number = optional_integer(body, "round", default=1)
    running_score = optional_integer(body, "running_score", default=0)
    melds = parse_melds(body.get("melds"))
    result = check_melds(rules, melds, round_number=round_number, running_score=running_score)
    return jsonify(meld_check_json(result))


def meld_check_json(result: MeldCheck) -> dict[str, Any]:
    return {
        "minimum": result.minimum,
        "points": result.points,
        "meets": result.meets,
        "short_by": result.short_by,
        "melds": [
            {
                "valid": meld.valid,
                "points": meld.points,
                "problems": [problem_dict(problem)["message"] for problem in meld.problems],
            }
            for meld in result.melds
        ],
    }


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())
