"""Names typed without spaces, as long as a name may be, still fit a phone's screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

LONG = "Long" * 15  # 60 characters, the most a name may have, and no place to break
SIDES = [{"name": LONG, "players": [LONG, "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]


def test_long_names_wrap_rather_than_widen_the_page(
    stored_match: Callable[[dict[str, object]], dict[str, str]], new_page: Callable[..., Page]
) -> None:
    # The match's name, its first side and that side's first player are each LONG.
    links = stored_match({"name": LONG, "rules": {"preset": "standard"}, "sides": SIDES})
    page = new_page()
    edit = links["edit_url"]
    for url in (edit, f"{edit}/rounds/new", f"{edit}/share", links["view_url"]):
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{url} is {width}px wide on a 390px screen"
