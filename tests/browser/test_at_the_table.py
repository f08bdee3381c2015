"""At the table, on a phone: who went out is the table's choice, card counts judged once complete,
each partner's cards counted apart, who deals, and the pages laid out for a thumb."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from test_match_in_browser import fill_side, live_total, save_round, tap_choice

from scorekeeper.domain.rules import PRESETS
from scorekeeper.i18n import LANGUAGES

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
# The short keys the presets' sources go by in the API: no words for players.
SOURCE_KEYS = ("canasta-variant", "gamerules", "ko-club", "nl-partnership")
StoreMatch = Callable[[dict[str, object]], dict[str, str]]
PAIRS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]


def new_round(store_match: StoreMatch, page: Page, name: str) -> dict[str, str]:
    """Store a match of two pairs under standard rules and open its round 1 form."""
    links = store_match({"name": name, "rules": {"preset": "standard"}, "sides": PAIRS})
    page.goto(f"{links['edit_url']}/rounds/new")
    return links


def test_a_round_saved_before_the_table_says_who_went_out_is_refused_beside_the_choice(
    stored_match: StoreMatch, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    page = new_page()
    new_round(stored_match, page, "Who went out")
    expect(page.locator("input[name='went_out']:checked")).to_have_count(0)
    fill_side(page, 0, {"clean_books": 2, "dirty_books": 2, "melded_points": 765})
    fill_side(page, 1, {"clean_books": 1, "melded_points": 310, "leftover_points": 85})

    page.locator("[data-submit-once]").tap()

    expect(page.locator("#went_out-errors")).to_have_text(
        "Choose the side that went out, or Nobody if the stock ran out."
    )
    expect(page.locator("#sides-0-melded_points")).to_have_value("765")
    expect(page.locator("#sides-1-leftover_points")).to_have_value("85")
    screenshot(page, "31-1-who-went-out-refused")
    tap_choice(page, "went_out", "0")
    live_total(page, 0).to_have_text("2,465")
    expect(page.locator("#went_out-errors")).to_have_count(0)  # answered: the live score says so
    save_round(page, 1)
    page.locator("#round-1 a.edit-round").tap()
    expect(page.locator("input[name='went_out'][value='0']")).to_be_checked()


# The contrast of a text's colour with the first ground behind it that has a colour, by WCAG 2's
# relative luminance.
CONTRAST = """(element) => {
    const rgb = (colour) => colour.match(/[\\d.]+/g).map(Number);
    const luminance = (colour) => {
        const [r, g, b] = rgb(colour).slice(0, 3).map((value) => {
            const c = value / 255;
            return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    let ground = element;
    while (ground && (rgb(getComputedStyle(ground).backgroundColor)[3] ?? 1) === 0) {
        ground = ground.parentElement;
    }
    const back = ground ? getComputedStyle(ground).backgroundColor : "rgb(255, 255, 255)";
    const [light, dark] = [luminance(getComputedStyle(element).color), luminance(back)].sort(
        (a, b) => b - a,
    );
    return (light + 0.05) / (dark + 0.05);
}"""


def test_the_live_scores_errors_reach_seven_to_one_contrast_against_their_ground(
    stored_match: StoreMatch, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    new_round(stored_match, page, "Contrast")
    fill_side(page, 0, {"clean_books": 1})  # a book, and no cards to make it of
    page.fill("#sides-1-melded_points", "4o")  # no number

    problem = page.locator("[data-side='0'] [data-problems] li").first
    expect(problem).to_be_visible()
    unreadable = page.locator("#sides-1-melded_points-unreadable li")
    expect(unreadable).to_be_visible()
    for text in (problem, unreadable):
        assert text.evaluate(CONTRAST) >= 7


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_save_and_cancel_stay_side_by_side_on_a_phone_in_every_language(
    stored_match: StoreMatch,
    new_page: Callable[..., Page],
    screenshot: Callable[[Page, str], None],
    language: str,
) -> None:
    page = new_page({**PHONE, "locale": language})
    new_round(stored_match, page, "Side by side")

    bar = page.locator(".sticky-actions")
    save, cancel = bar.locator(".button.primary"), bar.locator("a.button")
    save_box, cancel_box = save.bounding_box(), cancel.bounding_box()
    assert save_box is not None and cancel_box is not None
    assert abs(save_box["y"] - cancel_box["y"]) < 1, f"{language}: Cancel went under Save"
    assert cancel_box["x"] + cancel_box["width"] <= 390
    # Each button breaks its words only between them, never within one.
    for button in (save, cancel):
        assert button.evaluate("(b) => b.scrollWidth <= b.clientWidth")
    screenshot(page, f"31-6-save-cancel-{language}")


QUIET = {"sides": [{"clean_books": 1, "melded_points": 200}, {"melded_points": 150}]}


def covers(page: Page, selector: str) -> str | None:
    """Return what is on top at the middle of the element's first line on the screen, when that
    is not the element itself."""
    return page.evaluate(
        """(selector) => {
            const element = document.querySelector(selector);
            const box = element.getBoundingClientRect();
            const top = document.elementFromPoint(box.x + box.width / 2, box.y + 10);
            return element.contains(top) ? null : (top ? top.className || top.tagName : "nothing");
        }""",
        selector,
    )


def test_the_saved_rounds_notice_scrolls_away_rather_than_covering_the_standings(
    stored_match: StoreMatch,
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
    new_page: Callable[..., Page],
    viewport_screenshots: Callable[[Page, str], None],
) -> None:
    page = new_page()
    links = new_round(stored_match, page, "Scrolled")
    for number in (1, 2):
        stored_round(links, {"round": number, **QUIET})
    page.goto(f"{links['edit_url']}/rounds/new")
    tap_choice(page, "went_out", "nobody")
    fill_side(page, 0, {"clean_books": 1, "melded_points": 200})
    save_round(page, 3)
    expect(page.locator(".flash")).to_contain_text("Round 3 is saved.")

    for row in ("#round-1", "#round-2", "#round-3", ".scores tfoot .totals"):
        page.locator(row).evaluate("(row) => row.scrollIntoView({block: 'start'})")
        assert covers(page, row) is None, f"{row} is under {covers(page, row)}"
    viewport_screenshots(page, "31-6-standings-scrolled")

    page.locator("#round-2 a.edit-round").tap()
    tap_choice(page, "went_out", "nobody")
    save_round(page, 2)  # back at the round's own row, marked
    assert page.evaluate("location.hash") == "#round-2"
    marked = page.locator("#round-2 td").first.evaluate(
        "(cell) => getComputedStyle(cell).backgroundColor"
    )
    assert marked == "rgb(231, 241, 235)"  # the accent's soft ground


def test_the_meld_checker_answers_as_cards_are_typed(
    stored_match: StoreMatch, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    page = new_page()
    links = stored_match({"name": "Melds", "rules": {"preset": "standard"}, "sides": PAIRS})
    page.goto(f"{links['view_url']}/melds")
    verdict = page.locator("[data-verdict]")
    expect(verdict).to_be_hidden()

    page.select_option("#meld_0-rank", "5")
    page.fill("#meld_0-naturals", "3")
    expect(verdict).to_have_text("Not yet: 35 points short of the 50 needed.")
    page.select_option("#meld_1-rank", "K")
    page.fill("#meld_1-naturals", "3")
    page.locator("[data-stepper]:has(#meld_1-jokers) .step:last-child").tap()  # one joker
    expect(verdict).to_have_text("These melds open: 95 points, at least 50 needed.")
    expect(page.locator("fieldset:has(#meld_1-rank) .meld-points")).to_have_text("80 points")

    page.select_option("#meld_3-rank", "K")  # a second unfinished meld of kings, past a gap
    page.fill("#meld_3-naturals", "3")
    expect(verdict).to_have_text("Not as they are: a meld below cannot be laid down.")
    row = page.locator("fieldset:has(#meld_3-rank)")
    expect(row.locator(".meld-points")).to_have_text("30 points, not counted")
    expect(row.locator(".field-errors")).to_have_text(
        "Meld 4: a side keeps one unfinished meld of each rank; put these K together."
    )
    screenshot(page, "31-6-meld-checker-live")

    page.fill("#meld_3-naturals", "3x")
    expect(page.locator("#meld_3-naturals-unreadable")).to_have_text(
        "Enter a whole number, such as 0 or 50."
    )
    expect(verdict).to_be_hidden()
    page.fill("#meld_3-naturals", "")
    page.select_option("#meld_3-rank", "")
    expect(verdict).to_have_text("These melds open: 95 points, at least 50 needed.")
    assert page.url.endswith("/melds")  # answered in place: the page never reloaded


@pytest.mark.parametrize("preset", PRESETS)
def test_a_presets_page_names_no_internal_source_only_where_it_comes_from_in_words(
    live_server: str, new_page: Callable[..., Page], preset: str
) -> None:
    page = new_page()
    page.goto(f"{live_server}/rules/{preset}")

    expect(page.locator(".print-downloads .hint").first).to_have_text(PRESETS[preset].origin)
    shown = page.locator("body").inner_text()
    assert not any(key in shown for key in SOURCE_KEYS)


def test_the_table_chooses_who_deals_first_and_the_pages_say_who_deals_next(
    live_server: str, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    page = new_page()
    page.goto(f"{live_server}/matches/new")
    page.fill("#name", "Dealt")
    for box, name in enumerate(("Ann", "Bob", "Cy", "Di")):
        page.fill(f"#players-{box}", name)
    tap_choice(page, "seating", "2x2")
    dealer = page.locator("#first_dealer")
    expect(dealer).to_have_value("0")  # the first player unless told
    expect(dealer.locator("option")).to_have_text(
        ["Ann", "Bob", "Cy", "Di", "Player 5", "Player 6"]
    )
    dealer.select_option(label="Cy")
    screenshot(page, "31-4-who-deals-first")
    page.get_by_role("button", name="Create the match").tap()
    view_url = page.locator("#view-link").input_value()
    page.get_by_role("link", name="Go to the score sheet").tap()

    expect(page.locator(".next-dealer")).to_have_text("Cy deals round 1.")
    page.get_by_role("link", name="Enter round 1").tap()
    expect(page.locator(".next-dealer")).to_have_text("Cy dealt this round. Bob deals round 2.")
    tap_choice(page, "went_out", "nobody")
    fill_side(page, 0, {"melded_points": 60})
    save_round(page, 1)
    expect(page.locator(".next-dealer")).to_have_text("Bob deals round 2.")
    screenshot(page, "31-4-standings-next-dealer")
    watcher = new_page()
    watcher.goto(view_url)
    expect(watcher.locator(".next-dealer")).to_have_text("Bob deals round 2.")


def test_only_the_edit_link_offers_to_play_again(
    stored_match: StoreMatch,
    stored_round: Callable[[dict[str, str], dict[str, object]], None],
    new_page: Callable[..., Page],
) -> None:
    links = stored_match({"name": "Finished", "rules": {"preset": "standard"}, "sides": PAIRS})
    for number in range(1, 5):
        stored_round(links, {"round": number, **QUIET})
    page = new_page()

    page.goto(links["view_url"])
    expect(page.locator(".result-headline")).to_contain_text("Winner")
    expect(page.get_by_role("link", name="Play again")).to_have_count(0)
    page.goto(links["edit_url"])
    page.get_by_role("link", name="Play again: the same players and rules").tap()
    expect(page.locator("#players-0")).to_have_value("Ann")
    expect(page.locator("#first_dealer")).to_have_value("0")  # round 5 comes round to Ann


def test_each_partner_counts_their_own_hand_and_foot_and_the_side_takes_the_sum(
    stored_match: StoreMatch, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    page = new_page()
    new_round(stored_match, page, "Partners")
    tap_choice(page, "went_out", "0")
    fill_side(page, 0, {"clean_books": 2, "dirty_books": 2, "melded_points": 765})
    fill_side(page, 1, {"clean_books": 1, "melded_points": 310})
    expect(page.locator("#sides-1-leftover_by_player-0")).to_be_hidden()  # folded away

    page.locator("[data-side='1'] .per-player summary").tap()
    expect(page.locator("label[for='sides-1-leftover_by_player-0']")).to_have_text("Cy")
    page.fill("#sides-1-leftover_by_player-0", "60")
    page.locator("[data-stepper]:has(#sides-1-leftover_by_player-1) .step:last-child").tap()
    page.fill("#sides-1-leftover_by_player-1", "25")

    expect(page.locator("#sides-1-leftover_points")).to_have_value("85")
    live_total(page, 1).to_have_text("725")
    screenshot(page, "31-3-partners-count-apart")
    page.fill("#sides-1-leftover_points", "90")  # the side's own figure, now at odds with theirs
    page.locator("[data-submit-once]").tap()
    mismatch = page.locator("#sides-1-leftover_points-errors")
    expect(mismatch).to_contain_text("The players' points add up to 85, not 90")
    page.wait_for_load_state("load")
    live_total(page, 1).to_have_text("720")  # the live score takes 90, and the message stays
    expect(mismatch).to_contain_text("The players' points add up to 85, not 90")
    page.fill("#sides-1-leftover_points", "85")
    expect(mismatch).to_have_count(0)  # put right
    page.fill("#sides-1-leftover_points", "")
    save_round(page, 1)
    expect(page.locator("#round-1")).to_contain_text("725")


def test_counts_by_kind_are_judged_once_they_are_all_in_not_between_kinds(
    stored_match: StoreMatch, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    page = new_page()
    new_round(stored_match, page, "Counting")
    tap_choice(page, "sides-0-melded_mode", "counts")
    problems = page.locator("[data-side='0'] [data-problems]")

    with page.expect_response("**/api/v1/score") as scored:
        page.fill("#sides-0-melded-aces", "1")  # 20 points so far, the kinds after still to come
    assert scored.value.status == 422  # the engine refuses 20 of a minimum of 50 ...
    page.wait_for_timeout(100)
    expect(problems).to_be_hidden()  # ... but the side is still counting
    live_total(page, 0).to_have_text("–")
    screenshot(page, "31-2-counting")

    page.locator("#sides-0-red_threes").focus()  # done counting: on to the red threes

    expect(problems).to_contain_text("under the meld minimum of 50")

    tap_choice(page, "sides-1-melded_mode", "counts")
    kinds = ("jokers", "twos", "aces", "eights_to_kings", "fours_to_sevens")
    for kind in kinds[:-1]:
        page.fill(f"#sides-1-melded-{kind}", "1" if kind == "aces" else "0")
    page.wait_for_timeout(500)
    expect(page.locator("[data-side='1'] [data-problems]")).to_be_hidden()
    page.fill("#sides-1-melded-fours_to_sevens", "0")  # the last kind: every count is in
    expect(page.locator("[data-side='1'] [data-problems]")).to_contain_text("meld minimum")
