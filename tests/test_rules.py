"""Rule sets: the presets, every setting (docs/rules.md), validation."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.domain.labels import setting_label
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import (
    BOOK_SIZE,
    PRESETS,
    SETTING_KEYS,
    BookCounts,
    CardKind,
    CardValues,
    DeckCount,
    MeldMinimumMode,
    Permission,
    RuleSet,
    WildRatio,
    build_rules,
    by_score_minimum,
    house_rule_keys,
)

SECTION_5_KEYS = (
    "decks",
    "hand_size",
    "foot_size",
    "rounds",
    "meld_minimum_mode",
    "meld_minimums",
    "card_values",
    "clean_book",
    "dirty_book",
    "wild_book",
    "wild_books_allowed",
    "max_wilds_per_meld",
    "wild_ratio",
    "going_out_requires",
    "going_out_bonus",
    "red_threes_laid_down",
    "red_three_bonus",
    "red_three_unmelded",
    "red_three_held",
    "discard_pickup",
    "permission_to_go_out",
    "deal_bonus",
)
STANDARD_CARD_VALUES = {
    "joker": 50,
    "two": 20,
    "ace": 20,
    "eight_to_king": 10,
    "four_to_seven": 5,
    "black_three": 5,
}

# The presets, column by column: only the settings where a preset differs from standard.
STANDARD_SETTINGS: dict[str, Any] = {
    "decks": "players+1",
    "hand_size": 13,
    "foot_size": 13,
    "rounds": 4,
    "meld_minimum_mode": "by_round",
    "meld_minimums": [50, 90, 120, 150],
    "card_values": STANDARD_CARD_VALUES,
    "clean_book": 500,
    "dirty_book": 300,
    "wild_book": 1500,
    "wild_books_allowed": True,
    "max_wilds_per_meld": 2,
    "wild_ratio": "naturals_at_least_double",
    "going_out_requires": {"clean": 2, "dirty": 2, "wild": 0},
    "going_out_bonus": 100,
    "red_threes_laid_down": True,
    "red_three_bonus": 100,
    "red_three_unmelded": -100,
    "red_three_held": -100,
    "discard_pickup": 7,
    "permission_to_go_out": "asked",
    "deal_bonus": 0,
}
PRESET_DIFFERENCES: dict[str, dict[str, Any]] = {
    "standard": {},
    "simple": {
        "hand_size": 11,
        "foot_size": 11,
        "wild_books_allowed": False,
        "max_wilds_per_meld": None,
        "wild_ratio": "naturals_exceed_wilds",
        "going_out_requires": {"clean": 1, "dirty": 1, "wild": 0},
    },
    "strict": {
        "decks": 5,
        "going_out_requires": {"clean": 2, "dirty": 2, "wild": 1},
        "permission_to_go_out": "required",
    },
    "partnership-11": {
        "decks": "players",
        "hand_size": 11,
        "foot_size": 11,
        "wild_books_allowed": False,
        "red_threes_laid_down": False,
        "red_three_held": -300,
        "discard_pickup": 5,
        "permission_to_go_out": "required",
        "deal_bonus": 300,
    },
}
PRESET_SETTING_CASES = [
    pytest.param(key, setting, {**STANDARD_SETTINGS, **differences}[setting], id=f"{key}-{setting}")
    for key, differences in PRESET_DIFFERENCES.items()
    for setting in SECTION_5_KEYS
]

# One value per setting that differs from the standard preset and that some table plays.
OVERRIDES: dict[str, Any] = {
    "decks": 4,
    "hand_size": 11,
    "foot_size": 15,
    "rounds": 3,
    "meld_minimum_mode": "by_score",
    "meld_minimums": [50, 90, 120, 150, 180],
    "card_values": {"black_three": 100},
    "clean_book": 300,
    "dirty_book": 100,
    "wild_book": 2500,
    "wild_books_allowed": False,
    "max_wilds_per_meld": None,
    "wild_ratio": "naturals_exceed_wilds",
    "going_out_requires": {"wild": 1},
    "going_out_bonus": 250,
    "red_threes_laid_down": False,
    "red_three_bonus": 200,
    "red_three_unmelded": 100,
    "red_three_held": -500,
    "discard_pickup": 0,
    "permission_to_go_out": "none",
    "deal_bonus": 300,
}
# Settings an override of one key needs to stay consistent with.
COMPANIONS: dict[str, dict[str, Any]] = {
    "rounds": {"meld_minimums": [50, 90, 120]},
    "meld_minimums": {"rounds": 5},
}


def test_the_presets_are_the_four_of_rules_section_4() -> None:
    assert list(PRESETS) == ["standard", "simple", "strict", "partnership-11"]


def test_the_rule_set_holds_exactly_the_settings_of_rules_section_5() -> None:
    assert SETTING_KEYS == SECTION_5_KEYS


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_is_a_complete_set_of_settings(key: str) -> None:
    settings = PRESETS[key].rules.as_settings()

    assert tuple(settings) == SECTION_5_KEYS
    assert set(settings["card_values"]) == set(STANDARD_CARD_VALUES)
    assert set(settings["going_out_requires"]) == {"clean", "dirty", "wild"}


@pytest.mark.parametrize(("key", "setting", "expected"), PRESET_SETTING_CASES)
def test_each_preset_setting_has_the_value_of_rules_section_4(
    key: str, setting: str, expected: object
) -> None:
    assert PRESETS[key].rules.as_settings()[setting] == expected


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_has_a_name_and_a_source(key: str) -> None:
    preset = PRESETS[key]

    assert preset.key == key
    assert preset.name
    assert preset.source


SOURCE_KEYS = ("ja-canasta-variant", "ja-gamerules", "be-gamerules", "ko-club", "nl-partnership")


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_says_where_it_comes_from_in_words_not_by_its_sources_keys(
    key: str,
) -> None:
    origin = PRESETS[key].origin

    assert origin.endswith(".") and " " in origin
    assert not any(source in origin for source in SOURCE_KEYS)


@pytest.mark.parametrize("key", PRESETS)
def test_building_a_preset_without_overrides_gives_the_preset(key: str) -> None:
    assert build_rules(key) == PRESETS[key].rules
    assert build_rules(key, {}) == PRESETS[key].rules


def test_the_settings_are_plain_json_values() -> None:
    settings = build_rules("strict").as_settings()

    assert settings["decks"] == 5
    assert isinstance(settings["meld_minimums"], list)
    assert type(settings["wild_ratio"]) is str


@pytest.mark.parametrize("key", PRESETS)
def test_the_settings_build_the_same_rules_and_are_the_callers_to_change(key: str) -> None:
    rules = PRESETS[key].rules
    settings = rules.as_settings()
    settings["meld_minimums"].append(200)
    settings["card_values"]["two"] = 30

    assert build_rules(key, rules.as_settings()) == rules
    assert rules.as_settings()["meld_minimums"] == list(rules.meld_minimums)
    assert rules.as_settings()["card_values"]["two"] == rules.card_values.two


@pytest.mark.parametrize("setting", SECTION_5_KEYS)
def test_any_setting_can_be_overridden(setting: str) -> None:
    overrides = {setting: OVERRIDES[setting], **COMPANIONS.get(setting, {})}

    rules = build_rules("standard", overrides)

    assert setting in {key.split(".")[0] for key in house_rule_keys("standard", rules)}
    value = rules.as_settings()[setting]
    expected = OVERRIDES[setting]
    if isinstance(expected, dict):
        assert value.items() >= expected.items()
    else:
        assert value == expected


def test_an_override_of_a_nested_setting_keeps_the_presets_other_values() -> None:
    rules = build_rules("standard", {"card_values": {"eight_to_king": 5}})

    assert rules.card_values == CardValues(eight_to_king=5)


def test_an_override_replaces_a_preset_value_of_any_preset() -> None:
    rules = build_rules("partnership-11", {"red_three_held": -500, "decks": "players+1"})

    assert rules.red_three_held == -500
    assert rules.decks is DeckCount.PLAYERS_PLUS_ONE
    assert rules.deal_bonus == 300


def test_no_settings_change_when_a_preset_is_built_as_it_is() -> None:
    assert house_rule_keys("simple", build_rules("simple")) == ()


def test_house_rules_name_nested_settings_part_by_part_in_the_rule_sets_order() -> None:
    rules = build_rules(
        "standard", {"card_values": {"two": 25, "joker": 60}, "hand_size": 11, "deal_bonus": 100}
    )

    assert house_rule_keys("standard", rules) == (
        "hand_size",
        "card_values.joker",
        "card_values.two",
        "deal_bonus",
    )


@pytest.mark.parametrize(
    ("overrides", "unused"),
    [
        pytest.param(
            {"meld_minimum_mode": "by_score", "meld_minimums": [60, 90, 120, 150]},
            "meld_minimums",
            id="per-round minimums when they go by score",
        ),
        pytest.param(
            {"wild_books_allowed": False, "wild_book": 2500},
            "wild_book",
            id="a wild book's value when wild books are not played",
        ),
        pytest.param(
            {"red_threes_laid_down": False, "red_three_bonus": 200},
            "red_three_bonus",
            id="a laid-down red three's bonus when none is laid down",
        ),
        pytest.param(
            {"red_threes_laid_down": False, "red_three_unmelded": 100},
            "red_three_unmelded",
            id="a laid-down red three's penalty when none is laid down",
        ),
    ],
)
def test_a_changed_setting_that_the_rules_never_consult_is_no_house_rule(
    overrides: dict[str, Any], unused: str
) -> None:
    rules = build_rules("standard", overrides)

    keys = house_rule_keys("standard", rules)

    assert unused not in keys
    assert set(keys) == set(overrides) - {unused}


def test_a_setting_the_rules_consult_again_counts_as_a_house_rule_again() -> None:
    by_round = build_rules("standard", {"meld_minimums": [60, 90, 120, 150]})

    assert house_rule_keys("standard", by_round) == ("meld_minimums",)
    assert "meld_minimums" not in by_round.unused_settings


def test_overrides_turn_into_the_domains_types() -> None:
    rules = build_rules(
        "standard",
        {
            "meld_minimum_mode": "by_score",
            "wild_ratio": "naturals_exceed_wilds",
            "permission_to_go_out": "none",
            "meld_minimums": [60, 90, 120, 150],
            "going_out_requires": {"clean": 1, "dirty": 1},
        },
    )

    assert rules.meld_minimum_mode is MeldMinimumMode.BY_SCORE
    assert rules.wild_ratio is WildRatio.NATURALS_EXCEED_WILDS
    assert rules.permission_to_go_out is Permission.NONE
    assert rules.meld_minimums == (60, 90, 120, 150)
    assert rules.going_out_requires == BookCounts(clean=1, dirty=1)


def test_a_setting_written_with_a_decimal_point_is_the_whole_number_it_writes() -> None:
    # JSON Schema's integer takes 2.0, and the OpenAPI document says the settings are integers.
    written = {"going_out_bonus": 200.0, "card_values": {"joker": 40.0}, "meld_minimums": [60.0]}

    rules = build_rules("standard", {**written, "rounds": 1.0})

    assert rules == build_rules(
        "standard",
        {"going_out_bonus": 200, "card_values": {"joker": 40}, "meld_minimums": [60], "rounds": 1},
    )
    numbers = (rules.going_out_bonus, rules.card_values.joker, *rules.meld_minimums, rules.rounds)
    assert all(type(number) is int for number in numbers)
    with pytest.raises(ProblemsError):
        build_rules("standard", {"going_out_bonus": 200.5})


# Variants other tables play, and the variations of the ja-gamerules preset's source.
TABLE_VARIANTS = {
    "red threes +100 melded or not": {"red_three_unmelded": 100},
    "Simpson: every red three -500, clean 300, dirty 100": {
        "red_three_bonus": -500,
        "red_three_unmelded": -500,
        "red_three_held": -500,
        "clean_book": 300,
        "dirty_book": 100,
    },
    "black threes held cost 100": {"card_values": {"black_three": 100}},
    "eights to kings worth 5": {"card_values": {"eight_to_king": 5}},
    "dirty books 100": {"dirty_book": 100},
    "dirty books 200": {"dirty_book": 200},
    "dirty books 250": {"dirty_book": 250},
    "wild books 1000": {"wild_book": 1000},
    "wild books 2500": {"wild_book": 2500},
    "no going-out bonus": {"going_out_bonus": 0},
    "a going-out bonus of several hundred": {"going_out_bonus": 500},
    "minimums 60/90/120/150": {"meld_minimums": [60, 90, 120, 150]},
    "minimums 75/100/125/150": {"meld_minimums": [75, 100, 125, 150]},
    "minimums 90/120/150/180": {"meld_minimums": [90, 120, 150, 180]},
    "up to 3 wilds in a meld": {"max_wilds_per_meld": 3, "wild_ratio": "naturals_exceed_wilds"},
    "up to 3 wilds, ratio kept": {"max_wilds_per_meld": 3},
    "going out with 1 clean + 1 dirty": {"going_out_requires": {"clean": 1, "dirty": 1}},
    "going out with 2 clean + 1 dirty": {"going_out_requires": {"clean": 2, "dirty": 1}},
    "going out with 1 clean + 1 dirty + 1 wild": {
        "going_out_requires": {"clean": 1, "dirty": 1, "wild": 1}
    },
    "11 cards instead of 13": {"hand_size": 11, "foot_size": 11},
    "no wild books": {"wild_books_allowed": False},
    "no permission needed": {"permission_to_go_out": "none"},
    "partnership red threes -500": {"red_three_held": -500},
    "canasta-style minimum by score": {"meld_minimum_mode": "by_score"},
    # The minimums per round go unused by score, so a table need not give one per round.
    "six rounds, minimum by score": {"meld_minimum_mode": "by_score", "rounds": 6},
    "whole discard pile": {"discard_pickup": 0},
    "five rounds": {"rounds": 5, "meld_minimums": [50, 90, 120, 150, 180]},
    "three rounds, the preset's first minimums": {"rounds": 3},
    "no meld minimum": {"meld_minimums": [0, 0, 0, 0]},
    "one deck per player": {"decks": "players"},
}


@pytest.mark.parametrize("overrides", TABLE_VARIANTS.values(), ids=TABLE_VARIANTS)
def test_values_that_real_tables_use_pass(overrides: dict[str, Any]) -> None:
    rules = build_rules("standard", overrides)

    changed = house_rule_keys("standard", rules)
    assert {key.split(".")[0] for key in changed} == set(overrides)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        pytest.param({"decks": 0}, "decks", id="zero decks"),
        pytest.param({"decks": -1}, "decks", id="negative decks"),
        pytest.param({"decks": "two"}, "decks", id="decks as a word"),
        pytest.param({"decks": 2.5}, "decks", id="fractional decks"),
        pytest.param({"decks": True}, "decks", id="decks as a flag"),
        pytest.param({"hand_size": 0}, "hand_size", id="an empty hand"),
        pytest.param({"hand_size": 2}, "hand_size", id="a hand too small to meld"),
        pytest.param({"foot_size": "13"}, "foot_size", id="foot size as text"),
        pytest.param({"rounds": 0}, "rounds", id="no rounds"),
        pytest.param({"meld_minimum_mode": "by_luck"}, "meld_minimum_mode", id="unknown mode"),
        pytest.param({"meld_minimums": 50}, "meld_minimums", id="minimums not a list"),
        pytest.param({"meld_minimums": []}, "meld_minimums", id="no minimums"),
        pytest.param({"meld_minimums": [50, 90, 120]}, "meld_minimums", id="too few minimums"),
        pytest.param(
            {"meld_minimums": [50, 90, 120, 150, 180]}, "meld_minimums", id="too many minimums"
        ),
        pytest.param(
            {"rounds": 5, "meld_minimums": [50, 90, 120, 150]},
            "meld_minimums",
            id="more rounds than the minimums given",
        ),
        pytest.param({"meld_minimums": [50, 90, -120, 150]}, "meld_minimums[2]", id="negative"),
        pytest.param({"meld_minimums": [50, 92, 120, 150]}, "meld_minimums[1]", id="not by 5"),
        pytest.param({"meld_minimums": [50, "90", 120, 150]}, "meld_minimums[1]", id="text"),
        pytest.param({"card_values": [50, 20]}, "card_values", id="card values as a list"),
        pytest.param({"card_values": {"queen": 10}}, "card_values.queen", id="unknown card"),
        pytest.param({"card_values": {"joker": -50}}, "card_values.joker", id="negative card"),
        pytest.param({"card_values": {"ace": "20"}}, "card_values.ace", id="card value as text"),
        pytest.param({"clean_book": -500}, "clean_book", id="negative clean book"),
        pytest.param({"dirty_book": 301}, "dirty_book", id="dirty book not by 5"),
        pytest.param({"wild_book": None}, "wild_book", id="wild book null"),
        pytest.param({"wild_books_allowed": "yes"}, "wild_books_allowed", id="flag as text"),
        pytest.param({"wild_books_allowed": 1}, "wild_books_allowed", id="flag as a number"),
        pytest.param({"max_wilds_per_meld": 0}, "max_wilds_per_meld", id="no wilds at all"),
        pytest.param({"max_wilds_per_meld": 7}, "max_wilds_per_meld", id="a meld all wild"),
        pytest.param({"wild_ratio": "any"}, "wild_ratio", id="unknown ratio"),
        pytest.param({"going_out_requires": 4}, "going_out_requires", id="books as a number"),
        pytest.param(
            {"going_out_requires": {"clean": -1}}, "going_out_requires.clean", id="negative books"
        ),
        pytest.param(
            {"going_out_requires": {"canastas": 1}},
            "going_out_requires.canastas",
            id="unknown book kind",
        ),
        pytest.param(
            {"wild_books_allowed": False, "going_out_requires": {"wild": 1}},
            "going_out_requires.wild",
            id="a wild book required where none is allowed",
        ),
        pytest.param({"going_out_bonus": -100}, "going_out_bonus", id="negative bonus"),
        pytest.param({"going_out_bonus": 101}, "going_out_bonus", id="bonus not by 5"),
        pytest.param({"red_threes_laid_down": "no"}, "red_threes_laid_down", id="threes flag"),
        pytest.param({"red_three_bonus": 99}, "red_three_bonus", id="red three not by 5"),
        pytest.param({"red_three_held": "-100"}, "red_three_held", id="red three as text"),
        pytest.param({"discard_pickup": -7}, "discard_pickup", id="negative pickup"),
        pytest.param({"permission_to_go_out": "maybe"}, "permission_to_go_out", id="permission"),
        pytest.param({"deal_bonus": -300}, "deal_bonus", id="negative deal bonus"),
        pytest.param({"house_rule": 1}, "house_rule", id="unknown key"),
    ],
)
def test_a_value_no_table_could_mean_is_refused_with_a_message_naming_the_setting(
    overrides: dict[str, Any], field: str
) -> None:
    with pytest.raises(ProblemsError) as raised:
        build_rules("standard", overrides)

    [problem] = raised.value.problems
    assert problem.field == field
    assert setting_label(field) in problem.message()


def test_every_wrong_setting_is_reported_at_once() -> None:
    with pytest.raises(ProblemsError) as raised:
        build_rules("standard", {"decks": 0, "hand_size": "x", "unknown": 1})

    assert [problem.field for problem in raised.value.problems] == ["decks", "hand_size", "unknown"]


def test_an_unknown_preset_is_refused_with_the_presets_to_choose_from() -> None:
    with pytest.raises(ProblemsError) as raised:
        build_rules("canasta")

    [problem] = raised.value.problems
    assert problem.field == "preset"
    assert "standard, simple, strict, partnership-11" in problem.message()


@pytest.mark.parametrize(
    ("decks", "players", "expected"),
    [
        (DeckCount.PLAYERS_PLUS_ONE, 4, 5),
        (DeckCount.PLAYERS_PLUS_ONE, 2, 3),
        (DeckCount.PLAYERS, 4, 4),
        (DeckCount.PLAYERS, 6, 6),
        (5, 2, 5),
        (5, 4, 5),
    ],
)
def test_the_deck_count_follows_the_decks_setting(
    decks: int | DeckCount, players: int, expected: int
) -> None:
    assert RuleSet(decks=decks).deck_count(players) == expected


@pytest.mark.parametrize(("round_number", "expected"), [(1, 50), (2, 90), (3, 120), (4, 150)])
def test_the_meld_minimum_by_round_is_the_rounds_value(round_number: int, expected: int) -> None:
    assert RuleSet().meld_minimum(round_number, running_score=5000) == expected


@pytest.mark.parametrize(
    ("running_score", "expected"),
    [
        (-2000, 15),
        (-5, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (12000, 120),
    ],
)
def test_the_meld_minimum_by_score_follows_the_canasta_table(
    running_score: int, expected: int
) -> None:
    rules = RuleSet(meld_minimum_mode=MeldMinimumMode.BY_SCORE)

    assert by_score_minimum(running_score) == expected
    assert rules.meld_minimum(4, running_score) == expected


@pytest.mark.parametrize(
    ("rules", "size", "expected"),
    [
        (RuleSet(), 3, 1),
        (RuleSet(), 5, 1),
        (RuleSet(), 6, 2),
        (RuleSet(), 7, 2),
        (RuleSet(max_wilds_per_meld=3), 7, 2),
        (RuleSet(wild_ratio=WildRatio.NATURALS_EXCEED_WILDS, max_wilds_per_meld=None), 7, 3),
        (RuleSet(wild_ratio=WildRatio.NATURALS_EXCEED_WILDS, max_wilds_per_meld=None), 4, 1),
        (RuleSet(wild_ratio=WildRatio.NATURALS_EXCEED_WILDS, max_wilds_per_meld=2), 7, 2),
        (RuleSet(max_wilds_per_meld=1), 7, 1),
    ],
)
def test_the_most_wilds_in_a_meld_follow_the_ratio_and_the_cap(
    rules: RuleSet, size: int, expected: int
) -> None:
    assert rules.most_wilds_in_meld(size) == expected


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (RuleSet(), 2),
        (RuleSet(max_wilds_per_meld=1), 1),
        (RuleSet(wild_ratio=WildRatio.NATURALS_EXCEED_WILDS, max_wilds_per_meld=None), 3),
    ],
)
def test_a_dirty_book_holds_as_many_wilds_as_a_meld_of_seven(rules: RuleSet, expected: int) -> None:
    assert rules.most_wilds_in_book == expected == rules.most_wilds_in_meld(7)


CAPS_AND_RATIOS = [
    RuleSet(wild_ratio=ratio, max_wilds_per_meld=cap)
    for ratio in WildRatio
    for cap in (None, 1, 2, 3, 4)
]


def every_sharing(rules: RuleSet, naturals: int) -> list[int]:
    """Return the most wilds 0 to `naturals` naturals hold, trying every way to share them."""

    def one_meld(n: int) -> int:
        return max(w for w in range(BOOK_SIZE - n + 1) if w <= rules.most_wilds_in_meld(n + w))

    most = [0]
    for total in range(1, naturals + 1):
        shares = range(1, min(total, BOOK_SIZE) + 1)
        most.append(max(most[total - n] + one_meld(n) for n in shares))
    return most


@pytest.mark.parametrize("rules", CAPS_AND_RATIOS)
def test_the_wilds_natural_cards_carry_are_the_best_sharing_among_melds(rules: RuleSet) -> None:
    expected = every_sharing(rules, 400)
    assert [rules.most_wilds_carried(n) for n in range(401)] == expected


def test_the_wilds_carried_by_an_absurd_count_of_naturals_come_at_once() -> None:
    # Counts as typed reach this before the decks' supply refuses them.
    assert RuleSet().most_wilds_carried(10**15) == 10**15 // 2


@pytest.mark.parametrize(
    ("ratio", "naturals", "wilds", "allowed"),
    [
        (WildRatio.NATURALS_AT_LEAST_DOUBLE, 2, 1, True),
        (WildRatio.NATURALS_AT_LEAST_DOUBLE, 3, 2, False),
        (WildRatio.NATURALS_AT_LEAST_DOUBLE, 4, 2, True),
        (WildRatio.NATURALS_EXCEED_WILDS, 3, 2, True),
        (WildRatio.NATURALS_EXCEED_WILDS, 2, 2, False),
    ],
)
def test_the_wild_ratio_compares_naturals_with_wilds(
    ratio: WildRatio, naturals: int, wilds: int, allowed: bool
) -> None:
    assert ratio.allows(naturals, wilds) is allowed


def test_book_bonuses_add_up_clean_dirty_and_wild_books() -> None:
    books = BookCounts(clean=2, dirty=3, wild=1)

    assert RuleSet().book_value(books) == 2 * 500 + 3 * 300 + 1500
    assert RuleSet(clean_book=300, dirty_book=100).book_value(books) == 600 + 300 + 1500


@pytest.mark.parametrize(
    ("rules", "books", "expected"),
    [
        pytest.param(RuleSet(), BookCounts(clean=1), 35, id="clean: seven 4-7s"),
        pytest.param(RuleSet(), BookCounts(dirty=1), 50, id="dirty: six 4-7s and a 2"),
        pytest.param(RuleSet(), BookCounts(wild=1), 140, id="wild: seven 2s"),
        pytest.param(RuleSet(), BookCounts(clean=2, dirty=2), 170, id="two and two"),
        pytest.param(
            RuleSet(card_values=CardValues(four_to_seven=10)),
            BookCounts(clean=1, dirty=1, wild=1),
            70 + 80 + 140,
            id="fours to sevens worth 10",
        ),
        pytest.param(
            RuleSet(card_values=CardValues(two=30)),
            BookCounts(dirty=1, wild=1),
            60 + 210,
            id="twos worth 30",
        ),
        pytest.param(
            RuleSet(card_values=CardValues(two=60)),
            BookCounts(wild=1),
            350,
            id="jokers cheaper than twos",
        ),
        pytest.param(
            RuleSet(card_values=CardValues(two=0)),
            BookCounts(dirty=1),
            25,
            id="wilds worth nothing: as many as the ratio allows",
        ),
        pytest.param(
            RuleSet(
                card_values=CardValues(two=0),
                wild_ratio=WildRatio.NATURALS_EXCEED_WILDS,
                max_wilds_per_meld=None,
            ),
            BookCounts(dirty=1),
            20,
            id="wilds worth nothing, three allowed",
        ),
    ],
)
def test_the_cheapest_books_follow_the_card_values(
    rules: RuleSet, books: BookCounts, expected: int
) -> None:
    assert rules.cheapest_books(books) == expected


def test_rules_changed_from_other_rules_work_out_their_own_cheapest_books() -> None:
    rules = RuleSet(card_values=CardValues(two=0))
    dirty = BookCounts(dirty=1)

    assert rules.cheapest_books(dirty) == 25
    assert replace(rules, max_wilds_per_meld=1).cheapest_books(dirty) == 30
    assert replace(rules, card_values=CardValues()).cheapest_books(dirty) == 50
    assert rules.cheapest_books(dirty) == 25


def test_one_deck_holds_the_points_of_its_54_cards_at_the_card_values() -> None:
    assert CardValues().deck_points == 2 * 50 + 4 * 20 + 4 * 20 + 24 * 10 + 16 * 5 + 2 * 5
    assert CardValues(joker=100, black_three=0).deck_points == 590 + 2 * 50 - 2 * 5


@pytest.mark.parametrize(
    ("kind", "per_deck", "value"),
    [
        (CardKind.JOKERS, 2, 50),
        (CardKind.TWOS, 4, 20),
        (CardKind.ACES, 4, 20),
        (CardKind.EIGHTS_TO_KINGS, 24, 10),
        (CardKind.FOURS_TO_SEVENS, 16, 5),
        (CardKind.BLACK_THREES, 2, 5),
    ],
)
def test_each_card_kind_knows_its_supply_per_deck_and_its_value(
    kind: CardKind, per_deck: int, value: int
) -> None:
    assert kind.per_deck == per_deck
    assert CardValues().of(kind) == value
    assert kind.label


def test_fewer_rounds_keep_the_presets_minimums_of_the_rounds_played() -> None:
    rules = build_rules("standard", {"rounds": 3})

    assert rules.meld_minimums == (50, 90, 120)
    assert build_rules("standard", {"rounds": 3, "meld_minimums": [60, 90, 120]}).meld_minimums == (
        60,
        90,
        120,
    )


def test_more_rounds_keep_the_last_rounds_minimum_for_the_rounds_after_it() -> None:
    # A preset, then any single setting changed.
    assert build_rules("standard", {"rounds": 6}).meld_minimums == (50, 90, 120, 150, 150, 150)


def test_forbidding_wild_books_drops_the_wild_book_a_preset_needs_to_go_out() -> None:
    # ja-gamerules' variations of the strict rules: no wild books.
    rules = build_rules("strict", {"wild_books_allowed": False})

    assert rules.going_out_requires == BookCounts(clean=2, dirty=2, wild=0)


def test_the_entries_rules_leave_out_follow_their_settings() -> None:
    assert build_rules("standard").unplayed_entries == {"deal_bonus"}
    assert build_rules("partnership-11").unplayed_entries == {"wild_books", "red_threes"}
    lean = build_rules("standard", {"wild_books_allowed": False, "red_threes_laid_down": False})
    assert lean.unplayed_entries == {"wild_books", "red_threes", "deal_bonus"}
