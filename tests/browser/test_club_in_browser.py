"""A club on a phone: started from the home page, its players added, two matches set up from it
with players picked from its list, and its leaderboard and a player's page after they are
played. Every control of its pages is large enough for a thumb."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from test_match_in_browser import tap_choice
from test_tap_targets import small_targets

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Bob", "Cy", "Di")
# Round n of the standard preset: the first side out with two clean and two dirty books, the
# other side with a clean book and 85 points left over.
WENT_OUT = {"clean_books": 2, "dirty_books": 2, "melded_points": 765, "went_out": True}
STAYED_IN = {"clean_books": 1, "melded_points": 310, "leftover_points": 85}


def start_club(page: Page, base_url: str) -> str:
    """Start a club from the home page; return its edit link."""
    page.goto(base_url)
    page.get_by_role("link", name="Start a club").tap()
    page.fill("#name", "Thursday cards")
    page.get_by_role("button", name="Start the club").tap()
    expect(page.locator("h1")).to_have_text("Thursday cards")
    edit_link = page.locator("#edit-link").input_value()
    page.get_by_role("link", name="Go to the club's page").tap()
    return edit_link


def add_player(page: Page, name: str) -> None:
    page.fill("#name", name)
    page.get_by_role("button", name="Add the player").tap()
    expect(page.locator(".flash")).to_contain_text(f"{name} is a player of the club now.")


def create(page: Page) -> dict[str, str]:
    """Create the match of the set-up form; return its id and edit token, from the address of
    its links page."""
    page.get_by_role("button", name="Create the match").tap()
    expect(page.locator(".flash")).to_contain_text("The match is ready")
    found = re.search(r"/m/([\w-]{22})/edit/([\w-]+)/share", page.url)
    assert found is not None, page.url
    return {"id": found[1], "edit_token": found[2]}


def play(
    stored_round: Callable[[dict[str, str], dict[str, object]], None], match: dict[str, str]
) -> None:
    """Enter the standard preset's four rounds, each won by the first side."""
    for number in range(1, 5):
        stored_round(match, {"round": number, "sides": [WENT_OUT, STAYED_IN]})


def test_a_club_sets_up_two_matches_from_its_list_and_shows_who_wins(
    live_server: str,
    new_page: Callable[..., Page],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
    screenshot: Callable[[Page, str], None],
) -> None:
    page = new_page()
    edit_link = start_club(page, live_server)
    for name in PLAYERS:
        add_player(page, name)
    screenshot(page, "club-01-players")

    page.get_by_role("link", name="Set up a match of the club").tap()
    page.fill("#name", "Pairs")
    for seat, player in enumerate(["Cy", "Di", "Ann", "Bob"]):
        page.select_option(f"#players-{seat}", player)
    tap_choice(page, "seating", "2x2")
    first = create(page)
    page.goto(edit_link)
    page.get_by_role("link", name="Set up a match of the club").tap()
    page.fill("#name", "Alone")
    page.select_option("#players-0", "Cy")
    page.fill("#new_players-1", "Eve")  # joins the club
    screenshot(page, "club-02-new-match")
    second = create(page)
    play(stored_round, first)
    play(stored_round, second)

    page.goto(edit_link)
    leaderboard = page.locator("#leaderboard tbody tr")
    expect(leaderboard.first).to_contain_text("Cy")  # won both: with Di, then alone
    expect(leaderboard).to_have_count(5)
    expect(page.locator("#leaderboard")).to_contain_text("Eve")
    expect(page.locator(".club-matches li")).to_have_count(2)
    expect(page.locator(".club-matches li").first).to_contain_text("Alone")
    expect(page.locator("#partnerships")).to_contain_text("Cy and Di")
    screenshot(page, "club-03-leaderboard")

    page.locator("#leaderboard").get_by_role("link", name="Cy").tap()
    expect(page.locator("h1")).to_have_text("Cy")
    expect(page.locator(".player-record")).to_contain_text("2 wins")
    expect(page.locator(".chart-drawing")).to_be_visible()
    screenshot(page, "club-04-player")


def test_every_control_of_a_clubs_pages_is_large_enough_for_a_thumb(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    edit_link = start_club(page, live_server)
    for name in PLAYERS[:2]:
        add_player(page, name)
    view_link = re.sub(r"/edit/[\w-]+$", "", edit_link)
    pages = [
        "/",
        "/clubs/new",
        edit_link,
        f"{edit_link}/share",
        f"{edit_link}/matches/new",
        f"{edit_link}/players/1",
        view_link,
        f"{view_link}/players/2",
    ]
    small: list[str] = []
    for path in pages:
        page.goto(path if path.startswith("http") else live_server + path)
        small += small_targets(page, path)
    assert small == []
