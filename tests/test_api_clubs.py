"""The clubs API: creating a club, its players and matches, its records, export and import."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from werkzeug.test import TestResponse
from worked_example import STAYED_IN_JSON as STAYED_IN

from scorekeeper.api.openapi import openapi_document
from scorekeeper.store.models import Club, ClubPlayer, Match, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateClub, StoredClub

ONE_ROUND = {"preset": "standard", "overrides": {"rounds": 1, "meld_minimums": [50]}}
PAIRS = [{"name": "Us", "players": [1, 2]}, {"name": "Them", "players": [3, 4]}]
DOCUMENT = openapi_document()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def club(create_club: CreateClub) -> StoredClub:
    """Return a club of Ann, Bob, Cy and Di (ids 1 to 4) with one match, won by Ann and Bob."""
    return create_club()


def counts(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(  # type: ignore[return-value]
            db.session.scalar(db.select(db.func.count()).select_from(model)) or 0
            for model in (Club, ClubPlayer, Match)
        )


def new_match(client: FlaskClient, club: StoredClub, **body: Any) -> TestResponse:
    return client.post(
        f"/api/v1/clubs/{club.public_id}/matches",
        json={"name": "Night", "rules": ONE_ROUND, "sides": PAIRS, **body},
        headers=bearer(club.edit_token),
    )


# -- Creating a club and adding players ----------------------------------------------------------


def test_creating_a_club_answers_its_id_token_and_links(client: FlaskClient) -> None:
    response = client.post("/api/v1/clubs", json={"name": "Thursdays"})

    assert response.status_code == 201
    body = response.json
    assert list(body) == ["id", "edit_token", "edit_url", "view_url"]
    assert body["view_url"] == f"http://localhost/c/{body['id']}"
    assert body["edit_url"] == f"http://localhost/c/{body['id']}/edit/{body['edit_token']}"
    assert response.headers["Location"] == f"http://localhost/api/v1/clubs/{body['id']}"
    assert response.headers["Cache-Control"] == "no-store"
    assert client.get(response.headers["Location"]).json == {
        "name": "Thursdays",
        "players": [],
        "matches": [],
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [({"name": ""}, "name"), ({"name": 7}, "name"), ({"name": "A", "language": "xx"}, "language")],
)
def test_a_club_that_cannot_be_is_refused_storing_nothing(
    app: Flask, client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    response = client.post("/api/v1/clubs", json=body)

    assert response.status_code == 422
    assert [error["field"] for error in response.json["errors"]] == [field]
    assert counts(app) == (0, 0, 0)


def test_a_player_joins_with_the_next_id(client: FlaskClient, club: StoredClub) -> None:
    url = f"/api/v1/clubs/{club.public_id}/players"

    response = client.post(url, json={"name": "Eve"}, headers=bearer(club.edit_token))

    assert response.status_code == 201
    assert response.json == {"id": 5, "name": "Eve"}


@pytest.mark.parametrize(("headers", "status"), [({}, 401), (bearer("not-the-token"), 403)])
def test_adding_a_player_takes_the_clubs_edit_token(
    app: Flask, client: FlaskClient, club: StoredClub, headers: dict[str, str], status: int
) -> None:
    url = f"/api/v1/clubs/{club.public_id}/players"

    response = client.post(url, json={"name": "Eve"}, headers=headers)

    assert response.status_code == status
    assert counts(app)[1] == 4
    if status == 401:
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_name_the_club_has_is_refused(client: FlaskClient, club: StoredClub) -> None:
    url = f"/api/v1/clubs/{club.public_id}/players"

    response = client.post(url, json={"name": "ANN"}, headers=bearer(club.edit_token))

    assert response.status_code == 422
    assert response.json["errors"][0]["field"] == "name"


# -- Matches of the club -------------------------------------------------------------------------


def test_a_match_of_the_club_names_its_players_by_their_ids(
    client: FlaskClient, club: StoredClub
) -> None:
    response = new_match(client, club)

    assert response.status_code == 201
    created = response.json
    assert list(created) == ["id", "edit_token", "edit_url", "view_url"]
    shown = client.get(f"/api/v1/matches/{created['id']}").json
    assert shown["sides"] == [
        {"name": "Us", "players": ["Ann", "Bob"]},
        {"name": "Them", "players": ["Cy", "Di"]},
    ]
    matches = client.get(f"/api/v1/clubs/{club.public_id}").json["matches"]
    assert [match["id"] for match in matches][0] == created["id"]


def test_a_player_the_club_lacks_is_refused_where_it_is_named(
    app: Flask, client: FlaskClient, club: StoredClub
) -> None:
    sides = [{"name": "Us", "players": [1, 9]}, {"name": "Them", "players": [3, 4, 12]}]

    response = new_match(client, club, sides=sides)

    assert response.status_code == 422
    assert [(error["side"], error["field"]) for error in response.json["errors"]] == [
        (0, "sides[0].players[1]"),
        (1, "sides[1].players[2]"),
    ]
    assert counts(app)[2] == 1


def test_a_player_on_two_sides_is_refused(client: FlaskClient, club: StoredClub) -> None:
    response = new_match(
        client, club, sides=[{"name": "Us", "players": [1]}, {"name": "Them", "players": [1]}]
    )

    assert response.status_code == 422
    assert response.json["errors"][0]["field"] == "sides[1].players[0]"


@pytest.mark.parametrize(("token", "status"), [(None, 401), ("not-the-token", 403)])
def test_a_match_of_the_club_takes_the_clubs_edit_token(
    app: Flask, client: FlaskClient, club: StoredClub, token: str | None, status: int
) -> None:
    headers = {} if token is None else bearer(token)
    body = {"name": "Night", "rules": ONE_ROUND, "sides": PAIRS}

    response = client.post(f"/api/v1/clubs/{club.public_id}/matches", json=body, headers=headers)

    assert response.status_code == status
    assert counts(app)[2] == 1


# -- Reading the club ----------------------------------------------------------------------------


def test_the_club_answers_its_players_records_and_its_matches_newest_first(
    client: FlaskClient, club: StoredClub
) -> None:
    playing = new_match(client, club, sides=list(reversed(PAIRS))).json  # no round yet
    client.post(
        f"/api/v1/clubs/{club.public_id}/players",
        json={"name": "Eve"},
        headers=bearer(club.edit_token),
    )

    body = client.get(f"/api/v1/clubs/{club.public_id}").json

    assert body["name"] == "Thursdays"
    won = {"played": 1, "won": 1, "win_rate": 1.0, "average_score": 2565.0, "best_score": 2565}
    lost = {"played": 1, "won": 0, "win_rate": 0.0, "average_score": 825.0, "best_score": 825}
    none = {"played": 0, "won": 0, "win_rate": None, "average_score": None, "best_score": None}
    assert body["players"] == [
        {"id": 1, "name": "Ann", **won},
        {"id": 2, "name": "Bob", **won},
        {"id": 3, "name": "Cy", **lost},
        {"id": 4, "name": "Di", **lost},
        {"id": 5, "name": "Eve", **none},
    ]
    assert [(m["name"], m["finished"], m["winner"]) for m in body["matches"]] == [
        ("Night", False, None),
        ("Night 1", True, "Us"),
    ]
    assert body["matches"][0]["view_url"] == playing["view_url"]


def test_a_draw_counts_as_played_and_not_won(client: FlaskClient, club: StoredClub) -> None:
    created = new_match(client, club).json
    client.post(
        f"/api/v1/matches/{created['id']}/rounds",
        json={"round": 1, "sides": [STAYED_IN, STAYED_IN]},
        headers=bearer(created["edit_token"]),
    )

    body = client.get(f"/api/v1/clubs/{club.public_id}").json

    ann = body["players"][0]
    assert (ann["played"], ann["won"], ann["win_rate"]) == (2, 1, 0.5)
    assert body["matches"][0]["winner"] is None and body["matches"][0]["finished"]


def test_the_records_follow_the_filter_of_the_query(client: FlaskClient, club: StoredClub) -> None:
    url = f"/api/v1/clubs/{club.public_id}"

    simple = client.get(f"{url}?preset=simple").json
    month = client.get(f"{url}?period=month&preset=standard").json

    assert simple["matches"] == [] and simple["players"][0]["played"] == 0
    assert month["players"][0]["played"] == 1


def test_an_unknown_club_is_not_found(client: FlaskClient) -> None:
    response = client.get(f"/api/v1/clubs/{'x' * 22}")

    assert response.status_code == 404
    assert response.json["errors"][0]["message"] == "There is no club with this id; check the link."


# -- Export and import ---------------------------------------------------------------------------


def test_a_club_comes_back_from_its_export_as_a_new_club_with_new_links(
    client: FlaskClient, club: StoredClub
) -> None:
    exported = client.get(f"/api/v1/clubs/{club.public_id}/export")
    assert exported.headers["Content-Disposition"].startswith('attachment; filename="Thursdays')
    document = exported.get_json()
    assert document["format"] == "scorekeeper-club"
    assert [player["name"] for player in document["players"]] == ["Ann", "Bob", "Cy", "Di"]
    assert [match["name"] for match in document["matches"]] == ["Night 1"]

    response = client.post("/api/v1/clubs/import", json=document)

    assert response.status_code == 201
    imported = response.json
    assert imported["id"] != club.public_id
    (match,) = imported["matches"]
    assert re.fullmatch(r"http://localhost/m/[\w-]{22}/edit/[\w-]+", match["edit_url"])
    original = client.get(f"/api/v1/clubs/{club.public_id}").json
    copy = client.get(f"/api/v1/clubs/{imported['id']}").json
    assert copy["players"] == original["players"]
    assert [m["name"] for m in copy["matches"]] == [m["name"] for m in original["matches"]]


def test_a_damaged_club_export_is_refused_naming_the_place(
    app: Flask, client: FlaskClient, club: StoredClub
) -> None:
    document = client.get(f"/api/v1/clubs/{club.public_id}/export").get_json()
    document["matches"][0]["sides"][0]["players"] = ["Ann", "Cy"]

    response = client.post("/api/v1/clubs/import", json=document)

    assert response.status_code == 422
    assert response.json["errors"][0]["field"].startswith("matches[0].")
    assert counts(app) == (1, 4, 1)


def test_a_club_export_larger_than_other_bodies_is_imported_whole(
    app: Flask, client: FlaskClient, club: StoredClub
) -> None:
    """A club's export holds all its matches: years of them outgrow the limit on other bodies."""
    document = client.get(f"/api/v1/clubs/{club.public_id}/export").get_json()
    document["matches"] *= 200
    body = json.dumps(document)
    assert app.config["MAX_CONTENT_LENGTH"] < len(body) < app.config["MAX_CLUB_IMPORT_LENGTH"]

    response = client.post("/api/v1/clubs/import", data=body, content_type="application/json")

    assert response.status_code == 201, response.json
    assert len(response.json["matches"]) == 200
    copy = client.get(f"/api/v1/clubs/{response.json['id']}").json
    assert len(copy["matches"]) == 200
    assert [player["played"] for player in copy["players"]] == [200] * 4


