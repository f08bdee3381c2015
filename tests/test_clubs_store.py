"""Stored clubs: their players named once, matches that join them, records read from results."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import text
from worked_example import STAYED_IN, WENT_OUT

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.domain.records import Outcome, Period, RecordFilter
from scorekeeper.domain.rules import build_rules
from scorekeeper.store.models import Club, ClubPlayer, Match, Round, db

ONE_ROUND = build_rules("standard", {"rounds": 1, "meld_minimums": [50]})

Sides = Sequence[tuple[str, Sequence[str]]]
ClubMatch = Callable[..., Match]


def specs(sides: Sides) -> list[store.SideSpec]:
    return [store.SideSpec(name, tuple(players)) for name, players in sides]


@pytest.fixture
def club(in_app: None) -> Club:
    created = store.create_club("Thursdays")
    for name in ("Ann", "Bob", "Cy", "Di"):
        store.add_player(created.club, name)
    return created.club


@pytest.fixture
def club_match(club: Club) -> ClubMatch:
    """Return a factory of the club's matches of one round, played when `first` is given: the
    first side went out."""

    def create(sides: Sides, first: bool | None = None, name: str = "Night") -> Match:
        match = store.create_match(name, "standard", ONE_ROUND, specs(sides), club=club).match
        if first is not None:
            entries = (WENT_OUT, STAYED_IN) if first else (STAYED_IN, WENT_OUT)
            store.add_round(match, RoundEntry(1, entries))
        return match

    return create


def club_players_of(match: Match) -> list[str | None]:
    """Return the club's player each player of the match is, in seating order, read afresh."""
    db.session.rollback()
    stored = store.get_match(match.public_id)
    assert stored is not None
    return [
        player.club_player.name if player.club_player else None
        for side in stored.sides
        for player in side.players
    ]


def numbers(club: Club) -> list[tuple[int, str]]:
    return [(member.number, member.name) for member in club.players]


# -- Creating clubs and adding players -----------------------------------------------------------


def test_a_club_keeps_only_a_digest_of_its_edit_token(in_app: None) -> None:
    created = store.create_club("  Thursdays ")

    club = store.get_club(created.club.public_id)
    assert club is not None and club.name == "Thursdays"
    assert club.edit_token_hash == hashlib.sha256(created.edit_token.encode()).hexdigest()
    assert store.token_opens(club, created.edit_token)
    assert not store.token_opens(club, created.edit_token[:-1])


# The spaces around a name count towards its length as typed, as the API's document says.
@pytest.mark.parametrize("name", ["", "   ", "x" * 61, "\u00a0" + "x" * 60, "Two\nlines"])
def test_a_club_without_a_proper_name_is_refused(in_app: None, name: str) -> None:
    with pytest.raises(ProblemsError) as refused:
        store.create_club(name)

    assert [problem.field for problem in refused.value.problems] == ["name"]
    assert db.session.scalar(db.select(db.func.count(Club.id))) == 0


def test_a_name_is_kept_without_the_spaces_around_it(in_app: None, club: Club) -> None:
    assert store.create_club("  Thursday club ").club.name == "Thursday club"
    assert store.add_player(club, "\u00a0Eve ").name == "Eve"


