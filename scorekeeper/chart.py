"""The running-totals chart: match totals per round turned into SVG geometry, free of Flask."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# The drawing's own units; the page scales the SVG to its width.
WIDTH = 360
HEIGHT = 240
# Room left of, right of, above and below the plot for the axis labels.
MARGIN_LEFT = 64
MARGIN_RIGHT = 12
MARGIN_TOP = 12
MARGIN_BOTTOM = 32
# Gaps between the plot and its axis labels, and the dot drawn at each round.
LABEL_GAP = 6
X_LABEL_DROP = 22
MARKER_RADIUS = 4
TARGET_TICKS = 5
NICE_STEPS = (1, 2, 5, 10)
# A match with no points yet still gets a y axis of this height, so the chart's frame shows.
EMPTY_SPAN = 100


@dataclass(frozen=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True)
class Tick:
    """A labelled value on an axis and where it sits along that axis."""

    value: int
    position: float


@dataclass(frozen=True)
class Series:
    """One side's line: its running total after each round, from 0 before the first."""

    index: int
    name: str
    points: tuple[Point, ...]

    @property
    def polyline(self) -> str:
        """Return the points as an SVG `points` attribute."""
        return " ".join(f"{point.x:g},{point.y:g}" for point in self.points)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    zero: float
    y_label_x: float
    x_label_y: float
    marker_radius: float
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]


def nice_ticks(low: int, high: int, target: int = TARGET_TICKS) -> tuple[int, ...]:
    """Return at least two round tick values, from at or below `low` to at or above `high`."""
    high = max(high, low + 1)
    rough_step = (high - low) / target
    magnitude = 10 ** math.floor(math.log10(rough_step))
    nice_step = next(nice * magnitude for nice in NICE_STEPS if nice * magnitude >= rough_step)
    step = max(int(nice_step), 1)  # scores are whole numbers
    return tuple(range(math.floor(low / step) * step, math.ceil(high / step) * step + 1, step))


def running_totals_chart(
    side_names: Sequence[str], running_totals: Sequence[Sequence[int]], rounds_total: int
) -> Chart:
    """Return the chart of each side's running total over the rounds played so far.

    The x axis spans every round of the match, so the rounds still to play show as room ahead.
    """
    values = [total for totals in running_totals for total in totals]
    low, high = min([0, *values]), max([0, *values])
    y_values = nice_ticks(low, high if high > low else low + EMPTY_SPAN)
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    rounds = max(rounds_total, len(running_totals), 1)

    def x_at(round_number: int) -> float:
        return round(left + (right - left) * round_number / rounds, 1)

    def y_at(value: int) -> float:
        share = (value - y_values[0]) / (y_values[-1] - y_values[0])
        return round(bottom - (bottom - top) * share, 1)

    series = tuple(
        Series(
            index=index,
            name=name,
            points=tuple(
                Point(x_at(number), y_at(total))
                for number, total in enumerate([0, *(totals[index] for totals in running_totals)])
            ),
        )
        for index, name in enumerate(side_names)
    )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        zero=y_at(0),
        y_label_x=left - LABEL_GAP,
        x_label_y=bottom + X_LABEL_DROP,
        marker_radius=MARKER_RADIUS,
        x_ticks=tuple(Tick(number, x_at(number)) for number in range(1, rounds + 1)),
        y_ticks=tuple(Tick(value, y_at(value)) for value in y_values),
        series=series,
    )
