"""The rules page in a browser: the blank score sheet asks for as many names as it has sides."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_the_blank_sheet_offers_a_name_box_for_each_side_chosen_and_sends_only_those(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    page.goto(f"{live_server}/rules/standard")
    boxes = page.locator("[data-side-name]")
    expect(boxes.filter(visible=True)).to_have_count(2)  # two sides unless told

    page.locator(".numbers .tile", has_text="6").tap()
    expect(boxes.filter(visible=True)).to_have_count(6)
    page.fill("#side-1", "Ann")
    page.fill("#side-6", "Flo")
    page.locator(".numbers .tile", has_text="3").tap()
    expect(boxes.filter(visible=True)).to_have_count(3)
    with page.expect_request("**/sheet.pdf?*") as sent:
        page.get_by_role("button", name="Blank score sheet (PDF)").tap()

    query = parse_qs(urlsplit(sent.value.url).query, keep_blank_values=True)
    assert (query["columns"], query["sides"]) == (["3"], ["Ann", "", ""])
