"""A match's or a club's links to share, and their QR codes, drawn on the server as inline SVG:
no image service sees them."""

from __future__ import annotations

from collections.abc import Mapping

import segno
from flask import url_for
from flask_babel import gettext
from markupsafe import Markup

# Medium error correction survives a smudged or glare-lit phone screen; a scale of 4 units per
# module keeps the SVG's numbers whole (the page sizes the drawing itself).
ERROR_CORRECTION = "m"
MODULE_SCALE = 4


def qr_svg(data: str, *, title: str) -> str:
    """Return an SVG element that draws `data` as a QR code, its `title` read by screen readers.

    segno escapes the title; the dark modules sit on a white quiet zone so that a phone reads the
    code even on a dark page.
    """
    return segno.make(data, error=ERROR_CORRECTION).svg_inline(
        scale=MODULE_SCALE, title=title, svgclass="qr", lineclass=None, omitsize=True, light="#fff"
    )


def link_codes(links: Mapping[str, str]) -> dict[str, Markup]:
    """Return the QR code of each link to share by its role, "edit" or "view", titled so."""
    titles = {"edit": gettext("Edit link"), "view": gettext("View link")}
    return {role: Markup(qr_svg(url, title=titles[role])) for role, url in links.items()}


def links_to_share(public_id: str, token: str) -> dict[str, str]:
    """Return the edit link and the view link of the match or club the request's blueprint
    serves: each serves its edit page as `.edit` and its view page as `.view`."""
    return {
        "edit": url_for(".edit", public_id=public_id, token=token, _external=True),
        "view": url_for(".view", public_id=public_id, _external=True),
    }
