"""A club's records from its matches' results: who played and won, streaks, partnerships."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from scorekeeper.domain.club import name_key, player_problems, repeated_players
from scorekeeper.domain.entries import SideEntry
from scorekeeper.domain.records import (
    MatchResult,
    Outcome,
    Period,
    RecordFilter,
    SideResult,
    Streak,
    matches_of,
    partnerships,
    player_records,
    round_averages,
)

ANN, BOB, CY, DI, ED = 1, 2, 3, 4, 5
TODAY = date(2026, 12, 10)


def result(
    *sides: tuple[tuple[int, ...], int],
    finished: bool = True,
    began: datetime = datetime(2026, 12, 1, 20, tzinfo=UTC),
    preset: str = "standard",
    key: str = "m",
) -> MatchResult:
    """Return a match's result, each side given as (its players, its total)."""
    return MatchResult(
        key=key,
        name=key,
        preset=preset,
        began=began,
        finished=finished,
        sides=tuple(SideResult(players, total) for players, total in sides),
    )


def on(day: int, month: int = 12, year: int = 2026) -> datetime:
    return datetime(year, month, day, 20, tzinfo=UTC)


def records_by_player(*results: MatchResult) -> dict[int, tuple[int, int]]:
    """Return each player's (played, won)."""
    found = player_records([ANN, BOB, CY, DI, ED], results)
    return {entry.player: (entry.record.played, entry.record.won) for entry in found}


def test_every_player_of_the_winning_side_wins_and_the_others_lose() -> None:
    match = result(((ANN, BOB), 5000), ((CY, DI), 3000))

    assert records_by_player(match) == {
        ANN: (1, 1),
        BOB: (1, 1),
        CY: (1, 0),
        DI: (1, 0),
        ED: (0, 0),
    }


def test_a_draw_counts_as_played_and_not_won_for_every_side_level_at_the_top() -> None:
    match = result(((ANN,), 4000), ((BOB,), 4000), ((CY,), 1000))

    assert match.draw and match.winner is None
    assert [match.outcome(side) for side in range(3)] == [
        Outcome.DRAWN,
        Outcome.DRAWN,
        Outcome.LOST,
    ]
    assert records_by_player(match)[ANN] == (1, 0)
    assert records_by_player(match)[CY] == (1, 0)


def test_a_match_still_being_played_counts_in_no_record() -> None:
    playing = result(((ANN,), 9000), ((BOB,), 0), finished=False)

    assert playing.winner is None and playing.outcome(0) is None
    assert records_by_player(playing) == {player: (0, 0) for player in (ANN, BOB, CY, DI, ED)}
    assert partnerships([result(((ANN, BOB), 10), ((CY, DI), 0), finished=False)]) == ()


def test_a_player_who_changes_partners_keeps_one_record_and_one_per_partnership() -> None:
    with_bob = result(((ANN, BOB), 5000), ((CY, DI), 3000), began=on(1))
    with_cy = result(((CY, ANN), 2000), ((BOB, DI), 4000), began=on(2))

    assert records_by_player(with_bob, with_cy)[ANN] == (2, 1)
    pairs = {pair.players: pair.record for pair in partnerships([with_bob, with_cy])}
    assert set(pairs) == {(ANN, BOB), (CY, DI), (ANN, CY), (BOB, DI)}
    assert (pairs[(ANN, BOB)].played, pairs[(ANN, BOB)].won) == (1, 1)
    assert (pairs[(ANN, CY)].played, pairs[(ANN, CY)].won) == (1, 0)
    assert pairs[(ANN, CY)].scores == (2000,)


def test_a_side_of_three_makes_three_partnerships() -> None:
    match = result(((ANN, BOB, CY), 100), ((DI, ED, 6), 50))

    pairs = {pair.players for pair in partnerships([match])}
    assert {(ANN, BOB), (ANN, CY), (BOB, CY)} <= pairs
    assert len(pairs) == 6


def test_players_alone_make_no_partnership() -> None:
    assert partnerships([result(((ANN,), 10), ((BOB,), 0))]) == ()


def test_win_rate_average_and_best_score_come_from_the_final_totals() -> None:
    results = [
        result(((ANN,), 6000), ((BOB,), 1000), began=on(1)),
        result(((ANN,), 2000), ((BOB,), 3000), began=on(2)),
        result(((ANN,), 4000), ((BOB,), -500), began=on(3)),
    ]

    ann = next(entry.record for entry in player_records([ANN], results))

    assert (ann.played, ann.won) == (3, 2)
    assert ann.win_rate == pytest.approx(2 / 3)
    assert ann.average_score == 4000
    assert ann.best_score == 6000


def test_a_player_who_has_not_played_has_no_rate_average_best_or_streak() -> None:
    (ed,) = player_records([ED], [result(((ANN,), 10), ((BOB,), 0))])

    assert ed.record.played == 0
    assert (ed.record.win_rate, ed.record.average_score, ed.record.best_score) == (None, None, None)
    assert ed.record.streak is None