def test_a_club_export_over_its_own_limit_is_refused_with_413(
    app: Flask, client: FlaskClient
) -> None:
    body = b" " * (app.config["MAX_CLUB_IMPORT_LENGTH"] + 1)

    response = client.post("/api/v1/clubs/import", data=body, content_type="application/json")

    assert response.status_code == 413
    assert response.json == {
        "errors": [{"side": None, "field": None, "message": "The request is too large."}]
    }


# -- The OpenAPI document ------------------------------------------------------------------------

CLUB = "/api/v1/clubs/{public_id}"
# (method, documented path, authorized, body, status)
CALLS = [
    ("post", "/api/v1/clubs", False, {"name": "Fridays"}, 201),
    ("post", "/api/v1/clubs", False, {"name": ""}, 422),
    ("post", "/api/v1/clubs", False, "not an object", 400),
    ("post", "/api/v1/clubs/import", False, {"format": "x"}, 422),
    ("get", CLUB, False, None, 200),
    ("get", f"{CLUB}/export", False, None, 200),
    ("post", f"{CLUB}/players", True, {"name": "Eve"}, 201),
    ("post", f"{CLUB}/players", True, {"name": "Ann"}, 422),
    ("post", f"{CLUB}/players", False, {"name": "Eve"}, 401),
    ("post", f"{CLUB}/matches", True, {"name": "N", "rules": ONE_ROUND, "sides": PAIRS}, 201),
    ("post", f"{CLUB}/matches", True, {"name": "N", "sides": [PAIRS[0]]}, 422),
    ("post", f"{CLUB}/matches", False, {"name": "N", "sides": PAIRS}, 401),
]


