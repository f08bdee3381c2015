"""What a rules card and a score sheet say, straight from the RuleSet (no app needed)."""

from __future__ import annotations

import pytest

from scorekeeper.domain.rules import PRESETS, RuleSet, build_rules
from scorekeeper.domain.rules_card import (
    Line,
    Phrase,
    RulesCard,
    Signed,
    points_text,
    rules_card,
    say,
    score_lines,
)


def text(phrase: Phrase | None) -> str:
    return phrase.text(str) if phrase is not None else ""


def card_lines(card: RulesCard) -> dict[str, str]:
    """Return every label of the card with its value ("" for a note)."""
    return {text(line.label): text(line.value) for s in card.sections for line in s.lines}


def house_rule_labels(card: RulesCard) -> list[str]:
    return [text(line.label) for section in card.house_rule_sections for line in section.lines]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_preset_card_has_no_house_rules(preset: str) -> None:
    assert rules_card(preset).house_rules == frozenset()


@pytest.mark.parametrize(
    ("label", "value"),
    [
        ("Joker", "50"),
        ("2 (wild)", "20"),
        ("4 to 7", "5"),
        ("Clean book, no wilds", "500"),
        ("Wild book, only wilds", "1500"),
        ("Round 3", "120"),
        ("Most wilds with 3–5 cards", "1"),
        ("Most wilds with 6–7 cards", "2"),
        ("Cards taken", "the top 7"),
        ("Red three laid down, side has not melded", "\u2212100"),
        ("Black three left in hand or foot", "\u22125"),
        ("Clean books needed", "2"),
        ("Going-out bonus", "+100"),
        ("Partner's permission", "ask first"),
        ("Decks", "one more than players"),
    ],
)
def test_the_standard_card_says_the_standard_rules(label: str, value: str) -> None:
    assert card_lines(rules_card("standard"))[label] == value


def test_the_partnership_card_has_the_deal_bonus_for_cutting_hand_and_foot_at_once() -> None:
    lines = card_lines(rules_card("partnership-11"))
    assert lines["Cutting exactly 22 cards"] == "+300"
    assert lines["Red three held at the end"] == "\u2212300"
    assert lines["Wild book, only wilds"] == "not played"
    assert "Red three laid down, side has melded" not in lines


def test_a_card_without_a_deal_bonus_does_not_mention_one() -> None:
    assert not any("Cutting" in label for label in card_lines(rules_card("standard")))


def test_the_strict_card_needs_a_wild_book_and_a_turn_from_the_partners_foot() -> None:
    lines = card_lines(rules_card("strict"))
    assert lines["Wild books needed"] == "1"
    assert any("played a turn from it" in label for label in lines)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_card_for_players_without_partners_leaves_out_the_partner_rules(preset: str) -> None:
    partnered = rules_card(preset)
    alone = rules_card(preset, partners=False)
    partner_lines = [
        text(line.label)
        for s in partnered.sections
        for line in s.lines
        if "artner" in text(line.label)
    ]
    assert partner_lines, "a partnership card names its partner rules"
    assert not [label for label in card_lines(alone) if "artner" in label]
    assert alone.house_rules == frozenset()
    assert card_lines(alone)["Going-out bonus"] == card_lines(partnered)["Going-out bonus"]


def test_a_changed_bonus_is_still_a_house_rule_on_a_card_without_partners() -> None:
    card = rules_card("standard", build_rules("standard", {"going_out_bonus": 200}), partners=False)
    assert house_rule_labels(card) == ["Going-out bonus"]


def test_the_simple_card_lets_a_meld_hold_fewer_wilds_than_naturals_without_a_cap() -> None:
    lines = card_lines(rules_card("simple"))
    assert lines["Wilds in a meld"] == "fewer than naturals"
    assert "Most wilds in any meld" not in lines
    assert lines["Most wilds with 7 cards"] == "3"


def test_a_changed_going_out_bonus_is_the_one_house_rule_marked() -> None:
    card = rules_card("standard", build_rules("standard", {"going_out_bonus": 200}))
    assert house_rule_labels(card) == ["Going-out bonus"]
    assert card_lines(card)["Going-out bonus"] == "+200"


def preset_values(card: RulesCard) -> dict[str, str]:
    return {text(line.label): text(value) for line, value in card.preset_values.items()}


def test_a_house_rule_says_what_the_preset_has() -> None:
    rules = build_rules(
        "standard",
        {"going_out_bonus": 200, "meld_minimums": [60, 90, 120, 150], "wild_books_allowed": False},
    )
    assert preset_values(rules_card("standard", rules)) == {
        "Going-out bonus": "+100",
        "Round 1": "50",
        "Wild book, only wilds": "1500",
        "Melds of wilds only": "allowed",
    }


def test_a_house_rule_the_preset_has_no_line_of_says_no_preset_value() -> None:
    card = rules_card("standard", build_rules("standard", {"meld_minimum_mode": "by_score"}))
    assert "3000 and more" in house_rule_labels(card)
    assert preset_values(card) == {}