def test_players_are_numbered_in_the_order_they_join(club: Club) -> None:
    assert numbers(club) == [(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Di")]


@pytest.mark.parametrize("name", ["Ann", "ann", " ANN ", "ＡＮＮ"])
def test_a_name_the_club_has_is_refused_whatever_its_case(club: Club, name: str) -> None:
    with pytest.raises(ProblemsError) as refused:
        store.add_player(club, name)

    assert [problem.field for problem in refused.value.problems] == ["name"]
    assert len(club.players) == 4


# -- Matches of the club -------------------------------------------------------------------------


def test_a_match_set_up_from_the_club_plays_its_players_and_new_names_join_it(
    club: Club, club_match: ClubMatch
) -> None:
    match = club_match([("Us", ["ann", "Bob"]), ("Them", ["Cy", "Eve"])])

    assert match.club_id == club.id
    assert club_players_of(match) == ["Ann", "Bob", "Cy", "Eve"]
    assert numbers(club)[-1] == (5, "Eve")


def test_a_clubs_match_naming_a_player_twice_is_refused_storing_nothing(
    club: Club, club_match: ClubMatch
) -> None:
    with pytest.raises(ProblemsError) as refused:
        club_match([("Us", ["Ann", "Eve"]), ("Them", ["Cy", "ANN"])])

    assert [problem.field for problem in refused.value.problems] == ["sides[1].players[1]"]
    assert db.session.scalar(db.select(db.func.count(Match.id))) == 0
    assert len(store.get_club(club.public_id).players) == 4  # type: ignore[union-attr]


def test_a_match_attached_to_the_club_finds_its_players_by_name(club: Club) -> None:
    created = store.create_match(
        "By hand", "standard", ONE_ROUND, specs([("Ann", ["Ann"]), ("Fay", ["Fay"])])
    )

    attached = store.attach_match(club, created.match)
    again = store.attach_match(club, created.match)

    assert (attached, again) == (True, False)
    assert club_players_of(created.match) == ["Ann", "Fay"]
    assert numbers(store.get_club(club.public_id))[-1] == (5, "Fay")  # type: ignore[arg-type]


def test_a_match_of_another_club_is_not_attached(club: Club) -> None:
    other = store.create_club("Fridays").club
    match = store.create_match(
        "Theirs", "standard", ONE_ROUND, specs([("Ann", ["Ann"]), ("Bob", ["Bob"])]), club=other
    ).match

    with pytest.raises(ProblemsError):
        store.attach_match(club, match)

    db.session.rollback()
    assert db.session.get(Match, match.id).club_id == other.id  # type: ignore[union-attr]


def test_deleting_a_club_leaves_its_matches_whole_in_no_club(
    club: Club, club_match: ClubMatch
) -> None:
    match = club_match([("Ann", ["Ann"]), ("Bob", ["Bob"])], first=True)
    db.session.rollback()

    with db.engine.begin() as connection:
        connection.execute(text("DELETE FROM club WHERE id = :id"), {"id": club.id})
    db.session.expire_all()

    stored = store.get_match(match.public_id)
    assert stored is not None and stored.club_id is None
    assert db.session.scalar(db.select(db.func.count(Round.id))) == 1
    assert db.session.scalar(db.select(db.func.count(ClubPlayer.id))) == 0
    assert all(player.club_player_id is None for side in stored.sides for player in side.players)


# -- Records -------------------------------------------------------------------------------------


def test_the_club_page_reads_results_newest_first_and_counts_finished_ones(
    club: Club, club_match: ClubMatch
) -> None:
    club_match([("Us", ["Ann", "Bob"]), ("Them", ["Cy", "Di"])], first=True, name="First")
    club_match([("Ann", ["Ann"]), ("Cy", ["Cy"])], first=False, name="Second")
    club_match([("Bob", ["Bob"]), ("Di", ["Di"])], name="Playing")

    view = store.club_view(club)

    assert [result.name for result in view.results] == ["Playing", "Second", "First"]
    assert [(result.finished, result.winner) for result in view.results] == [
        (False, None),
        (True, 1),
        (True, 0),
    ]
    records = {view.members[entry.player]: entry.record for entry in view.players}
    assert (records["Ann"].played, records["Ann"].won) == (2, 1)
    assert (records["Cy"].played, records["Cy"].won) == (2, 1)
    assert (records["Di"].played, records["Di"].won) == (1, 0)
    assert records["Ann"].best_score == 2565
    assert [pair.players for pair in view.pairs] == [(1, 2), (3, 4)]


def test_the_club_page_reads_its_records_in_two_queries_whatever_the_number_of_matches(
    club: Club, club_match: ClubMatch, statements: list[str]
) -> None:
    for _ in range(3):
        club_match([("Us", ["Ann", "Bob"]), ("Them", ["Cy", "Di"])], first=True)
    statements.clear()

    store.club_view(club)

    assert len([statement for statement in statements if "SELECT" in statement]) == 2


def test_filters_keep_the_matches_of_a_period(club: Club, club_match: ClubMatch) -> None:
    old = club_match([("Ann", ["Ann"]), ("Bob", ["Bob"])], first=True, name="Old")
    club_match([("Ann", ["Ann"]), ("Bob", ["Bob"])], first=False, name="New")
    db.session.rollback()
    with db.engine.begin() as connection:
        connection.execute(
            text("UPDATE match SET created_at = :day WHERE id = :id"),
            {"day": datetime(2025, 6, 1, tzinfo=UTC), "id": old.id},
        )

    view = store.club_view(club, RecordFilter(period=Period.YEAR), today=date.today())

    assert [result.name for result in view.results] == ["New"]


def test_a_players_page_lists_their_matches_and_averages_their_finished_rounds(
    club: Club, club_match: ClubMatch
) -> None:
    club_match([("Us", ["Ann", "Bob"]), ("Them", ["Cy", "Di"])], first=True, name="Won")
    club_match([("Ann", ["Ann"]), ("Cy", ["Cy"])], name="Playing")
    ann = store.player_numbered(club, 1)
    assert ann is not None

    view = store.player_view(club, ann)

    assert [(found.result.name, found.outcome) for found in view.matches] == [
        ("Playing", None),
        ("Won", Outcome.WON),
    ]
    assert (view.record.played, view.record.won, view.record.scores) == (1, 1, (2565,))
    assert (view.averages.rounds, view.averages.books, view.averages.went_out) == (1, 4, 1)


# -- Export and import ---------------------------------------------------------------------------


def test_a_club_comes_back_from_its_export_with_its_players_matches_and_records(
    club: Club, club_match: ClubMatch
) -> None:
    club_match([("Us", ["Ann", "Bob"]), ("Them", ["Cy", "Di"])], first=True, name="First")
    club_match([("Ann", ["Ann"]), ("Eve", ["Eve"])], name="Playing")
    exported = store.export_club(club)

    imported = store.import_club(exported)

    copy = store.get_club(imported.club.club.public_id)
    assert copy is not None and copy.public_id != club.public_id
    assert store.token_opens(copy, imported.club.edit_token)
    assert numbers(copy) == numbers(store.get_club(club.public_id))  # type: ignore[arg-type]
    assert len(imported.matches) == 2
    again = store.export_club(copy)
    assert {key: again[key] for key in again if key != "matches"} == {
        key: exported[key] for key in exported if key != "matches"
    }
    assert again["matches"] == exported["matches"]
    view, original = store.club_view(copy), store.club_view(club)
    assert view.players == original.players and view.pairs == original.pairs


def test_a_damaged_club_export_is_refused_naming_each_place_and_storing_nothing(
    club: Club, club_match: ClubMatch
) -> None:
    club_match([("Ann", ["Ann"]), ("Bob", ["Bob"])], first=True)
    exported = store.export_club(club)
    exported["players"].append({"id": 1, "name": "Zed"})
    exported["matches"][0]["rounds"][0]["round"] = 7

    with pytest.raises(ProblemsError) as refused:
        store.import_club(exported)

    assert [problem.field for problem in refused.value.problems] == ["players[4].id"]
    del exported["players"][-1]
    with pytest.raises(ProblemsError) as refused:
        store.import_club(exported)
    assert {problem.field.split(".")[0] for problem in refused.value.problems} == {"matches[0]"}
    assert db.session.scalar(db.select(db.func.count(Club.id))) == 1


def test_a_match_export_is_no_club_export(in_app: None) -> None:
    with pytest.raises(ProblemsError) as refused:
        store.import_club({"format": "scorekeeper-match", "format_version": 1})

    assert [problem.field for problem in refused.value.problems] == ["format"]
