"""The stored-match API: creating, reading, entering and editing rounds, export and import."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from werkzeug.test import TestResponse
from worked_example import STAYED_IN_JSON as STAYED_IN
from worked_example import WENT_OUT_JSON as WENT_OUT

from scorekeeper.api.openapi import openapi_document
from scorekeeper.store.models import Match, Round, db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch

NEVER_MELDED = {"red_threes": 1, "leftover_points": 140}
ROUND_ONE = {"round": 1, "sides": [WENT_OUT, STAYED_IN]}
CREATE_BODY = {
    "name": "Friday",
    "rules": {"preset": "standard", "overrides": {}},
    "sides": [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}],
}
Send = Callable[..., TestResponse]


def bearer(match: StoredMatch) -> dict[str, str]:
    return {"Authorization": f"Bearer {match.edit_token}"}


def if_match(version: int) -> dict[str, str]:
    return {"If-Match": f'"{version}"'}


@pytest.fixture
def match(create_match: CreateMatch) -> StoredMatch:
    return create_match()


@pytest.fixture
def enter(client: FlaskClient) -> Callable[..., TestResponse]:
    """Return a function that posts a round to a match with its edit token."""

    def post(match: StoredMatch, number: int, *sides: dict[str, Any]) -> TestResponse:
        body = {"round": number, "sides": list(sides)}
        return client.post(
            f"/api/v1/matches/{match.public_id}/rounds", json=body, headers=bearer(match)
        )

    return post


def read(client: FlaskClient, match: StoredMatch) -> dict[str, Any]:
    response = client.get(f"/api/v1/matches/{match.public_id}")
    assert response.status_code == 200
    return response.json


def stored_counts(app: Flask) -> tuple[int, int]:
    with app.app_context():
        return (
            db.session.scalar(db.select(db.func.count(Match.id))),
            db.session.scalar(db.select(db.func.count(Round.id))),
        )


def error_fields(response: TestResponse) -> set[str | None]:
    return {error["field"] for error in response.json["errors"]}


# -- Creating a match ----------------------------------------------------------------------------


def test_creating_a_match_answers_its_id_token_and_links(client: FlaskClient) -> None:
    response = client.post("/api/v1/matches", json=CREATE_BODY)

    assert response.status_code == 201
    body = response.json
    assert body["view_url"] == f"http://localhost/m/{body['id']}"
    assert body["edit_url"] == f"http://localhost/m/{body['id']}/edit/{body['edit_token']}"
    assert response.headers["Location"] == f"http://localhost/api/v1/matches/{body['id']}"
    shown = client.get(response.headers["Location"]).json
    assert shown["name"] == "Friday"
    assert shown["sides"] == CREATE_BODY["sides"]
    assert shown["rules"]["meld_minimums"] == [50, 90, 120, 150]


@pytest.mark.parametrize(
    ("first_dealer", "next_dealers"),
    [
        (None, ["Ann", "Cy", "Bob", "Di"]),  # side 1's first player, then round the table
        ({"side": 1, "player": 1}, ["Di", "Ann", "Cy", "Bob"]),
    ],
)
def test_a_match_names_who_deals_each_round_from_its_first_dealer(
    client: FlaskClient,
    first_dealer: dict[str, int] | None,
    next_dealers: list[str],
) -> None:
    body = CREATE_BODY if first_dealer is None else {**CREATE_BODY, "first_dealer": first_dealer}
    created = client.post("/api/v1/matches", json=body).json
    url = f"/api/v1/matches/{created['id']}"
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    dealers = []
    for number in range(1, 5):
        dealers.append(client.get(url).json["next_dealer"])
        sides = [{"name": "Us", "melded_points": 150}, {"name": "Them", "melded_points": 150}]
        entered = client.post(
            f"{url}/rounds", json={"round": number, "sides": sides}, headers=headers
        )
        assert entered.status_code == 201, entered.json

    shown = client.get(url).json
    assert dealers == next_dealers
    assert shown["first_dealer"] == (first_dealer or {"side": 0, "player": 0})
    assert shown["next_dealer"] is None  # the match is over


def test_a_first_dealer_the_sides_do_not_have_is_refused(client: FlaskClient) -> None:
    body = {**CREATE_BODY, "first_dealer": {"side": 0, "player": 2}}

    response = client.post("/api/v1/matches", json=body)

    assert response.status_code == 422
    assert response.json["errors"][0]["message"] == (
        "The first dealer must be one of the match's 4 players."
    )


def test_a_new_match_keeps_its_house_rules(client: FlaskClient) -> None:
    body = {**CREATE_BODY, "rules": {"preset": "simple", "overrides": {"going_out_bonus": 200}}}

    created = client.post("/api/v1/matches", json=body).json

    shown = client.get(f"/api/v1/matches/{created['id']}").json
    assert shown["preset"] == "simple"
    assert shown["rules"]["going_out_bonus"] == 200
    assert shown["rules"]["hand_size"] == 11


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 61}, "name"),
        ({"name": "\u00a0" + "x" * 60}, "name"),  # as sent, longer than the document allows
        ({"name": 7}, "name"),
        ({"name": "Line\nbreak"}, "name"),
        ({"sides": [{"name": "Us", "players": ["Ann"]}]}, "sides"),
        ({"sides": "Us and Them"}, "sides"),
        (
            {"sides": [{"name": "Us", "players": ["Ann"]}, {"name": "us", "players": ["Bo"]}]},
            "sides[1].name",
        ),
        (
            {"sides": [{"name": "Us", "players": ["Ann"]}, {"name": "Them", "players": []}]},
            "sides[1].players",
        ),
        (
            {"sides": [{"name": "Us", "players": ["Ann"]}, {"name": "Them", "players": [""]}]},
            "sides[1].players[0]",
        ),
        (
            {
                "sides": [
                    {"name": "Us", "players": list("ABCD")},
                    {"name": "Them", "players": list("EFG")},
                ]
            },
            "sides",
        ),
        ({"rules": {"preset": "lenient"}}, "rules.preset"),
        ({"rules": {"overrides": {"going_out_bonus": "lots"}}}, "rules.overrides.going_out_bonus"),
    ],
)
def test_a_match_that_cannot_be_played_is_refused_and_not_stored(
    app: Flask, client: FlaskClient, change: dict[str, Any], field: str
) -> None:
    response = client.post("/api/v1/matches", json={**CREATE_BODY, **change})

    assert response.status_code == 422
    assert field in error_fields(response)
    assert stored_counts(app) == (0, 0)


SEVEN_SIDES = [{"name": f"Side {n}", "players": [f"P{n}"]} for n in range(7)]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"sides": SEVEN_SIDES}, "sides"),
        (
            {"sides": [{"name": "x" * 61, "players": ["Ann"]}, CREATE_BODY["sides"][1]]},
            "sides[0].name",
        ),
        (
            {"sides": [{"name": "Us", "players": ["Ann", "y" * 61]}, CREATE_BODY["sides"][1]]},
            "sides[0].players[1]",
        ),
    ],
)
def test_a_match_past_the_limits_of_the_game_is_refused(
    app: Flask, client: FlaskClient, change: dict[str, Any], field: str
) -> None:
    response = client.post("/api/v1/matches", json={**CREATE_BODY, **change})

    assert response.status_code == 422
    assert field in error_fields(response)
    assert stored_counts(app) == (0, 0)


def test_a_body_larger_than_allowed_is_refused_as_json(app: Flask, client: FlaskClient) -> None:
    padding = " " * app.config["MAX_CONTENT_LENGTH"]

    response = client.post(
        "/api/v1/matches", data=f"{{{padding}}}", content_type="application/json"
    )

    assert response.status_code == 413
    assert response.json["errors"][0]["message"]
    assert stored_counts(app) == (0, 0)


def test_a_body_that_is_not_an_object_is_a_bad_request(client: FlaskClient) -> None:
    response = client.post("/api/v1/matches", json=["Friday"])

    assert response.status_code == 400
    assert error_fields(response) == {"body"}


# -- Reading a match -----------------------------------------------------------------------------


def test_a_match_shows_every_round_with_breakdowns_and_running_totals(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    enter(match, 2, STAYED_IN, WENT_OUT)

    shown = read(client, match)

    assert [r["running_totals"] for r in shown["rounds"]] == [[2565, 825], [3390, 3390]]
    assert shown["totals"] == [3390, 3390]
    first_side = shown["rounds"][0]["sides"][0]
    assert first_side["breakdown"] == {
        "books": 1600,
        "melded": 765,
        "red_threes": 100,
        "going_out": 100,
        "deal_bonus": 0,
        "leftover": 0,
    }
    assert first_side["entry"]["melded_points"] == 765
    assert shown["next_round"] == 3
    assert (shown["finished"], shown["winner"], shown["draw"]) == (False, None, False)


def test_a_match_answers_not_modified_while_nothing_changed(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    url = f"/api/v1/matches/{match.public_id}"
    etag = client.get(url).headers["ETag"]

    unchanged = client.get(url, headers={"If-None-Match": etag})
    enter(match, 1, WENT_OUT, STAYED_IN)
    changed = client.get(url, headers={"If-None-Match": etag})

    assert unchanged.status_code == 304
    assert unchanged.data == b""
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert changed.json["version"] == 2


def test_polling_an_unchanged_match_reads_its_version_alone(
    client: FlaskClient, match: StoredMatch, enter: Send, statements: list[str]
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    url = f"/api/v1/matches/{match.public_id}"
    etag = client.get(url).headers["ETag"]
    statements.clear()

    response = client.get(url, headers={"If-None-Match": etag})

    assert response.status_code == 304
    assert response.headers["ETag"] == etag
    reads = [sql for sql in statements if sql.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1
    read_sql = " ".join(reads[0].replace('"', "").split())
    assert read_sql.startswith("SELECT match.version FROM match WHERE match.public_id =")


def test_polling_an_unknown_match_is_not_found(client: FlaskClient) -> None:
    response = client.get("/api/v1/matches/no-such-match", headers={"If-None-Match": '"1"'})

    assert response.status_code == 404
    assert response.json["errors"][0]["message"]


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_polling_with_a_compressed_answers_etag_costs_a_304_until_the_match_changes(
    client: FlaskClient, match: StoredMatch, enter: Send, statements: list[str], encoding: str
) -> None:
    url = f"/api/v1/matches/{match.public_id}"
    compressed = {"Accept-Encoding": encoding}
    etag = client.get(url, headers=compressed).headers["ETag"]
    statements.clear()

    unchanged = client.get(url, headers={**compressed, "If-None-Match": etag})
    reads = [sql for sql in statements if sql.lstrip().upper().startswith("SELECT")]
    enter(match, 1, WENT_OUT, STAYED_IN)
    changed = client.get(url, headers={**compressed, "If-None-Match": etag})

    assert etag == f'"1:{encoding}"'
    assert (unchanged.status_code, unchanged.data) == (304, b"")
    assert len(reads) == 1  # the version alone
    assert changed.status_code == 200
    assert changed.headers["ETag"] == f'"2:{encoding}"'


@pytest.mark.parametrize(
    ("tags", "status"),
    [
        pytest.param('"2:br"', 304, id="the version with brotli"),
        pytest.param('"2:gzip"', 304, id="the version with gzip"),
        pytest.param('W/"2:br"', 304, id="a weak tag, which If-None-Match compares weakly"),
        pytest.param('"1:gzip", "2:br"', 304, id="one of many tags"),
        pytest.param('"1:br"', 200, id="an older version with brotli"),
        pytest.param('"2:zstd"', 200, id="an encoding the app does not answer in"),
        pytest.param('""', 200, id="an empty tag"),
        pytest.param('W/"", "2"', 304, id="an empty weak tag beside the version"),
    ],
)
def test_if_none_match_names_the_matchs_version_with_its_encoding_or_without(
    client: FlaskClient, match: StoredMatch, enter: Send, tags: str, status: int
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = client.get(f"/api/v1/matches/{match.public_id}", headers={"If-None-Match": tags})

    assert response.status_code == status
    assert response.headers["ETag"] == '"2"'


@pytest.mark.parametrize(
    ("second_round", "winner", "draw"),
    [
        ([WENT_OUT, NEVER_MELDED], "Us", False),
        ([STAYED_IN, WENT_OUT], None, True),
    ],
)
def test_the_last_round_decides_the_winner_or_a_draw(
    client: FlaskClient,
    create_match: CreateMatch,
    enter: Send,
    second_round: list[dict[str, Any]],
    winner: str | None,
    draw: bool,
) -> None:
    match = create_match(overrides={"rounds": 2, "meld_minimums": [50, 90]})
    enter(match, 1, WENT_OUT, STAYED_IN)
    enter(match, 2, *second_round)

    shown = read(client, match)

    assert (shown["finished"], shown["winner"], shown["draw"]) == (True, winner, draw)
    assert shown["next_round"] is None


# -- Entering rounds -----------------------------------------------------------------------------


def test_entering_a_round_answers_its_scores_and_version(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    response = enter(match, 1, WENT_OUT, STAYED_IN)

    assert response.status_code == 201
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(f"/matches/{match.public_id}/rounds/1")
    assert response.json["version"] == 1
    assert [side["name"] for side in response.json["sides"]] == ["Us", "Them"]
    assert [side["score"] for side in response.json["sides"]] == [2565, 825]
    assert client.get(response.headers["Location"]).json == response.json


@pytest.mark.parametrize(
    ("sides", "field"),
    [
        ([{**WENT_OUT, "clean_books": 1}, STAYED_IN], "went_out"),
        (
            [WENT_OUT, {**STAYED_IN, "went_out": True, "dirty_books": 2, "clean_books": 2}],
            "went_out",
        ),
        ([WENT_OUT, {**STAYED_IN, "melded_points": 45}], "melded_points"),
        ([WENT_OUT, {**STAYED_IN, "leftover_points": -5}], "leftover_points"),
        ([WENT_OUT], "sides"),
        ([WENT_OUT, STAYED_IN, NEVER_MELDED], "sides"),
        ([WENT_OUT, {**STAYED_IN, "clean_books": "one"}], "clean_books"),
    ],
)
def test_an_impossible_round_is_refused_and_nothing_is_stored(
    app: Flask, client: FlaskClient, match: StoredMatch, enter: Send, sides: list[Any], field: str
) -> None:
    response = enter(match, 1, *sides)

    assert response.status_code == 422
    assert field in error_fields(response)
    assert stored_counts(app) == (1, 0)
    assert read(client, match)["version"] == 1


def test_a_round_written_with_whole_numbers_as_decimals_is_stored_with_whole_numbers(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    counted = {"clean_books": 1.0, "melded": {"aces": 10.0, "eights_to_kings": 10.0}}
    response = client.post(
        f"/api/v1/matches/{match.public_id}/rounds",
        json={"round": 1.0, "sides": [{**WENT_OUT, "melded_points": 765.0}, counted]},
        headers=bearer(match),
    )

    assert response.status_code == 201
    us, them = (side["entry"] for side in read(client, match)["rounds"][0]["sides"])
    assert (us["melded_points"], them["clean_books"], them["melded"]["aces"]) == (765, 1, 10)
    assert all(type(value) is int for value in [*them["melded"].values(), us["melded_points"]])


def test_more_books_than_the_decks_make_are_refused_where_their_cards_are_worth_nothing(
    app: Flask, create_match: CreateMatch, enter: Send
) -> None:
    # Worth nothing, the books' cards leave their points nothing to refuse: the decks do.
    match = create_match(overrides={"card_values": {"four_to_seven": 0}})
    response = enter(match, 1, {"clean_books": 10**19}, {})

    assert response.status_code == 422
    assert "clean_books" in error_fields(response)
    assert stored_counts(app) == (1, 0)


SOLO_AND_PAIR = [("Solo", ["Ann"]), ("Pair", ["Cy", "Di"])]


@pytest.mark.parametrize(
    ("preset", "side", "field"),
    [
        # A player alone who went out holds no cards, even where another side has partners.
        ("standard", {**WENT_OUT, "leftover_points": 50}, "leftover"),
        ("standard", {**WENT_OUT, "red_threes_held": 1}, "leftover"),
        # A side of one player cuts once.
        ("partnership-11", {"melded_points": 100, "deal_bonus": 2}, "deal_bonus"),
    ],
)
def test_a_side_of_one_player_beside_a_pair_is_held_to_its_own_player(
    app: Flask,
    create_match: CreateMatch,
    enter: Send,
    preset: str,
    side: dict[str, Any],
    field: str,
) -> None:
    match = create_match(preset=preset, sides=SOLO_AND_PAIR)
    response = enter(match, 1, side, {})

    assert response.status_code == 422
    assert (0, field) in {(error["side"], error["field"]) for error in response.json["errors"]}
    assert stored_counts(app) == (1, 0)


def test_a_pair_earns_a_deal_bonus_for_each_of_its_players_and_no_more(
    create_match: CreateMatch, enter: Send
) -> None:
    match = create_match(preset="partnership-11")  # two pairs
    assert enter(match, 1, {"melded_points": 100, "deal_bonus": 3}, {}).status_code == 422
    assert enter(match, 1, {"melded_points": 100, "deal_bonus": 2}, {}).status_code == 201


@pytest.mark.parametrize("number", [0, 5])  # a standard match has 4 rounds
def test_a_round_outside_the_match_is_refused(match: StoredMatch, enter: Send, number: int) -> None:
    response = enter(match, number, WENT_OUT, STAYED_IN)

    assert response.status_code == 422
    assert error_fields(response) == {"round"}


def test_a_round_already_entered_is_refused_with_a_hint_to_edit_it(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = enter(match, 1, STAYED_IN, WENT_OUT)

    assert response.status_code == 422
    assert error_fields(response) == {"round"}
    assert "edit it" in response.json["errors"][0]["message"]
    assert read(client, match)["totals"] == [2565, 825]


def test_side_names_come_from_the_match_whatever_the_body_says(
    match: StoredMatch, enter: Send
) -> None:
    response = enter(match, 1, {**WENT_OUT, "name": "Winners"}, STAYED_IN)

    assert [side["name"] for side in response.json["sides"]] == ["Us", "Them"]


def test_a_by_score_match_takes_each_sides_minimum_from_its_running_score(
    client: FlaskClient, create_match: CreateMatch, enter: Send
) -> None:
    match = create_match(overrides={"meld_minimum_mode": "by_score"})
    enter(match, 1, WENT_OUT, STAYED_IN)  # Us 2565, Them 825

    refused = enter(match, 2, {"melded_points": 60}, {"melded_points": 60})
    entered = enter(match, 2, {"melded_points": 90}, {"melded_points": 60})

    assert refused.status_code == 422
    assert error_fields(refused) == {"melded_points"}
    assert entered.status_code == 201
    sides = entered.json["sides"]
    assert [side["running_score"] for side in sides] == [2565, 825]
    assert [side["meld_minimum"] for side in sides] == [90, 50]


def test_an_edit_that_would_break_a_later_by_score_round_is_refused(
    client: FlaskClient, create_match: CreateMatch, enter: Send
) -> None:
    match = create_match(overrides={"meld_minimum_mode": "by_score"})
    enter(match, 1, STAYED_IN, WENT_OUT)  # Us 825: a 50 minimum in round 2
    enter(match, 2, {"melded_points": 60}, WENT_OUT)

    response = client.put(
        f"/api/v1/matches/{match.public_id}/rounds/1",
        json={"sides": [WENT_OUT, STAYED_IN]},  # Us would reach 2565: a 90 minimum in round 2
        headers={**bearer(match), **if_match(1)},
    )

    assert response.status_code == 422
    assert "round 2" in response.json["errors"][0]["message"]
    assert read(client, match)["totals"] == [825 + 60, 2565 + 2565]


# -- Editing and deleting rounds -----------------------------------------------------------------


def test_replacing_a_round_bumps_its_version_and_the_totals_follow(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = client.put(
        f"/api/v1/matches/{match.public_id}/rounds/1",
        json={"round": 1, "sides": [STAYED_IN, WENT_OUT]},
        headers={**bearer(match), **if_match(1)},
    )

    assert response.status_code == 200
    assert response.headers["ETag"] == '"2"'
    assert response.json["version"] == 2
    assert read(client, match)["totals"] == [825, 2565]


def test_a_stale_edit_is_refused_with_the_round_as_it_stands(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    url = f"/api/v1/matches/{match.public_id}/rounds/1"
    client.put(url, json={"sides": [STAYED_IN, WENT_OUT]}, headers={**bearer(match), **if_match(1)})

    response = client.put(
        url, json={"sides": [WENT_OUT, STAYED_IN]}, headers={**bearer(match), **if_match(1)}
    )

    assert response.status_code == 412
    assert response.headers["ETag"] == '"2"'
    assert response.json["current"]["version"] == 2
    assert [side["score"] for side in response.json["current"]["sides"]] == [825, 2565]
    assert read(client, match)["totals"] == [825, 2565]


@pytest.mark.parametrize("method", ["put", "delete"])
@pytest.mark.parametrize("header", [{}, {"If-Match": "*"}])
def test_changing_a_round_needs_its_version(
    client: FlaskClient, match: StoredMatch, enter: Send, method: str, header: dict[str, str]
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = getattr(client, method)(
        f"/api/v1/matches/{match.public_id}/rounds/1",
        json={"sides": [STAYED_IN, WENT_OUT]},
        headers={**bearer(match), **header},
    )

    assert response.status_code == 428
    assert read(client, match)["totals"] == [2565, 825]


def test_an_edit_naming_another_round_in_its_body_is_refused(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = client.put(
        f"/api/v1/matches/{match.public_id}/rounds/1",
        json={"round": 2, "sides": [STAYED_IN, WENT_OUT]},
        headers={**bearer(match), **if_match(1)},
    )

    assert response.status_code == 422
    assert error_fields(response) == {"round"}


@pytest.mark.parametrize(
    ("given", "status", "message"),
    [
        pytest.param(None, 200, None, id="null, as if not sent"),
        pytest.param("1", 422, "round must be a whole number, such as 0 or 2.", id="text"),
    ],
)
def test_an_edit_reads_a_round_number_that_is_no_number_as_such(
    client: FlaskClient,
    match: StoredMatch,
    enter: Send,
    given: object,
    status: int,
    message: str | None,
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = client.put(
        f"/api/v1/matches/{match.public_id}/rounds/1",
        json={"round": given, "sides": [STAYED_IN, WENT_OUT]},
        headers={**bearer(match), **if_match(1)},
    )

    assert response.status_code == status
    if message:
        assert [error["message"] for error in response.get_json()["errors"]] == [message]


def test_an_impossible_edit_keeps_the_round_as_it_was(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = client.put(
        f"/api/v1/matches/{match.public_id}/rounds/1",
        json={"sides": [WENT_OUT, WENT_OUT]},
        headers={**bearer(match), **if_match(1)},
    )

    assert response.status_code == 422
    shown = read(client, match)
    assert shown["totals"] == [2565, 825]
    assert shown["rounds"][0]["version"] == 1


def test_deleting_a_round_takes_it_out_of_the_totals(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    enter(match, 2, STAYED_IN, WENT_OUT)

    response = client.delete(
        f"/api/v1/matches/{match.public_id}/rounds/1", headers={**bearer(match), **if_match(1)}
    )

    assert response.status_code == 204
    shown = read(client, match)
    assert shown["totals"] == [825, 2565]
    assert shown["next_round"] == 1
    assert [r["round"] for r in shown["rounds"]] == [2]


def test_a_stale_delete_is_refused(client: FlaskClient, match: StoredMatch, enter: Send) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = client.delete(
        f"/api/v1/matches/{match.public_id}/rounds/1", headers={**bearer(match), **if_match(7)}
    )

    assert response.status_code == 412
    assert read(client, match)["totals"] == [2565, 825]


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_an_edit_and_a_delete_take_the_etag_of_a_compressed_answer(
    client: FlaskClient, match: StoredMatch, enter: Send, encoding: str
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    url = f"/api/v1/matches/{match.public_id}/rounds/1"
    compressed = {**bearer(match), "Accept-Encoding": encoding}
    etag = client.get(url, headers=compressed).headers["ETag"]

    edited = client.put(
        url, json={"sides": [STAYED_IN, WENT_OUT]}, headers={**compressed, "If-Match": etag}
    )
    deleted = client.delete(url, headers={**compressed, "If-Match": edited.headers["ETag"]})

    assert etag == f'"1:{encoding}"'
    assert edited.status_code == 200
    assert edited.headers["ETag"] == f'"2:{encoding}"'
    assert deleted.status_code == 204
    assert read(client, match)["rounds"] == []


@pytest.mark.parametrize("method", ["put", "delete"])
def test_a_stale_etag_of_a_compressed_answer_is_refused(
    client: FlaskClient, match: StoredMatch, enter: Send, method: str
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    url = f"/api/v1/matches/{match.public_id}/rounds/1"
    stale = client.get(url, headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    client.put(url, json={"sides": [STAYED_IN, WENT_OUT]}, headers={**bearer(match), **if_match(1)})

    response = getattr(client, method)(
        url, json={"sides": [WENT_OUT, STAYED_IN]}, headers={**bearer(match), "If-Match": stale}
    )

    assert stale == '"1:gzip"'
    assert response.status_code == 412
    assert response.headers["ETag"] == '"2"'
    assert read(client, match)["totals"] == [825, 2565]


@pytest.mark.parametrize(
    ("tags", "status"),
    [
        pytest.param(
            ", ".join(f'"{version}"' for version in range(1, 30)),
            200,
            id="one of many tags is the round's",
        ),
        pytest.param('W/"1"', 412, id="a weak tag, which If-Match never matches"),
        pytest.param(f'"{"9" * 5000}"', 412, id="a tag of 5,000 digits"),
        pytest.param('"one"', 412, id="a tag that is no version"),
        pytest.param('"1:br"', 200, id="the round's tag with brotli"),
        pytest.param('"1:gzip"', 200, id="the round's tag with gzip"),
        pytest.param('W/"1:gzip"', 412, id="a weak tag with its encoding"),
        pytest.param('"1:zstd"', 412, id="an encoding the app does not answer in"),
        pytest.param('""', 412, id="an empty tag"),
    ],
)
def test_if_match_applies_a_change_when_any_of_its_tags_is_the_rounds(
    client: FlaskClient, match: StoredMatch, enter: Send, tags: str, status: int
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)

    response = client.put(
        f"/api/v1/matches/{match.public_id}/rounds/1",
        json={"sides": [STAYED_IN, WENT_OUT]},
        headers={**bearer(match), "If-Match": tags},
    )

    assert response.status_code == status
    assert read(client, match)["totals"] == ([825, 2565] if status == 200 else [2565, 825])


# -- Tokens and missing things -------------------------------------------------------------------

CHANGES = [
    ("post", "/rounds", {"round": 1, "sides": [WENT_OUT, STAYED_IN]}),
    ("put", "/rounds/1", {"sides": [STAYED_IN, WENT_OUT]}),
    ("delete", "/rounds/1", None),
]


@pytest.mark.parametrize(("method", "path", "body"), CHANGES)
@pytest.mark.parametrize(
    ("authorization", "status"),
    [
        (None, 401),
        ("Bearer ", 401),
        ("Basic QW5uOnNlY3JldA==", 401),
        ("Bearer not-the-token", 403),
    ],
)
def test_a_change_without_the_edit_token_changes_nothing(
    client: FlaskClient,
    match: StoredMatch,
    enter: Send,
    method: str,
    path: str,
    body: dict[str, Any] | None,
    authorization: str | None,
    status: int,
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    headers = if_match(1) | ({"Authorization": authorization} if authorization else {})

    response = getattr(client, method)(
        f"/api/v1/matches/{match.public_id}{path}", json=body, headers=headers
    )

    assert response.status_code == status
    assert response.json["errors"]
    if status == 401:
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert read(client, match)["version"] == 2


def test_one_matchs_token_never_opens_another(
    client: FlaskClient, create_match: CreateMatch, enter: Send
) -> None:
    ours, theirs = create_match(), create_match("Saturday")

    response = client.post(
        f"/api/v1/matches/{theirs.public_id}/rounds", json=ROUND_ONE, headers=bearer(ours)
    )

    assert response.status_code == 403
    assert read(client, theirs)["rounds"] == []


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", ""),
        ("get", "/export"),
        ("get", "/export.csv"),
        ("get", "/rounds/1"),
        ("post", "/rounds"),
        ("put", "/rounds/1"),
        ("delete", "/rounds/1"),
    ],
)
def test_an_unknown_match_is_not_found(client: FlaskClient, method: str, path: str) -> None:
    response = getattr(client, method)(
        f"/api/v1/matches/no-such-match{path}", json=ROUND_ONE, headers=if_match(1)
    )

    assert response.status_code == 404
    assert response.json["errors"][0]["message"]


@pytest.mark.parametrize(
    ("method", "headers"), [("get", {}), ("put", if_match(1)), ("delete", if_match(1))]
)
def test_an_unknown_round_is_not_found(
    client: FlaskClient, match: StoredMatch, method: str, headers: dict[str, str]
) -> None:
    response = getattr(client, method)(
        f"/api/v1/matches/{match.public_id}/rounds/3",
        json={"sides": [WENT_OUT, STAYED_IN]},
        headers={**bearer(match), **headers},
    )

    assert response.status_code == 404
    assert error_fields(response) == {"round"}


@pytest.mark.parametrize(
    ("method", "path", "status", "allowed"),
    [
        ("get", "/api/v1/no-such-thing", 404, None),
        ("get", "/api/elsewhere", 404, None),
        ("delete", "/api/v1/matches", 405, "POST"),
        ("patch", "/api/v1/matches/unknown-match-id-00001/rounds/1", 405, "PUT"),
    ],
)
def test_an_unknown_api_path_or_method_answers_the_json_error_list(
    client: FlaskClient, method: str, path: str, status: int, allowed: str | None
) -> None:
    response = getattr(client, method)(path)

    assert response.status_code == status
    assert response.mimetype == "application/json"
    assert response.json["errors"][0]["message"]
    if allowed:
        assert allowed in response.headers["Allow"]


def test_an_unknown_page_keeps_its_html_error(client: FlaskClient) -> None:
    response = client.get("/no-such-page")

    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_an_old_round_etag_does_not_match_the_round_entered_again(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    first = enter(match, 1, WENT_OUT, STAYED_IN)
    url = f"/api/v1/matches/{match.public_id}/rounds/1"
    client.delete(url, headers={**bearer(match), "If-Match": first.headers["ETag"]})
    again = enter(match, 1, STAYED_IN, WENT_OUT)

    response = client.put(
        url,
        json={"sides": [WENT_OUT, STAYED_IN]},
        headers={**bearer(match), "If-Match": first.headers["ETag"]},
    )

    assert again.headers["ETag"] != first.headers["ETag"]
    assert response.status_code == 412
    assert read(client, match)["totals"] == [825, 2565]


# -- Export and import ---------------------------------------------------------------------------


def test_an_exported_match_imports_as_an_equal_new_match_begun_when_it_began(
    client: FlaskClient, create_match: CreateMatch, enter: Send
) -> None:
    original = create_match(overrides={"going_out_bonus": 150})
    enter(original, 1, WENT_OUT, STAYED_IN)
    counted = {"melded": {"aces": 10, "eights_to_kings": 10}, "leftover": {"black_threes": 1}}
    enter(original, 3, counted, WENT_OUT)
    exported = client.get(f"/api/v1/matches/{original.public_id}/export")

    response = client.post("/api/v1/matches/import", json=exported.json)

    assert exported.headers["Content-Disposition"].startswith("attachment")
    assert response.status_code == 201
    copy = f"/api/v1/matches/{response.json['id']}"
    assert response.json["id"] != original.public_id
    again = client.get(f"{copy}/export").json
    assert again == exported.json  # its date too: a table moving a match keeps its evening
    assert client.get(copy).json["totals"] == read(client, original)["totals"]
    refused = client.post(f"{copy}/rounds", json=ROUND_ONE, headers=bearer(original))
    assert refused.status_code == 403


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "spreadsheet"}, "format"),
        ({"settings": {"going_out_bonus": -5}}, "settings.going_out_bonus"),
        ({"sides": [{"name": "Us", "players": ["Ann"]}]}, "sides"),
        ({"rounds": [{"round": 1, "sides": [WENT_OUT, WENT_OUT]}]}, "rounds[0].went_out"),
        ({"rounds": [{"round": 1, "sides": [WENT_OUT]}]}, "rounds[0].sides"),
        ({"rounds": [ROUND_ONE, ROUND_ONE]}, "rounds[1].round"),
        ({"rounds": "all of them"}, "rounds"),
        ({"language": "xx"}, "language"),
        # No points make these books, and no database column holds their number.
        (
            {"rounds": [{"round": 1, "sides": [{"clean_books": 10**19}, {}]}]},
            "rounds[0].melded_points",
        ),
    ],
)
def test_a_damaged_export_is_refused_and_nothing_is_stored(
    app: Flask,
    client: FlaskClient,
    match: StoredMatch,
    change: dict[str, Any],
    field: str,
) -> None:
    exported = client.get(f"/api/v1/matches/{match.public_id}/export").json

    response = client.post("/api/v1/matches/import", json={**exported, **change})

    assert response.status_code == 422
    assert field in error_fields(response)
    assert stored_counts(app) == (1, 0)


def test_the_csv_has_a_row_per_side_per_round_with_running_totals(
    client: FlaskClient, match: StoredMatch, enter: Send
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    enter(match, 2, STAYED_IN, WENT_OUT)

    response = client.get(f"/api/v1/matches/{match.public_id}/export.csv")

    assert response.mimetype == "text/csv"
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment") and "Friday 20" in disposition
    assert disposition.endswith('.csv"') or disposition.endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(r["round"], r["side"], r["score"], r["running_total"]) for r in rows] == [
        ("1", "Us", "2565", "2565"),
        ("1", "Them", "825", "825"),
        ("2", "Us", "825", "3390"),
        ("2", "Them", "2565", "3390"),
    ]
    assert rows[0]["breakdown.books"] == "1600"


def test_a_non_ascii_match_name_still_names_the_csv(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match("Soirée à Québec")

    response = client.get(f"/api/v1/matches/{match.public_id}/export.csv")

    assert response.status_code == 200
    assert (
        "filename*=UTF-8''Soir%C3%A9e%20%C3%A0%20Qu%C3%A9bec"
        in response.headers["Content-Disposition"]
    )


# -- Unknown fields and the OpenAPI document -----------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**CREATE_BODY, "colour": "red"}, "colour"),
        (
            {
                **CREATE_BODY,
                "sides": [
                    {"name": "Us", "players": ["A"], "seat": 1},
                    {"name": "Them", "players": ["B"]},
                ],
            },
            "sides[0].seat",
        ),
    ],
)
def test_a_new_match_with_an_unknown_field_is_refused(
    app: Flask, client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    response = client.post("/api/v1/matches", json=body)

    assert response.status_code == 422
    assert error_fields(response) == {field}
    assert stored_counts(app) == (0, 0)


def test_a_round_with_an_unknown_field_is_refused(match: StoredMatch, client: FlaskClient) -> None:
    body = {**ROUND_ONE, "players": 4}

    response = client.post(
        f"/api/v1/matches/{match.public_id}/rounds", json=body, headers=bearer(match)
    )

    assert response.status_code == 422
    assert error_fields(response) == {"players"}


DOCUMENT = openapi_document()
MATCH = "/api/v1/matches/{public_id}"
ROUND = f"{MATCH}/rounds/{{number}}"
# (method, documented path, number, authorized, If-Match version, body, status)
CALLS = [
    ("post", "/api/v1/matches", None, False, None, CREATE_BODY, 201),
    ("post", "/api/v1/matches", None, False, None, {"name": ""}, 422),
    ("post", "/api/v1/matches", None, False, None, "not an object", 400),
    ("post", "/api/v1/matches/import", None, False, None, {"format": "x"}, 422),
    ("get", MATCH, None, False, None, None, 200),
    ("get", f"{MATCH}/export", None, False, None, None, 200),
    ("get", f"{MATCH}/export.csv", None, False, None, None, 200),
    (
        "post",
        f"{MATCH}/rounds",
        None,
        True,
        None,
        {"round": 2, "sides": [WENT_OUT, STAYED_IN]},
        201,
    ),
    ("post", f"{MATCH}/rounds", None, True, None, ROUND_ONE, 422),
    ("post", f"{MATCH}/rounds", None, False, None, ROUND_ONE, 401),
    ("get", ROUND, 1, False, None, None, 200),
    ("get", ROUND, 4, False, None, None, 404),
    ("put", ROUND, 1, True, 1, {"sides": [STAYED_IN, WENT_OUT]}, 200),
    ("put", ROUND, 1, True, 9, {"sides": [STAYED_IN, WENT_OUT]}, 412),
    ("put", ROUND, 1, True, None, {"sides": [STAYED_IN, WENT_OUT]}, 428),
    ("delete", ROUND, 1, True, 1, None, 204),
    ("delete", ROUND, 1, True, 2, None, 412),
    ("post", f"{MATCH}/token", None, True, None, None, 200),
    ("post", f"{MATCH}/token", None, False, None, None, 401),
]


@pytest.mark.parametrize(
    ("method", "path", "number", "authorized", "version", "body", "status"), CALLS
)
def test_every_answer_is_documented_with_its_status_and_schema(
    client: FlaskClient,
    match: StoredMatch,
    enter: Send,
    method: str,
    path: str,
    number: int | None,
    authorized: bool,
    version: int | None,
    body: object,
    status: int,
) -> None:
    enter(match, 1, WENT_OUT, STAYED_IN)
    url = path.format(public_id=match.public_id, number=number)
    headers = (bearer(match) if authorized else {}) | (if_match(version) if version else {})

    response = getattr(client, method)(url, json=body, headers=headers)

    assert response.status_code == status
    documented = DOCUMENT["paths"][path][method]["responses"][str(status)]
    if "content" not in documented:
        assert response.data == b""
    elif response.mimetype == "application/json":
        schema = documented["content"]["application/json"]["schema"]
        Draft202012Validator({**DOCUMENT, **schema}).validate(response.json)
    else:
        assert response.mimetype in documented["content"]


@pytest.mark.parametrize("prefix", ["/api/v1/matches", "/api/v1/clubs"])
def test_the_openapi_document_describes_every_route_of_stored_matches_and_clubs(
    app: Flask, prefix: str
) -> None:
    routes = {
        (re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(prefix)
        for method in rule.methods or ()
        if method not in {"HEAD", "OPTIONS"}
    }

    documented = {
        (path, method)
        for path, item in DOCUMENT["paths"].items()
        if path.startswith(prefix)
        for method in item
        if method != "parameters"
    }
    assert routes == documented
