"""The running-totals chart: match totals per round turned into SVG geometry, free of Flask;
and a player's final scores, match after match, drawn the same way.

The drawing carries its own look (colours, dashes, marker shapes, type size) because WeasyPrint
reads no stylesheet inside an SVG: the match report must print it, in black and white too, where
only the dash pattern and the marker shape tell the sides apart.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# The drawing's own units; the page scales the SVG to its width.
WIDTH = 360
HEIGHT = 240
# Room right of, above and below the plot; on the left the widest y label decides.
MARGIN_RIGHT = 12
MARGIN_TOP = 12
MARGIN_BOTTOM = 32
# Gaps between the plot and its axis labels, and the size of the mark at each round.
LABEL_GAP = 6
LABEL_PADDING = 4
X_LABEL_DROP = 22
MARKER_RADIUS = 4.5
LINE_WIDTH = 3
# Sides level on a total after a round are drawn this far apart around it, so that no line
# hides another: a line's width, which moves a point by a few points at most.
TIE_SPACING = LINE_WIDTH
TICK_FONT_SIZE = 14
# A character of a tick label is at most this wide per unit of font size (DejaVu Sans digits).
CHARACTER_WIDTH = 0.64
# The legend's sample of each line, in the same units.
KEY_WIDTH = 36
KEY_HEIGHT = 12
TARGET_TICKS = 5
# Past this many, the x axis labels only round numbers of matches or rounds.
MOST_X_LABELS = 12
NICE_STEPS = (1, 2, 5, 10)
# A match with no points yet still gets a y axis of this height, so the chart's frame shows.
EMPTY_SPAN = 100


class Marker(enum.Enum):
    """The shape drawn at each round of a line; each side gets its own."""

    CIRCLE = "circle"
    SQUARE = "square"
    TRIANGLE = "triangle"
    DIAMOND = "diamond"
    TRIANGLE_DOWN = "triangle_down"
    PLUS = "plus"


# The corners of each shape but the circle, in marker radii from its centre (y grows downward).
_ARM = 0.4
MARKER_CORNERS: dict[Marker, tuple[tuple[float, float], ...]] = {
    Marker.SQUARE: ((-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)),
    Marker.TRIANGLE: ((0, -1.25), (1.1, 0.7), (-1.1, 0.7)),
    Marker.DIAMOND: ((0, -1.3), (1.3, 0), (0, 1.3), (-1.3, 0)),
    Marker.TRIANGLE_DOWN: ((0, 1.25), (1.1, -0.7), (-1.1, -0.7)),
    Marker.PLUS: (
        (-_ARM, -1.2), (_ARM, -1.2), (_ARM, -_ARM), (1.2, -_ARM), (1.2, _ARM), (_ARM, _ARM),
        (_ARM, 1.2), (-_ARM, 1.2), (-_ARM, _ARM), (-1.2, _ARM), (-1.2, -_ARM), (-_ARM, -_ARM),
    ),
}  # fmt: skip


@dataclass(frozen=True)
class SeriesStyle:
    """How one side's line looks: a colour, a dash pattern ("" for solid) and a marker."""

    colour: str
    dasharray: str
    marker: Marker


# Dark colours, so that each line stays dark grey on a black-and-white printer.
SERIES_STYLES = (
    SeriesStyle("#1f5f3f", "", Marker.CIRCLE),
    SeriesStyle("#b03a2e", "10 5", Marker.SQUARE),
    SeriesStyle("#1d4f91", "3 4", Marker.TRIANGLE),
    SeriesStyle("#8a5a00", "12 4 3 4", Marker.DIAMOND),
    SeriesStyle("#6b2c91", "6 6", Marker.TRIANGLE_DOWN),
    SeriesStyle("#2b2b2b", "2 8", Marker.PLUS),
)


@dataclass(frozen=True)
class Point:
    x: float
    y: float


def marker_path(marker: Marker, centre: Point, radius: float = MARKER_RADIUS) -> str:
    """Return an SVG path drawing `marker` around `centre`, to be filled."""
    if marker is Marker.CIRCLE:  # two half circles
        r, across = _svg_number(radius), _svg_number(2 * radius)
        start = f"{_svg_number(centre.x - radius)},{_svg_number(centre.y)}"
        return f"M{start}a{r},{r} 0 1,0 {across},0a{r},{r} 0 1,0 -{across},0Z"
    corners = " ".join(
        f"{_svg_number(centre.x + dx * radius)},{_svg_number(centre.y + dy * radius)}"
        for dx, dy in MARKER_CORNERS[marker]
    )
    return f"M{corners}Z"


def _svg_number(value: float) -> str:
    return f"{round(value, 2):g}"


@dataclass(frozen=True)
class Tick:
    """A labelled value on an axis and where it sits along that axis."""

    value: int
    position: float


@dataclass(frozen=True)
class Series:
    """One side's line: its running total after each round, from 0 before the first; or one
    player's final score in each match, from the first."""

    index: int
    name: str
    points: tuple[Point, ...]
    from_origin: bool = True  # the first point is the 0 before the first round, unmarked

    @property
    def style(self) -> SeriesStyle:
        return SERIES_STYLES[self.index % len(SERIES_STYLES)]

    @property
    def polyline(self) -> str:
        """Return the points as an SVG `points` attribute."""
        return " ".join(f"{point.x:g},{point.y:g}" for point in self.points)

    @property
    def markers(self) -> str:
        """Return an SVG path of the marker at every round played (none at the start)."""
        marked = self.points[1:] if self.from_origin else self.points
        return "".join(marker_path(self.style.marker, point) for point in marked)

    @property
    def key_marker(self) -> str:
        """Return an SVG path of the marker in the middle of the legend's sample line."""
        return marker_path(self.style.marker, Point(KEY_WIDTH / 2, KEY_HEIGHT / 2))


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
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]
    font_size: float = TICK_FONT_SIZE
    line_width: float = LINE_WIDTH
    key_width: float = KEY_WIDTH
    key_height: float = KEY_HEIGHT

    @property
    def key_line(self) -> str:
        """Return the legend's sample line as an SVG `points` attribute, across its middle."""
        middle = _svg_number(self.key_height / 2)
        return f"0,{middle} {_svg_number(self.key_width)},{middle}"


