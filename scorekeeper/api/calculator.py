"""The calculator: presets, a round scored and melds checked, nothing stored; and the OpenAPI
document of the whole API."""

from __future__ import annotations

from flask import Response, jsonify
from flask_babel import gettext

from scorekeeper.api import answer, body_as, bp
from scorekeeper.api.openapi import openapi_document
from scorekeeper.api.schemas import (
    Error,
    MeldCheck,
    MeldCheckRequest,
    Preset,
    PresetList,
    RefusedRound,
    RoundScore,
    ScoreRequest,
    SideScore,
)
from scorekeeper.documents import Settings
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.melds import check_melds
from scorekeeper.domain.problems import Problem, ProblemsError
from scorekeeper.domain.rules import PRESETS, RuleSet
from scorekeeper.domain.scoring import score_round, scores_apart
from scorekeeper.i18n import problem_dict, problem_message


@bp.get("/presets")
def presets() -> Response:
    listed = [
        Preset(
            key=preset.key,
            name=gettext(preset.name),
            source=preset.source,
            settings=Settings(preset.rules.as_settings()),
        )
        for preset in PRESETS.values()
    ]
    return answer(PresetList(presets=listed))


@bp.post("/score")
def score() -> Response | tuple[Response, int]:
    body = body_as(ScoreRequest)
    rules, entry = body.given_rules.rule_set(), body.entry()
    try:
        return answer(RoundScore.of(score_round(rules, entry)))
    except ProblemsError as refused:
        return _refused_round(rules, entry, refused.problems), 422


def _refused_round(rules: RuleSet, entry: RoundEntry, problems: list[Problem]) -> Response:
    """Answer a round the engine refuses with its problems, and the score of each side that
    none of them concerns (null for the others), as a form shows it while the table types."""
    sides = [
        None if scored is None else SideScore.of(scored)
        for scored in scores_apart(rules, entry, problems)
    ]
    errors = [Error.model_validate(problem_dict(problem)) for problem in problems]
    return answer(RefusedRound(errors=errors, sides=sides))


@bp.post("/meld-check")
def meld_check() -> Response:
    body = body_as(MeldCheckRequest)
    result = check_melds(
        body.given_rules.rule_set(),
        [meld.meld() for meld in body.melds],
        round_number=body.round,
        running_score=body.running_score,
    )
    return answer(MeldCheck.of(result, problem_message))


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())
