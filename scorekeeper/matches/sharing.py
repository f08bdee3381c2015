"""A match's links: shown to share, and this device's list of the matches it opened."""

from __future__ import annotations

from flask import render_template, url_for
from flask_babel import gettext
from markupsafe import Markup

from scorekeeper.matches.blueprint import bp, editable_match
from scorekeeper.qr import qr_svg


@bp.get("/m/<public_id>/edit/<token>/share")
def share(public_id: str, token: str) -> str:
    match = editable_match(public_id, token)
    links = {
        "edit": url_for(".edit", public_id=public_id, token=token, _external=True),
        "view": url_for(".view", public_id=public_id, _external=True),
    }
    titles = {"edit": gettext("Edit link"), "view": gettext("View link")}
    codes = {role: Markup(qr_svg(url, title=titles[role])) for role, url in links.items()}
    return render_template("matches/share.html", match=match, token=token, links=links, codes=codes)


@bp.get("/recent")
def recent() -> str:
    return render_template("matches/recent.html")
