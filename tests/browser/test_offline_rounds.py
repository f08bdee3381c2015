"""Rounds typed and saved on phones whose network comes and goes: drafts kept as they are typed,
saves kept on the phone and sent when the network is back, each round stored exactly once, and a
round the server refuses back in its form with its messages."""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pytest
from conftest import WAIT_MS, controlled
from playwright.sync_api import Dialog, Page, expect

pytestmark = pytest.mark.browser

PAIRS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
Values = dict[str, int]


@dataclass(frozen=True)
class Round:
    """What a phone types for a round: who went out, and each side's boxes."""

    number: int
    went_out: str
    sides: tuple[Values, Values]


def round_of(number: int, leftover: int) -> Round:
    """Return a round the rules allow, told apart from others by the points left over."""
    out = {"clean_books": 2, "dirty_books": 2, "melded_points": 765}
    stayed = {"clean_books": 1, "melded_points": 310, "leftover_points": leftover}
    return Round(number, "0", (out, stayed)) if number % 2 else Round(number, "1", (stayed, out))


def api_match(live_server: str, public_id: str) -> dict[str, object]:
    with urllib.request.urlopen(f"{live_server}/api/v1/matches/{public_id}") as response:
        match: dict[str, object] = json.loads(response.read())
    return match


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
    """Return the forms of the rounds still to play, which the standings ask to keep."""
    forms: list[str] = page.evaluate(
        """JSON.parse(document.querySelector('[data-queued-rounds]').dataset.nextRounds)
          .map((next) => new URL(next.url, location).href)"""
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


def type_round(page: Page, played: Round, between: Callable[[], None] = lambda: None) -> None:
    page.locator(f"label.tile:has(input[name='went_out'][value='{played.went_out}'])").tap()
    for index, side in enumerate(played.sides):
        for key, value in side.items():
            page.fill(f"#sides-{index}-{key}", str(value))
            between()


def save(page: Page) -> None:
    page.locator("[data-submit-once]").tap()
    page.wait_for_url(lambda url: "/rounds/" not in url)  # the standings, from either


def send_queue(page: Page, edit_url: str) -> None:
    """Open the standings online, which sends what waits on the phone, until none waits."""
    page.goto(edit_url)
    expect(page.locator("[data-queued-rounds]")).to_be_hidden()


def stored_rounds(live_server: str, public_id: str) -> dict[int, list[int]]:
    """Return each stored round's points left over, side by side, by round number."""
    match = api_match(live_server, public_id)
    return {
        scored["round"]: [side["entry"].get("leftover_points", 0) for side in scored["sides"]]
        for scored in match["rounds"]  # type: ignore[attr-defined]
    }


@pytest.fixture
def new_match(
    stored_match: Callable[[dict[str, object]], dict[str, str]],
) -> Callable[[str], dict[str, str]]:
    return lambda name: stored_match({"name": name, "sides": PAIRS})


def test_a_round_saved_offline_waits_on_the_phone_and_is_stored_once_back_online(
    live_server: str, new_page: Callable[..., Page], new_match: Callable[[str], dict[str, str]]
) -> None:
    links = new_match("Cabin")
    page = on_the_phone(new_page(), links["edit_url"])
    page.context.set_offline(True)

    page.get_by_role("link", name="Enter round 1").tap()
    type_round(page, round_of(1, 85))
    expect(page.locator("[data-live-offline]")).to_be_visible()
    expect(page.locator("[data-side='0'] .live-total [data-total]")).to_have_text("–")
    save(page)

    expect(page.locator("[data-queued-rounds]")).to_have_text("Round 1: waiting to send")
    expect(page.locator("[data-offline-banner]")).to_be_visible()
    page.get_by_role("link", name="Enter round 2").tap()  # the next round, offline too
    expect(page.locator("h1")).to_contain_text("Round 2 of 4")
    assert stored_rounds(live_server, links["id"]) == {}

    page.context.set_offline(False)
    send_queue(page, links["edit_url"])
    send_queue(page, links["edit_url"])  # sent again, as a retry would: stored once still

    assert stored_rounds(live_server, links["id"]) == {1: [0, 85]}
    expect(page.locator("#round-1")).to_be_visible()


def test_a_round_saved_offline_on_the_first_visit_comes_back_to_the_standings_waiting(
    new_page: Callable[..., Page], new_match: Callable[[str], dict[str, str]]
) -> None:
    links = new_match("First visit")
    page = new_page()
    page.goto(links["edit_url"])  # served before this phone had a service worker
    wait_until_kept(page, [*forms_to_keep(page), links["edit_url"]])
    page.context.set_offline(True)

    page.get_by_role("link", name="Enter round 1").tap()
    type_round(page, round_of(1, 85))
    save(page)

    expect(page.locator("h1")).to_have_text("First visit")
    expect(page.locator("[data-queued-rounds]")).to_have_text("Round 1: waiting to send")


def test_a_queued_round_the_server_refuses_comes_back_to_its_form_with_its_messages(
    live_server: str, new_page: Callable[..., Page], new_match: Callable[[str], dict[str, str]]
) -> None:
    links = new_match("Refused")
    page = on_the_phone(new_page(), links["edit_url"])
    page.context.set_offline(True)
    page.get_by_role("link", name="Enter round 1").tap()
    impossible = Round(1, "0", ({"clean_books": 1, "melded_points": 765}, {"melded_points": 40}))
    type_round(page, impossible)  # out without the books it needs, and under the minimum
    save(page)
    page.context.set_offline(False)

    page.reload()
    refused = page.get_by_role("link", name="Round 1 was not saved: open it to see why")
    refused.tap()

    expect(page.locator(".problems")).to_contain_text("This round cannot be saved yet")
    expect(page.locator("#sides-0-melded_points")).to_have_value("765")
    expect(page.locator("#sides-1-melded_points")).to_have_value("40")
    assert stored_rounds(live_server, links["id"]) == {}


def test_what_is_typed_comes_back_after_a_reload_and_cancel_asks_before_throwing_it_away(
    new_page: Callable[..., Page], new_match: Callable[[str], dict[str, str]]
) -> None:
    links = new_match("Drafts")
    page = new_page()
    open_form(page, links["edit_url"], 1)
    type_round(page, round_of(1, 45))

    page.reload()
    expect(page.locator("#sides-1-leftover_points")).to_have_value("45")
    expect(page.locator("#went_out-0")).to_be_checked()

    answers = iter([False, True])  # keep typing first, then throw it away
    page.on("dialog", lambda dialog: answer(dialog, next(answers)))
    page.get_by_role("link", name="Cancel").tap()
    expect(page.locator("h1")).to_contain_text("Round 1 of 4")
    page.get_by_role("link", name="Cancel").tap()
    expect(page.locator("h1")).to_have_text("Drafts")

    open_form(page, links["edit_url"], 1)
    expect(page.locator("#sides-1-leftover_points")).to_have_value("")


def answer(dialog: Dialog, accept: bool) -> None:
    assert dialog.message == "Throw away what you typed for round 1?"
    if accept:
        dialog.accept()
    else:
        dialog.dismiss()


WAKE_LOCK = """
window.locks = [];
navigator.wakeLock.request = async (type) => {
  const lock = new EventTarget();
  lock.released = false;
  lock.release = async () => { lock.released = true; lock.dispatchEvent(new Event("release")); };
  window.locks.push(lock);
  return lock;
};
"""


def test_the_screen_stays_on_while_a_round_is_entered_and_the_toggle_lets_it_go(
    new_page: Callable[..., Page], new_match: Callable[[str], dict[str, str]]
) -> None:
    links = new_match("Awake")
    page = new_page()
    page.add_init_script(WAKE_LOCK)
    open_form(page, links["edit_url"], 1)
    toggle = page.get_by_role("button", name="Keep the screen on")

    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("window.locks.length === 1 && !window.locks[0].released")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.locks[0].released")


# -- Two phones at one table, their network coming and going -----------------------------------

EVENINGS = 13  # matches of 4 rounds each: 52 rounds in all, each evening a test of its own
SWITCH_CHANCE = 0.35  # that a phone goes offline, or back online, at each step


@dataclass
class Phone:
    """One phone at the table: its page, and whether it is offline now."""

    page: Page
    offline: bool = False

    def maybe_switch(self, chance: random.Random) -> None:
        if chance.random() < SWITCH_CHANCE:
            self.offline = not self.offline
            self.page.context.set_offline(self.offline)


@pytest.mark.parametrize("evening", range(EVENINGS))
def test_two_phones_whose_network_comes_and_goes_store_every_round_exactly_once(
    live_server: str,
    new_page: Callable[..., Page],
    new_match: Callable[[str], dict[str, str]],
    evening: int,
) -> None:
    chance = random.Random(20261206 + evening)  # seeded: a failure plays again the same way
    links = new_match(f"Evening {evening + 1}")
    phones = [Phone(on_the_phone(new_page(), links["edit_url"])) for _ in range(2)]
    typed: dict[int, list[int]] = {}
    for number in range(1, 5):
        phone = phones[number % 2]  # the phones take turns keeping the score
        leftover = 5 * chance.randrange(1, 40)
        phone.maybe_switch(chance)
        open_form(phone.page, links["edit_url"], number)
        type_round(phone.page, round_of(number, leftover), partial(phone.maybe_switch, chance))
        save(phone.page)
        typed[number] = [0, leftover] if number % 2 else [leftover, 0]
        phone.maybe_switch(chance)
    for phone in phones:
        phone.page.context.set_offline(False)
        send_queue(phone.page, links["edit_url"])

    assert stored_rounds(live_server, links["id"]) == typed
    totals = api_match(live_server, links["id"])["totals"]
    for phone in phones:
        phone.page.reload()
        shown = phone.page.locator("tfoot .totals .score").all_inner_texts()
        assert [int(text.replace(",", "").replace("\u2212", "-")) for text in shown] == totals
