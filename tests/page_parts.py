"""Read parts of a rendered page as its reader sees them, for the tests of several pages."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any


def recent_entry(page: str) -> dict[str, str]:
    """Return the entry the page has this device add to its recent list."""
    entry: dict[str, str] = data_json(page, "recent")
    return entry


def data_json(page: str, name: str) -> Any:
    """Return the JSON that the page's first `data-<name>` attribute holds, for its scripts."""
    found = re.search(rf"data-{name}='([^']*)'", page)
    assert found is not None, f"no data-{name}"
    return json.loads(html.unescape(found[1]))


def errors_next_to(page: str, field_id: str) -> str:
    """Return the errors shown next to a field, unescaped: a message may hold an apostrophe."""
    errors = re.search(rf'<ul class="field-errors" id="{field_id}-errors">(.*?)</ul>', page, re.S)
    assert errors is not None, f"no errors next to {field_id}"
    return html.unescape(errors[1])


class _FormReader(HTMLParser):
    """Collects what a browser would post for the form that posts to `action`."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action
        self.values: dict[str, str] = {}
        self._select: str | None = None
        self._in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        name = attributes.get("name")
        if tag == "form":
            self._in_form = attributes.get("action") == self.action
        elif not self._in_form or "disabled" in attributes or (name is None and tag != "option"):
            return
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select is not None:
            # A list posts its chosen option, or its first when none is chosen.
            if "selected" in attributes or self._select not in self.values:
                self.values[self._select] = attributes.get("value") or ""
        elif tag == "input" and name is not None and attributes.get("type") != "submit":
            checkable = attributes.get("type") in ("radio", "checkbox")
            if not checkable or "checked" in attributes:
                self.values[name] = attributes.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._in_form = False


def posted_form(page: str, action: str) -> dict[str, str]:
    """Return what the page's form that posts to `action` sends as it stands: each box's value,
    the chosen radio button and option of each group, hidden fields included."""
    reader = _FormReader(action)
    reader.feed(page)
    return reader.values
