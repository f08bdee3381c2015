"""The match store: creation checks, tokens, rules as stored, rounds scored through the domain."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from worked_example import STAYED_IN, WENT_OUT

from scorekeeper import store
from scorekeeper.domain import rules as rules_module
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.rules import PRESETS, build_rules
from scorekeeper.domain.validation import round_problems
from scorekeeper.store import rounds
from scorekeeper.store.models import Base, Entry, Match, Round, db
from scorekeeper.store.scores import ImpossibleRound, scored_rounds

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import AtOnce, CreateMatch, Stored

PAIRS = [store.SideSpec("Us", ("Ann", "Bob")), store.SideSpec("Them", ("Cy", "Di"))]


def round_of(number: int, *sides: SideEntry) -> RoundEntry:
    return RoundEntry(number, sides)


def count(model: type[Base]) -> int:
    return db.session.scalar(db.select(db.func.count()).select_from(model)) or 0


def problem_fields(error: pytest.ExceptionInfo[ProblemsError]) -> set[str]:
    return {problem.field for problem in error.value.problems}


# -- Creating matches ----------------------------------------------------------------------------


def test_a_match_keeps_only_a_digest_of_its_edit_token(in_app: None) -> None:
    created = store.create_match("Friday", "standard", build_rules(), PAIRS)

    match = created.match
    assert match.edit_token_hash == hashlib.sha256(created.edit_token.encode()).hexdigest()
    assert created.edit_token not in (match.edit_token_hash, match.public_id)
    assert len(created.edit_token) >= 43 and len(match.public_id) >= 22


def test_names_are_stored_without_surrounding_spaces(in_app: None) -> None:
    sides = [store.SideSpec(" Us ", (" Ann",)), store.SideSpec("Them", ("Cy ",))]

    match = store.create_match("  Friday ", "standard", build_rules(), sides).match

    assert match.name == "Friday"
    assert [side.name for side in match.sides] == ["Us", "Them"]
    assert [side.players[0].name for side in match.sides] == ["Ann", "Cy"]


def side(name: str, *players: str) -> store.SideSpec:
    return store.SideSpec(name, players)


@pytest.mark.parametrize(
    ("name", "sides", "fields"),
    [
        ("", PAIRS, {"name"}),
        ("   ", PAIRS, {"name"}),
        ("x" * 61, PAIRS, {"name"}),
        ("Tab\there", PAIRS, {"name"}),
        ("Friday", [side("Us", "Ann")], {"sides"}),
        ("Friday", [side(str(n), "P") for n in range(7)], {"sides"}),
        ("Friday", [side("Us", *"ABCD"), side("Them", *"EFG")], {"sides"}),
        ("Friday", [side("Us", "Ann"), side("US ", "Bo")], {"sides[1].name"}),
        ("Friday", [side("Us", "Ann"), side("", "Bo")], {"sides[1].name"}),
        ("Friday", [side("Us", "Ann"), side("Them")], {"sides[1].players"}),
        ("Friday", [side("Us", "Ann", "y" * 61), side("Them", "Bo")], {"sides[0].players[1]"}),
        ("", [side("Us")], {"name", "sides", "sides[0].players"}),
    ],
)
def test_a_match_that_cannot_be_played_is_refused_with_every_problem(
    in_app: None, name: str, sides: list[store.SideSpec], fields: set[str]
) -> None:
    with pytest.raises(ProblemsError) as error:
        store.create_match(name, "standard", build_rules(), sides)

    assert problem_fields(error) == fields
    assert count(Match) == 0


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("Ann\u00a0Lee", id="a no-break space"),
        pytest.param("\U0001f468\u200d\U0001f469\u200d\U0001f467 Fam", id="an emoji's joiners"),
        pytest.param("\U0001f3f3\ufe0f\u200d\U0001f308", id="a flag of joined emoji"),
        pytest.param("\u0645\u06cc\u200c\u0631\u0627", id="a zero-width non-joiner"),
        pytest.param(
            "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
            id="a flag of tags",
        ),
    ],
)
def test_a_name_may_hold_no_break_spaces_and_the_joiners_of_emoji_and_scripts(
    in_app: None, name: str
) -> None:
    sides = [side(name, name), side("B", "b")]

    created = store.create_match(name, "standard", build_rules(), sides)

    assert created.match.name == name


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("Ann\nLee", id="a line break"),
        pytest.param("Ann\tLee", id="a tab"),
        pytest.param("Ann\u2028Lee", id="a line separator"),
        pytest.param("Ann\x00", id="a null character"),
        pytest.param("Ann\ud800", id="a lone surrogate"),
        pytest.param("Ann\u202e", id="a right-to-left override"),
        pytest.param("Ann\u2066Lee", id="a left-to-right isolate"),
        pytest.param("Ann\u200b", id="a zero-width space"),
    ],
)
def test_a_name_that_breaks_its_line_is_refused(in_app: None, name: str) -> None:
    with pytest.raises(ProblemsError) as error:
        store.create_match(name, "standard", build_rules(), PAIRS)

    assert problem_fields(error) == {"name"}
    assert count(Match) == 0


def test_a_name_of_only_spaces_is_refused_naming_the_field_in_words(in_app: None) -> None:
    with pytest.raises(ProblemsError) as error:
        store.create_match("   ", "standard", build_rules(), PAIRS)

    [problem] = error.value.problems
    assert problem.message() == "name must be a name of 1 to 60 characters on one line."


def test_an_unknown_preset_is_refused(in_app: None) -> None:
    with pytest.raises(ProblemsError) as error:
        store.create_match("Friday", "lenient", build_rules(), PAIRS)

    assert problem_fields(error) == {"rules.preset"}


def test_side_1s_first_player_deals_the_first_round_unless_told(in_app: None) -> None:
    created = store.create_match("Friday", "standard", build_rules(), PAIRS)

    view = store.match_view(created.match)
    assert created.match.first_dealer == 0
    assert [view.dealer(number) for number in range(1, 6)] == ["Ann", "Cy", "Bob", "Di", "Ann"]


def test_the_first_dealer_is_stored_with_the_match_and_the_deal_passes_on_from_them(
    in_app: None,
) -> None:
    bob = store.Seat(side=0, player=1)
    created = store.create_match("Friday", "standard", build_rules(), PAIRS, first_dealer=bob)

    match = store.get_match(created.match.public_id)
    assert match is not None and match.first_dealer == 2  # Ann, Cy, then Bob round the table
    assert [store.match_view(match).dealer(number) for number in range(1, 5)] == [
        "Bob",
        "Di",
        "Ann",
        "Cy",
    ]
    assert store.dealer_of(match, 5) == store.Seat(0, 1)  # into the next match: Bob again


def test_a_first_dealer_the_sides_do_not_have_is_refused_and_nothing_stored(
    in_app: None,
) -> None:
    with pytest.raises(ProblemsError) as refused:
        store.create_match(
            "Friday", "standard", build_rules(), PAIRS, first_dealer=store.Seat(2, 0)
        )

    assert problem_fields(refused) == {"first_dealer"}
    assert count(Match) == 0


def test_an_edit_token_opens_its_own_match_only(in_app: None) -> None:
    ours = store.create_match("Friday", "standard", build_rules(), PAIRS)
    theirs = store.create_match("Saturday", "standard", build_rules(), PAIRS)

    assert store.token_opens(ours.match, ours.edit_token)
    assert not store.token_opens(theirs.match, ours.edit_token)
    assert not store.token_opens(ours.match, ours.edit_token[:-1])
    assert not store.token_opens(ours.match, "")
    assert not store.token_opens(ours.match, None)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_match_reads_back_the_rules_it_began_with(stored: Stored, preset: str) -> None:
    match = stored(preset=preset, overrides={"going_out_bonus": 250, "max_wilds_per_meld": None})

    assert store.rules_of(match) == build_rules(
        preset, {"going_out_bonus": 250, "max_wilds_per_meld": None}
    )


def test_a_preset_changed_later_does_not_change_a_stored_match(
    stored: Stored, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = stored()
    standard = PRESETS["standard"]
    changed = replace(standard, rules=replace(standard.rules, going_out_bonus=500))
    monkeypatch.setitem(rules_module.PRESETS, "standard", changed)

    assert store.rules_of(match).going_out_bonus == 100


def test_side_specs_turn_what_is_not_a_name_into_an_empty_one() -> None:
    data = [{"name": 7, "players": ["Ann", None]}, "Them", {"name": "Us", "players": "Bo"}]

    assert store.side_specs(data) == (
        store.SideSpec("", ("Ann", "")),
        store.SideSpec("", ()),
        store.SideSpec("Us", ()),
    )
    assert store.side_specs("Us and Them") == ()


# -- Entering rounds -----------------------------------------------------------------------------


def test_a_round_is_scored_with_the_match_names_and_players(stored: Stored) -> None:
    match = stored()

    scored = store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))

    assert (scored.number, scored.version) == (1, 1)
    assert scored.entry.players == 4
    assert scored.entry.side_players == (2, 2)
    assert [s.name for s in scored.entry.sides] == ["Us", "Them"]
    assert [s.score for s in scored.score.sides] == [2565, 825]
    assert match.version == 2


def test_an_impossible_round_stores_nothing(stored: Stored) -> None:
    match = stored()

    with pytest.raises(ProblemsError) as error:
        store.add_round(match, round_of(1, WENT_OUT, WENT_OUT))

    assert problem_fields(error) == {"went_out"}
    assert (count(Round), count(Entry)) == (0, 0)
    assert match.version == 1


def test_a_round_entered_twice_is_refused_with_a_hint_to_edit_it(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))

    with pytest.raises(ProblemsError) as error:
        store.add_round(match, round_of(1, STAYED_IN, WENT_OUT))

    assert problem_fields(error) == {"round"}
    assert "edit it instead" in error.value.problems[0].message()


def test_a_round_with_the_wrong_number_of_sides_is_refused(stored: Stored) -> None:
    with pytest.raises(ProblemsError) as error:
        store.add_round(stored(), round_of(1, WENT_OUT))

    assert problem_fields(error) == {"sides"}


def test_card_counts_come_back_as_counts(stored: Stored) -> None:
    match = stored()
    counted = SideEntry(
        melded=CardCounts(aces=4, eights_to_kings=5), leftover=CardCounts(black_threes=1)
    )
    store.add_round(match, round_of(1, counted, STAYED_IN))

    entry = store.match_view(match).rounds[0].entry

    assert entry.sides[0] == replace(counted, name="Us")


def test_rounds_may_come_in_any_order_and_the_next_round_is_the_lowest_missing(
    stored: Stored,
) -> None:
    match = stored()
    nexts = []
    for number in (1, 3, 2, 4):
        store.add_round(match, round_of(number, STAYED_IN, WENT_OUT))
        nexts.append(store.match_view(match).next_round)

    assert nexts == [2, 2, 4, None]
    assert store.match_view(match).standings.winner == 1


def test_a_deleted_round_is_next_again_at_its_own_meld_minimum(stored: Stored) -> None:
    match = stored()
    for number in (1, 2, 3):
        store.add_round(match, round_of(number, STAYED_IN, WENT_OUT))
    second = store.match_view(match).rounds[1]

    store.delete_round(match, 2, version=second.version)

    standings = store.match_view(match).standings
    assert (standings.next_round, standings.next_meld_minimums) == (2, (90, 90))


def test_running_scores_before_a_round_add_up_the_rounds_before_it(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))
    store.add_round(match, round_of(2, STAYED_IN, WENT_OUT))
    store.add_round(match, round_of(3, STAYED_IN, WENT_OUT))

    view = store.match_view(match)
    assert view.scores_before(1) == (0, 0)
    assert view.scores_before(3) == (3390, 3390)
    assert view.scores_before(9) == (4215, 5955)


def test_a_by_score_round_gets_each_sides_running_score(stored: Stored) -> None:
    match = stored(overrides={"meld_minimum_mode": "by_score"})
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))

    scored = store.add_round(match, round_of(2, SideEntry(melded=90), SideEntry(melded=50)))

    assert [s.running_score for s in scored.entry.sides] == [2565, 825]
    assert [s.meld_minimum for s in scored.score.sides] == [90, 50]


def test_an_earlier_round_that_would_break_a_later_one_is_refused(stored: Stored) -> None:
    match = stored(overrides={"meld_minimum_mode": "by_score"})
    store.add_round(match, round_of(2, SideEntry(melded=60), SideEntry(melded=60)))

    with pytest.raises(ProblemsError) as error:
        store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))  # Us to 2565: a 90 minimum

    header, *later = error.value.problems
    assert problem_fields(error) == {"round"}
    assert "round 2" in header.message()
    # Round 2's own problems, told as the change's: no side of round 1 is wrong.
    assert later and {problem.side for problem in later} == {None}
    assert all(problem.message().startswith("Round 2: ") for problem in later)
    assert [row.number for row in match.rounds] == [2]


def test_the_problems_of_an_entry_are_found_as_storing_it_would_find_them_storing_nothing(
    stored: Stored,
) -> None:
    match = stored(overrides={"meld_minimum_mode": "by_score"})
    store.add_round(match, round_of(2, SideEntry(melded=60), SideEntry(melded=60)))

    assert store.round_problems(match, round_of(1, STAYED_IN, STAYED_IN)) == []
    assert [p.field for p in store.round_problems(match, round_of(1, WENT_OUT, WENT_OUT))] == [
        "went_out"
    ]
    breaks_round_2 = store.round_problems(match, round_of(1, WENT_OUT, STAYED_IN))
    assert "round 2" in breaks_round_2[0].message()
    assert [p.field for p in store.round_problems(match, round_of(1, WENT_OUT))] == ["sides"]
    # In place of the stored round 2: its own problems, not "already entered".
    assert store.round_problems(match, round_of(2, STAYED_IN, STAYED_IN)) == []
    assert (count(Round), match.version) == (1, 2)


def test_rounds_checked_when_stored_are_scored_without_being_checked_again() -> None:
    under_minimum = RoundEntry(1, (SideEntry(melded=45), SideEntry(melded=50)))
    drafts = {1: (1, under_minimum), 2: (1, round_of(2, WENT_OUT, STAYED_IN))}

    scored = scored_rounds(build_rules("standard"), drafts, checked={1})

    assert [side.score for side in scored[0].score.sides] == [45, 50]
    with pytest.raises(ImpossibleRound) as refused:
        scored_rounds(build_rules("standard"), drafts, checked={2})
    assert refused.value.round_number == 1


def test_a_stored_round_that_a_stricter_check_refuses_now_still_shows_as_stored(
    stored: Stored,
) -> None:
    match = stored(sides=[("Solo", ["Ann"]), ("Pair", ["Cy", "Di"])])
    rules = store.rules_of(match)
    # As stored before the checks knew each side's players: the player alone went out holding 5.
    entry = rounds.entry_for_match(match, round_of(1, replace(WENT_OUT, leftover=5), STAYED_IN))
    assert round_problems(rules, entry), "refused by today's checks"
    [scored] = scored_rounds(rules, {1: (1, entry)}, checked={1})
    match.rounds.append(rounds.new_round_row(match, scored))
    db.session.commit()

    view = store.match_view(match)

    assert [side.score for side in view.rounds[0].score.sides] == [2560, 825]


def store_as_once_checked(match: Match, entry: RoundEntry) -> None:
    """Store a round as a version of the app whose checks were less strict would have."""
    number = entry.round_number
    [scored] = scored_rounds(store.rules_of(match), {number: (1, entry)}, checked={number})
    match.rounds.append(rounds.new_round_row(match, scored))
    db.session.commit()


@pytest.mark.parametrize(("mode", "refused"), [("by_round", False), ("by_score", True)])
def test_a_stored_round_that_a_stricter_check_refuses_blocks_edits_before_it_only_by_score(
    stored: Stored, mode: str, refused: bool
) -> None:
    match = stored(overrides={"meld_minimum_mode": mode})
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))
    # Counts that today's checks refuse: a lone ace fits no meld.
    impossible = replace(STAYED_IN, melded=CardCounts(aces=1, eights_to_kings=30))
    store_as_once_checked(match, rounds.entry_for_match(match, round_of(2, WENT_OUT, impossible)))

    edit = round_of(1, STAYED_IN, WENT_OUT)

    if refused:  # by score, round 2's minimum follows round 1: it is checked again
        with pytest.raises(ProblemsError):
            store.replace_round(match, 1, edit, version=1)
    else:
        store.replace_round(match, 1, edit, version=1)
        first, second = store.match_view(match).rounds
        assert [side.went_out for side in first.entry.sides] == [False, True]
        assert second.entry.sides[1].melded == impossible.melded


# -- Editing and deleting rounds -----------------------------------------------------------------


def test_replacing_a_round_bumps_the_round_and_the_match(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))

    scored = store.replace_round(match, 1, round_of(9, STAYED_IN, WENT_OUT), version=1)

    assert (scored.number, scored.version) == (1, 2)
    assert match.version == 3
    assert store.match_view(match).standings.totals == (825, 2565)
    assert count(Entry) == 2


def test_a_stale_replacement_carries_the_round_as_it_stands(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))
    store.replace_round(match, 1, round_of(1, STAYED_IN, WENT_OUT), version=1)

    with pytest.raises(store.StaleVersion) as stale:
        store.replace_round(match, 1, round_of(1, WENT_OUT, STAYED_IN), version=1)

    assert stale.value.current.version == 2
    assert [s.score for s in stale.value.current.score.sides] == [825, 2565]


def test_an_impossible_replacement_keeps_the_round(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))

    with pytest.raises(ProblemsError):
        store.replace_round(match, 1, round_of(1, WENT_OUT, WENT_OUT), version=1)

    view = store.match_view(match)
    assert view.rounds[0].version == 1
    assert view.standings.totals == (2565, 825)


@pytest.mark.parametrize("change", ["replace", "delete"])
def test_changing_a_round_that_is_not_there_is_not_found(stored: Stored, change: str) -> None:
    match = stored()

    with pytest.raises(store.RoundNotFound):
        if change == "replace":
            store.replace_round(match, 2, round_of(2, WENT_OUT, STAYED_IN), version=1)
        else:
            store.delete_round(match, 2, version=1)


def test_deleting_a_round_deletes_its_entries_and_bumps_the_match(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))

    store.delete_round(match, 1, version=1)

    assert (count(Round), count(Entry)) == (0, 0)
    assert match.version == 3
    assert store.match_view(match).next_round == 1


def test_a_round_entered_again_after_a_deletion_never_reuses_a_version(stored: Stored) -> None:
    match = stored()
    versions = []
    for _ in range(3):
        versions.append(store.add_round(match, round_of(1, WENT_OUT, STAYED_IN)).version)
        replaced = store.replace_round(
            match, 1, round_of(1, STAYED_IN, WENT_OUT), version=versions[-1]
        )
        versions.append(replaced.version)
        store.delete_round(match, 1, version=replaced.version)

    assert versions == [1, 2, 3, 4, 5, 6]


def test_an_old_version_does_not_open_a_round_entered_again(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))
    store.delete_round(match, 1, version=1)
    store.add_round(match, round_of(1, STAYED_IN, WENT_OUT))

    with pytest.raises(store.StaleVersion) as stale:
        store.replace_round(match, 1, round_of(1, WENT_OUT, STAYED_IN), version=1)

    assert stale.value.current.version == 2
    assert store.match_view(match).standings.totals == (825, 2565)


def test_a_round_entered_after_any_deletion_starts_above_the_deleted_versions(
    stored: Stored,
) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))
    store.replace_round(match, 1, round_of(1, STAYED_IN, WENT_OUT), version=1)
    store.delete_round(match, 1, version=2)

    assert store.add_round(match, round_of(2, WENT_OUT, STAYED_IN)).version == 3


def test_a_stale_delete_keeps_the_round(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))

    with pytest.raises(store.StaleVersion):
        store.delete_round(match, 1, version=2)

    assert count(Round) == 1


def test_two_phones_entering_the_same_round_at_once_store_it_once(
    create_match: CreateMatch, at_once: AtOnce
) -> None:
    def enter(match: Match) -> str:
        try:
            store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))
        except ProblemsError as error:
            return error.problems[0].field or ""
        return "stored"

    outcomes = at_once(create_match().public_id, enter)

    assert sorted(outcomes) == ["round", "stored"]


def another_phone_meanwhile(
    app: Flask, monkeypatch: pytest.MonkeyPatch, change: Callable[[Match], object]
) -> list[int]:
    """Make another phone commit `change` just after this one first decides on the match, before
    it writes; return the versions of the match this phone decides on."""
    versions: list[int] = []
    this_phone = threading.get_ident()
    planned = rounds._planned

    def interrupted(match: Match, *args: Any) -> Any:
        plan = planned(match, *args)
        if threading.get_ident() == this_phone:
            versions.append(match.version)
            if len(versions) == 1:
                other = threading.Thread(target=_change_in_own_app_context, args=(app, change))
                other.start()
                other.join()
        return plan

    monkeypatch.setattr(rounds, "_planned", interrupted)
    return versions


def _change_in_own_app_context(app: Flask, change: Callable[[Match], object]) -> None:
    with app.app_context():
        match = db.session.scalars(db.select(Match)).one()
        change(match)


def test_a_round_decided_before_another_phone_wrote_is_decided_again_on_its_change(
    app: Flask, stored: Stored, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = stored()
    versions = another_phone_meanwhile(
        app, monkeypatch, lambda other: store.add_round(other, round_of(1, WENT_OUT, STAYED_IN))
    )

    scored = store.add_round(match, round_of(2, STAYED_IN, WENT_OUT))

    assert versions == [1, 2]  # read once before the other phone's round, once after it
    assert [side.running_score for side in scored.entry.sides] == [2565, 825]
    assert [s.number for s in store.match_view(match).rounds] == [1, 2]
    assert match.version == 3


def test_a_replacement_read_before_another_phone_replaced_the_round_is_stale(
    app: Flask, stored: Stored, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))
    swapped = round_of(1, STAYED_IN, WENT_OUT)
    another_phone_meanwhile(
        app, monkeypatch, lambda other: store.replace_round(other, 1, swapped, version=1)
    )

    with pytest.raises(store.StaleVersion) as stale:
        store.replace_round(match, 1, round_of(1, WENT_OUT, STAYED_IN), version=1)

    assert stale.value.current.version == 2
    assert [s.score for s in stale.value.current.score.sides] == [825, 2565]
    assert match.version == 3


def test_a_round_decided_before_another_phone_replaced_the_edit_link_is_refused(
    app: Flask, in_app: None, create_match: CreateMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = create_match()
    match = store.get_match(created.public_id)
    assert match is not None
    another_phone_meanwhile(
        app,
        monkeypatch,
        lambda other: store.rotate_token_once(
            other, created.edit_token, operation_id=None, secret="test"
        ),
    )

    with pytest.raises(store.TokenRefused):
        store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))

    assert store.current_view(match).rounds == ()


# -- The result a match keeps --------------------------------------------------------------------


def kept_result(match: Match) -> tuple[bool, tuple[int, ...]]:
    """Return the result as the match's rows hold it, read afresh: finished, each side's total."""
    db.session.rollback()
    fresh = db.session.scalars(
        db.select(Match).where(Match.id == match.id).execution_options(populate_existing=True)
    ).one()
    return fresh.finished, tuple(side.total for side in fresh.sides)


def scored_result(match: Match) -> tuple[bool, tuple[int, ...]]:
    """Return the result as the domain scores the stored rounds."""
    standings = store.current_view(match).standings
    return standings.finished, standings.totals


def test_a_new_match_keeps_an_unfinished_result_of_nothing(stored: Stored) -> None:
    match = stored()

    assert kept_result(match) == (False, (0, 0)) == scored_result(match)


def test_every_change_to_the_rounds_keeps_the_result_they_score_to(stored: Stored) -> None:
    match = stored(overrides={"rounds": 2, "meld_minimums": [50, 90]})
    results = []
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN))
    results.append(kept_result(match))
    store.add_round(match, round_of(2, WENT_OUT, STAYED_IN))
    results.append(kept_result(match))
    store.replace_round(match, 2, round_of(2, STAYED_IN, WENT_OUT), version=1)
    results.append(kept_result(match))
    store.delete_round(match, 1, version=1)
    results.append(kept_result(match))

    assert results == [
        (False, (2565, 825)),
        (True, (5130, 1650)),
        (True, (3390, 3390)),
        (False, (825, 2565)),
    ]
    assert results[-1] == scored_result(match)


def test_a_change_decided_again_after_another_phones_keeps_the_result_of_both(
    app: Flask, stored: Stored, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = stored()
    another_phone_meanwhile(
        app, monkeypatch, lambda other: store.add_round(other, round_of(1, WENT_OUT, STAYED_IN))
    )

    store.add_round(match, round_of(2, WENT_OUT, STAYED_IN))

    assert kept_result(match) == (False, (5130, 1650)) == scored_result(match)


def test_a_repeated_change_keeps_the_result_as_the_first_left_it(stored: Stored) -> None:
    match = stored()
    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN), operation_id="tap")

    store.add_round(match, round_of(1, WENT_OUT, STAYED_IN), operation_id="tap")

    assert kept_result(match) == (False, (2565, 825))


def test_an_imported_match_keeps_its_result(in_app: None, create_match: CreateMatch) -> None:
    original = store.get_match(
        create_match(overrides={"rounds": 1, "meld_minimums": [50]}).public_id
    )
    assert original is not None
    store.add_round(original, round_of(1, STAYED_IN, WENT_OUT))

    imported = store.import_match(store.export_match(original)).match

    assert kept_result(imported) == (True, (825, 2565)) == scored_result(imported)
