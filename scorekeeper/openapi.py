"""The OpenAPI 3.1 document of the JSON API, built from the same keys the code reads."""

from __future__ import annotations

import enum
from dataclasses import fields
from typing import Any

from scorekeeper.entries import COUNT_KEYS, MELDED_COUNT_KEYS
from scorekeeper.melds import RANKS
from scorekeeper.rules import (
    PRESETS,
    SETTING_KEYS,
    BookCounts,
    CardValues,
    DeckCount,
    MeldMinimumMode,
    Permission,
    WildRatio,
)

_INTEGER = {"type": "integer"}
_COUNT = {"type": "integer", "minimum": 0}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _object(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = list(required)
    return schema


def _choice(choices: type[enum.StrEnum]) -> dict[str, Any]:
    return {"type": "string", "enum": [member.value for member in choices]}


def _settings() -> dict[str, Any]:
    """Return the schema of a complete set of settings, as the presets list them."""
    boolean = {"type": "boolean"}
    types: dict[str, Any] = {
        "decks": {"oneOf": [{"type": "integer", "minimum": 1}, _choice(DeckCount)]},
        "meld_minimum_mode": _choice(MeldMinimumMode),
        "meld_minimums": {"type": "array", "items": _COUNT, "minItems": 1},
        "card_values": _object({f.name: _COUNT for f in fields(CardValues)}),
        "wild_books_allowed": boolean,
        "max_wilds_per_meld": {"type": ["integer", "null"], "minimum": 1},
        "wild_ratio": _choice(WildRatio),
        "going_out_requires": _object({f.name: _COUNT for f in fields(BookCounts)}),
        "red_threes_laid_down": boolean,
        "permission_to_go_out": _choice(Permission),
    }
    properties = {key: types.get(key, _INTEGER) for key in SETTING_KEYS}
    return _object(properties, SETTING_KEYS)


ERROR_RESPONSES = {
    "400": _json(_ref("Errors"), "The body is not a JSON object."),
    "413": _json(_ref("Errors"), "The body is too large."),
    "415": _json(_ref("Errors"), "The body is not JSON."),
    "422": _json(_ref("Errors"), "The request is impossible under the rules; nothing is stored."),
}


def _schemas() -> dict[str, Any]:
    side_properties: dict[str, Any] = {
        "name": {"type": "string", "maxLength": 60},
        **{
            key: _COUNT
            for key in ("clean_books", "dirty_books", "wild_books", "red_threes", "red_threes_held")
        },
        "melded_points": _COUNT,
        "melded": _object({key: _COUNT for key in MELDED_COUNT_KEYS}),
        "leftover_points": _COUNT,
        "leftover": _object({key: _COUNT for key in COUNT_KEYS}),
        "went_out": {"type": "boolean"},
        "deal_bonus": {"type": "boolean"},
        "running_score": _INTEGER,
    }
    breakdown_keys = ("books", "melded", "red_threes", "going_out", "deal_bonus", "leftover")
    return {
        "Rules": _object(
            {
                "preset": {"type": "string", "enum": list(PRESETS)},
                "overrides": {
                    "type": "object",
                    "description": "Settings of RULES.md section 5 that differ from the preset.",
                    "propertyNames": {"enum": list(SETTING_KEYS)},
                },
            }
        ),
        "Settings": _settings(),
        "Preset": _object(
            {
                "key": {"type": "string"},
                "name": {"type": "string"},
                "source": {"type": "string"},
                "settings": _ref("Settings"),
            },
            ("key", "name", "settings"),
        ),
        "PresetList": _object(
            {"presets": {"type": "array", "items": _ref("Preset")}}, ("presets",)
        ),
        "Side": _object(side_properties),
        "ScoreRequest": _object(
            {
                "rules": _ref("Rules"),
                "round": {"type": "integer", "minimum": 1},
                "players": {"type": "integer", "minimum": 1, "maximum": 6},
                "sides": {"type": "array", "items": _ref("Side"), "minItems": 1, "maxItems": 6},
            },
            ("round", "sides"),
        ),
        "Breakdown": _object({key: _INTEGER for key in breakdown_keys}, breakdown_keys),
        "SideScore": _object(
            {
                "name": {"type": "string"},
                "score": _INTEGER,
                "meld_minimum": _INTEGER,
                "breakdown": _ref("Breakdown"),
            },
            ("name", "score", "meld_minimum", "breakdown"),
        ),
        "RoundScore": _object(
            {
                "round": _INTEGER,
                "meld_minimum": {"type": ["integer", "null"]},
                "sides": {"type": "array", "items": _ref("SideScore")},
            },
            ("round", "meld_minimum", "sides"),
        ),
        "Meld": _object(
            {
                "rank": {"type": "string", "enum": list(RANKS)},
                "naturals": _COUNT,
                "twos": _COUNT,
                "jokers": _COUNT,
            },
            ("rank",),
        ),
        "MeldCheckRequest": _object(
            {
                "rules": _ref("Rules"),
                "round": {"type": "integer", "minimum": 1},
                "running_score": _INTEGER,
                "melds": {"type": "array", "items": _ref("Meld"), "minItems": 1},
            },
            ("melds",),
        ),
        "MeldCheck": _object(
            {
                "minimum": _INTEGER,
                "points": _INTEGER,
                "meets": {"type": "boolean"},
                "short_by": _INTEGER,
                "melds": {
                    "type": "array",
                    "items": _object(
                        {
                            "valid": {"type": "boolean"},
                            "points": _INTEGER,
                            "problems": {"type": "array", "items": {"type": "string"}},
                        },
                        ("valid", "points", "problems"),
                    ),
                },
            },
            ("minimum", "points", "meets", "short_by", "melds"),
        ),
        "Errors": _object(
            {
                "errors": {
                    "type": "array",
                    "items": _object(
                        {
                            "side": {"type": ["integer", "null"]},
                            "field": {"type": ["string", "null"]},
                            "message": {"type": "string"},
                        },
                        ("side", "field", "message"),
                    ),
                }
            },
            ("errors",),
        ),
    }


def _paths() -> dict[str, Any]:
    return {
        "/api/v1/presets": {
            "get": {
                "operationId": "listPresets",
                "summary": "Every rules preset with its complete settings.",
                "responses": {"200": _json(_ref("PresetList"), "The presets.")},
            }
        },
        "/api/v1/score": {
            "post": {
                "operationId": "scoreRound",
                "summary": "Score one round for every side; nothing is stored.",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("ScoreRequest")}},
                },
                "responses": {
                    "200": _json(_ref("RoundScore"), "Every side's score and breakdown."),
                    **ERROR_RESPONSES,
                },
            }
        },
        "/api/v1/meld-check": {
            "post": {
                "operationId": "checkMelds",
                "summary": "Check melds about to be laid down against the rules and the minimum.",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("MeldCheckRequest")}},
                },
                "responses": {
                    "200": _json(_ref("MeldCheck"), "Each meld's points and problems."),
                    **ERROR_RESPONSES,
                },
            }
        },
        "/api/v1/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This document.",
                "responses": {"200": _json({"type": "object"}, "The OpenAPI document.")},
            }
        },
    }


def openapi_document() -> dict[str, Any]:
    """Return the OpenAPI 3.1 document of API version 1."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "scorekeeper",
            "version": "1",
            "description": "Score Hand and Foot under a table's own house rules.",
        },
        "paths": _paths(),
        "components": {"schemas": _schemas()},
    }
