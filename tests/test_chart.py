"""The running-totals chart: geometry only, so every test runs without an app."""

from __future__ import annotations

import re

import pytest

from scorekeeper.domain.chart import (
    HEIGHT,
    SERIES_STYLES,
    TIE_SPACING,
    WIDTH,
    Marker,
    Point,
    label_width,
    marker_path,
    nice_ticks,
    running_totals_chart,
    scores_chart,
    tie_offsets,
)


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (0, 100, (0, 20, 40, 60, 80, 100)),
        (-240, 2565, (-1000, 0, 1000, 2000, 3000)),
        (-500, -100, (-500, -400, -300, -200, -100)),
        (0, 12345, (0, 5000, 10000, 15000)),
        (3, 7, (3, 4, 5, 6, 7)),
        (0, 0, (0, 1)),
    ],
)
def test_ticks_are_round_numbers_that_cover_the_range(
    low: int, high: int, ticks: tuple[int, ...]
) -> None:
    assert nice_ticks(low, high) == ticks


def test_every_line_starts_at_zero_before_the_first_round() -> None:
    chart = running_totals_chart(["Us", "Them"], [(2565, 825)], rounds_total=4)

    origin = Point(chart.left, chart.zero)
    assert [series.points[0] for series in chart.series] == [origin, origin]


def test_a_line_has_a_point_per_round_played_and_the_x_axis_spans_the_whole_match() -> None:
    chart = running_totals_chart(["Us", "Them"], [(100, 50), (300, -20)], rounds_total=4)

    assert [len(series.points) for series in chart.series] == [3, 3]
    assert [tick.value for tick in chart.x_ticks] == [1, 2, 3, 4]
    assert chart.x_ticks[-1].position == chart.right
    assert chart.series[0].points[2].x == chart.x_ticks[1].position


@pytest.mark.parametrize(
    ("round_numbers", "totals", "full_match"),
    [
        # The full match plays the missing rounds for no points, so its totals, and thus its
        # axes, are those of the match with a hole.
        ((1, 3), [(100, 50), (450, 400)], [(100, 50), (100, 50), (450, 400)]),
        ((2, 4), [(300, -20), (900, 380)], [(0, 0), (300, -20), (300, -20), (900, 380)]),
        (
            (1, 2, 4),
            [(100, 50), (300, -20), (900, 380)],
            [(100, 50), (300, -20), (300, -20), (900, 380)],
        ),
        ((4,), [(900, 380)], [(0, 0), (0, 0), (0, 0), (900, 380)]),
    ],
    ids=["round 2 missing", "rounds 1 and 3 missing", "round 3 missing", "only round 4"],
)
def test_each_total_is_drawn_at_its_own_round_when_rounds_before_it_are_missing(
    round_numbers: tuple[int, ...],
    totals: list[tuple[int, int]],
    full_match: list[tuple[int, int]],
) -> None:
    full = running_totals_chart(["Us", "Them"], full_match, rounds_total=4)

    holed = running_totals_chart(
        ["Us", "Them"], totals, rounds_total=4, round_numbers=round_numbers
    )

    for full_line, line in zip(full.series, holed.series, strict=True):
        assert [point.x for point in line.points] == [
            full_line.points[number].x for number in (0, *round_numbers)
        ]
    assert holed.x_ticks == full.x_ticks


def test_no_point_is_drawn_at_a_missing_round_the_line_joins_its_neighbours() -> None:
    full = running_totals_chart(["Us"], [(100,), (100,), (300,)], rounds_total=4)

    holed = running_totals_chart(["Us"], [(100,), (300,)], rounds_total=4, round_numbers=[1, 3])

    missing = full.series[0].points[2]
    assert missing.x not in {point.x for point in holed.series[0].points}
    assert holed.series[0].points == full.series[0].points[:2] + full.series[0].points[3:]
    assert holed.series[0].markers.count("Z") == 2


def test_round_numbers_default_to_one_per_total_in_order() -> None:
    totals = [(100, 50), (300, -20)]

    numbered = running_totals_chart(["Us", "Them"], totals, rounds_total=4, round_numbers=[1, 2])

    assert numbered == running_totals_chart(["Us", "Them"], totals, rounds_total=4)


def test_a_round_past_the_last_still_fits_on_the_x_axis() -> None:
    chart = running_totals_chart(["Us"], [(100,)], rounds_total=4, round_numbers=[6])

    assert [tick.value for tick in chart.x_ticks] == [1, 2, 3, 4, 5, 6]
    assert chart.series[0].points[-1].x == chart.right


def test_round_numbers_must_number_every_total() -> None:
    with pytest.raises(ValueError):
        running_totals_chart(["Us"], [(100,), (300,)], rounds_total=4, round_numbers=[1])


def test_a_higher_total_is_drawn_higher_up() -> None:
    chart = running_totals_chart(["Us", "Them"], [(2565, 825)], rounds_total=4)

    ours, theirs = (series.points[1] for series in chart.series)
    assert ours.y < theirs.y < chart.zero


@pytest.mark.parametrize(
    ("totals", "offsets"),
    [
        ((2665, 825), (0, 0)),
        ((825, 825), (-TIE_SPACING / 2, TIE_SPACING / 2)),
        ((825, 2665, 825, 825), (-TIE_SPACING, 0, 0, TIE_SPACING)),
        (
            (0, 5, 0, 5, 9),
            (-TIE_SPACING / 2, -TIE_SPACING / 2, TIE_SPACING / 2, TIE_SPACING / 2, 0),
        ),
    ],
)
def test_sides_level_on_a_total_sit_side_by_side_around_it_the_first_on_top(
    totals: tuple[int, ...], offsets: tuple[float, ...]
) -> None:
    assert tie_offsets(totals) == offsets


