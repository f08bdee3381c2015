"""Security headers on every response, private headers on token pages, robots.txt, and the
refusal of a guessable secret key."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from flask import Blueprint, Flask, Response, g, request

if TYPE_CHECKING:
    from _typeshed import OptExcInfo
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

# No inline script or style anywhere: every script and stylesheet is a file under static/.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# Every response leaves with these, and nothing in the app sets them (`SecurityHeaders`).
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
)
# A page reached with an edit token must stay out of caches, search engines and other sites.
PRIVATE_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex"}
HANDS_OUT_TOKEN = "scorekeeper_hands_out_token"  # on g: the response holds a new edit token
TOKEN_ARGUMENT = "token"  # every route that holds an edit token names its URL variable so
ROBOTS_TXT = "User-agent: *\nDisallow: /m/*/edit/\nDisallow: /c/*/edit/\nDisallow: /api/\n"
MIN_SECRET_KEY_LENGTH = 32

bp = Blueprint("security", __name__)


class InsecureConfiguration(RuntimeError):
    """The production configuration lacks something it cannot safely run without."""


def init_app(app: Flask) -> None:
    """Refuse a guessable secret key where one is required, then add the headers and robots.txt."""
    if app.config["REQUIRE_REAL_SECRET_KEY"] and not is_real_secret_key(app.config["SECRET_KEY"]):
        raise InsecureConfiguration(
            "Set SECRET_KEY in the environment to a random value of at least "
            f"{MIN_SECRET_KEY_LENGTH} characters, e.g. from "
            "`python -c 'import secrets; print(secrets.token_hex())'`."
        )
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
    app.register_blueprint(bp)


def is_real_secret_key(key: str | bytes | None) -> bool:
    """Tell whether `key` is long enough to be a random secret rather than a placeholder."""
    return key is not None and len(key) >= MIN_SECRET_KEY_LENGTH


@bp.get("/robots.txt")
def robots_txt() -> Response:
    return Response(ROBOTS_TXT, mimetype="text/plain")


class SecurityHeaders:
    """WSGI middleware that adds the security headers to every response as it starts: Flask's
    own, and any answer made outside its request handling.
    """

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        def start_with_headers(
            status: str, headers: list[tuple[str, str]], exc_info: OptExcInfo | None = None
        ) -> Callable[[bytes], object]:
            headers.extend(SECURITY_HEADERS)
            return start_response(status, headers, exc_info)

        return self.app(environ, start_with_headers)


@bp.after_app_request
def add_private_headers(response: Response) -> Response:
    if carries_credentials():
        response.headers.update(PRIVATE_HEADERS)
    return response


def carries_credentials() -> bool:
    """Tell whether the request holds an edit token, in its URL or as an API bearer token, or
    its response hands one out."""
    return (
        TOKEN_ARGUMENT in (request.view_args or {})
        or "Authorization" in request.headers
        or g.get(HANDS_OUT_TOKEN, False)
    )


def hand_out_token() -> None:
    """Mark the response as holding a new edit token, in its body or its Location, so that it
    leaves with the private headers, as every page reached with one does."""
    setattr(g, HANDS_OUT_TOKEN, True)
