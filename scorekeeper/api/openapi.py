"""The OpenAPI 3.1 document of the JSON API: a table of its paths, and the schemas of its
bodies generated from their declarations in `api.schemas`."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, models_json_schema
from pydantic_core.core_schema import CoreSchema

from scorekeeper.api.schemas import ANSWERS, REQUESTS
from scorekeeper.domain.records import Period
from scorekeeper.domain.rules import PRESETS
from scorekeeper.serving.http import PublicIdConverter
from scorekeeper.store.edit_tokens import REPEAT_WINDOW
from scorekeeper.store.idempotency import KEEP_OPERATIONS, MAX_OPERATION_ID_LENGTH

REF = "#/components/schemas/{model}"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": _ref(schema)}}}


ERROR_RESPONSES = {
    "400": _json(_ref("Errors"), "The body is not a JSON object."),
    "413": _json(_ref("Errors"), "The body is too large."),
    "422": _json(_ref("Errors"), "The request is impossible under the rules; nothing is stored."),
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
                "requestBody": _body("ScoreRequest"),
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
                "requestBody": _body("MeldCheckRequest"),
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
    "description": "The round's ETag as last read: its version, with its encoding or without.",
    "schema": {"type": "string"},
}
_ETAG = {
    "ETag": {
        "description": (
            'The version ("3"), or in a compressed answer the version and its encoding ("3:br"): '
            "send it back as it came, in If-Match or If-None-Match."
        ),
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
                "requestBody": _body("EnteredRound"),
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
                "requestBody": _body("RoundEdit"),
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


# -- Clubs ---------------------------------------------------------------------------------------

_CLUB_ID = {**_MATCH_ID, "description": "The club's id, as creating it answered."}
_CLUB_FAILURES = {
    "404": _json(_ref("Errors"), "No club has this id."),
    "429": _LOOKUP_FAILURES["429"],
}
_CLUB_TOKEN_RESPONSES = {
    "401": _json(_ref("Errors"), "No edit token was sent; nothing changed."),
    "403": _json(_ref("Errors"), "The edit token does not open this club; nothing changed."),
}
# Filters of a page's query: a value that names no preset or period asks for none, as on the
# club's page, rather than being refused.
_RECORD_FILTERS = [
    {
        "name": "preset",
        "in": "query",
        "required": False,
        "description": "Count only the matches of this preset; any other value, every preset.",
        "schema": {"type": "string", "examples": list(PRESETS)},
    },
    {
        "name": "period",
        "in": "query",
        "required": False,
        "description": (
            "Count only the matches begun this month or this year (UTC); any other value, all."
        ),
        "schema": {"type": "string", "examples": [period.value for period in Period]},
    },
]


def _club_paths() -> dict[str, Any]:
    club = "/api/v1/clubs/{public_id}"
    return {
        "/api/v1/clubs": {
            "post": {
                "operationId": "createClub",
                "summary": "Start a club; its edit token is answered this once.",
                "requestBody": _body("CreateClubRequest"),
                "responses": {
                    "201": _json(_ref("CreatedClub"), "The new club."),
                    **ERROR_RESPONSES,
                },
            }
        },
        "/api/v1/clubs/import": {
            "post": {
                "operationId": "importClub",
                "summary": "Store an exported club, and its matches, as new ones with new links.",
                "requestBody": _body("ClubExport"),
                "responses": {
                    "201": _json(_ref("ImportedClub"), "The new club and its matches."),
                    **ERROR_RESPONSES,
                },
            }
        },
        club: {
            "parameters": [_CLUB_ID],
            "get": {
                "operationId": "getClub",
                "summary": "The club's players with their records, and its matches, newest first.",
                "description": (
                    "Records count finished matches only. A draw counts as played, not won; "
                    "every player of the winning side wins."
                ),
                "parameters": _RECORD_FILTERS,
                "responses": {"200": _json(_ref("Club"), "The club."), **_CLUB_FAILURES},
            },
        },
        f"{club}/players": {
            "parameters": [_CLUB_ID],
            "post": {
                "operationId": "addClubPlayer",
                "summary": "Add a player to the club, by a name it does not have yet.",
                "security": _EDIT_TOKEN,
                "requestBody": _body("NewClubPlayer"),
                "responses": {
                    "201": _json(_ref("ClubPlayer"), "The new player, with their id."),
                    **ERROR_RESPONSES,
                    **_CLUB_TOKEN_RESPONSES,
                    **_CLUB_FAILURES,
                },
            },
        },
        f"{club}/matches": {
            "parameters": [_CLUB_ID],
            "post": {
                "operationId": "createClubMatch",
                "summary": "Store a new match of the club, its players given by their ids.",
                "security": _EDIT_TOKEN,
                "requestBody": _body("CreateClubMatchRequest"),
                "responses": {
                    "201": _json(_ref("CreatedMatch"), "The new match."),
                    **ERROR_RESPONSES,
                    **_CLUB_TOKEN_RESPONSES,
                    **_CLUB_FAILURES,
                },
            },
        },
        f"{club}/export": {
            "parameters": [_CLUB_ID],
            "get": {
                "operationId": "exportClub",
                "summary": "The club, its players and every match's export, as importClub reads.",
                "responses": {"200": _json(_ref("ClubExport"), "The export."), **_CLUB_FAILURES},
            },
        },
    }


class _Untitled(GenerateJsonSchema):
    """Leave out the title pydantic gives each property: its name says as much."""

    def field_title_should_be_set(self, schema: CoreSchema) -> bool:
        return False


@cache
def _schemas() -> dict[str, Any]:
    """Return the schema of every body, each answer's as it is dumped."""
    bodies: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        *((model, "validation") for model in REQUESTS),
        *((model, "serialization") for model in ANSWERS),
    ]
    _, schemas = models_json_schema(bodies, ref_template=REF, schema_generator=_Untitled)
    return dict(schemas["$defs"])


def openapi_document() -> dict[str, Any]:
    """Return the OpenAPI 3.1 document of API version 1."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "scorekeeper",
            "version": "1",
            "description": "Score Hand and Foot under a table's own house rules.",
        },
        "paths": {**_paths(), **_match_paths(), **_club_paths()},
        "components": {
            "schemas": _schemas(),
            "securitySchemes": {
                "editToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The edit token answered when the match or club was created.",
                }
            },
        },
    }
