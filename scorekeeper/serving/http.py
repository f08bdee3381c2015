"""What every blueprint shares about HTTP: the public id in URLs, the error page, a match or a
club or 404, the check of its edit token, and whether a conditional request names a version."""

from __future__ import annotations

from typing import TypeVar

from flask import Response, abort, current_app, make_response, render_template, request, url_for
from werkzeug.datastructures import ETags
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from scorekeeper import store
from scorekeeper.i18n import http_error_message
from scorekeeper.serving import rate_limit
from scorekeeper.store.links import PUBLIC_ID_LENGTH
from scorekeeper.store.models import Club, Match


class PublicIdConverter(BaseConverter):
    """A match's or a club's public id, matched by its shape (URL-safe base64 of its random
    bytes), so that no other path, such as /api/v1/matches/import, can be read as one."""

    regex = rf"[A-Za-z0-9_-]{{{PUBLIC_ID_LENGTH}}}"


def error_page(error: HTTPException) -> Response:
    """Return an HTTP error as a page in the request's language, with the error's headers."""
    status = error.code or 500
    html = render_template(
        "error.html",
        code=status,
        message=http_error_message(error),
        view_url=_view_url_of_refused_edit_link(status),
    )
    return with_error_headers(make_response(html, status), error)


def _view_url_of_refused_edit_link(status: int) -> str | None:
    """Return the view link of the match whose edit link this request was refused, if it was
    (403, or 429 past the wrong-guess limit): a new edit link may have replaced the one followed,
    and the view link still opens."""
    arguments = request.view_args or {}
    refused = status in (403, 429) and rate_limit.was_match_found()
    if not refused or "public_id" not in arguments or "token" not in arguments:
        return None
    # The view page of the blueprint that refused it: a match's, or a club's.
    return url_for(".view", public_id=arguments["public_id"], _external=True)


def with_error_headers(response: Response, error: HTTPException) -> Response:
    """Return the response with the error's own headers (Allow, Retry-After...), but its type."""
    response.headers.extend(
        (name, value) for name, value in error.get_headers() if name != "Content-Type"
    )
    return response


def match_or_404(public_id: str) -> Match:
    """Return the match with this public id, loaded whole; answer 404 when there is none."""
    match = store.get_match(public_id)
    if match is None:
        abort(404)
    rate_limit.match_found()
    return match


def club_or_404(public_id: str) -> Club:
    """Return the club with this public id, its players loaded; answer 404 when there is none.

    A club's routes name it by `public_id` too, so that the limit on wrong guesses counts them
    as it counts a match's, and is told of a club found as of a match found."""
    club = store.get_club(public_id)
    if club is None:
        abort(404)
    rate_limit.match_found()
    return club


Opened = TypeVar("Opened", Match, Club)


def opened_by(found: Opened, token: str | None) -> Opened:
    """Return the match or club that `token` opens for editing; refuse a wrong token with 403."""
    if not store.token_opens(found, token):
        abort(403)
    return found


def names_version(tags: ETags, version: int, *, weak: bool = False) -> bool:
    """Tell whether If-Match or If-None-Match `tags` name `version`, by the strong comparison or
    (`weak`) the weak one, with or without the encoding that compressing an answer appends."""
    if tags.star_tag:
        return True
    # An empty tag ("") is parsed as None: it names no version.
    named = (tag for tag in tags.as_set(include_weak=weak) if tag is not None)
    return any(_unencoded(tag) == str(version) for tag in named)


def _unencoded(tag: str) -> str:
    # Flask-Compress marks the strong ETag of an answer it compresses: "12" is sent as "12:br".
    bare, colon, encoding = tag.rpartition(":")
    return bare if colon and encoding in _compress_encodings() else tag


def _compress_encodings() -> set[str]:
    algorithms = current_app.config["COMPRESS_ALGORITHM"]
    # Flask-Compress takes its list as "br, gzip" too.
    names = algorithms.split(",") if isinstance(algorithms, str) else algorithms
    return {name.strip() for name in names}