def test_no_line_hides_another_where_sides_are_level() -> None:
    level = running_totals_chart(["A", "B", "C", "D"], [(2665, 825, 825, 825)], rounds_total=4)
    apart = running_totals_chart(["A", "B", "C", "D"], [(2665, 825, 824, 826)], rounds_total=4)

    heights = [series.points[1].y for series in level.series]
    alone = apart.series[1].points[1].y  # where 825 is drawn when no other side has it
    expected = [alone - TIE_SPACING, alone, alone + TIE_SPACING]
    assert heights[1:] == pytest.approx(expected, abs=0.1)  # drawn to a tenth of a unit
    assert heights[0] == apart.series[0].points[1].y
    assert len({series.polyline for series in level.series}) == 4
    origin = Point(level.left, level.zero)
    assert {series.points[0] for series in level.series} == {origin}


def test_a_negative_total_is_drawn_below_the_zero_line() -> None:
    chart = running_totals_chart(["Us", "Them"], [(500, -240)], rounds_total=4)

    assert chart.series[1].points[1].y > chart.zero


def test_every_point_and_tick_lies_inside_the_plot() -> None:
    chart = running_totals_chart(
        ["A", "B", "C"], [(-300, 1200, 0), (4000, -900, 15)], rounds_total=4
    )

    points = [point for series in chart.series for point in series.points]
    assert all(chart.left <= point.x <= chart.right for point in points)
    assert all(chart.top <= point.y <= chart.bottom for point in points)
    assert all(chart.top <= tick.position <= chart.bottom for tick in chart.y_ticks)
    assert 0 < chart.left < chart.right <= WIDTH
    assert 0 < chart.top < chart.bottom <= HEIGHT


def test_a_match_without_points_still_gets_an_axis() -> None:
    chart = running_totals_chart(["Us", "Them"], [], rounds_total=4)

    assert len(chart.y_ticks) >= 2
    assert [len(series.points) for series in chart.series] == [1, 1]


def test_the_polyline_lists_the_points_as_svg_coordinates() -> None:
    chart = running_totals_chart(["Us"], [(100,)], rounds_total=1)

    first, last = chart.series[0].points
    assert chart.series[0].polyline == f"{first.x:g},{first.y:g} {last.x:g},{last.y:g}"


@pytest.mark.parametrize("totals", [(10000, -10000), (-12345, 0), (999999, 5)])
def test_the_widest_y_label_fits_left_of_the_plot(totals: tuple[int, int]) -> None:
    chart = running_totals_chart(["Us", "Them"], [totals], rounds_total=4)

    widest = max(label_width(tick.value) for tick in chart.y_ticks)
    assert chart.y_label_x - widest >= 0
    assert chart.left - chart.y_label_x > 0


def test_small_totals_leave_the_plot_more_room_than_large_ones() -> None:
    small = running_totals_chart(["Us"], [(100,)], rounds_total=4)
    large = running_totals_chart(["Us"], [(12000,)], rounds_total=4)

    assert small.left < large.left


def test_every_side_of_a_full_table_has_its_own_dash_pattern_and_marker() -> None:
    chart = running_totals_chart([f"Side {n}" for n in range(6)], [(0,) * 6], rounds_total=4)

    styles = [series.style for series in chart.series]
    assert len({style.dasharray for style in styles}) == 6
    assert len({style.marker for style in styles}) == 6
    assert all(re.fullmatch(r"#[0-9a-f]{6}", style.colour) for style in SERIES_STYLES)


def path_numbers(path: str) -> list[float]:
    return [float(number) for number in re.findall(r"-?\d+(?:\.\d+)?", path)]


@pytest.mark.parametrize("marker", [marker for marker in Marker if marker is not Marker.CIRCLE])
def test_a_marker_is_a_closed_shape_around_its_point(marker: Marker) -> None:
    path = marker_path(marker, Point(100, 50), radius=4)

    numbers = path_numbers(path)
    xs, ys = numbers[0::2], numbers[1::2]
    assert path.startswith("M") and path.endswith("Z")
    assert sum(xs) / len(xs) == pytest.approx(100, abs=0.5)  # the corners' centre
    assert sum(ys) / len(ys) == pytest.approx(50, abs=0.5)
    assert 0 < max(xs) - min(xs) <= 12


def test_a_circle_marker_is_two_arcs_across_its_point() -> None:
    assert marker_path(Marker.CIRCLE, Point(100, 50), radius=4) == (
        "M96,50a4,4 0 1,0 8,0a4,4 0 1,0 -8,0Z"
    )


def test_a_line_has_a_marker_at_every_round_played_but_not_at_the_start() -> None:
    chart = running_totals_chart(["Us"], [(100,), (300,)], rounds_total=4)

    assert chart.series[0].markers.count("Z") == 2


def test_a_players_final_scores_are_drawn_match_after_match_without_a_start_at_zero() -> None:
    chart = scores_chart("Ann", [2565, -300, 4100])

    (series,) = chart.series
    assert len(series.points) == 3
    assert [tick.value for tick in chart.x_ticks] == [1, 2, 3]
    assert series.markers.count("M") == 3  # a mark at every match, the first included
    assert (series.points[0].x, series.points[-1].x) == (chart.left, chart.right)


def test_many_matches_label_only_round_numbers_along_the_x_axis() -> None:
    chart = scores_chart("Ann", list(range(0, 5000, 10)))

    assert [tick.value for tick in chart.x_ticks] == [100, 200, 300, 400, 500]
