"""The calculator API through the Flask test client: presets, score, meld-check and OpenAPI."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, ValidationError
from openapi_spec_validator import validate
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.api.openapi import openapi_document
from scorekeeper.domain.rules import PRESETS, SETTING_KEYS

Post = Callable[..., TestResponse]

US = {
    "name": "Us",
    "clean_books": 2,
    "dirty_books": 2,
    "wild_books": 0,
    "melded_points": 765,
    "red_threes": 1,
    "red_threes_held": 0,
    "went_out": True,
    "leftover_points": 0,
    "deal_bonus": False,
    "running_score": 0,
}
ISSUE_EXAMPLE = {
    "rules": {"preset": "standard", "overrides": {"going_out_bonus": 200}},
    "round": 2,
    "players": 4,
    "sides": [US],
}
WORKED_EXAMPLE = {
    "rules": {"preset": "standard"},
    "round": 2,
    "sides": [
        {**US, "red_threes": 1},
        {
            "name": "B",
            "clean_books": 1,
            "melded_points": 310,
            "red_threes": 1,
            "leftover_points": 85,
        },
        {"name": "C", "red_threes": 1, "leftover_points": 140},
    ],
}


def assert_documented(body: object, schema: str) -> None:
    """Assert that a response body matches the schema the OpenAPI document gives for it."""
    document = openapi_document()
    Draft202012Validator({**document, "$ref": f"#/components/schemas/{schema}"}).validate(body)


def calculator_app(**config: object) -> Flask:
    """Return an app for the calculator, which stores nothing: its database is never created."""
    return create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://", **config}
    )


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return calculator_app().test_client()


@pytest.fixture
def post(client: FlaskClient) -> Post:
    """Return a function that posts JSON to an API path and returns the response."""

    def post_json(path: str, body: object = None, **kwargs: Any) -> TestResponse:
        if "data" in kwargs:
            return client.post(f"/api/v1/{path}", **kwargs)
        return client.post(f"/api/v1/{path}", json=body, **kwargs)

    return post_json


def errors_of(response: TestResponse) -> list[tuple[object, object]]:
    assert response.json is not None
    # A round the engine refused also gives the scores of the sides no problem concerns.
    assert_documented(response.json, "RefusedRound" if "sides" in response.json else "Errors")
    return [(error["side"], error["field"]) for error in response.json["errors"]]


# -- Presets -----------------------------------------------------------------------------------


def test_the_presets_list_every_preset_with_every_setting(client: FlaskClient) -> None:
    response = client.get("/api/v1/presets")

    assert response.status_code == 200
    assert_documented(response.json, "PresetList")
    presets = response.json["presets"]
    assert [preset["key"] for preset in presets] == list(PRESETS)
    for preset in presets:
        assert tuple(preset["settings"]) == SETTING_KEYS
        assert preset["settings"] == PRESETS[preset["key"]].rules.as_settings()
        assert preset["name"]


# -- Score -------------------------------------------------------------------------------------


def test_the_issues_example_scores_with_its_going_out_bonus_of_200(post: Post) -> None:
    response = post("score", ISSUE_EXAMPLE)

    assert response.status_code == 200
    assert_documented(response.json, "RoundScore")
    assert response.json == {
        "round": 2,
        "meld_minimum": 90,
        "sides": [
            {
                "name": "Us",
                "score": 2665,
                "meld_minimum": 90,
                "breakdown": {
                    "books": 1600,
                    "melded": 765,
                    "red_threes": 100,
                    "going_out": 200,
                    "deal_bonus": 0,
                    "leftover": 0,
                },
            }
        ],
    }


def test_the_worked_example_scores_2565_825_and_minus_240(post: Post) -> None:
    response = post("score", WORKED_EXAMPLE)

    assert response.status_code == 200
    assert [side["score"] for side in response.json["sides"]] == [2565, 825, -240]
    for side in response.json["sides"]:
        assert sum(side["breakdown"].values()) == side["score"]
        assert side["breakdown"]["leftover"] <= 0


def test_whole_numbers_written_with_a_decimal_point_score_as_those_numbers(post: Post) -> None:
    # JSON Schema's integer takes 2.0, so the API does.
    side = {**US, "clean_books": 2.0, "melded_points": 765.0, "red_threes": 1.0}
    rules = {"preset": "standard", "overrides": {"going_out_bonus": 200.0}}
    body = {**ISSUE_EXAMPLE, "rules": rules, "round": 2.0, "players": 4.0, "sides": [side]}

    response = post("score", body)

    assert response.status_code == 200
    assert response.json == post("score", ISSUE_EXAMPLE).json


@pytest.mark.parametrize("count", [2.5, "2", True], ids=["fraction", "text", "true"])
def test_a_count_that_is_no_whole_number_is_refused_however_it_is_written(
    post: Post, count: object
) -> None:
    response = post("score", {"round": 2, "sides": [{"name": "Us", "clean_books": count}]})

    assert response.status_code == 422
    assert errors_of(response) == [(0, "clean_books")]
    assert response.json["errors"][0]["message"] == (
        "Us: clean books must be a whole number, such as 0 or 2."
    )


def test_only_the_round_and_side_names_are_required(post: Post) -> None:
    response = post("score", {"round": 1, "sides": [{"name": "Us"}, {"name": "Them"}]})

    assert response.status_code == 200
    assert [side["score"] for side in response.json["sides"]] == [0, 0]


def test_cards_can_be_counted_instead_of_totalled(post: Post) -> None:
    side = {
        "name": "Us",
        "clean_books": 1,
        "melded": {"jokers": 0, "twos": 0, "aces": 3, "eights_to_kings": 7, "fours_to_sevens": 0},
        "leftover": {"black_threes": 1, "jokers": 1},
    }

    response = post("score", {"round": 1, "players": 4, "sides": [side]})

    assert response.status_code == 200
    assert response.json["sides"][0]["breakdown"] == {
        "books": 500,
        "melded": 130,
        "red_threes": 0,
        "going_out": 0,
        "deal_bonus": 0,
        "leftover": -55,
    }


def test_by_score_the_round_has_no_single_minimum(post: Post) -> None:
    body = {
        "rules": {"overrides": {"meld_minimum_mode": "by_score"}},
        "round": 3,
        "sides": [
            {"name": "Us", "melded_points": 90, "running_score": 1500},
            {"name": "Them", "melded_points": 15, "running_score": -40},
        ],
    }

    response = post("score", body)

    assert response.status_code == 200
    assert_documented(response.json, "RoundScore")
    assert response.json["meld_minimum"] is None
    assert [side["meld_minimum"] for side in response.json["sides"]] == [90, 15]


def test_each_preset_scores_by_its_own_rules(post: Post) -> None:
    side = {"name": "Us", "melded_points": 90, "red_threes_held": 1, "deal_bonus": True}

    response = post("score", {"rules": {"preset": "partnership-11"}, "round": 1, "sides": [side]})

    assert response.json["sides"][0]["breakdown"]["red_threes"] == -300
    assert response.json["sides"][0]["breakdown"]["deal_bonus"] == 300


def test_an_impossible_side_gets_a_422_naming_the_side_and_the_field(post: Post) -> None:
    body = {"round": 2, "sides": [{"name": "Us", "melded_points": 767}]}

    response = post("score", body)

    assert response.status_code == 422
    assert errors_of(response) == [(0, "melded_points")]
    message = response.json["errors"][0]["message"]
    assert message.startswith("Us: melded points")
    assert "multiple of 5" in message


def test_a_refused_round_gives_the_scores_of_the_sides_no_problem_concerns(post: Post) -> None:
    body = {
        "round": 2,
        "sides": [{"name": "Us", "melded_points": 767}, {"name": "Them", "melded_points": 90}],
    }

    response = post("score", body)

    assert response.status_code == 422
    assert errors_of(response) == [(0, "melded_points")]
    assert response.json is not None
    us, them = response.json["sides"]
    assert us is None
    assert (them["name"], them["score"], them["breakdown"]["melded"]) == ("Them", 90, 90)


def test_a_refusal_that_players_would_lift_says_so_and_keeps_the_other_sides_score(
    post: Post,
) -> None:
    # Two pairs, players left out: Us went out while a partner still held 40 points of cards.
    went_out = {"name": "Us", "clean_books": 2, "dirty_books": 2, "melded_points": 300}
    sides = [{**went_out, "went_out": True, "leftover_points": 40}, {"name": "Them"}]

    response = post("score", {"round": 1, "sides": sides})

    assert response.status_code == 422
    assert errors_of(response) == [(0, "leftover"), (None, "players")]
    assert response.json is not None
    assert "enter players" in response.json["errors"][1]["message"]
    assert response.json["sides"][1]["score"] == 0
    assert post("score", {"round": 1, "players": 4, "sides": sides}).status_code == 200


def test_every_problem_of_a_round_is_answered_at_once(post: Post) -> None:
    body = {
        "round": 1,
        "sides": [
            {
                "name": "Us",
                **{key: US[key] for key in ("clean_books", "dirty_books")},
                "melded_points": 30,
            },
            {"name": "Them", "went_out": True},
        ],
    }

    response = post("score", body)

    assert response.status_code == 422
    assert errors_of(response) == [(0, "melded_points"), (0, "melded_points"), (1, "went_out")]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"round": 5, "sides": [{"name": "Us"}]}, "round", id="round 5"),
        pytest.param({"sides": [{"name": "Us"}]}, "round", id="no round"),
        pytest.param({"round": 1}, "sides", id="no sides"),
        pytest.param({"round": 1, "sides": [{"name": "Us"}] * 7}, "sides", id="seven sides"),
        pytest.param(
            {"round": 1, "players": 1, "sides": [{"name": "Us"}, {"name": "Them"}]},
            "players",
            id="too few players",
        ),
        pytest.param(
            {"round": 1, "side_players": [2], "sides": [{"name": "Us"}, {"name": "Them"}]},
            "side_players",
            id="players for one side of two",
        ),
        pytest.param(
            {"round": 1, "side_players": [2, 0], "sides": [{"name": "Us"}, {"name": "Them"}]},
            "side_players",
            id="a side of no players",
        ),
        pytest.param(
            {"round": 1, "side_players": [4, 3], "sides": [{"name": "Us"}, {"name": "Them"}]},
            "side_players",
            id="seven players",
        ),
        pytest.param(
            {
                "round": 1,
                "players": 4,
                "side_players": [1, 2],
                "sides": [{"name": "Us"}, {"name": "Them"}],
            },
            "side_players",
            id="players and side players that disagree",
        ),
        pytest.param(
            {"round": 1, "side_players": [2, "2"], "sides": [{"name": "Us"}, {"name": "Them"}]},
            "side_players",
            id="side players that are not numbers",
        ),
        pytest.param(
            {"rules": {"preset": "canasta"}, "round": 1, "sides": [{"name": "Us"}]},
            "rules.preset",
            id="unknown preset",
        ),
        pytest.param(
            {"rules": {"overrides": {"decks": 0}}, "round": 1, "sides": [{"name": "Us"}]},
            "rules.overrides.decks",
            id="zero decks",
        ),
        pytest.param(
            {
                "rules": {"overrides": {"meld_minimums": [50]}},
                "round": 1,
                "sides": [{"name": "Us"}],
            },
            "rules.overrides.meld_minimums",
            id="minimums for one round",
        ),
        pytest.param(
            {"round": 1, "sides": [{"name": "Us", "red_threes": 9}], "players": 2},
            "red_threes",
            id="more red threes than the decks hold",
        ),
    ],
)
def test_a_whole_request_error_has_no_side(post: Post, body: dict[str, Any], field: str) -> None:
    response = post("score", body)

    assert response.status_code == 422
    assert (None, field) in errors_of(response)


def test_each_sides_players_hold_a_player_alone_beside_a_pair_to_their_own_player(
    post: Post,
) -> None:
    # With the table's total alone, the side of one might be the pair, who may go out holding
    # cards; given each side's players, it is known to be alone (docs/rules.md, "What the app
    # refuses").
    solo = {**US, "name": "Solo", "red_threes": 0, "leftover_points": 50}
    sides = [solo, {"name": "Pair"}]
    body = {"round": 1, "sides": sides}

    assert post("score", {**body, "players": 3}).status_code == 200
    response = post("score", {**body, "side_players": [1, 2]})

    assert response.status_code == 422
    assert (0, "leftover") in errors_of(response)


def test_each_sides_players_give_the_table_its_decks(post: Post) -> None:
    # Six players draw from more decks than two: nine red threes fit only the larger table.
    sides = [{"name": "Us", "red_threes": 9}, {"name": "Them"}]

    assert post("score", {"round": 1, "sides": sides, "side_players": [1, 1]}).status_code == 422
    assert post("score", {"round": 1, "sides": sides, "side_players": [3, 3]}).status_code == 200


def test_one_side_scored_alone_draws_from_the_decks_of_a_table_of_two_at_least(
    post: Post,
) -> None:
    # partnership-11 has a deck per player: two at least, which hold four red threes.
    body = {"round": 1, "sides": [{"name": "Us", "red_threes_held": 3}]}

    response = post("score", {"rules": {"preset": "partnership-11"}, **body})

    assert response.status_code == 200
    assert response.json is not None
    assert response.json["sides"][0]["score"] == -900


@pytest.mark.parametrize("preset", ["standard", "simple"])
def test_an_absurd_count_of_cards_is_refused_as_more_than_the_decks_hold(
    post: Post, preset: str
) -> None:
    # Counting the wilds such naturals could carry once took memory in proportion to them.
    side = {"name": "Us", "melded": {"aces": 10**12, "twos": 3}}

    response = post("score", {"rules": {"preset": preset}, "round": 1, "sides": [side]})

    assert response.status_code == 422
    assert (None, "aces") in errors_of(response)  # the table's aces, over the decks' supply


def test_too_many_of_a_card_names_the_sides_fields_that_add_up_to_it(post: Post) -> None:
    sides = [{"name": "Us", "red_threes": 5}, {"name": "Them", "red_threes_held": 4}]

    response = post("score", {"round": 1, "sides": sides, "players": 2})

    assert response.status_code == 422
    assert errors_of(response) == [(None, "red_threes")]  # as the OpenAPI document says
    assert response.json is not None
    [error] = response.json["errors"]
    assert error["adds_up"] == [
        {"side": 0, "field": "red_threes"},
        {"side": 1, "field": "red_threes_held"},
    ]


@pytest.mark.parametrize(
    ("side", "field"),
    [
        pytest.param({"clean_books": 1.5}, "clean_books", id="fractional"),
        pytest.param({"clean_books": -1}, "clean_books", id="negative"),
        pytest.param({"went_out": "yes"}, "went_out", id="flag as text"),
        pytest.param({"melded": {"black_threes": 1}}, "melded.black_threes", id="black threes"),
        pytest.param({"colour": "red"}, "colour", id="unknown field"),
        pytest.param({"wild_books": 1, "melded_points": 135}, "melded_points", id="cheap book"),
        pytest.param({"melded_points": 45}, "melded_points", id="under the minimum"),
        pytest.param({"went_out": True}, "went_out", id="out without books"),
    ],
)
def test_a_wrong_side_field_gets_a_422_for_that_side(
    post: Post, side: dict[str, Any], field: str
) -> None:
    body = {"round": 1, "sides": [{"name": "Us"}, {"name": "Them", **side}]}

    response = post("score", body)

    assert response.status_code == 422
    assert (1, field) in errors_of(response)
    assert all(error["message"].startswith("Them") for error in response.json["errors"])


@pytest.mark.parametrize(
    "data",
    [
        pytest.param("{", id="broken JSON"),
        pytest.param("", id="empty body"),
        pytest.param("[1, 2]", id="a list"),
        pytest.param('"score"', id="a string"),
        pytest.param("null", id="null"),
        pytest.param("NaN", id="not a number"),
        pytest.param("[" * 50_000, id="nested too deep"),
        pytest.param("\xff\xfe", id="not UTF-8"),
    ],
)
@pytest.mark.parametrize("path", ["score", "meld-check"])
def test_a_body_that_is_not_a_json_object_gets_a_400(post: Post, path: str, data: str) -> None:
    response = post(path, data=data.encode("latin-1"), content_type="application/json")

    assert response.status_code == 400
    assert errors_of(response) == [(None, "body")]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param("{", "The request body is not JSON that can be read", id="broken"),
        pytest.param(
            '{"round": 1%s}' % ("0" * 5000), "at most 4300 digits", id="a number too long"
        ),
        pytest.param("[1, 2]", "The request body must be a JSON object.", id="a list"),
    ],
)
def test_a_bad_body_is_told_what_is_wrong_with_it(post: Post, data: str, message: str) -> None:
    response = post("score", data=data, content_type="application/json")

    assert message in response.get_json()["errors"][0]["message"]


def test_a_body_that_is_not_json_gets_a_400(post: Post) -> None:
    response = post("score", data="round=1", content_type="application/x-www-form-urlencoded")

    assert response.status_code == 400
    assert response.get_json()["errors"][0]["message"] == (
        "Send the request body as JSON, with the header Content-Type: application/json."
    )


def test_a_body_over_the_size_limit_gets_a_413(post: Post) -> None:
    names = [{"name": "x" * 50}] * 10_000

    response = post("score", {"round": 1, "sides": names})

    assert response.status_code == 413
    assert errors_of(response) == [(None, None)]


def test_a_wrong_method_gets_a_405(client: FlaskClient) -> None:
    assert client.get("/api/v1/score").status_code == 405
    assert client.post("/api/v1/presets").status_code == 405


def test_the_api_needs_no_csrf_token() -> None:
    client = calculator_app(WTF_CSRF_ENABLED=True).test_client()

    response = client.post("/api/v1/score", json=ISSUE_EXAMPLE)

    assert response.status_code == 200


# -- Meld check --------------------------------------------------------------------------------

MELD_CHECK = {
    "rules": {"preset": "standard"},
    "round": 1,
    "running_score": 0,
    "melds": [{"rank": "K", "naturals": 3, "twos": 0, "jokers": 1}],
}


def test_the_issues_meld_check_example_meets_the_minimum(post: Post) -> None:
    response = post("meld-check", MELD_CHECK)

    assert response.status_code == 200
    assert_documented(response.json, "MeldCheck")
    assert response.json == {
        "minimum": 50,
        "points": 80,
        "meets": True,
        "short_by": 0,
        "melds": [{"valid": True, "points": 80, "problems": []}],
    }


def test_a_meld_checks_whole_numbers_written_with_a_decimal_point(post: Post) -> None:
    melds = [{"rank": "K", "naturals": 3.0, "twos": 0.0, "jokers": 1.0}]

    response = post(
        "meld-check", {**MELD_CHECK, "round": 1.0, "running_score": 0.0, "melds": melds}
    )

    assert response.status_code == 200
    assert response.json == post("meld-check", MELD_CHECK).json


def test_melds_short_of_the_minimum_say_by_how_much(post: Post) -> None:
    response = post("meld-check", {**MELD_CHECK, "round": 4})

    assert response.json["minimum"] == 150
    assert response.json["meets"] is False
    assert response.json["short_by"] == 70


def test_an_illegal_meld_is_answered_with_its_problems(post: Post) -> None:
    melds = [{"rank": "A", "naturals": 7}, {"rank": "3", "naturals": 3}, {"rank": "Q", "twos": 3}]

    response = post("meld-check", {"melds": melds})

    assert response.status_code == 200
    assert_documented(response.json, "MeldCheck")
    assert response.json["meets"] is False
    assert [meld["valid"] for meld in response.json["melds"]] == [True, False, False]
    assert "threes never meld" in response.json["melds"][1]["problems"][0]


def test_wild_melds_follow_the_preset(post: Post) -> None:
    melds = [{"rank": "wild", "twos": 2, "jokers": 1}]

    standard = post("meld-check", {"melds": melds})
    simple = post("meld-check", {"rules": {"preset": "simple"}, "melds": melds})

    assert standard.json["meets"] is True
    assert standard.json["points"] == 90
    assert simple.json["meets"] is False


def test_by_score_the_minimum_follows_the_running_score(post: Post) -> None:
    body = {**MELD_CHECK, "rules": {"overrides": {"meld_minimum_mode": "by_score"}}}

    response = post("meld-check", {**body, "running_score": 3000})

    assert response.json["minimum"] == 120
    assert response.json["short_by"] == 40


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({**MELD_CHECK, "round": 5}, "round", id="round 5"),
        pytest.param({**MELD_CHECK, "round": "1"}, "round", id="round as text"),
        pytest.param({**MELD_CHECK, "running_score": 1.5}, "running_score", id="half a point"),
        pytest.param({**MELD_CHECK, "melds": []}, "melds", id="no melds"),
        pytest.param({**MELD_CHECK, "melds": [{"rank": 13}]}, "melds[0].rank", id="rank"),
        pytest.param({**MELD_CHECK, "rules": {"preset": "x"}}, "rules.preset", id="preset"),
    ],
)
def test_a_wrong_meld_check_request_gets_a_422(
    post: Post, body: dict[str, Any], field: str
) -> None:
    response = post("meld-check", body)

    assert response.status_code == 422
    assert errors_of(response) == [(None, field)]


# -- OpenAPI -----------------------------------------------------------------------------------


def test_the_openapi_document_is_valid_openapi_3_1(client: FlaskClient) -> None:
    response = client.get("/api/v1/openapi.json")

    assert response.status_code == 200
    assert response.json["openapi"].startswith("3.1")
    validate(response.json)


def test_the_openapi_document_describes_the_calculator(client: FlaskClient) -> None:
    paths = client.get("/api/v1/openapi.json").json["paths"]

    assert set(paths["/api/v1/presets"]) == {"get"}
    assert set(paths["/api/v1/score"]) == {"post"}
    assert set(paths["/api/v1/meld-check"]) == {"post"}
    assert set(paths["/api/v1/openapi.json"]) == {"get"}
    assert "422" in paths["/api/v1/score"]["post"]["responses"]


@pytest.mark.parametrize("key", PRESETS)
def test_the_documents_settings_take_every_preset_and_the_rules_ranges(key: str) -> None:
    settings = PRESETS[key].rules.as_settings()
    assert_documented(settings, "Settings")

    for changed, value in [("dirty_book", 301), ("rounds", 13), ("card_values", {"ace": -5})]:
        with pytest.raises(ValidationError):
            assert_documented({**settings, changed: value}, "Settings")


@pytest.mark.parametrize(
    ("schema", "body"),
    [
        ("ScoreRequest", ISSUE_EXAMPLE),
        ("ScoreRequest", WORKED_EXAMPLE),
        ("MeldCheckRequest", MELD_CHECK),
    ],
)
def test_the_examples_are_valid_requests_by_the_document(schema: str, body: object) -> None:
    assert_documented(body, schema)
