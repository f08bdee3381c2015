"""The OpenAPI 3.1 document of the JSON API, built from the same keys the code reads."""

from __future__ import annotations

import enum
from dataclasses import fields
from typing import Any

from scorekeeper.domain.entries import COUNT_KEYS, MELDED_COUNT_KEYS
from scorekeeper.domain.melds import RANKS
from scorekeeper.domain.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    SETTING_KEYS,
    SETTING_RANGES,
    BookCounts,
    CardValues,
    DeckCount,
    MeldMinimumMode,
    Permission,
    WildRatio,
)
from scorekeeper.domain.scoring import Breakdown
from scorekeeper.domain.setup import MAX_NAME_LENGTH
from scorekeeper.domain.validation import MIN_SIDES
from scorekeeper.i18n import LANGUAGES
from scorekeeper.serving.http import PublicIdConverter
from scorekeeper.store.edit_tokens import REPEAT_WINDOW
from scorekeeper.store.idempotency import KEEP_OPERATIONS, MAX_OPERATION_ID_LENGTH

_INTEGER = {"type": "integer"}
_COUNT = {"type": "integer", "minimum": 0}
_MELD_COUNT = {"type": "integer", "description": "Below 0 makes the meld invalid."}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


# Rules left out, or null, are the default preset's.
_RULES = {"oneOf": [_ref("Rules"), {"type": "null"}]}


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


def _in_range(key: str) -> dict[str, Any]:
    """Return the schema of the whole numbers a setting takes (`rules.SETTING_RANGES`)."""
    numbers = SETTING_RANGES[key]
    schema: dict[str, Any] = {"type": "integer", "minimum": numbers.low, "maximum": numbers.high}
    if numbers.step > 1:
        schema["multipleOf"] = numbers.step
    return schema


def _record_of(key: str, record: type) -> dict[str, Any]:
    return _object({f.name: _in_range(f"{key}.{f.name}") for f in fields(record)})


def _settings() -> dict[str, Any]:
    """Return the schema of a complete set of settings, as the presets list them."""
    boolean = {"type": "boolean"}
    types: dict[str, Any] = {
        "decks": {"oneOf": [_in_range("decks"), _choice(DeckCount)]},
        "meld_minimum_mode": _choice(MeldMinimumMode),
        "meld_minimums": {"type": "array", "items": _in_range("meld_minimums"), "minItems": 1},
        "card_values": _record_of("card_values", CardValues),
        "wild_books_allowed": boolean,
        "max_wilds_per_meld": {"oneOf": [_in_range("max_wilds_per_meld"), {"type": "null"}]},
        "wild_ratio": _choice(WildRatio),
        "going_out_requires": _record_of("going_out_requires", BookCounts),
        "red_threes_laid_down": boolean,
        "permission_to_go_out": _choice(Permission),
    }
    properties = {key: types.get(key) or _in_range(key) for key in SETTING_KEYS}
    return _object(properties, SETTING_KEYS)


ERROR_RESPONSES = {
    "400": _json(_ref("Errors"), "The body is not a JSON object."),
    "413": _json(_ref("Errors"), "The body is too large."),
    "422": _json(_ref("Errors"), "The request is impossible under the rules; nothing is stored."),
}


