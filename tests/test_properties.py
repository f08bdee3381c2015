"""Properties of the engine and the API that hold for any entry, found by hypothesis."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.domain.entries import COUNT_KEYS, MELDED_COUNT_KEYS, RoundEntry, SideEntry
from scorekeeper.domain.melds import RANKS, Meld, check_melds, meld_points
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import NATURAL_KINDS, PRESETS, SETTING_KEYS, RuleSet, build_rules
from scorekeeper.domain.scoring import score_round, side_breakdown
from scorekeeper.domain.validation import round_problems

ENGINE = settings(max_examples=200, deadline=None)
API = settings(max_examples=150, deadline=None)

rule_sets = st.sampled_from([preset.rules for preset in PRESETS.values()]) | st.builds(
    lambda overrides: build_rules("standard", overrides),
    st.fixed_dictionaries(
        {},
        optional={
            "meld_minimum_mode": st.just("by_score"),
            "red_three_unmelded": st.sampled_from([100, -500]),
            "card_values": st.fixed_dictionaries(
                {}, optional={"black_three": st.just(100), "eight_to_king": st.just(5)}
            ),
            "dirty_book": st.sampled_from([100, 200, 250]),
            "going_out_requires": st.just({"clean": 1, "dirty": 1}),
        },
    ),
)
points = st.integers(min_value=0, max_value=60).map(lambda fives: 5 * fives)


@st.composite
def valid_sides(draw: st.DrawFn, rules: RuleSet, round_number: int, *, out: bool) -> SideEntry:
    """Draw a side's entry that a table playing `rules` could make: every count adds up."""
    running_score = draw(st.integers(min_value=-1000, max_value=5000))
    required = rules.going_out_requires
    clean = draw(st.integers(min_value=required.clean if out else 0, max_value=3))
    dirty = draw(st.integers(min_value=required.dirty if out else 0, max_value=3))
    most_wild = 1 if rules.wild_books_allowed else 0
    wild = draw(st.integers(min_value=required.wild if out else 0, max_value=most_wild))
    has_melded = out or clean + dirty + wild > 0 or draw(st.booleans())
    melded = 0
    if has_melded:
        books = replace(required, clean=clean, dirty=dirty, wild=wild)
        floor = max(rules.cheapest_books(books), rules.meld_minimum(round_number, running_score))
        melded = -(-floor // 5) * 5 + draw(points)
    held = 0 if rules.red_threes_laid_down else draw(st.integers(min_value=0, max_value=2))
    return SideEntry(
        name=draw(st.text(min_size=1, max_size=10)),
        clean_books=clean,
        dirty_books=dirty,
        wild_books=wild,
        melded=melded,
        red_threes=draw(st.integers(min_value=0, max_value=2)) if rules.red_threes_laid_down else 0,
        red_threes_held=held,
        went_out=out,
        leftover=draw(points),
        deal_bonus=bool(rules.deal_bonus) and draw(st.booleans()),
        running_score=running_score,
    )


@st.composite
def valid_rounds(draw: st.DrawFn) -> tuple[RuleSet, RoundEntry]:
    """Draw rules and a round of two partnerships at a table of four."""
    rules = draw(rule_sets)
    round_number = draw(st.integers(min_value=1, max_value=rules.rounds))
    out = draw(st.sampled_from([None, 0, 1]))
    sides = tuple(draw(valid_sides(rules, round_number, out=out == index)) for index in (0, 1))
    return rules, RoundEntry(round_number, sides, players=4)


@ENGINE
@given(valid_rounds())
def test_a_valid_entry_has_no_problem_and_never_raises(ruled_round: Any) -> None:
    rules, entry = ruled_round

    assert round_problems(rules, entry) == []
    score_round(rules, entry)


@ENGINE
@given(valid_rounds())
def test_the_breakdown_always_adds_up_to_the_score(ruled_round: Any) -> None:
    rules, entry = ruled_round

    for side in score_round(rules, entry).sides:
        assert sum(side.breakdown.as_dict().values()) == side.score
        assert side.breakdown.leftover <= 0
        assert side.breakdown.books >= 0


@ENGINE
@given(valid_rounds(), st.sampled_from(NATURAL_KINDS))
def test_one_more_clean_book_adds_its_bonus_and_its_seven_cards(
    ruled_round: Any, kind: Any
) -> None:
    rules, entry = ruled_round
    side = entry.sides[0]
    # A side that had not melded could not lay one book under the minimum, and its red threes
    # would turn from a penalty into a bonus.
    assume(side.has_melded(rules.card_values))
    seven_cards = 7 * rules.card_values.of(kind)
    more = replace(side, clean_books=side.clean_books + 1, melded=side.melded + seven_cards)

    gained = side_breakdown(rules, more).total - side_breakdown(rules, side).total

    assert gained == rules.clean_book + seven_cards
    assert round_problems(rules, replace(entry, sides=(more, *entry.sides[1:]))) == []


@ENGINE
@given(valid_rounds(), st.integers(min_value=1, max_value=4))
def test_more_points_left_over_cost_exactly_those_points(ruled_round: Any, cards: int) -> None:
    rules, entry = ruled_round
    side = entry.sides[1]
    penalty = cards * rules.card_values.four_to_seven

    more = replace(side, leftover=side.leftover + penalty)

    assert side_breakdown(rules, side).total - side_breakdown(rules, more).total == penalty


@ENGINE
@given(valid_rounds())
def test_a_valid_round_scores_the_same_as_each_side_alone(ruled_round: Any) -> None:
    rules, entry = ruled_round

    scored = score_round(rules, entry)

    assert [side.breakdown for side in scored.sides] == [
        side_breakdown(rules, side) for side in entry.sides
    ]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@ENGINE
@given(st.dictionaries(st.sampled_from([*SETTING_KEYS, "other"]), json_values, max_size=5))
def test_any_overrides_build_rules_or_give_problems(overrides: dict[str, Any]) -> None:
    try:
        rules = build_rules("standard", overrides)
    except ProblemsError as error:
        assert error.problems
        assert all(problem.message() for problem in error.problems)
    else:
        assert isinstance(rules, RuleSet)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_presets_settings_given_as_overrides_rebuild_it(preset: str) -> None:
    rules = PRESETS[preset].rules

    assert build_rules("standard", rules.as_settings()) == rules


melds = st.builds(
    Meld,
    rank=st.sampled_from([*RANKS, "3", "2"]),
    naturals=st.integers(min_value=0, max_value=8),
    twos=st.integers(min_value=0, max_value=4),
    jokers=st.integers(min_value=0, max_value=3),
)


@ENGINE
@given(rule_sets, st.lists(melds, min_size=1, max_size=5), st.integers(-500, 4000))
def test_melds_meet_the_minimum_only_when_all_are_legal_and_enough(
    rules: RuleSet, laid_down: list[Meld], running_score: int
) -> None:
    result = check_melds(rules, laid_down, round_number=1, running_score=running_score)

    legal = [meld for meld, checked in zip(laid_down, result.melds, strict=True) if checked.valid]
    assert result.points == sum(meld_points(rules, meld) for meld in legal)
    assert result.meets is (
        all(meld.valid for meld in result.melds) and result.points >= result.minimum
    )
    assert result.short_by == max(result.minimum - result.points, 0)
    for meld, checked in zip(laid_down, result.melds, strict=True):
        if checked.valid:
            assert 3 <= meld.size <= 7
            assert meld.rank not in ("3", "2")


# -- The API never answers 500 -----------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    config = {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    return create_app(config).test_client()


def side_bodies(count: Any, points: Any, flag: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Return sides of a score request whose fields are drawn from these strategies."""
    return st.fixed_dictionaries(
        {"name": st.text(min_size=1, max_size=8)},
        optional={
            **{key: count for key in ("clean_books", "dirty_books", "wild_books")},
            **{key: count for key in ("red_threes", "red_threes_held")},
            **{key: points for key in ("melded_points", "leftover_points", "running_score")},
            "went_out": flag,
            "deal_bonus": flag,
            "melded": st.dictionaries(st.sampled_from(MELDED_COUNT_KEYS), count, max_size=5),
            "leftover": st.dictionaries(st.sampled_from(COUNT_KEYS), count, max_size=6),
        },
    )


def request_bodies(
    count: Any, points: Any, flag: Any, anything: Any
) -> tuple[st.SearchStrategy[dict[str, Any]], st.SearchStrategy[dict[str, Any]]]:
    """Return score and meld-check bodies: `anything` may stand in for any part of them."""
    rules = st.fixed_dictionaries(
        {},
        optional={
            "preset": st.sampled_from(list(PRESETS)) | anything,
            "overrides": st.sampled_from(list(TABLE_OVERRIDES))
            | st.dictionaries(st.sampled_from(SETTING_KEYS), anything, max_size=2),
        },
    )
    score = st.fixed_dictionaries(
        {"round": st.integers(min_value=1, max_value=4) | anything},
        optional={
            "rules": rules | anything,
            "players": st.integers(min_value=1, max_value=6) | anything,
            "sides": st.lists(side_bodies(count, points, flag) | anything, max_size=3),
        },
    )
    meld = st.fixed_dictionaries(
        {"rank": st.sampled_from(RANKS) | anything},
        optional={key: count for key in ("naturals", "twos", "jokers")},
    )
    meld_check = st.fixed_dictionaries(
        {"melds": st.lists(meld | anything, max_size=4) | anything},
        optional={"rules": rules | anything, "round": count, "running_score": points},
    )
    return score, meld_check


TABLE_OVERRIDES = (
    {"going_out_bonus": 200},
    {"meld_minimum_mode": "by_score"},
    {"red_three_unmelded": 100, "card_values": {"black_three": 100}},
    {"going_out_requires": {"clean": 1, "dirty": 1}},
)
well_typed = request_bodies(
    count=st.integers(min_value=0, max_value=4),
    points=st.integers(min_value=0, max_value=120).map(lambda fives: 5 * fives),
    flag=st.booleans(),
    anything=st.nothing(),
)
near_valid = st.integers(min_value=-10, max_value=2000) | json_values
mistyped = request_bodies(
    count=near_valid, points=near_valid, flag=near_valid, anything=json_values
)


def assert_answered_without_a_server_error(client: FlaskClient, path: str, body: object) -> None:
    response = client.post(f"/api/v1/{path}", json=body)

    assert response.status_code in (200, 400, 422), response.json
    assert response.json is not None
    if response.status_code != 200:
        assert all(error["message"] for error in response.json["errors"])


@API
@given(json_values)
def test_any_json_body_gets_an_answer_never_a_500(client: FlaskClient, body: object) -> None:
    for path in ("score", "meld-check"):
        assert_answered_without_a_server_error(client, path, body)


@API
@given(st.sampled_from(["score", "meld-check"]), st.data())
def test_any_well_typed_request_gets_an_answer_never_a_500(
    client: FlaskClient, path: str, data: st.DataObject
) -> None:
    body = data.draw(well_typed[path == "meld-check"])

    assert_answered_without_a_server_error(client, path, body)


@API
@given(st.sampled_from(["score", "meld-check"]), st.data())
def test_any_mistyped_request_gets_an_answer_never_a_500(
    client: FlaskClient, path: str, data: st.DataObject
) -> None:
    body = data.draw(mistyped[path == "meld-check"])

    assert_answered_without_a_server_error(client, path, body)


@API
@given(st.binary(max_size=64))
def test_any_bytes_posted_as_json_get_an_answer_never_a_500(
    client: FlaskClient, data: bytes
) -> None:
    response = client.post("/api/v1/score", data=data, content_type="application/json")

    assert response.status_code in (400, 422)
