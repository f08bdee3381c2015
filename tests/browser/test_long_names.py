"""Long names typed without spaces, and each language's longest words, still fit a phone's
screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from scorekeeper.domain.rules import PRESETS
from scorekeeper.i18n import LANGUAGES

pytestmark = pytest.mark.browser

LONG = "Long" * 15  # 60 characters, the most a name may have, and no place to break
TEAMS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
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


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_round_form_fits_a_small_phone_in_every_language(
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    new_page: Callable[..., Page],
    language: str,
) -> None:
    small_phone = {"width": 360, "height": 740}
    page = new_page(
        {"viewport": small_phone, "has_touch": True, "is_mobile": True, "locale": language}
    )
    for preset in PRESETS:  # each asks for fields of its own: red threes melded or held, ...
        links = stored_match({"name": "Small", "rules": {"preset": preset}, "sides": TEAMS})

        page.goto(f"{links['edit_url']}/rounds/new")

        assert page.locator("html").get_attribute("lang") == language
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{language}, {preset}: the round form is {width}px wide on 360px"
