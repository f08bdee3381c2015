"""Rendered pages kept in each worker, for pages that every phone at a table reads again and again.

A match's view page shows only what is stored under one version of the match, so a page rendered
for that version stays right until the version changes: the view checks the version with one
indexed SELECT, and renders again only when the stored page is older. Nothing else is shared
between workers or servers, so several servers on one database stay correct.

A page is kept for one reader set-up (its address, language and paper) and with a placeholder
where the reader's CSRF token goes, which every request fills in with its own.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cached_property

from flask import Flask, current_app, render_template

from scorekeeper.serving.security import csrf_token

# Random, so that no text a user types into a page can stand for it.
CSRF_PLACEHOLDER = f"csrf-placeholder-{secrets.token_hex(16)}"


@dataclass(frozen=True)
class RenderedPage:
    """A page as rendered for one version of what it shows, in UTF-8, cut where its CSRF token
    goes: each request joins the parts with its own token, with no search and no encoding."""

    version: int
    parts: tuple[bytes, ...]

    @cached_property
    def size(self) -> int:
        """Return the page's length in bytes, its tokens left out."""
        return sum(map(len, self.parts))

    @classmethod
    def of(cls, version: int, html: str) -> RenderedPage:
        """Return a page rendered with the CSRF placeholder wherever its token goes."""
        return cls(version, tuple(part.encode() for part in html.split(CSRF_PLACEHOLDER)))

    def for_request(self) -> bytes:
        """Return the page with this request's CSRF token in place of the placeholder."""
        return csrf_token().encode().join(self.parts)


class PageCache:
    """The pages rendered last, up to `size` bytes in all; the one read longest ago goes first.
    A page stands under a key naming what it shows to whom, with the version it shows."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._pages: OrderedDict[Hashable, RenderedPage] = OrderedDict()
        self._used = 0
        self._lock = threading.Lock()  # the development server serves requests in threads

    def page(self, key: Hashable, version: int, render: Callable[[], RenderedPage]) -> bytes:
        """Return the page stored under `key` at `version`, else `render` it and store it."""
        with self._lock:
            stored = self._pages.get(key)
            if stored is not None and stored.version == version:
                self._pages.move_to_end(key)
                return stored.for_request()
        rendered = render()
        self._store(key, rendered)
        return rendered.for_request()

    def _store(self, key: Hashable, page: RenderedPage) -> None:
        if page.size > self.size:
            return
        with self._lock:
            replaced = self._pages.pop(key, None)
            if replaced is not None and replaced.version > page.version:
                page = replaced  # a later request rendered a later version first
            self._used += page.size - (replaced.size if replaced else 0)
            self._pages[key] = page
            while self._used > self.size:
                _, dropped = self._pages.popitem(last=False)
                self._used -= dropped.size


def render_to_keep(template: str, **context: object) -> str:
    """Render a page to keep: its CSRF token a placeholder, which `RenderedPage` fills in."""
    return render_template(template, csrf_token=lambda: CSRF_PLACEHOLDER, **context)


def init_app(app: Flask) -> None:
    app.extensions["page_cache"] = PageCache(app.config["PAGE_CACHE_SIZE"])


def page_cache() -> PageCache:
    """Return the app's cache of rendered pages."""
    cache: PageCache = current_app.extensions["page_cache"]
    return cache
