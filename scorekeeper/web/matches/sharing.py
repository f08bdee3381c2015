"""A match's links: shown to share, replaced by a new edit link, or made for an imported match;
and this device's list of the matches it opened."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response

from scorekeeper import store
from scorekeeper.domain.problems import ProblemsError
from scorekeeper.serving.http import error_page, match_or_404
from scorekeeper.serving.security import hand_out_token
from scorekeeper.web.forms import ImportForm, NewEditLinkForm, add_error
from scorekeeper.web.matches.blueprint import Page, bp, editable_match
from scorekeeper.web.qr import link_codes, links_to_share


@bp.get("/m/<public_id:public_id>/edit/<token>/share")
def share(public_id: str, token: str) -> str:
    match = editable_match(public_id, token)
    links = links_to_share(public_id, token)
    codes = link_codes(links)
    return render_template("matches/share.html", match=match, token=token, links=links, codes=codes)


@bp.app_template_global()
def new_edit_link_form() -> NewEditLinkForm:
    """Return the form that asks for a new edit link, with an operation id of its own."""
    return NewEditLinkForm(formdata=None)  # never the id of a form this request posted


@bp.post("/m/<public_id:public_id>/edit/<token>/new-link")
def new_edit_link(public_id: str, token: str) -> Response:
    """Give the match a new edit link and show it; the old one stops opening the match.

    A repeat of the form (a double tap, a resent page) shows the same new link again, although
    the token in its URL no longer opens the match.
    """
    match = match_or_404(public_id)
    form = NewEditLinkForm()
    if not form.validate():
        abort(400)
    try:
        new_token = store.rotate_token_once(
            match,
            token,
            operation_id=form.operation.data or None,
            secret=current_app.config["SECRET_KEY"],
        )
    except store.TokenRefused:
        abort(403)
    except store.OperationIdRefused:
        abort(400)
    flash(
        gettext(
            "Here is the new edit link; the old one no longer opens the match. "
            "Send the new one to whoever else keeps the score."
        )
    )
    return redirect(url_for(".share", public_id=public_id, token=new_token), 303)


@bp.route("/matches/import", methods=["GET", "POST"])
def import_match() -> Page | Response:
    form = ImportForm()
    if not form.is_submitted():
        return import_page(form)
    if not form.validate() or form.document is None:
        return import_page(form), 422
    try:
        created = store.import_match(form.document)
    except ProblemsError as error:
        form.show_problems(error.problems)
        return import_page(form), 422
    flash(
        gettext(
            "The match is imported as a new one, with links of its own. "
            "Keep the edit link: it is the only way to enter scores."
        )
    )
    url = url_for(".share", public_id=created.match.public_id, token=created.edit_token)
    hand_out_token()
    return redirect(url, 303)


def import_page(form: ImportForm) -> str:
    return render_template("matches/import.html", form=form)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> Page | Response:
    """Refuse a file too large to be a match's export next to the import form's file field."""
    if request.endpoint != "matches.import_match":
        return error_page(error)  # no other form of these pages comes near the limit
    form = ImportForm(formdata=None)
    most = current_app.config["MAX_CONTENT_LENGTH"] // 1024
    message = gettext(
        "This file is larger than a match's export can be (%(most)s kB): "
        "choose the file the match's page downloaded.",
        most=most,
    )
    add_error(form.file, message)
    return import_page(form), 413


@bp.get("/recent")
def recent() -> str:
    return render_template("matches/recent.html")
