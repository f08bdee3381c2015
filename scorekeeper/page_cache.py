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

from flask import Flask, current_app, render_template

from scorekeeper.security import csrf_token

# Random, so that no text a user types into a page can stand for it.
CSRF_PLACEHOLDER = f"csrf-placeholder-{secrets.token_hex(16)}"


@dataclass(frozen=True)
class RenderedPage:
    """A page as rendered for one version of what it shows, its CSRF token a placeholder."""

    version: int
    html: str

    def for_request(self) -> str:
        """Return the page with this request's CSRF token in place of the placeholder."""
        return self.html.replace(CSRF_PLACEHOLDER, csrf_token())


class PageCache:
    """The pages rendered last, up to `size` characters in all; the one read longest ago goes
    first. A page stands under a key naming what it shows to whom, with the version it shows."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._pages: OrderedDict[Hashable, RenderedPage] = OrderedDict()
        self._used = 0
        self._lock = threading.Lock()  # the development server serves requests in threads

    def page(self, key: Hashable, version: int, render: Callable[[], RenderedPage]) -> str:
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
        if len(page.html) > self.size:
            return
        with self._lock:
            replaced = self._pages.pop(key, None)
            if replaced is not None and replaced.version > page.version:
                page = replaced  # a later request rendered a later version first
            self._used += len(page.html) - (len(replaced.html) if replaced else 0)
            self._pages[key] = page
            while self._used > self.size:
                _, dropped = self._pages.popitem(last=False)
                self._used -= len(dropped.html)


def render_to_keep(template: str, **context: object) -> str:
    """Render a page to keep: its CSRF token a placeholder, which `RenderedPage` fills in."""
    return render_template(template, csrf_token=lambda: CSRF_PLACEHOLDER, **context)


def init_app(app: Flask) -> None:
    app.extensions["page_cache"] = PageCache(app.config["PAGE_CACHE_SIZE"])


def page_cache() -> PageCache:
    """Return the app's cache of rendered pages."""
    cache: PageCache = current_app.extensions["page_cache"]
    return cache
