"""Match documents: entries as JSON, the export read back, and the CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from worked_example import WENT_OUT

from scorekeeper import store
from scorekeeper.documents import RoundSide
from scorekeeper.domain.entries import CardCounts, RoundEntry, SideEntry
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.i18n import LANGUAGES
from scorekeeper.store.exports import CSV_COLUMNS, read_document, side_entry_json

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch

COUNTED = SideEntry(
    name="Them",
    clean_books=1,
    melded=CardCounts(jokers=1, aces=4, eights_to_kings=10),
    red_threes_held=1,
    leftover=CardCounts(twos=1, black_threes=2),
)


@pytest.fixture
def in_app(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


@pytest.mark.parametrize("entry", [WENT_OUT, COUNTED, replace(COUNTED, deal_bonus=True)])
def test_a_side_entry_as_json_reads_back_to_the_same_entry(entry: SideEntry) -> None:
    assert RoundSide.model_validate(side_entry_json(entry)).entry() == entry


def test_counts_are_exported_as_counts_and_points_as_points() -> None:
    assert side_entry_json(COUNTED)["melded"] == {
        "jokers": 1,
        "twos": 0,
        "aces": 4,
        "eights_to_kings": 10,
        "fours_to_sevens": 0,
    }
    assert "melded_points" not in side_entry_json(COUNTED)
    assert side_entry_json(WENT_OUT)["melded_points"] == 765


def exported(create_match: CreateMatch, *rounds: RoundEntry, **options: Any) -> dict[str, Any]:
    match = store.get_match(create_match(**options).public_id)
    assert match is not None
    for entry in rounds:
        store.add_round(match, entry)
    return store.export_match(match)


def test_an_export_names_its_format_and_holds_the_whole_match(
    in_app: None, create_match: CreateMatch
) -> None:
    document = exported(create_match, RoundEntry(1, (WENT_OUT, COUNTED)))

    assert (document["format"], document["format_version"]) == ("scorekeeper-match", 1)
    assert document["sides"] == [
        {"name": "Us", "players": ["Ann", "Bob"]},
        {"name": "Them", "players": ["Cy", "Di"]},
    ]
    assert document["settings"]["meld_minimums"] == [50, 90, 120, 150]
    assert [r["round"] for r in document["rounds"]] == [1]


def test_an_export_and_its_import_keep_who_dealt_the_first_round(
    in_app: None, create_match: CreateMatch
) -> None:
    document = exported(create_match)
    document["first_dealer"] = {"side": 1, "player": 0}

    imported = store.import_match(document).match

    assert document["first_dealer"] != exported(create_match)["first_dealer"]
    assert store.export_match(imported)["first_dealer"] == {"side": 1, "player": 0}
    assert store.match_view(imported).dealer(1) == "Cy"


def test_an_import_scores_its_rounds_in_order_whatever_order_they_come_in(
    in_app: None, create_match: CreateMatch
) -> None:
    document = exported(
        create_match,
        RoundEntry(2, (SideEntry(melded=90), SideEntry(melded=50))),
        RoundEntry(1, (WENT_OUT, COUNTED)),
        overrides={"meld_minimum_mode": "by_score"},
    )
    document["rounds"].reverse()

    view = store.match_view(store.import_match(document).match)

    assert [scored.number for scored in view.rounds] == [1, 2]
    assert [side.running_score for side in view.rounds[1].entry.sides] == list(
        view.standings.running_totals[0]
    )


@pytest.mark.parametrize(
    ("created_at", "began"),
    [
        ("2026-11-27T20:30:00-05:00", datetime(2026, 11, 28, 1, 30, tzinfo=UTC)),
        ("2026-11-27T20:30:00", datetime(2026, 11, 27, 20, 30, tzinfo=UTC)),  # read as UTC
        ("last Friday", None),
        (20261127, None),
    ],
)
def test_an_import_begins_when_its_export_says_the_match_began(
    in_app: None, create_match: CreateMatch, created_at: object, began: datetime | None
) -> None:
    document = {**exported(create_match), "created_at": created_at}

    assert read_document(document, LANGUAGES).created_at == began


@pytest.mark.parametrize(
    ("change", "fields"),
    [
        ({"format": "scorekeeper-match", "format_version": 2}, {"format"}),
        ({"settings": [1, 2]}, {"settings"}),
        ({"preset": "lenient"}, {"preset"}),
        ({"language": 5}, {"language"}),
        ({"language": "xx"}, {"language"}),  # as creating a match refuses it
        ({"sides": [{"name": "Us", "players": ["A"], "seat": 1}]}, {"sides[0].seat"}),
        ({"rounds": [{"round": 1, "sides": [{}, {}], "note": "late"}]}, {"rounds[0].note"}),
        ({"rounds": [{"round": "one", "sides": [{}, {}]}]}, {"rounds[0].round"}),
        ({"rounds": [{"round": 1, "sides": [{}, {}]}] * 2}, {"rounds[1].round"}),
    ],
)
def test_a_damaged_export_is_refused_with_its_place(
    in_app: None, create_match: CreateMatch, change: dict[str, Any], fields: set[str]
) -> None:
    document = {**exported(create_match), **change}

    with pytest.raises(ProblemsError) as error:
        read_document(document, LANGUAGES)

    assert {problem.field for problem in error.value.problems} == fields


def test_the_csv_has_every_entry_field_and_leaves_the_unused_form_blank(
    in_app: None, create_match: CreateMatch
) -> None:
    match = store.get_match(create_match().public_id)
    assert match is not None
    store.add_round(match, RoundEntry(1, (WENT_OUT, COUNTED)))

    rows = list(csv.DictReader(io.StringIO(store.match_csv(match))))

    assert tuple(rows[0]) == CSV_COLUMNS
    assert (rows[0]["melded_points"], rows[0]["melded.aces"]) == ("765", "")
    assert (rows[1]["melded_points"], rows[1]["melded.aces"]) == ("", "4")
    assert (rows[1]["leftover.black_threes"], rows[1]["red_threes_held"]) == ("2", "1")
    assert rows[1]["score"] == rows[1]["running_total"]


@pytest.mark.parametrize("name", ["=SUM(A1:A9)", "+1", "-2", "@cmd"])
def test_a_side_name_never_becomes_a_spreadsheet_formula(
    in_app: None, create_match: CreateMatch, name: str
) -> None:
    match = store.get_match(create_match(sides=[(name, ["Ann"]), ("Them", ["Bo"])]).public_id)
    assert match is not None
    store.add_round(match, RoundEntry(1, (SideEntry(melded=50), SideEntry(melded=50))))

    rows = list(csv.DictReader(io.StringIO(store.match_csv(match))))

    assert rows[0]["side"] == f"'{name}"
