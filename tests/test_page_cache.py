"""The view page's cache: a page kept per version of its match, language, paper and address,
with each reader's own CSRF token, never showing a match older than the stored one."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry, SideEntry
from scorekeeper.serving import security
from scorekeeper.web.page_cache import CSRF_PLACEHOLDER, PageCache, RenderedPage

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, StoredMatch

WENT_OUT = SideEntry("", clean_books=2, dirty_books=2, melded=765, red_threes=1, went_out=True)
STAYED_IN = SideEntry("", clean_books=1, melded=310, red_threes=1, leftover=85)


def page(version: int, size: int = 10) -> RenderedPage:
    return RenderedPage.of(version, "x" * size)


# -- The cache itself ----------------------------------------------------------------------------


def test_a_kept_page_is_served_until_its_version_changes(app: Flask) -> None:
    cache = PageCache(size=100)
    renders: list[int] = []

    def render(version: int) -> RenderedPage:
        renders.append(version)
        return RenderedPage.of(version, f"page {version}")

    with app.test_request_context():
        assert cache.page("m", 1, lambda: render(1)) == b"page 1"
        assert cache.page("m", 1, lambda: render(1)) == b"page 1"
        assert cache.page("m", 2, lambda: render(2)) == b"page 2"
    assert renders == [1, 2]


def test_the_page_read_longest_ago_goes_first_when_the_cache_is_full(app: Flask) -> None:
    cache = PageCache(size=30)
    with app.test_request_context():
        for key in "abc":
            cache.page(key, 1, lambda: page(1))
        cache.page("a", 1, lambda: pytest.fail("a is kept"))  # a is now the latest read
        cache.page("d", 1, lambda: page(1))  # 40 characters: b, read longest ago, goes
    assert list(cache._pages) == ["c", "a", "d"]
    assert cache._used == 30


def test_a_page_larger_than_the_whole_cache_is_served_but_not_kept(app: Flask) -> None:
    cache = PageCache(size=5)
    with app.test_request_context():
        assert cache.page("big", 1, lambda: page(1, size=6)) == b"x" * 6
    assert not cache._pages


def test_a_page_rendered_late_never_replaces_a_later_version(app: Flask) -> None:
    cache = PageCache(size=100)
    with app.test_request_context():
        cache.page("m", 3, lambda: page(3))
        # A request that read version 2 renders while another already kept version 3.
        cache.page("m", 2, lambda: page(2))
    assert cache._pages["m"].version == 3


def test_each_request_gets_its_own_csrf_token_in_place_of_the_placeholder(app: Flask) -> None:
    cache = PageCache(size=1000)
    tokens = set()
    for _ in range(2):
        with app.test_request_context():
            html = cache.page("m", 1, lambda: RenderedPage.of(1, f"<i>{CSRF_PLACEHOLDER}</i>"))
            tokens.add(html)
            assert CSRF_PLACEHOLDER.encode() not in html
    assert len(tokens) == 2  # two sessions, two tokens


def test_a_page_is_kept_in_utf_8_and_counted_in_bytes(app: Flask) -> None:
    cache = PageCache(size=100)
    kept = RenderedPage.of(1, f"<p>得点 {CSRF_PLACEHOLDER} · {CSRF_PLACEHOLDER}</p>")
    assert kept.size == len("<p>得点  · </p>".encode())
    with app.test_request_context():
        html = cache.page("m", 1, lambda: kept).decode()
        token = security.csrf_token()
    assert html == f"<p>得点 {token} · {token}</p>"
    assert cache._used == kept.size


# -- The view page -------------------------------------------------------------------------------


def view_page(client: FlaskClient, match: StoredMatch, **headers: str) -> str:
    response = client.get(f"/m/{match.public_id}", headers=headers)
    assert response.status_code == 200
    assert response.content_type == "text/html; charset=utf-8"
    return response.get_data(as_text=True)


def csrf_token(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def enter_round(app: Flask, match: StoredMatch, number: int) -> None:
    with app.app_context():
        stored = store.get_match(match.public_id)
        assert stored is not None
        store.add_round(stored, RoundEntry(number, (WENT_OUT, STAYED_IN), 0))


def test_the_view_page_shows_every_round_the_moment_it_is_stored(
    app: Flask, client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    assert "No round entered yet." in view_page(client, match)
    enter_round(app, match, 1)
    assert "Leading: Us, with 2,565 points." in view_page(client, match)
    enter_round(app, match, 2)
    assert "Leading: Us, with 5,130 points." in view_page(client, match)


def test_a_kept_view_page_carries_a_token_that_works_for_its_own_reader(
    app: Flask, create_match: CreateMatch
) -> None:
    match = create_match()
    first, second = app.test_client(), app.test_client()
    view_page(first, match)  # rendered and kept
    token = csrf_token(view_page(second, match))
    assert token != csrf_token(view_page(first, match))
    answer = second.post(
        "/language", data={"csrf_token": token, "lang": "nl", "next": f"/m/{match.public_id}"}
    )
    assert answer.status_code == 303


def test_a_view_page_is_kept_apart_for_each_language_paper_and_address(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    english = view_page(client, match, **{"Accept-Language": "en-GB"})
    dutch = view_page(client, match, **{"Accept-Language": "nl"})
    assert 'lang="en"' in english and 'lang="nl"' in dutch
    american = view_page(client, match, **{"Accept-Language": "en-US"})
    assert re.search(r'value="a4" checked', english)
    assert re.search(r'value="letter" checked', american)
    elsewhere = view_page(client, match, Host="scores.example")
    assert f"http://scores.example/m/{match.public_id}" in elsewhere
    assert f"http://localhost/m/{match.public_id}" in view_page(client, match)


def test_an_unknown_match_is_not_found(client: FlaskClient) -> None:
    assert client.get("/m/no-such-match").status_code == 404


def test_a_message_waiting_for_the_reader_is_shown_once_on_a_kept_view_page(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    match = create_match()
    view_page(client, match)  # rendered and kept
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Saved on the other phone.")]

    assert "Saved on the other phone." in view_page(client, match)
    assert "Saved on the other phone." not in view_page(client, match)
