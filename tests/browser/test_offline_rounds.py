"""Rounds typed and saved on phones whose network comes and goes: drafts kept as they are typed
and never used unseen, changes kept on the phone and sent in order when the network is back,
each stored exactly once, and a change the server refuses holding back those saved after it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from phones import (
    PAIRS,
    api_match,
    delete,
    forms_to_keep,
    impossible_round,
    on_the_phone,
    open_correction,
    open_form,
    round_of,
    save,
    send_queue,
    stored_rounds,
    totals_shown,
    type_round,
    wait_until_kept,
)
from playwright.sync_api import Browser, Dialog, Page, expect

pytestmark = pytest.mark.browser

NewMatch = Callable[[str], dict[str, str]]
StoreRound = Callable[[dict[str, str], dict[str, object]], None]
WENT_OUT = {"clean_books": 2, "dirty_books": 2, "melded_points": 765, "went_out": True}


@pytest.fixture
def new_match(stored_match: Callable[[dict[str, object]], dict[str, str]]) -> NewMatch:
    return lambda name: stored_match({"name": name, "sides": PAIRS})


def api_round(number: int, leftover: int) -> dict[str, object]:
    """Return round_of(number, leftover) as the API takes it, as another phone enters it."""
    stayed = {"clean_books": 1, "melded_points": 310, "leftover_points": leftover}
    sides = [WENT_OUT, stayed] if number % 2 else [stayed, WENT_OUT]
    return {"round": number, "sides": sides}


def test_a_round_saved_offline_waits_on_the_phone_and_is_stored_once_back_online(
    live_server: str, new_page: Callable[..., Page], new_match: NewMatch
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
    expect(page.locator("[data-next-dealer]")).to_have_text("Cy deals round 2.")
    page.get_by_role("link", name="Enter round 2").tap()  # the next round, offline too
    expect(page.locator("h1")).to_contain_text("Round 2 of 4")
    assert stored_rounds(live_server, links["id"]) == {}

    page.context.set_offline(False)
    send_queue(page, links["edit_url"])
    send_queue(page, links["edit_url"])  # sent again, as a retry would: stored once still

    assert stored_rounds(live_server, links["id"]) == {1: [0, 85]}
    expect(page.locator("#round-1")).to_be_visible()


def test_a_round_saved_offline_on_the_first_visit_comes_back_to_the_standings_waiting(
    new_page: Callable[..., Page], new_match: NewMatch
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


def test_a_refused_round_holds_back_the_rounds_saved_after_it_until_it_is_saved_again(
    live_server: str, new_page: Callable[..., Page], new_match: NewMatch
) -> None:
    links = new_match("Held back")
    page = on_the_phone(new_page(), links["edit_url"])
    page.context.set_offline(True)
    open_form(page, links["edit_url"], 1)
    type_round(page, impossible_round(1))
    save(page)
    open_form(page, links["edit_url"], 2)
    type_round(page, round_of(2, 45))
    save(page)

    page.context.set_offline(False)
    page.goto(links["edit_url"])
    expect(
        page.get_by_role("link", name="Round 1 was not saved: open it to see why")
    ).to_be_visible()
    expect(page.locator("[data-queued-rounds] li").nth(1)).to_have_text(
        "Round 2: waiting behind round 1"
    )
    assert stored_rounds(live_server, links["id"]) == {}  # no round 2 without its round 1
    expect(page.get_by_role("link", name="Enter round 3")).to_be_visible()
    expect(page.locator("[data-next-dealer]")).to_have_text("Bob deals round 3.")

    page.get_by_role("link", name="Round 1 was not saved: open it to see why").tap()
    expect(page.locator("[data-refused-notice]")).to_be_visible()
    expect(page.locator(".problems")).to_contain_text("This round cannot be saved yet")
    expect(page.locator("#sides-0-melded_points")).to_have_value("765")
    type_round(page, round_of(1, 0))
    save(page)

    expect(page.locator("[data-queued-rounds]")).to_be_hidden()
    assert stored_rounds(live_server, links["id"]) == {1: [0, 0], 2: [45, 0]}


def test_a_refused_round_thrown_away_lets_the_rounds_behind_it_go(
    live_server: str, new_page: Callable[..., Page], new_match: NewMatch
) -> None:
    links = new_match("Thrown away")
    page = on_the_phone(new_page(), links["edit_url"])
    page.context.set_offline(True)
    open_form(page, links["edit_url"], 1)
    type_round(page, round_of(1, 20))
    save(page)
    open_form(page, links["edit_url"], 2)
    type_round(page, impossible_round(2))
    save(page)
    open_form(page, links["edit_url"], 3)
    type_round(page, round_of(3, 30))
    save(page)
    page.context.set_offline(False)
    page.goto(links["edit_url"])
    expect(
        page.get_by_role("link", name="Round 2 was not saved: open it to see why")
    ).to_be_visible()

    page.get_by_role("link", name="Round 2 was not saved: open it to see why").tap()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-refused-throw-away]").tap()

    expect(page.locator("h1")).to_have_text("Round 2 of 4")  # its form, as the server draws it
    expect(page.locator("#sides-0-melded_points")).to_have_value("")
    page.goto(links["edit_url"])
    expect(page.locator("[data-queued-rounds]")).to_be_hidden()
    # The table threw round 2 away: the hole is the table's, and the page plays on from it.
    assert stored_rounds(live_server, links["id"]) == {1: [0, 20], 3: [0, 30]}
    expect(page.get_by_role("link", name="Enter round 2")).to_be_visible()


def test_what_is_typed_comes_back_with_a_word_and_its_time_and_can_be_thrown_away(
    new_page: Callable[..., Page], new_match: NewMatch
) -> None:
    links = new_match("Drafts")
    page = new_page()
    open_form(page, links["edit_url"], 1)
    type_round(page, round_of(1, 45))

    page.reload()
    notice = page.locator("[data-draft-notice]")
    expect(notice).to_contain_text(re.compile(r"What you typed here at \d+:\d\d\s[AP]M is back"))
    expect(page.locator("#sides-1-leftover_points")).to_have_value("45")
    expect(page.locator("#went_out-0")).to_be_checked()

    notice.get_by_role("button", name="Throw it away").tap()
    expect(notice).to_be_hidden()
    expect(page.locator("#sides-1-leftover_points")).to_have_value("")
    page.reload()
    expect(notice).to_be_hidden()
    expect(page.locator("#went_out-0")).not_to_be_checked()


def test_cancel_asks_before_throwing_away_what_was_typed(
    new_page: Callable[..., Page], new_match: NewMatch
) -> None:
    links = new_match("Second thoughts")
    page = new_page()
    open_form(page, links["edit_url"], 1)
    type_round(page, round_of(1, 45))

    answers = iter([False, True])  # keep typing first, then throw it away
    page.on("dialog", lambda dialog: answer(dialog, next(answers)))
    page.get_by_role("link", name="Cancel").tap()
    expect(page.locator("h1")).to_contain_text("Round 1 of 4")
    page.get_by_role("link", name="Cancel").tap()
    expect(page.locator("h1")).to_have_text("Second thoughts")

    open_form(page, links["edit_url"], 1)
    expect(page.locator("#sides-1-leftover_points")).to_have_value("")
    expect(page.locator("[data-draft-notice]")).to_be_hidden()


def answer(dialog: Dialog, accept: bool) -> None:
    assert dialog.message == "Throw away what you typed for round 1?"
    if accept:
        dialog.accept()
    else:
        dialog.dismiss()


def test_an_abandoned_correction_comes_back_said_and_nothing_is_saved_that_was_not_meant(
    live_server: str,
    new_page: Callable[..., Page],
    new_match: NewMatch,
    stored_round: StoreRound,
) -> None:
    links = new_match("Abandoned")
    stored_round(links, api_round(1, 85))
    page = new_page()
    open_correction(page, links["edit_url"], 1)
    page.fill("#sides-1-leftover_points", "175")
    page.go_back()  # left with Back, never saved

    open_correction(page, links["edit_url"], 1)
    notice = page.locator("[data-draft-notice]")
    expect(notice).to_contain_text("is back in the form. It is not saved yet.")
    expect(page.locator("#sides-1-leftover_points")).to_have_value("175")
    notice.get_by_role("button", name="Throw it away").tap()
    expect(page.locator("#sides-1-leftover_points")).to_have_value("85")
    page.fill("#sides-1-red_threes_held", "1")  # the correction meant now
    save(page)

    assert stored_rounds(live_server, links["id"]) == {1: [0, 85]}
    round_1 = api_match(live_server, links["id"])["rounds"][0]  # type: ignore[index]
    assert round_1["sides"][1]["entry"]["red_threes_held"] == 1


def test_a_draft_of_a_round_changed_since_is_offered_and_not_put_back(
    live_server: str,
    new_page: Callable[..., Page],
    new_match: NewMatch,
    stored_round: StoreRound,
) -> None:
    links = new_match("Changed since")
    stored_round(links, api_round(1, 85))
    page = new_page()
    open_correction(page, links["edit_url"], 1)
    page.fill("#sides-1-leftover_points", "175")
    other = new_page()  # another keeper corrects round 1 meanwhile
    open_correction(other, links["edit_url"], 1)
    other.fill("#sides-1-leftover_points", "40")
    save(other)

    open_correction(page, links["edit_url"], 1)

    notice = page.locator("[data-draft-notice]")
    expect(notice).to_contain_text("was not saved, and this round has changed since.")
    expect(page.locator("#sides-1-leftover_points")).to_have_value("40")  # as stored now
    notice.get_by_role("button", name="Put back what I typed").tap()
    expect(page.locator("#sides-1-leftover_points")).to_have_value("175")
    expect(notice).to_contain_text("is back in the form")
    assert stored_rounds(live_server, links["id"]) == {1: [0, 40]}


def test_corrections_and_deletions_made_offline_wait_named_as_such_and_are_sent_in_order(
    live_server: str,
    new_page: Callable[..., Page],
    new_match: NewMatch,
    stored_round: StoreRound,
) -> None:
    links = new_match("Named")
    stored_round(links, api_round(1, 85))
    stored_round(links, api_round(2, 15))
    page = on_the_phone(new_page(), links["edit_url"])
    page.context.set_offline(True)

    open_correction(page, links["edit_url"], 1)
    page.fill("#sides-1-leftover_points", "90")
    save(page)
    open_correction(page, links["edit_url"], 2)
    delete(page)  # lands on the standings as the phone has them, not on the browser's error

    expect(page.locator("[data-queued-rounds] li")).to_have_text(
        ["Round 1 (correction): waiting to send", "Round 2 (delete): waiting to send"]
    )
    page.context.set_offline(False)
    send_queue(page, links["edit_url"])
    assert stored_rounds(live_server, links["id"]) == {1: [0, 90]}


def test_a_correction_of_a_round_deleted_meanwhile_gets_the_deleted_meanwhile_page(
    live_server: str,
    new_page: Callable[..., Page],
    new_match: NewMatch,
    stored_round: StoreRound,
) -> None:
    links = new_match("Deleted meanwhile")
    stored_round(links, api_round(1, 85))
    page = new_page()
    open_correction(page, links["edit_url"], 1)
    other = new_page()
    open_correction(other, links["edit_url"], 1)
    delete(other)

    page.fill("#sides-1-leftover_points", "95")
    page.locator("[data-submit-once]").tap()

    conflict = page.locator(".conflict")
    expect(conflict).to_contain_text("Someone else deleted this round meanwhile")
    expect(page.locator("#sides-1-leftover_points")).to_have_value("95")
    # Still said once the live score has judged the round as typed.
    expect(page.locator("[data-side='0'] .live-total [data-total]")).not_to_have_text("–")
    expect(conflict).to_be_visible()
    assert stored_rounds(live_server, links["id"]) == {}


def test_a_change_waiting_when_the_browser_closed_is_sent_once_it_opens_again(
    live_server: str, browser: Browser, new_match: NewMatch, tmp_path: Path
) -> None:
    links = new_match("Closed")
    profile = tmp_path / "profile"

    def launched() -> Page:
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE
        )
        return context.pages[0] if context.pages else context.new_page()

    page = on_the_phone(launched(), links["edit_url"])
    page.context.set_offline(True)
    open_form(page, links["edit_url"], 1)
    type_round(page, round_of(1, 65))
    save(page)
    page.context.close()  # its session cookie, and the CSRF token the form held, end with it

    page = launched()
    page.goto(links["edit_url"])  # the keeper only opens the match

    expect(page.locator("#round-1")).to_be_visible()
    expect(page.locator("[data-queued-rounds]")).to_be_hidden()
    page.context.close()
    assert stored_rounds(live_server, links["id"]) == {1: [0, 65]}


def test_a_kept_copy_gives_way_to_the_servers_page_once_the_network_is_back(
    live_server: str, new_page: Callable[..., Page], new_match: NewMatch, stored_round: StoreRound
) -> None:
    links = new_match("Back online")
    page = on_the_phone(new_page(), links["edit_url"])
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-banner]")).to_be_visible()
    stored_round(links, api_round(1, 85))  # another phone, meanwhile

    page.context.set_offline(False)

    expect(page.locator("[data-offline-banner]")).to_be_hidden()
    expect(page.locator("#round-1")).to_be_visible()
    assert totals_shown(page) == api_match(live_server, links["id"])["totals"]


def test_the_notice_of_a_saved_round_is_shown_once_never_from_a_kept_copy(
    new_page: Callable[..., Page], new_match: NewMatch
) -> None:
    links = new_match("Said once")
    page = on_the_phone(new_page(), links["edit_url"])
    open_form(page, links["edit_url"], 1)
    type_round(page, round_of(1, 85))
    save(page)
    expect(page.locator(".flash")).to_contain_text("Round 1 is saved.")

    page.context.set_offline(True)
    open_form(page, links["edit_url"], 2)
    type_round(page, round_of(2, 10))
    save(page)

    expect(page.locator("[data-queued-rounds]")).to_have_text("Round 2: waiting to send")
    expect(page.locator(".flash")).to_be_hidden()


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
    new_page: Callable[..., Page], new_match: NewMatch
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
