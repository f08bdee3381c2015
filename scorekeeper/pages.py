"""Blueprint for the pages that are not about one match, and the error page."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, render_template
from werkzeug.exceptions import HTTPException

from scorekeeper.i18n import http_error_message

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> str:
    return render_template("index.html")


def error_page(error: HTTPException) -> Response:
    """Return an HTTP error as a page in the request's language, with the error's headers."""
    status = error.code or 500
    html = render_template("error.html", code=status, message=http_error_message(error))
    response = make_response(html, status)
    response.headers.extend(
        (name, value) for name, value in error.get_headers() if name != "Content-Type"
    )
    return response
