"""Every button, link, box and choice on a phone is at least 48 px each way: many players are
older, and tap with a thumb beside a hand of cards."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page
from test_match_in_browser import round_of_150_each, tap_choice

pytestmark = pytest.mark.browser

SMALLEST = 48  # CSS pixels
TEAMS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
# Every control the page shows, as "what 40x27": a radio button or tickbox counts by its label,
# which is what a thumb taps; the skip link shows only to a keyboard, which has no thumb.
SMALL_TARGETS = """least => [...document.querySelectorAll(
    'a:not(.skip-link), button, input:not([type=hidden]):not([type=radio]):not([type=checkbox]),'
    + ' select, summary, textarea, label:has(input[type=radio], input[type=checkbox])')]
  .filter(control => control.checkVisibility())
  .map(control => [control, control.getBoundingClientRect()])
  .filter(([, box]) => box.width < least || box.height < least)
  .map(([control, box]) => `${control.outerHTML.slice(0, 80)} ${box.width}x${box.height}`)"""


def small_targets(page: Page, path: str) -> list[str]:
    """Return the controls of the page, every folded part opened, smaller than a thumb."""
    page.evaluate("document.querySelectorAll('details').forEach(part => { part.open = true; })")
    least = SMALLEST - 0.5  # a box may come out a fraction of a pixel short
    return [f"{path}: {target}" for target in page.evaluate(SMALL_TARGETS, least)]


def test_every_control_of_every_page_is_large_enough_for_a_thumb(
    live_server: str,
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
    new_page: Callable[..., Page],
) -> None:
    links = stored_match({"name": "Friday", "rules": {"preset": "standard"}, "sides": TEAMS})
    stored_round(links, round_of_150_each(1))
    finished = stored_match({"name": "Done", "rules": {"preset": "standard"}, "sides": TEAMS})
    for number in range(1, 5):
        stored_round(finished, round_of_150_each(number))
    edit = links["edit_url"]
    pages = ["/", "/matches/new", "/rules", "/rules/strict", "/matches/recent", "/matches/import"]
    pages += [edit, f"{edit}/rounds/1", f"{edit}/share", f"{edit}/melds", links["view_url"]]
    pages += [finished["edit_url"], finished["view_url"], f"{finished['view_url']}/again"]
    page = new_page()
    small: list[str] = []
    for path in pages:
        page.goto(path if path.startswith("http") else live_server + path)
        small += small_targets(page, path)
    # The round form with cards counted by kind, each kind with its own stepper.
    page.goto(f"{edit}/rounds/new")
    tap_choice(page, "sides-0-melded_mode", "counts")
    tap_choice(page, "sides-0-leftover_mode", "counts")
    small += small_targets(page, "the new round, cards counted")
    assert small == []
