"""A whole match on a phone: set up, share, four rounds with the live score, a refused entry,
an edit, the winner; a second phone on the view link follows every round without reloading."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import LocatorAssertions, Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Bob", "Cy", "Di")
TWO_ALONE = [{"name": name, "players": [name]} for name in ("Ann", "Bob")]
LAPTOP = {"viewport": {"width": 1280, "height": 900}}
Values = dict[str, int]


def tap_choice(page: Page, name: str, value: str) -> None:
    """Tap the tile of a radio button, as a thumb would."""
    page.locator(f"label.tile:has(input[name='{name}'][value='{value}'])").tap()


def fill_side(page: Page, index: int, values: Values) -> None:
    for key, value in values.items():
        page.fill(f"#sides-{index}-{key}", str(value))


def step_up(page: Page, field_id: str, times: int = 1) -> None:
    for _ in range(times):
        page.locator(f"[data-stepper]:has(#{field_id}) .step:last-child").tap()  # the +


def live_total(page: Page, index: int) -> LocatorAssertions:
    return expect(page.locator(f"[data-side='{index}'] .live-total [data-total]"))


def save_round(page: Page, number: int) -> None:
    page.locator("[data-submit-once]").tap()
    expect(page.locator(f"#round-{number}")).to_be_attached()  # on the standings, past the form


def set_up_match(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/matches/new")
    page.fill("#name", "Friday at Ann's")
    for index, name in enumerate(PLAYERS):
        page.fill(f"#players-{index}", name)
    tap_choice(page, "seating", "2x2")
    expect(page.locator("#team_names-0")).to_have_attribute("placeholder", "Ann & Bob")
    expect(page.locator("#team_names-2")).to_be_hidden()  # two teams: no third name
    page.locator("summary", has_text="House rules").tap()
    page.fill("#house-going_out_bonus", "100")  # the preset's own value: not a change
    expect(page.locator("[data-house-rule='going_out_bonus']")).not_to_have_class("is-changed")


def enter_round_one(page: Page) -> None:
    """A round worked out by hand: Ann & Bob go out with 2565, Cy & Di make 825."""
    page.get_by_role("link", name="Enter round 1").tap()
    tap_choice(page, "went_out", "0")
    fill_side(page, 0, {"clean_books": 2, "melded_points": 763})
    step_up(page, "sides-0-melded_points")  # by the cards' step of 5, to the next multiple
    expect(page.locator("#sides-0-melded_points")).to_have_value("765")
    step_up(page, "sides-0-dirty_books", times=2)
    step_up(page, "sides-0-red_threes")
    fill_side(page, 1, {"clean_books": 1, "melded_points": 310, "leftover_points": 85})
    step_up(page, "sides-1-red_threes")
    live_total(page, 0).to_have_text("2,565")
    live_total(page, 1).to_have_text("825")


def enter_round_two_after_a_refusal(page: Page, screenshot: Callable[[Page, str], None]) -> None:
    page.get_by_role("link", name="Enter round 2").tap()
    fill_side(page, 1, {"clean_books": 5, "melded_points": 100})
    expect(page.locator("[data-side='1'] [data-problems]")).to_contain_text("at least 175")
    page.locator("[data-submit-once]").tap()
    expect(page.locator("#sides-1-melded_points-errors")).to_contain_text("at least 175")
    expect(page.locator("#sides-1-melded_points")).to_have_value("100")
    screenshot(page, "04-round-refused")
    tap_choice(page, "went_out", "1")
    fill_side(page, 0, {"clean_books": 1, "melded_points": 300, "leftover_points": 60})
    fill_side(page, 1, {"clean_books": 2, "dirty_books": 2, "melded_points": 800})
    live_total(page, 1).to_have_text("2,500")
    save_round(page, 2)


def enter_rounds_three_and_four(page: Page) -> None:
    page.get_by_role("link", name="Enter round 3").tap()
    tap_choice(page, "went_out", "0")
    fill_side(page, 0, {"clean_books": 2, "dirty_books": 2, "melded_points": 765})
    tap_choice(page, "sides-1-melded_mode", "counts")
    fill_side(page, 1, {"melded-aces": 4, "melded-eights_to_kings": 6, "leftover_points": 30})
    live_total(page, 1).to_have_text("110")
    save_round(page, 3)
    page.get_by_role("link", name="Enter round 4").tap()
    tap_choice(page, "went_out", "0")
    fill_side(page, 0, {"clean_books": 2, "dirty_books": 2, "melded_points": 900})
    fill_side(page, 1, {"clean_books": 1, "melded_points": 400, "leftover_points": 100})
    save_round(page, 4)


def test_a_partnership_match_scored_on_a_phone_and_followed_on_another(
    live_server: str, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    keeper = new_page()
    set_up_match(keeper, live_server)
    screenshot(keeper, "01-new-match")
    keeper.get_by_role("button", name="Create the match").tap()
    expect(keeper.locator(".qr-code svg")).to_have_count(2)
    expect(keeper.get_by_role("button", name="Copy")).to_have_count(2)
    screenshot(keeper, "02-share")
    view_url = keeper.locator("#view-link").input_value()

    viewer = new_page()
    viewer.goto(view_url)
    expect(viewer.locator(".result")).to_contain_text("No round entered yet.")
    viewer.evaluate("window.neverReloaded = true")

    keeper.get_by_role("link", name="Go to the score sheet").tap()
    enter_round_one(keeper)
    screenshot(keeper, "03-round-live-score")
    save_round(keeper, 1)
    expect(viewer.locator("#round-1")).to_contain_text("2,565")
    assert viewer.evaluate("window.neverReloaded") is True

    enter_round_two_after_a_refusal(keeper, screenshot)
    enter_rounds_three_and_four(keeper)

    keeper.locator("#round-2 a.edit-round").tap()
    expect(keeper.locator("#sides-0-melded_points")).to_have_value("300")
    keeper.fill("#sides-0-melded_points", "350")
    live_total(keeper, 0).to_have_text("790")
    screenshot(keeper, "05-round-edit")
    save_round(keeper, 2)

    winner = "Winner: Ann & Bob, with 8,420 points."
    expect(keeper.locator(".result-headline")).to_have_text(winner)
    places = ["1 Ann & Bob: 8,420 points", "2 Cy & Di: 4,235 points"]
    expect(keeper.locator(".places li")).to_have_text(places)
    expect(keeper.locator(".chart > svg polyline")).to_have_count(2)
    screenshot(keeper, "06-standings")
    expect(viewer.locator(".result-headline")).to_have_text(winner)
    assert viewer.evaluate("window.neverReloaded") is True
    expect(viewer.get_by_role("link", name="Edit")).to_have_count(0)
    screenshot(viewer, "07-view-link")

    keeper.goto(f"{live_server}/")
    expect(keeper.locator(".recent-list a")).to_have_text(["Friday at Ann's"])
    screenshot(keeper, "08-home-recent")


def test_the_round_form_on_a_laptop_puts_the_sides_in_columns(
    live_server: str, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    page = new_page(LAPTOP)
    page.goto(f"{live_server}/matches/new")
    page.fill("#name", "Three pairs")
    for index, name in enumerate(("Ann", "Bob", "Cy", "Di", "Ed", "Flo")):
        page.fill(f"#players-{index}", name)
    page.locator("label.tile:has(input[value='3x2'])").click()
    page.get_by_role("button", name="Create the match").click()
    page.get_by_role("link", name="Go to the score sheet").click()
    page.get_by_role("link", name="Enter round 1").click()

    tops = [card.bounding_box()["y"] for card in page.locator(".side-card").all()]  # type: ignore[index]
    assert len(tops) == 3 and len(set(tops)) == 1
    screenshot(page, "09-round-laptop")


def test_more_red_threes_than_the_decks_hold_are_told_in_each_card_that_counted_some(
    live_server: str, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    page = new_page()
    set_up_match(page, live_server)  # four players: five decks, ten red threes
    page.get_by_role("button", name="Create the match").tap()
    page.get_by_role("link", name="Go to the score sheet").tap()
    page.get_by_role("link", name="Enter round 1").tap()

    fill_side(page, 0, {"melded_points": 100, "red_threes": 6})
    fill_side(page, 1, {"melded_points": 100, "red_threes": 5})

    for index in (0, 1):
        live_total(page, index).to_have_text("–")
        expect(page.locator(f"[data-side='{index}'] [data-problems]")).to_contain_text(
            "The sides entered 11 red threes, but 5 decks hold only 10"
        )
    expect(page.locator("[data-problems-round]")).to_be_hidden()  # told in the cards, once each
    screenshot(page, "11-round-supply-refused")


def set_up_two_player_match(page: Page, base_url: str, name: str) -> None:
    page.goto(f"{base_url}/matches/new")
    page.fill("#name", name)
    page.fill("#players-0", "Ann")
    page.fill("#players-1", "Bob")
    page.get_by_role("button", name="Create the match").tap()
    expect(page.locator("#edit-link")).to_be_visible()


def hidden_behind(page: Page, field_id: str) -> str | None:
    """Return what covers the middle of a field on the screen (a stuck header, the save bar),
    or None when the field itself is on top there."""
    return page.evaluate(
        """(id) => {
            const field = document.getElementById(id);
            const box = field.getBoundingClientRect();
            const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return field.contains(top) ? null : (top ? top.className || top.tagName : "nothing");
        }""",
        field_id,
    )


def test_a_field_the_phone_keyboard_moves_to_is_never_left_behind_a_stuck_header_or_the_save_bar(
    live_server: str,
    new_page: Callable[..., Page],
    viewport_screenshots: Callable[[Page, str], None],
) -> None:
    page = new_page()
    set_up_two_player_match(page, live_server, "Next, next, next")
    page.get_by_role("link", name="Go to the score sheet").tap()
    page.get_by_role("link", name="Enter round 1").tap()
    expect(page.locator(".side-card")).to_have_count(2)
    viewport_screenshots(page, "10-round-scrolled")
    fields = page.locator(".side-card input.number:visible").evaluate_all(
        "inputs => inputs.map((input) => input.id)"
    )

    for field_id in [*fields, *reversed(fields)]:  # down the form, then back up
        page.locator(f"#{field_id}").focus()
        assert hidden_behind(page, field_id) is None, field_id


def test_a_new_edit_link_replaces_the_old_one_on_this_device_and_the_old_one_stops_working(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    set_up_two_player_match(page, live_server, "Rotated")
    old_link = page.locator("#edit-link").input_value()
    page.goto(old_link)

    page.locator("summary", has_text="Make a new edit link").tap()
    page.get_by_role("button", name="Stop the old link and make a new one").tap()

    expect(page.locator(".flash")).to_contain_text("the old one no longer opens the match")
    new_link = page.locator("#edit-link").input_value()
    assert new_link != old_link
    # recent.js is deferred: it remembers the link once the page has loaded, not with the flash.
    page.wait_for_load_state("load")
    remembered = page.evaluate("JSON.parse(localStorage.getItem('scorekeeper.recent'))")
    assert [(item["name"], item["url"]) for item in remembered] == [("Rotated", new_link)]
    response = page.goto(old_link)
    assert response is not None and response.status == 403
    page.goto(f"{live_server}/recent")
    expect(page.locator(".recent-list a")).to_have_attribute("href", new_link)


def test_an_edit_link_replaced_on_another_phone_gives_way_to_the_view_link_here(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    keeper, partner = new_page(), new_page()
    set_up_two_player_match(keeper, live_server, "Replaced")
    old_link = keeper.locator("#edit-link").input_value()
    partner.goto(old_link)  # the partner's phone keeps the edit link among its matches
    keeper.goto(old_link)
    keeper.locator("summary", has_text="Make a new edit link").tap()
    keeper.get_by_role("button", name="Stop the old link and make a new one").tap()
    expect(keeper.locator(".flash")).to_contain_text("the old one no longer opens the match")

    response = partner.goto(old_link)

    assert response is not None and response.status == 403
    expect(partner.locator("main")).to_contain_text("If a new edit link was made for this match")
    partner.wait_for_load_state("load")  # recent.js is deferred
    partner.goto(f"{live_server}/recent")
    listed = partner.locator(".recent-list a")
    expect(listed).to_have_attribute("href", old_link.split("/edit/")[0])
    expect(partner.locator(".recent-role")).to_have_text("You watch")
    listed.tap()
    expect(partner.locator("h1")).to_have_text("Replaced")


def open_round_one_of_a_new_match(page: Page, base_url: str, name: str) -> None:
    set_up_two_player_match(page, base_url, name)
    page.goto(page.locator("#edit-link").input_value())
    page.get_by_role("link", name="Enter round 1").tap()


def test_going_back_to_a_saved_rounds_form_offers_the_next_round_not_the_saved_one_again(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_round_one_of_a_new_match(page, live_server, "Back")
    tap_choice(page, "went_out", "0")
    fill_side(page, 0, {"clean_books": 2, "dirty_books": 2, "melded_points": 765})
    save_round(page, 1)

    page.go_back()  # the browser's Back, to the form just saved

    expect(page.locator("h1")).to_have_text("Round 2 of 4")
    expect(page.locator("#sides-0-melded_points")).to_have_value("")
    # The browser restores no choice of the round saved: its side going out would score twice.
    expect(page.locator("input[name='went_out']:checked")).to_have_count(0)


def test_the_message_of_a_saved_round_can_be_hidden_from_the_top_of_the_standings(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_round_one_of_a_new_match(page, live_server, "Dismissed")
    tap_choice(page, "went_out", "nobody")
    fill_side(page, 0, {"melded_points": 60})
    save_round(page, 1)
    saved = page.locator(".flash", has_text="Round 1 is saved.")
    expect(saved).to_be_visible()

    page.get_by_role("button", name="Hide this message").tap()

    expect(saved).to_be_hidden()


def test_the_live_score_says_which_field_holds_no_number_and_scores_once_it_does(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_round_one_of_a_new_match(page, live_server, "Typo")
    fill_side(page, 0, {"clean_books": 1, "melded_points": 310})
    live_total(page, 0).to_have_text("810")

    page.fill("#sides-0-melded_points", "3l0")  # a slip of the thumb

    unreadable = page.locator("#sides-0-melded_points-unreadable")
    expect(unreadable).to_have_text("Enter a whole number, such as 0 or 50.")
    expect(page.locator("#sides-0-melded_points")).to_have_attribute("aria-invalid", "true")
    live_total(page, 0).to_have_text("–")
    page.fill("#sides-0-melded_points", "310")
    live_total(page, 0).to_have_text("810")
    expect(unreadable).to_have_count(0)
    expect(page.locator("#sides-0-melded_points")).not_to_have_attribute(
        "aria-invalid", re.compile(".*")
    )

    fill_side(page, 1, {"clean_books": 1, "melded_points": 200})
    live_total(page, 1).to_have_text("700")
    page.fill("#sides-1-leftover_points", "8o")  # one side's slip leaves the others scored
    live_total(page, 1).to_have_text("–")
    live_total(page, 0).to_have_text("810")
    page.fill("#sides-1-leftover_points", "-5")  # a sign makes a number, which the engine refuses
    expect(page.locator("#sides-1-leftover_points-unreadable")).to_have_count(0)
    expect(page.locator("[data-side='1'] [data-problems]")).to_contain_text("cannot be negative")
    page.fill("#sides-1-leftover_points", "")
    live_total(page, 1).to_have_text("700")

    tap_choice(page, "sides-0-melded_mode", "counts")
    page.fill("#sides-0-melded-aces", "3x")
    expect(page.locator("#sides-0-melded-aces-unreadable")).to_be_visible()
    tap_choice(page, "sides-0-melded_mode", "points")  # the counts, hidden now, are not read
    live_total(page, 0).to_have_text("810")
    expect(page.locator("#sides-0-melded-aces-unreadable")).to_have_count(0)

    page.fill("#sides-0-melded_points", "3l0")
    page.locator("[data-submit-once]").tap()  # saved as it is: the server says it, once

    errors = page.locator("[data-side='0'] .field-errors")
    expect(errors).to_have_text(["Enter a whole number, such as 0 or 50."])
    expect(page.locator("#sides-0-melded_points")).to_have_value("3l0")


@pytest.mark.parametrize(
    ("locale", "typed", "total"),
    [("en", "1,200", "1,200"), ("nl", "1.200", "1.200"), ("ja", "１，２００", "1,200")],
)
def test_the_live_score_reads_points_typed_in_the_digit_groups_it_prints(
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    new_page: Callable[..., Page],
    locale: str,
    typed: str,
    total: str,
) -> None:
    page = new_page({"locale": locale, "has_touch": True})
    links = stored_match({"name": "Groups", "sides": TWO_ALONE})
    page.goto(f"{links['edit_url']}/rounds/new")

    page.fill("#sides-0-melded_points", typed)

    live_total(page, 0).to_have_text(total)
    expect(page.locator("#sides-0-melded_points-unreadable")).to_have_count(0)
    step_up(page, "sides-0-melded_points")  # + steps from the number typed, by 5 points
    expect(page.locator("#sides-0-melded_points")).to_have_value("1205")
    page.fill("#sides-0-melded_points", "12,5")  # no whole groups: a slip, in either language
    live_total(page, 0).to_have_text("–")


def test_a_side_whose_entry_is_refused_while_typing_leaves_the_other_sides_scored(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_round_one_of_a_new_match(page, live_server, "Halfway")
    fill_side(page, 1, {"clean_books": 1, "melded_points": 200})
    live_total(page, 1).to_have_text("700")

    fill_side(page, 0, {"clean_books": 1})  # the book first, its cards next

    live_total(page, 0).to_have_text("–")
    expect(page.locator("[data-side='0'] [data-problems]")).not_to_be_empty()
    live_total(page, 1).to_have_text("700")
    expect(page.locator("[data-side='1'] [data-problems]")).to_be_hidden()
    fill_side(page, 0, {"melded_points": 310})
    live_total(page, 0).to_have_text("810")


def test_a_player_alone_beside_a_pair_is_told_while_typing_to_go_out_holding_nothing(
    stored_match: Callable[[dict[str, object]], dict[str, str]], new_page: Callable[..., Page]
) -> None:
    sides = [{"name": "Ann", "players": ["Ann"]}, {"name": "Cy & Di", "players": ["Cy", "Di"]}]
    links = stored_match({"name": "Ann v. a pair", "rules": {"preset": "standard"}, "sides": sides})
    page = new_page()
    page.goto(f"{links['edit_url']}/rounds/new")

    tap_choice(page, "went_out", "0")
    fill_side(page, 0, {"clean_books": 2, "dirty_books": 2, "melded_points": 765})
    live_total(page, 0).to_have_text("2,465")
    fill_side(page, 0, {"leftover_points": 50})  # a pair's partner may hold cards; Ann has none

    live_total(page, 0).to_have_text("–")
    expect(page.locator("[data-side='0'] [data-problems]")).to_contain_text(
        "Ann went out, so no cards can be left in hand or foot"
    )


def test_enter_in_a_box_of_the_round_form_moves_to_the_next_and_saves_nothing_half_typed(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_round_one_of_a_new_match(page, live_server, "Enter")
    page.wait_for_url("**/rounds/new?round=1")  # the round under its own address
    form_url = page.url
    tap_choice(page, "went_out", "0")

    page.press("#went_out-0", "Enter")  # from the tiles of who went out, to the first box
    expect(page.locator("#sides-0-clean_books")).to_be_focused()
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    expect(page.locator("#sides-0-dirty_books")).to_be_focused()
    page.keyboard.press("ArrowUp")  # the arrow keys step the box, as its + and - do
    page.keyboard.press("ArrowUp")
    expect(page.locator("#sides-0-dirty_books")).to_have_value("2")
    assert page.url == form_url

    page.fill("#sides-0-melded_points", "765")  # the books' cards: a round that can be saved
    last = page.locator(".round-form input.number:visible").last
    last.press("Enter")
    submit = page.locator("[data-submit-once]")
    expect(submit).to_be_focused()
    page.keyboard.press("Enter")  # the save button, which Enter presses
    expect(page.locator(".flash p")).to_have_text("Round 1 is saved.")


def test_tab_goes_from_box_to_box_past_the_steppers(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_round_one_of_a_new_match(page, live_server, "Tab")

    page.locator("#sides-0-clean_books").focus()
    page.keyboard.press("Tab")

    expect(page.locator("#sides-0-dirty_books")).to_be_focused()


def round_of_150_each(number: int) -> dict[str, object]:
    return {"round": number, "sides": [{"melded_points": 150}, {"melded_points": 150}]}


def test_a_breakdown_opened_on_the_view_page_stays_open_as_new_rounds_come_in(
    new_page: Callable[..., Page],
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
) -> None:
    links = stored_match({"name": "Open", "sides": TWO_ALONE})
    stored_round(links, round_of_150_each(1))
    page = new_page()
    page.goto(links["view_url"])
    page.locator("#round-1 details.round-score summary").first.focus()
    page.keyboard.press("Enter")  # opens it, as a tap does, and keeps the focus on it

    stored_round(links, round_of_150_each(2))

    expect(page.locator("#round-2")).to_be_visible()  # the fresh standings came in
    breakdowns = page.locator("#round-1 details.round-score")
    expect(breakdowns.first).to_have_attribute("open", "")
    expect(breakdowns.last).not_to_have_attribute("open", "")
    expect(breakdowns.first.locator("summary")).to_be_focused()


def test_the_live_score_outlines_the_field_a_refusal_names_and_clears_it_once_right(
    new_page: Callable[..., Page], stored_match: Callable[[dict[str, object]], dict[str, str]]
) -> None:
    page = new_page(LAPTOP)
    links = stored_match({"name": "Outlined", "sides": TWO_ALONE})
    page.goto(f"{links['edit_url']}/rounds/new")
    melded = page.locator(".field:has(#sides-0-melded_points)")

    page.fill("#sides-0-melded_points", "20")  # under round 1's minimum of 50

    expect(melded).to_have_class(re.compile(r"\bis-questioned\b"))
    box = page.locator("#sides-0-melded_points")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".field:has(#sides-1-melded_points)")).not_to_have_class(
        re.compile(r"\bis-questioned\b")
    )
    page.fill("#sides-0-melded_points", "20x")  # no number now: still invalid, for that
    expect(melded.locator(".field-errors")).to_be_visible()
    expect(melded).not_to_have_class(re.compile(r"\bis-questioned\b"))
    expect(box).to_have_attribute("aria-invalid", "true")
    page.fill("#sides-0-melded_points", "60")
    expect(melded).not_to_have_class(re.compile(r"\bis-questioned\b"))
    expect(box).not_to_have_attribute("aria-invalid", re.compile(".*"))


def test_the_standings_printed_from_the_browser_leave_the_buttons_off_the_paper(
    new_page: Callable[..., Page],
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
) -> None:
    page = new_page(LAPTOP)
    links = stored_match({"name": "On paper", "sides": TWO_ALONE})
    stored_round(links, round_of_150_each(1))
    page.goto(links["edit_url"])

    page.emulate_media(media="print")

    expect(page.locator(".scores")).to_be_visible()
    buttons = (".site-header", ".match-actions", ".print-downloads", ".more-links", ".danger-zone")
    for chrome in buttons:
        expect(page.locator(chrome)).to_be_hidden()


def test_the_live_score_groups_digits_as_the_server_does_in_belarusian(
    new_page: Callable[..., Page], stored_match: Callable[[dict[str, object]], dict[str, str]]
) -> None:
    page = new_page({**LAPTOP, "locale": "be"})
    links = stored_match({"name": "Лік", "sides": TWO_ALONE})
    page.goto(f"{links['edit_url']}/rounds/new")

    fill_side(page, 0, {"clean_books": 2, "dirty_books": 2, "melded_points": 765})

    live_total(page, 0).to_have_text("2\u00a0365")  # Chromium's own rules write "2,365"


def test_what_saving_refused_beside_a_field_goes_once_the_live_score_takes_the_round(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_round_one_of_a_new_match(page, live_server, "Put right")
    tap_choice(page, "went_out", "nobody")
    fill_side(page, 0, {"melded_points": 40})  # under round 1's minimum of 50
    page.locator("[data-submit-once]").tap()
    refused = page.locator("#sides-0-melded_points-errors")
    expect(refused).to_contain_text("under the meld minimum of 50")
    expect(page.locator(".problems")).to_be_visible()

    fill_side(page, 0, {"melded_points": 60})

    live_total(page, 0).to_have_text("60")
    expect(refused).to_have_count(0)
    expect(page.locator(".problems")).to_have_count(0)
    box = page.locator("#sides-0-melded_points")
    expect(box).not_to_have_attribute("aria-invalid", re.compile(".*"))
    expect(box).not_to_have_attribute("aria-describedby", re.compile("errors"))


def test_a_box_that_still_holds_no_number_keeps_what_saving_said_of_it(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_round_one_of_a_new_match(page, live_server, "Still a typo")
    fill_side(page, 0, {"melded_points": 40, "leftover_points": "8o"})
    page.locator("[data-submit-once]").tap()
    expect(page.locator("#sides-0-leftover_points-errors")).to_be_visible()

    fill_side(page, 0, {"melded_points": 60})

    expect(page.locator("#sides-0-melded_points-errors")).to_have_count(0)
    expect(page.locator("#sides-0-leftover_points-errors")).to_contain_text("whole number")
    expect(page.locator(".problems")).to_be_visible()


def test_each_team_names_its_players_beside_its_label_even_once_named(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    page.goto(f"{live_server}/matches/new")
    for index, name in enumerate(PLAYERS):
        page.fill(f"#players-{index}", name)
    tap_choice(page, "seating", "2x2")

    page.fill("#team_names-0", "Ann & Cy")  # the pair a table round the table would guess

    expect(page.locator("label[for='team_names-0']")).to_have_text("Team 1 (Ann & Bob)")
    expect(page.locator("label[for='team_names-1']")).to_have_text("Team 2 (Cy & Di)")
    page.fill("#players-1", "Bea")
    expect(page.locator("label[for='team_names-0']")).to_have_text("Team 1 (Ann & Bea)")
