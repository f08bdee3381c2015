"""A keeper's phone in the browser tests: opening a match so that its forms are kept offline,
typing and saving rounds, correcting and deleting them, and reading back what the server
stored and what the phone shows."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from conftest import WAIT_MS, controlled
from playwright.sync_api import Page, expect

PAIRS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
Values = dict[str, int]


@dataclass(frozen=True)
class Round:
    """What a phone types for a round: who went out, and each side's boxes."""

    number: int
    went_out: str
    sides: tuple[Values, Values]

    @property
    def leftover(self) -> list[int]:
        """Return each side's points left over, as the API reads them back."""
        return [side.get("leftover_points", 0) for side in self.sides]


def round_of(number: int, leftover: int) -> Round:
    """Return a round the rules allow, told apart from others by the points left over."""
    out = {"clean_books": 2, "dirty_books": 2, "melded_points": 765}
    stayed = {"clean_books": 1, "melded_points": 310, "leftover_points": leftover}
    return Round(number, "0", (out, stayed)) if number % 2 else Round(number, "1", (stayed, out))


def impossible_round(number: int) -> Round:
    """Return a round the server refuses: out without the books it needs, under the minimum."""
    return Round(number, "0", ({"clean_books": 1, "melded_points": 765}, {"melded_points": 40}))


def api_match(live_server: str, public_id: str) -> dict[str, object]:
    with urllib.request.urlopen(f"{live_server}/api/v1/matches/{public_id}") as response:
        match: dict[str, object] = json.loads(response.read())
    return match


def stored_rounds(live_server: str, public_id: str) -> dict[int, list[int]]:
    """Return each stored round's points left over, side by side, by round number."""
    match = api_match(live_server, public_id)
    return {
        scored["round"]: [side["entry"].get("leftover_points", 0) for side in scored["sides"]]
        for scored in match["rounds"]  # type: ignore[attr-defined]
    }


# Waits in the page until the service worker keeps every page named, or the time is up: the
# check is asynchronous, and Playwright's wait_for_function would take its promise for a yes.
KEPT_IN_TIME = """async ({pages, waitMs}) => {
  const kept = async () => (await Promise.all(pages.map((p) => caches.match(p)))).every(Boolean);
  const deadline = Date.now() + waitMs;
  while (!(await kept()) && Date.now() < deadline) {
    await new Promise((wake) => setTimeout(wake, 50));
  }
  return kept();
}"""


def wait_until_kept(page: Page, pages: list[str]) -> None:
    assert page.evaluate(KEPT_IN_TIME, {"pages": pages, "waitMs": WAIT_MS}), f"not kept: {pages}"


def forms_to_keep(page: Page) -> list[str]:
    """Return the forms of the rounds still to play and of those entered, which the standings
    ask to keep."""
    forms: list[str] = page.evaluate(
        """(() => {
          const kept = document.querySelector("[data-queued-rounds]").dataset;
          const forms = [...JSON.parse(kept.nextRounds), ...JSON.parse(kept.corrections)];
          return forms.map((form) => new URL(form.url, location).href);
        })()"""
    )
    return forms


def on_the_phone(page: Page, edit_url: str) -> Page:
    """Open the standings under the edit link until the service worker controls them and keeps
    the forms of the rounds still to play."""
    controlled(page, edit_url)
    wait_until_kept(page, forms_to_keep(page))
    return page


def open_form(page: Page, edit_url: str, number: int) -> None:
    page.goto(f"{edit_url}/rounds/new?round={number}")
    expect(page.locator("h1")).to_contain_text(f"Round {number} of")


def open_correction(page: Page, edit_url: str, number: int) -> None:
    page.goto(f"{edit_url}/rounds/{number}")
    expect(page.locator("h1")).to_contain_text(f"Round {number} of")


def type_round(page: Page, played: Round, between: Callable[[], None] = lambda: None) -> None:
    page.locator(f"label.tile:has(input[name='went_out'][value='{played.went_out}'])").tap()
    for index, side in enumerate(played.sides):
        for key, value in side.items():
            page.fill(f"#sides-{index}-{key}", str(value))
            between()


def save(page: Page) -> None:
    page.locator("[data-submit-once]").tap()
    page.wait_for_url(lambda url: "/rounds/" not in url)  # the standings, from either


def delete(page: Page) -> None:
    """Delete the round whose correction is open."""
    page.locator(".danger-zone summary").tap()
    page.get_by_role("button", name="Delete round").tap()
    page.wait_for_url(lambda url: "/rounds/" not in url)


def send_queue(page: Page, edit_url: str) -> None:
    """Open the standings online, which sends what waits on the phone, until none waits. A copy
    kept on the phone refreshes itself once the network is back: that comes first."""
    expect(page.locator("[data-offline-banner]")).to_be_hidden()
    page.goto(edit_url)
    expect(page.locator("[data-queued-rounds]")).to_be_hidden()


def totals_shown(page: Page) -> list[int]:
    shown = page.locator("tfoot .totals .score").all_inner_texts()
    return [int(text.replace(",", "").replace("\u2212", "-")) for text in shown]