def test_the_pocket_card_marks_house_rules_without_the_presets_values() -> None:
    card = rules_card("standard", build_rules("standard", {"going_out_bonus": 200}))
    assert house_rule_labels(card.pocket) == ["Going-out bonus"]
    assert card.pocket.preset_values == {}
    assert card.pocket.sections == card.pocket_sections


@pytest.mark.parametrize("preset", PRESETS)
def test_a_preset_card_has_no_preset_values_to_show(preset: str) -> None:
    assert rules_card(preset).preset_values == {}


def test_one_changed_card_value_marks_only_that_card() -> None:
    rules = build_rules("standard", {"card_values": {"black_three": 100}})
    assert house_rule_labels(rules_card("standard", rules)) == ["Black three left in hand or foot"]


def test_meld_minimums_by_score_print_the_canasta_table() -> None:
    card = rules_card("standard", build_rules("standard", {"meld_minimum_mode": "by_score"}))
    lines = card_lines(card)
    assert (lines["Below 0"], lines["0 to under 1500"], lines["3000 and more"]) == (
        "15",
        "50",
        "120",
    )
    assert "Round 1" not in lines
    assert "3000 and more" in house_rule_labels(card)


def test_the_by_score_pocket_card_keeps_what_its_score_ranges_are_of() -> None:
    card = rules_card("standard", build_rules("standard", {"meld_minimum_mode": "by_score"}))
    pocket = {text(line.label) for section in card.pocket_sections for line in section.lines}
    assert "The minimum goes by the side's running score." in pocket
    assert "Below 0" in pocket


def test_a_cap_on_wilds_that_the_share_of_naturals_never_reaches_says_so() -> None:
    card = rules_card("standard", build_rules("standard", {"max_wilds_per_meld": 3}))
    note = "With that share of naturals, no meld holds more than 2, books included."
    assert house_rule_labels(card) == ["Most wilds in any meld", note]
    exceeding = build_rules(
        "standard", {"max_wilds_per_meld": 3, "wild_ratio": "naturals_exceed_wilds"}
    )
    assert note.replace("2", "3") not in card_lines(rules_card("standard", exceeding))


def test_the_house_rules_stand_under_the_headings_of_their_parts_of_the_card() -> None:
    rules = build_rules("standard", {"meld_minimums": [60, 90, 120, 150], "going_out_bonus": 0})
    sections = rules_card("standard", rules).house_rule_sections
    assert [(text(s.title), [text(line.label) for line in s.lines]) for s in sections] == [
        ("Opening meld minimum", ["Round 1"]),
        ("Going out", ["Going-out bonus"]),
    ]


def test_a_whole_pile_pickup_says_so() -> None:
    card = rules_card("standard", build_rules("standard", {"discard_pickup": 0}))
    assert card_lines(card)["Cards taken"] == "the whole pile"


def test_the_pocket_card_keeps_the_numbers_and_drops_the_notes() -> None:
    pocket = rules_card("standard").pocket_sections
    lines = [line for section in pocket for line in section.lines]
    assert lines and not any(line.is_note for line in lines)
    assert "The deal" not in [text(section.title) for section in pocket]


@pytest.mark.parametrize(
    ("value", "shown"), [(Signed(100), "+100"), (Signed(-5), "\u22125"), (Signed(0), "0")]
)
def test_signed_points_show_a_plus_or_a_true_minus(value: Signed, shown: str) -> None:
    assert say("%(points)s", points=value).text(str) == shown


@pytest.mark.parametrize(("points", "shown"), [(85, "85"), (-85, "\u221285"), (0, "0")])
def test_plain_points_show_only_a_minus(points: int, shown: str) -> None:
    assert points_text(points) == shown


def test_a_phrase_is_translated_before_it_is_filled() -> None:
    phrase = say("Round %(round)s", round=3)
    assert phrase.text({"Round %(round)s": "Manche %(round)s"}.get) == "Manche 3"


def test_a_phrase_formats_its_numbers_with_the_given_formatter() -> None:
    assert say("%(points)s", points=1500).text(str, "{:,}".format) == "1,500"


def test_lines_are_equal_when_they_say_the_same() -> None:
    assert Line(say("Joker"), say("%(points)s", points=50)) in {
        Line(say("Joker"), say("%(points)s", points=50))
    }


def score_line_hints(rules: RuleSet) -> dict[str, str]:
    return {line.key: text(line.hint) for line in score_lines(rules)}


def test_the_score_sheet_asks_for_each_part_of_the_score_in_scoring_order() -> None:
    keys = [line.key for line in score_lines(PRESETS["standard"].rules)]
    assert keys == ["books", "melded", "red_threes", "going_out", "leftover"]


def test_the_score_sheet_has_a_deal_bonus_line_where_it_is_played() -> None:
    hints = score_line_hints(PRESETS["partnership-11"].rules)
    assert hints["deal_bonus"] == "+300 for exactly 22"
    assert hints["red_threes"] == "\u2212300 each held"


def test_the_score_sheet_hints_carry_the_rules_numbers() -> None:
    hints = score_line_hints(build_rules("standard", {"dirty_book": 250, "going_out_bonus": 200}))
    assert hints["books"] == "clean × 500 · dirty × 250 · wild × 1500"
    assert hints["going_out"] == "+200"
