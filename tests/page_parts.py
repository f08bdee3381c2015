"""Read parts of a rendered page as its reader sees them, for the tests of several pages."""

from __future__ import annotations

import html
import json
import re


def recent_entry(page: str) -> dict[str, str]:
    """Return the entry the page has this device add to its recent list."""
    found = re.search(r"data-recent='([^']*)'", page)
    assert found is not None
    return json.loads(html.unescape(found[1]))


def errors_next_to(page: str, field_id: str) -> str:
    """Return the errors shown next to a field, unescaped: a message may hold an apostrophe."""
    errors = re.search(rf'<ul class="field-errors" id="{field_id}-errors">(.*?)</ul>', page, re.S)
    assert errors is not None, f"no errors next to {field_id}"
    return html.unescape(errors[1])
