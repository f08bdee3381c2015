"""A table that reads Japanese: it picks 日本語 on a phone whose browser asks for English, sets a
match up and enters a whole round, seeing the game's Japanese words and the Japanese standings."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from test_match_in_browser import fill_side, live_total, save_round, step_up, tap_choice

pytestmark = pytest.mark.browser

PLAYERS = ("花子", "太郎", "次郎", "桜")


def pick_japanese(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the browser's own language
    page.locator(".language-picker summary").tap()
    page.get_by_role("button", name="日本語").tap()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("h1")).to_have_text("ハンド・アンド・フットの得点記録")


def set_up_match(page: Page) -> None:
    page.get_by_role("link", name="新しいマッチ").first.tap()
    page.fill("#name", "金曜日の花子さん宅")
    for index, name in enumerate(PLAYERS):
        page.fill(f"#players-{index}", name)
    tap_choice(page, "seating", "2x2")
    expect(page.locator("#team_names-0")).to_have_attribute("placeholder", "花子・太郎")
    page.locator("summary", has_text="ハウスルール").tap()
    expect(page.get_by_text("クリーンのブックのボーナス")).to_be_visible()
    expect(page.locator("#language")).to_have_value("ja")
    page.get_by_role("button", name="マッチを作成").tap()
    expect(page.get_by_text("記録用リンク:得点を記録する人へ")).to_be_visible()
    page.get_by_role("link", name="得点表へ").tap()
    expect(page.locator(".result")).to_contain_text("まだラウンドが入力されていません。")


def enter_round_one(page: Page) -> None:
    """A round worked out by hand, first refused in Japanese, then as it was played."""
    page.get_by_role("link", name="ラウンド1を入力").tap()
    expect(page.locator("h1")).to_have_text("ラウンド1 / 4")
    expect(page.locator("#went_out legend")).to_have_text("誰が上がりましたか?")
    expect(page.locator("label[for='sides-0-clean_books']")).to_have_text("クリーンのブック")
    expect(page.locator("label[for='sides-0-dirty_books']")).to_have_text("ダーティのブック")
    fill_side(page, 1, {"clean_books": 5, "melded_points": 100})
    expect(page.locator("[data-side='1'] [data-problems]")).to_contain_text("ブック")
    tap_choice(page, "went_out", "0")
    fill_side(page, 0, {"clean_books": 2, "dirty_books": 2, "melded_points": 765})
    step_up(page, "sides-0-red_threes")
    fill_side(page, 1, {"clean_books": 1, "melded_points": 310, "leftover_points": 85})
    step_up(page, "sides-1-red_threes")
    live_total(page, 0).to_have_text("2,565")
    live_total(page, 1).to_have_text("825")
    expect(page.locator("[data-side='1'] [data-problems]")).to_be_hidden()


def test_a_japanese_table_enters_a_round_in_japanese(
    live_server: str, new_page: Callable[..., Page], screenshot: Callable[[Page, str], None]
) -> None:
    page = new_page()
    pick_japanese(page, live_server)
    set_up_match(page)
    enter_round_one(page)
    screenshot(page, "ja-01-round")
    save_round(page, 1)

    expect(page.get_by_role("status").first).to_have_text("ラウンド1を保存しました。")
    expect(page.locator(".result-headline")).to_have_text("首位:花子・太郎、2,565点。")
    expect(page.locator(".result")).to_contain_text("残り3ラウンドです。")
    expect(page.locator("#round-1")).to_contain_text("上がり")
    expect(page.locator(".scores caption")).to_have_text("ラウンドごとの得点")
    screenshot(page, "ja-02-standings")
