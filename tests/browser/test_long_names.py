"""Names typed without spaces, as long as a name may be, still fit a phone's screen."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

LONG = "Long" * 15  # 60 characters, the most a name may have, and no place to break


def stored_match(base_url: str) -> dict[str, str]:
    """Store a match whose name, first side and first player are each LONG; return its links."""
    sides = [{"name": LONG, "players": [LONG, "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
    body = json.dumps({"name": LONG, "rules": {"preset": "standard"}, "sides": sides}).encode()
    request = urllib.request.Request(
        f"{base_url}/api/v1/matches", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        created: dict[str, str] = json.load(response)
    return created


def test_long_names_wrap_rather_than_widen_the_page(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    links = stored_match(live_server)
    page = new_page()
    edit = links["edit_url"]
    for url in (edit, f"{edit}/rounds/new", f"{edit}/share", links["view_url"]):
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{url} is {width}px wide on a 390px screen"