def _schemas() -> dict[str, Any]:
    side_properties: dict[str, Any] = {
        **{
            key: _COUNT
            for key in ("clean_books", "dirty_books", "wild_books", "red_threes", "red_threes_held")
        },
        "melded_points": _COUNT,
        "melded": _object({key: _COUNT for key in MELDED_COUNT_KEYS}),
        "leftover_points": _COUNT,
        "leftover": _object({key: _COUNT for key in COUNT_KEYS}),
        "went_out": {"type": "boolean"},
        "deal_bonus": {
            "type": ["integer", "boolean"],
            "minimum": 0,
            "description": "The side's players who cut exactly the cards; true counts 1.",
        },
        "running_score": _INTEGER,
    }
    breakdown_keys = tuple(f.name for f in fields(Breakdown))
    return {
        "Rules": _object(
            {
                "preset": {"type": "string", "enum": list(PRESETS)},
                "overrides": {
                    "type": ["object", "null"],
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
        "Side": _object(
            {"name": {**_NAME, "description": "Not only spaces."}, **side_properties}, ("name",)
        ),
        # A stored round's sides are the match's: its names and the running scores it counts.
        "RoundSide": _object(
            {
                "name": {**_NAME, "description": "Not stored: the match's side, in order."},
                **side_properties,
                "running_score": {**_INTEGER, "description": "Ignored: the match counts it."},
            }
        ),
        "ScoreRequest": _object(
            {
                "rules": _RULES,
                "round": {"type": "integer", "minimum": 1},
                "players": {
                    "type": ["integer", "null"],
                    "minimum": MIN_PLAYERS,
                    "maximum": MAX_PLAYERS,
                },
                "side_players": {
                    "type": ["array", "null"],
                    "items": {"type": "integer", "minimum": 1},
                    "maxItems": MAX_PLAYERS,
                    "description": "Each side's players, in the order of the sides.",
                },
                "sides": {
                    "type": "array",
                    "items": _ref("Side"),
                    "minItems": 1,
                    "maxItems": MAX_PLAYERS,
                },
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
        # The checker answers any rank and count: a meld no cards can make is answered invalid.
        "Meld": _object(
            {
                "rank": {
                    "type": "string",
                    "examples": list(RANKS),
                    "description": "A, K ... 4, or wild; any other rank makes the meld invalid.",
                },
                "naturals": _MELD_COUNT,
                "twos": _MELD_COUNT,
                "jokers": _MELD_COUNT,
            },
            ("rank",),
        ),
        "MeldCheckRequest": _object(
            {
                "rules": _RULES,
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
                            "adds_up": {
                                "description": "For a problem of the whole table, such as more "
                                "of a card than the decks hold: the sides' fields that add up "
                                "to it.",
                                "type": "array",
                                "items": _object(
                                    {"side": {"type": "integer"}, "field": {"type": "string"}},
                                    ("side", "field"),
                                ),
                            },
                        },
                        ("side", "field", "message"),
                    ),
                }
            },
            ("errors",),
        ),
        "RefusedRound": _object(
            {
                "errors": {"$ref": "#/components/schemas/Errors/properties/errors"},
                "sides": {
                    "description": "Each side's score, null for a side that a problem concerns: "
                    "its own, one its fields add up to, or one of the whole table that names no "
                    "side's fields. Left out when the body itself could not be read.",
                    "type": "array",
                    "items": {"oneOf": [_ref("SideScore"), {"type": "null"}]},
                },
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
                    "422": _json(
                        _ref("RefusedRound"),
                        "The round is impossible under the rules: every problem, and the score "
                        "of each side that none of them concerns.",
                    ),
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


# -- Stored matches ------------------------------------------------------------------------------

_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH}
_LANGUAGE = {
    "enum": [*LANGUAGES, None],
    "description": "The language the match's PDFs print in; null: each reader's own.",
}
_EDIT_TOKEN: list[dict[str, list[str]]] = [{"editToken": []}]
_MATCH_ID = {
    "name": "public_id",
    "in": "path",
    "required": True,
    "description": "The match's id, as creating it answered.",
    "schema": {"type": "string", "pattern": f"^{PublicIdConverter.regex}$"},
}
_ROUND_NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}
_IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": True,
    "description": "The round's ETag (its version) as last read.",
    "schema": {"type": "string"},
}
_ETAG = {
    "ETag": {
        "description": "The version, to send back in If-Match or If-None-Match.",
        "schema": {"type": "string"},
    }
}
_TOKEN_RESPONSES = {
    "401": _json(_ref("Errors"), "No edit token was sent; nothing changed."),
    "403": _json(_ref("Errors"), "The edit token does not open this match; nothing changed."),
}
_IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": (
        "A new unique value (a UUID) per change: a retry that sends it again changes nothing "
        f"and gets the first answer. Kept for {KEEP_OPERATIONS.days} days; another change under "
        "it is refused (422)."
    ),
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_OPERATION_ID_LENGTH},
}
_LOOKUP_FAILURES = {
    "404": _json(_ref("Errors"), "No match has this id, or it has no such round."),
    "429": {
        **_json(
            _ref("Errors"),
            "This client sent too many unknown ids or wrong tokens lately; retry later.",
        ),
        "headers": {
            "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
        },
    },
}
_VERSION_RESPONSES = {
    "412": _json(_ref("StaleRound"), "The round changed since it was read; here it is now."),
    "428": _json(_ref("Errors"), "If-Match with the round's ETag is missing."),
}