@pytest.mark.parametrize(("method", "path", "authorized", "body", "status"), CALLS)
def test_every_answer_is_documented_with_its_status_and_schema(
    client: FlaskClient,
    club: StoredClub,
    method: str,
    path: str,
    authorized: bool,
    body: object,
    status: int,
) -> None:
    url = path.format(public_id=club.public_id)
    headers = bearer(club.edit_token) if authorized else {}

    response = getattr(client, method)(url, json=body, headers=headers)

    assert response.status_code == status
    documented = DOCUMENT["paths"][path][method]["responses"][str(status)]
    schema = documented["content"]["application/json"]["schema"]
    Draft202012Validator({**DOCUMENT, **schema}).validate(response.json)


def test_the_imported_clubs_answer_is_documented(client: FlaskClient, club: StoredClub) -> None:
    document = client.get(f"/api/v1/clubs/{club.public_id}/export").get_json()
    answer_schema = DOCUMENT["paths"]["/api/v1/clubs/import"]["post"]["responses"]["201"]
    request_schema = DOCUMENT["paths"]["/api/v1/clubs/import"]["post"]["requestBody"]

    response = client.post("/api/v1/clubs/import", json=document)

    Draft202012Validator(
        {**DOCUMENT, **request_schema["content"]["application/json"]["schema"]}
    ).validate(document)
    Draft202012Validator(
        {**DOCUMENT, **answer_schema["content"]["application/json"]["schema"]}
    ).validate(response.json)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": [{"id": 0, "name": "Zed"}]}, "players[0].id"),
        ({"players": [{"name": "Zed"}]}, "players[0].id"),
        ({"players": {}}, "players"),
        ({"matches": {}}, "matches"),
        ({"matches": ["not a match"]}, "matches[0]"),
        ({"created_at": {}}, "created_at"),
    ],
)
def test_a_club_export_of_the_wrong_shape_is_refused_in_the_apis_words(
    app: Flask, client: FlaskClient, change: dict[str, Any], field: str
) -> None:
    document = {"format": "scorekeeper-club", "format_version": 1, "name": "T", **change}

    response = client.post("/api/v1/clubs/import", json=document)

    assert response.status_code == 422
    assert [error["field"] for error in response.json["errors"]] == [field]
    assert counts(app) == (0, 0, 0)
