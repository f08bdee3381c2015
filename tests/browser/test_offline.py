"""The app on a phone whose network comes and goes: installable, its pages kept by a service
worker and shown offline as such, its static files kept a year and sent compressed."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Served, controlled
from phones import forms_to_keep, wait_until_kept
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PAIRS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
WENT_OUT = {"clean_books": 2, "dirty_books": 2, "melded_points": 765, "went_out": True}
STAYED_IN = {"clean_books": 1, "melded_points": 310, "leftover_points": 85}


@pytest.fixture
def match_links(
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
) -> dict[str, str]:
    links = stored_match({"name": "Cabin", "sides": PAIRS})
    stored_round(links, {"round": 1, "sides": [WENT_OUT, STAYED_IN]})
    return links


def test_a_service_worker_controls_the_pages(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = controlled(new_page(), live_server)

    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")


def test_the_app_meets_chromiums_install_criteria(
    live_server: str, browser: Browser, tmp_path: Path
) -> None:
    # A browser profile of its own: Chromium installs nothing from a private window.
    context = browser.browser_type.launch_persistent_context(
        tmp_path, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE
    )
    page = controlled(context.new_page(), live_server)
    devtools = context.new_cdp_session(page)
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    context.close()

    assert errors == []


@pytest.mark.parametrize("link", ["view_url", "edit_url"])
def test_the_standings_reload_offline_marked_as_such(
    new_page: Callable[..., Page], match_links: dict[str, str], link: str
) -> None:
    page = controlled(new_page(), match_links[link])
    page.context.set_offline(True)

    page.reload()

    expect(page.locator("h1")).to_have_text("Cabin")
    expect(page.locator("[data-offline-banner]")).to_have_text(re.compile(r"Offline: as of \d"))
    expect(page.locator("#round-1")).to_be_visible()


def test_a_page_never_opened_here_says_the_phone_is_offline(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = controlled(new_page(), live_server)
    page.context.set_offline(True)

    page.goto(f"{live_server}/rules")

    expect(page.locator("h1")).to_have_text("This phone is offline")


def test_static_files_are_kept_a_year_and_sent_compressed(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    with page.expect_response(re.compile(r"/static/style-[0-9a-f]{32}\.css$")) as stylesheet:
        page.goto(live_server)
    headers = stylesheet.value.all_headers()

    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["content-encoding"] in ("br", "gzip")


REVISIT_BUDGET = 8_000  # bytes on the wire: the page and what it sets going in 10 s
REVISIT_WINDOW_MS = 10_000


@pytest.mark.parametrize("link", ["edit_url", "view_url"])
def test_revisiting_an_unfinished_matchs_standings_costs_at_most_8_kb_on_the_wire(
    new_page: Callable[..., Page],
    match_links: dict[str, str],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
    served: Served,
    link: str,
) -> None:
    stored_round(match_links, {"round": 2, "sides": [STAYED_IN, WENT_OUT]})  # 2 of 4 rounds in
    page = controlled(new_page(), match_links[link])
    if link == "edit_url":  # the forms of the rounds to play and to correct, kept once
        wait_until_kept(page, forms_to_keep(page))
    served.wait_until_quiet(2)  # what the first visit set going is done
    served.clear()

    page.reload()
    page.wait_for_timeout(REVISIT_WINDOW_MS)

    with served.answered:
        answers, on_the_wire = list(served.answers), list(served.on_the_wire)
    spent = sum(size for _, size in on_the_wire)
    assert spent <= REVISIT_BUDGET, "\n".join(f"{size:>6} {path}" for path, size in on_the_wire)
    assert {size for path, size in answers if path == "/sw.js"} == {0}  # 304s: no new release


def test_the_new_round_page_reloads_offline(
    new_page: Callable[..., Page], match_links: dict[str, str]
) -> None:
    page = controlled(new_page(), f"{match_links['edit_url']}/rounds/new")
    page.context.set_offline(True)

    page.reload()

    expect(page.locator("h1")).to_have_text("Round 2 of 4")
    expect(page.locator("[data-offline-banner]")).to_be_visible()


def test_a_finished_matchs_page_stops_asking_for_changes_ten_minutes_after_the_last(
    new_page: Callable[..., Page],
    match_links: dict[str, str],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
    served: Served,
) -> None:
    for number in (2, 3, 4):  # the last round is in
        stored_round(match_links, {"round": number, "sides": [WENT_OUT, STAYED_IN]})
    page = new_page()
    page.clock.install()
    page.goto(match_links["view_url"])
    poll = f"/api/v1/matches/{match_links['id']}"

    page.clock.run_for(4_000)
    served.wait_for(poll)  # a finished match is asked about a while longer
    page.clock.fast_forward("10:00")
    page.clock.run_for(4_000)  # the turn set before the ten minutes were up
    served.wait_until_quiet(1)
    served.clear()
    page.clock.run_for(60_000)
    served.wait_until_quiet(1)

    assert [path for path, _ in served.answers if path == poll] == []