def _match_schemas() -> dict[str, Any]:
    side_setup = _object(
        {"name": _NAME, "players": {"type": "array", "items": _NAME, "minItems": 1}},
        ("name", "players"),
    )
    return {
        "SideSetup": side_setup,
        "CreateMatchRequest": _object(
            {
                "name": _NAME,
                "rules": _RULES,
                "sides": {
                    "type": "array",
                    "items": _ref("SideSetup"),
                    "minItems": MIN_SIDES,
                    "maxItems": MAX_PLAYERS,
                },
                "language": _LANGUAGE,
            },
            ("name", "sides"),
        ),
        "CreatedMatch": _object(
            {
                "id": {"type": "string"},
                "edit_token": {"type": "string", "description": "Shown once: keep it."},
                "edit_url": {"type": "string", "format": "uri"},
                "view_url": {"type": "string", "format": "uri"},
            },
            ("id", "edit_token", "edit_url", "view_url"),
        ),
        "RotatedToken": _object(
            {
                "edit_token": {"type": "string", "description": "Shown once: keep it."},
                "edit_url": {"type": "string", "format": "uri"},
            },
            ("edit_token", "edit_url"),
        ),
        "RoundRequest": _object(
            {
                "round": {"type": "integer", "minimum": 1, "description": "The URL's, for PUT."},
                "sides": {
                    "type": "array",
                    "items": _ref("RoundSide"),
                    "minItems": MIN_SIDES,
                    "maxItems": MAX_PLAYERS,
                },
            },
            ("sides",),
        ),
        "StoredSideScore": _object(
            {
                "name": {"type": "string"},
                "score": _INTEGER,
                "meld_minimum": _INTEGER,
                "breakdown": _ref("Breakdown"),
                "running_score": _INTEGER,
                "entry": _ref("Side"),
            },
            ("name", "score", "meld_minimum", "breakdown", "running_score", "entry"),
        ),
        "StoredRound": _object(
            {
                "version": _INTEGER,
                "round": _INTEGER,
                "meld_minimum": {"type": ["integer", "null"]},
                "sides": {"type": "array", "items": _ref("StoredSideScore")},
                "running_totals": {"type": "array", "items": _INTEGER},
            },
            ("version", "round", "meld_minimum", "sides"),
        ),
        "StaleRound": _object(
            {
                "errors": {"$ref": "#/components/schemas/Errors/properties/errors"},
                "current": _ref("StoredRound"),
            },
            ("errors", "current"),
        ),
        "Match": _object(
            {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "preset": {"type": "string"},
                "rules": _ref("Settings"),
                "language": _LANGUAGE,
                "version": _INTEGER,
                "created_at": {"type": "string", "format": "date-time"},
                "updated_at": {"type": "string", "format": "date-time"},
                "sides": {"type": "array", "items": _ref("SideSetup")},
                "rounds": {"type": "array", "items": _ref("StoredRound")},
                "totals": {"type": "array", "items": _INTEGER},
                "next_round": {"type": ["integer", "null"]},
                "next_meld_minimums": {"type": ["array", "null"], "items": _INTEGER},
                "finished": {"type": "boolean"},
                "winner": {"type": ["string", "null"], "description": "A side's name."},
                "draw": {"type": "boolean"},
            },
            (
                "id",
                "name",
                "preset",
                "rules",
                "language",
                "version",
                "created_at",
                "updated_at",
                "sides",
                "rounds",
                "totals",
                "next_round",
                "next_meld_minimums",
                "finished",
                "winner",
                "draw",
            ),
        ),
        "MatchExport": {
            **_object(
                {
                    "format": {"const": "scorekeeper-match"},
                    "format_version": {"const": 1},
                    "name": _NAME,
                    "preset": {"type": "string"},
                    "settings": _ref("Settings"),
                    "language": {"type": ["string", "null"]},
                    "created_at": {"type": "string", "format": "date-time"},
                    "sides": {"type": "array", "items": _ref("SideSetup")},
                    "rounds": {
                        "type": "array",
                        "items": _object(
                            {
                                "round": {"type": "integer", "minimum": 1},
                                "sides": {"type": "array", "items": _ref("RoundSide")},
                            },
                            ("round", "sides"),
                        ),
                    },
                },
                ("format", "format_version", "name", "preset", "settings", "sides", "rounds"),
            ),
            "additionalProperties": True,  # an import ignores what it does not know
        },
    }


