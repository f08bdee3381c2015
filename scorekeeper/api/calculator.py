"""The calculator: presets, a round scored and melds checked, nothing stored; and the OpenAPI
document of the whole API."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask_babel import gettext

from scorekeeper.api import bp, json_body
from scorekeeper.api.openapi import openapi_document
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.melds import MeldCheck, check_melds
from scorekeeper.domain.payloads import optional_integer, parse_melds, parse_round, parse_rules
from scorekeeper.domain.problems import Problem, ProblemsError
from scorekeeper.domain.rules import PRESETS, RuleSet
from scorekeeper.domain.scoring import RoundScore, SideScore, score_round, scores_apart
from scorekeeper.i18n import problem_dict

SCORE_KEYS = ("rules", "round", "players", "side_players", "sides")
MELD_CHECK_KEYS = ("rules", "round", "running_score", "melds")


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