def nice_ticks(low: int, high: int, target: int = TARGET_TICKS) -> tuple[int, ...]:
    """Return at least two round tick values, from at or below `low` to at or above `high`."""
    high = max(high, low + 1)
    rough_step = (high - low) / target
    magnitude = 10 ** math.floor(math.log10(rough_step))
    nice_step = next(nice * magnitude for nice in NICE_STEPS if nice * magnitude >= rough_step)
    step = max(int(nice_step), 1)  # scores are whole numbers
    return tuple(range(math.floor(low / step) * step, math.ceil(high / step) * step + 1, step))


def label_width(value: int) -> float:
    """Return at most how wide a tick label of `value` is drawn, with its separators and sign."""
    return len(f"{value:,}") * CHARACTER_WIDTH * TICK_FONT_SIZE


def tie_offsets(totals: Sequence[int]) -> tuple[float, ...]:
    """Return how far from its total's height to draw each side's point, so that sides level
    on a total sit side by side around it, the first side on top."""
    offsets = [0.0] * len(totals)
    for total in set(totals):
        level = [index for index, value in enumerate(totals) if value == total]
        for place, index in enumerate(level):
            offsets[index] = (place - (len(level) - 1) / 2) * TIE_SPACING
    return tuple(offsets)


def running_totals_chart(
    side_names: Sequence[str],
    running_totals: Sequence[Sequence[int]],
    rounds_total: int,
    *,
    round_numbers: Sequence[int] | None = None,
) -> Chart:
    """Return the chart of each side's running total over the rounds played so far.

    The x axis spans every round of the match, so the rounds still to play show as room ahead.
    `round_numbers` numbers the totals' rounds, 1, 2, 3... unless given: each total is drawn at
    its own round, so a round missing between entered ones leaves a gap the line spans.
    """
    numbers = range(1, len(running_totals) + 1) if round_numbers is None else round_numbers
    return _chart(side_names, running_totals, numbers, max(rounds_total, *numbers, 1))


def scores_chart(name: str, scores: Sequence[int]) -> Chart:
    """Return the chart of one player's final score in each match, in the order played."""
    rows = [(score,) for score in scores]
    return _chart([name], rows, range(1, len(rows) + 1), max(len(rows), 1), from_origin=False)


def x_labels(count: int) -> tuple[int, ...]:
    """Return the numbers to label along an x axis of `count` rounds or matches: each one, or
    round numbers only when there are many."""
    if count <= MOST_X_LABELS:
        return tuple(range(1, count + 1))
    return tuple(value for value in nice_ticks(0, count) if 1 <= value <= count)


def _chart(
    side_names: Sequence[str],
    rows: Sequence[Sequence[int]],
    numbers: Sequence[int],
    rounds: int,
    *,
    from_origin: bool = True,
) -> Chart:
    """Return the chart of each side's value on an x axis of 1 ... `rounds`, one row of values
    at each x of `numbers`, drawn from 0 at x = 0 when `from_origin`."""
    values = [value for row in rows for value in row]
    low, high = min([0, *values]), max([0, *values])
    y_values = nice_ticks(low, high if high > low else low + EMPTY_SPAN)
    left = math.ceil(LABEL_PADDING + max(map(label_width, y_values)) + LABEL_GAP)
    right = WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    # From the origin at 0, or else from the first value at the axis.
    start = 0 if from_origin else 1
    span = max(rounds - start, 1)

    def x_at(round_number: int) -> float:
        return round(left + (right - left) * (round_number - start) / span, 1)

    def y_at(value: int, offset: float = 0) -> float:
        share = (value - y_values[0]) / (y_values[-1] - y_values[0])
        return round(bottom - (bottom - top) * share + offset, 1)

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
        x_ticks=tuple(Tick(number, x_at(number)) for number in x_labels(rounds)),
        y_ticks=tuple(Tick(value, y_at(value)) for value in y_values),
        series=_lines(side_names, rows, numbers, x_at, y_at, from_origin=from_origin),
    )


def _lines(
    side_names: Sequence[str],
    running_totals: Sequence[Sequence[int]],
    numbers: Sequence[int],
    x_at: Callable[[int], float],
    y_at: Callable[[int, float], float],
    *,
    from_origin: bool,
) -> tuple[Series, ...]:
    """Return each side's line: from the one point at 0 before the first round (when
    `from_origin`), then through its running total after each round, at that round's number
    in `numbers`, drawn beside any side level with it (`tie_offsets`)."""
    by_round = [
        (number, totals, tie_offsets(totals))
        for number, totals in zip(numbers, running_totals, strict=True)
    ]
    origin = (Point(x_at(0), y_at(0, 0)),) if from_origin else ()
    return tuple(
        Series(
            index=index,
            name=name,
            points=(
                *origin,
                *(
                    Point(x_at(number), y_at(totals[index], offsets[index]))
                    for number, totals, offsets in by_round
                ),
            ),
            from_origin=from_origin,
        )
        for index, name in enumerate(side_names)
    )