def _match_paths() -> dict[str, Any]:
    match = "/api/v1/matches/{public_id}"
    return {
        "/api/v1/matches": {
            "post": {
                "operationId": "createMatch",
                "summary": "Store a new match; its edit token is answered this once.",
                "requestBody": _body("CreateMatchRequest"),
                "responses": {
                    "201": _json(_ref("CreatedMatch"), "The new match."),
                    **ERROR_RESPONSES,
                },
            }
        },
        "/api/v1/matches/import": {
            "post": {
                "operationId": "importMatch",
                "summary": "Store an exported match as a new match with a new id and token.",
                "requestBody": _body("MatchExport"),
                "responses": {
                    "201": _json(_ref("CreatedMatch"), "The new match."),
                    **ERROR_RESPONSES,
                },
            }
        },
        match: {
            "parameters": [_MATCH_ID],
            "get": {
                "operationId": "getMatch",
                "summary": "The match: rules, sides, scored rounds, running totals and result.",
                "parameters": [
                    {"name": "If-None-Match", "in": "header", "schema": {"type": "string"}}
                ],
                "responses": {
                    "200": {**_json(_ref("Match"), "The match."), "headers": _ETAG},
                    "304": {
                        "description": "Nothing changed since the ETag sent.",
                        "headers": _ETAG,
                    },
                    **_LOOKUP_FAILURES,
                },
            },
        },
        f"{match}/rounds": {
            "parameters": [_MATCH_ID],
            "post": {
                "operationId": "addRound",
                "summary": "Enter a round; an impossible one is refused and nothing stored.",
                "security": _EDIT_TOKEN,
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body("RoundRequest"),
                "responses": {
                    "201": {**_json(_ref("StoredRound"), "The scored round."), "headers": _ETAG},
                    **ERROR_RESPONSES,
                    **_TOKEN_RESPONSES,
                    **_LOOKUP_FAILURES,
                },
            },
        },
        f"{match}/rounds/{{number}}": {
            "parameters": [_MATCH_ID, _ROUND_NUMBER],
            "get": {
                "operationId": "getRound",
                "summary": "One scored round with its version.",
                "responses": {
                    "200": {**_json(_ref("StoredRound"), "The scored round."), "headers": _ETAG},
                    **_LOOKUP_FAILURES,
                },
            },
            "put": {
                "operationId": "replaceRound",
                "summary": "Replace a round as last read (If-Match).",
                "security": _EDIT_TOKEN,
                "parameters": [_IF_MATCH, _IDEMPOTENCY_KEY],
                "requestBody": _body("RoundRequest"),
                "responses": {
                    "200": {
                        **_json(_ref("StoredRound"), "The round as now stored."),
                        "headers": _ETAG,
                    },
                    **ERROR_RESPONSES,
                    **_TOKEN_RESPONSES,
                    **_LOOKUP_FAILURES,
                    **_VERSION_RESPONSES,
                },
            },
            "delete": {
                "operationId": "deleteRound",
                "summary": "Delete a round as last read (If-Match).",
                "security": _EDIT_TOKEN,
                "parameters": [_IF_MATCH, _IDEMPOTENCY_KEY],
                "responses": {
                    "204": {"description": "The round is deleted."},
                    "422": ERROR_RESPONSES["422"],
                    **_TOKEN_RESPONSES,
                    **_LOOKUP_FAILURES,
                    **_VERSION_RESPONSES,
                },
            },
        },
        f"{match}/token": {
            "parameters": [_MATCH_ID],
            "post": {
                "operationId": "rotateToken",
                "summary": "Replace the edit token; links holding the old one stop working.",
                "description": (
                    "A retry under the same Idempotency-Key, still sending the replaced token, "
                    f"gets the same new token for {REPEAT_WINDOW.seconds // 60} minutes."
                ),
                "security": _EDIT_TOKEN,
                "parameters": [_IDEMPOTENCY_KEY],
                "responses": {
                    "200": _json(_ref("RotatedToken"), "The new edit token, shown this once."),
                    "422": _json(
                        _ref("Errors"),
                        "The Idempotency-Key is malformed or was used "
                        "for another change; nothing changed.",
                    ),
                    **_TOKEN_RESPONSES,
                    **_LOOKUP_FAILURES,
                },
            },
        },
        f"{match}/export": {
            "parameters": [_MATCH_ID],
            "get": {
                "operationId": "exportMatch",
                "summary": "The complete match as a JSON file that importMatch reads back.",
                "responses": {"200": _json(_ref("MatchExport"), "The export."), **_LOOKUP_FAILURES},
            },
        },
        f"{match}/export.csv": {
            "parameters": [_MATCH_ID],
            "get": {
                "operationId": "exportMatchCsv",
                "summary": "One row per side per round: entry, breakdown, score, running total.",
                "responses": {
                    "200": {
                        "description": "The CSV file.",
                        "content": {"text/csv": {"schema": {"type": "string"}}},
                    },
                    **_LOOKUP_FAILURES,
                },
            },
        },
    }


def _body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": _ref(schema)}}}


def openapi_document() -> dict[str, Any]:
    """Return the OpenAPI 3.1 document of API version 1."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "scorekeeper",
            "version": "1",
            "description": "Score Hand and Foot under a table's own house rules.",
        },
        "paths": {**_paths(), **_match_paths()},
        "components": {
            "schemas": {**_schemas(), **_match_schemas()},
            "securitySchemes": {
                "editToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The edit token answered when the match was created.",
                }
            },
        },
    }
