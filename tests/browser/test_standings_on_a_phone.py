"""Four to six players alone: the standings of a long evening fit a phone's width, names and
five-digit totals included, with no sideways scrolling."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

PHONE_WIDTH = 390
TABLET = {"viewport": {"width": 820, "height": 1180}, "has_touch": True}
NAMES = ("Margarethe", "Wilhelmina", "Christophe", "Alexandria", "Maximilian", "Antoinette")
# Round scores: 3,500 a round for the first side, who goes out; -615 and -620 for the second,
# which never melds. After round 4 the totals are 12,345 and -1,235.
OUT_BIG = {
    "clean_books": 3,
    "dirty_books": 2,
    "melded_points": 1200,
    "red_threes": 1,
    "went_out": True,
}
BEHIND = [{"leftover_points": 615}, {"leftover_points": 620}, {}, {}]
LAST_ROUND_FIRST = {"clean_books": 2, "dirty_books": 1, "melded_points": 545}
OUT_LAST = {"clean_books": 2, "dirty_books": 2, "melded_points": 800, "went_out": True}
STEADY = [
    {"clean_books": 1, "melded_points": 300, "leftover_points": 40},
    {"clean_books": 2, "melded_points": 600, "leftover_points": 25},
    {"dirty_books": 1, "melded_points": 200, "leftover_points": 80},
    {"clean_books": 2, "dirty_books": 1, "melded_points": 650, "leftover_points": 5},
]


def round_sides(number: int, count: int) -> list[dict[str, object]]:
    """Return round `number` for `count` sides."""
    first = LAST_ROUND_FIRST if number == 4 else OUT_BIG
    others = [OUT_LAST if number == 4 and index == 0 else side for index, side in enumerate(STEADY)]
    return [first, BEHIND[number - 1], *others][:count]


@pytest.mark.parametrize("count", [4, 5, 6])
@pytest.mark.parametrize("rounds", [3, 4])  # under way, with next round's minimums; finished
def test_the_scores_of_four_to_six_players_fit_a_phone_without_scrolling_sideways(
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
    new_page: Callable[..., Page],
    screenshot: Callable[[Page, str], None],
    count: int,
    rounds: int,
) -> None:
    sides = [{"name": name, "players": [name]} for name in NAMES[:count]]
    links = stored_match({"name": "Long evening", "sides": sides})
    for number in range(1, rounds + 1):
        stored_round(links, {"round": number, "sides": round_sides(number, count)})
    page = new_page()

    page.goto(links["edit_url"])
    screenshot(page, f"12-standings-{count}-sides-{rounds}-rounds")
    # Every breakdown open, as taps leave them: none may widen the table either.
    page.evaluate("document.querySelectorAll('.round-score').forEach(part => part.open = true)")

    table = page.locator(".table-scroll")
    if rounds == 4:
        assert "12,345" in table.inner_text() and "\u22121,235" in table.inner_text()
    widths = table.evaluate("box => [box.scrollWidth, box.clientWidth]")
    assert widths[0] <= widths[1], f"the scores are {widths[0]}px wide in {widths[1]}px"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH


def test_the_winners_badge_leaves_every_column_of_a_tablet_as_wide_as_without_it(
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
    new_page: Callable[..., Page],
    screenshot: Callable[[Page, str], None],
) -> None:
    sides = [{"name": name, "players": [name]} for name in NAMES[:4]]
    links = stored_match({"name": "Long evening", "sides": sides})
    for number in range(1, 5):
        stored_round(links, {"round": number, "sides": round_sides(number, 4)})
    page = new_page(TABLET)
    page.goto(links["edit_url"])
    screenshot(page, "12-standings-tablet-winner")

    column_widths = "[...document.querySelectorAll('.totals td')].map(cell => cell.offsetWidth)"
    with_badge = page.evaluate(column_widths)
    score, badge = page.locator(".totals td").first.locator(".score, .badge").all()
    score_box, badge_box = score.bounding_box(), badge.bounding_box()
    assert score_box is not None and badge_box is not None
    assert badge.inner_text() == "Winner"
    assert badge_box["y"] >= score_box["y"] + score_box["height"] - 1  # under the total
    page.evaluate("document.querySelectorAll('.badge').forEach(b => b.style.display = 'none')")
    assert page.evaluate(column_widths) == with_badge
