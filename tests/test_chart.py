"""The running-totals chart: geometry only, so every test runs without an app."""

from __future__ import annotations

import pytest

from scorekeeper.chart import HEIGHT, WIDTH, Point, nice_ticks, running_totals_chart


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


def test_a_higher_total_is_drawn_higher_up() -> None:
    chart = running_totals_chart(["Us", "Them"], [(2565, 825)], rounds_total=4)

    ours, theirs = (series.points[1] for series in chart.series)
    assert ours.y < theirs.y < chart.zero


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