@pytest.mark.parametrize(
    ("totals", "streak"),
    [
        ([(5, 0), (5, 0), (0, 5), (5, 0)], Streak(Outcome.WON, 1)),
        ([(0, 5), (5, 0), (5, 0), (5, 0)], Streak(Outcome.WON, 3)),
        ([(5, 0), (0, 5), (0, 5)], Streak(Outcome.LOST, 2)),
        ([(0, 5), (5, 5)], Streak(Outcome.DRAWN, 1)),
        ([(5, 0)], Streak(Outcome.WON, 1)),
    ],
)
def test_the_current_streak_is_the_run_of_one_outcome_that_the_latest_match_ends(
    totals: list[tuple[int, int]], streak: Streak
) -> None:
    # Given newest first, as a club's page lists them: the streak follows when they began.
    results = [
        result(((ANN,), ann), ((BOB,), bob), began=on(day))
        for day, (ann, bob) in enumerate(totals, start=1)
    ]

    (ann,) = player_records([ANN], reversed(results))

    assert ann.record.streak == streak


def test_an_unfinished_latest_match_does_not_break_a_streak() -> None:
    results = [
        result(((ANN,), 5), ((BOB,), 0), began=on(1)),
        result(((ANN,), 0), ((BOB,), 5), began=on(2), finished=False),
    ]

    (ann,) = player_records([ANN], results)

    assert ann.record.streak == Streak(Outcome.WON, 1)


def test_players_rank_by_wins_then_the_share_won_and_level_ones_keep_their_order() -> None:
    results = [
        result(((ANN,), 5), ((BOB,), 0), began=on(1)),
        result(((CY,), 5), ((DI,), 0), began=on(2)),
        result(((CY,), 0), ((BOB,), 5), began=on(3)),
    ]

    order = [entry.player for entry in player_records([ED, DI, CY, BOB, ANN], results)]

    # Ann and Bob won one each, Ann in one match, Bob in two; Cy won one of two too, after Bob
    # in the order given; Di lost one; Ed played none.
    assert order == [ANN, CY, BOB, DI, ED]


@pytest.mark.parametrize(
    ("record_filter", "kept"),
    [
        (RecordFilter(), ["last year", "this year", "this month", "simple"]),
        (RecordFilter(period=Period.YEAR), ["this year", "this month", "simple"]),
        (RecordFilter(period=Period.MONTH), ["this month", "simple"]),
        (RecordFilter(preset="simple"), ["simple"]),
        (RecordFilter(preset="standard", period=Period.MONTH), ["this month"]),
        (RecordFilter(preset="strict"), []),
    ],
)
def test_filters_keep_the_matches_of_a_preset_begun_in_a_period(
    record_filter: RecordFilter, kept: list[str]
) -> None:
    results = [
        result(((ANN,), 5), ((BOB,), 0), key="last year", began=on(31, 12, 2025)),
        result(((ANN,), 5), ((BOB,), 0), key="this year", began=on(30, 11)),
        result(((ANN,), 5), ((BOB,), 0), key="this month", began=on(1)),
        result(((ANN,), 5), ((BOB,), 0), key="simple", began=on(9), preset="simple"),
    ]

    assert [found.key for found in record_filter.applied(results, TODAY)] == kept


def test_a_players_matches_are_those_they_play_in_finished_or_not() -> None:
    results = [
        result(((ANN,), 5), ((BOB,), 0), key="won"),
        result(((BOB,), 5), ((CY,), 0), key="not in it"),
        result(((CY,), 0), ((ANN, DI), 5), key="playing", finished=False),
    ]

    played = matches_of(ANN, results)

    assert [(match.result.key, match.outcome, match.score) for match in played] == [
        ("won", Outcome.WON, 5),
        ("playing", None, 5),
    ]


def test_round_averages_count_books_going_out_and_red_threes_of_the_players_side() -> None:
    entries = [
        SideEntry(clean_books=2, dirty_books=1, red_threes=1, went_out=True),
        SideEntry(clean_books=1, red_threes_held=1),
        SideEntry(wild_books=1, red_threes=2),
        SideEntry(),
    ]

    averages = round_averages(entries)

    assert averages.rounds == 4
    assert averages.books == 5 / 4
    assert averages.went_out == 1 and averages.went_out_share == 1 / 4
    assert averages.red_threes == 1


def test_no_rounds_average_nothing() -> None:
    averages = round_averages([])

    assert (averages.books, averages.red_threes, averages.went_out_share) == (None, None, None)


@pytest.mark.parametrize(
    ("name", "same"), [("ann", "Ann"), ("ＡＮＮ ", "Ann"), ("Straße", "STRASSE")]
)
def test_a_name_is_a_players_whatever_its_case_width_or_spaces(name: str, same: str) -> None:
    assert name_key(name) == name_key(same)


def test_a_new_player_may_not_take_a_name_the_club_has() -> None:
    taken = {name_key("Ann")}

    assert player_problems("Bob", taken) == []
    assert [problem.field for problem in player_problems("ann", taken)] == ["name"]
    assert [problem.field for problem in player_problems("", taken)] == ["name"]


def test_a_clubs_match_names_each_player_once() -> None:
    problems = repeated_players([("Ann", "Bob"), ("Cy", "ann")])

    assert [(problem.field, problem.side) for problem in problems] == [("sides[1].players[1]", 1)]
