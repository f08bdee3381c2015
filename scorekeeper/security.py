"""Security headers on every response, private headers on token pages, and robots.txt."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, request

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
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
# A page reached with an edit token must stay out of caches, search engines and other sites.
PRIVATE_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex"}
TOKEN_ARGUMENT = "token"  # every route that holds an edit token names its URL variable so
ROBOTS_TXT = "User-agent: *\nDisallow: /m/*/edit/\nDisallow: /api/\n"
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
    app.register_blueprint(bp)


def is_real_secret_key(key: str | bytes | None) -> bool:
    """Tell whether `key` is long enough to be a random secret rather than a placeholder."""
    return key is not None and len(key) >= MIN_SECRET_KEY_LENGTH


@bp.get("/robots.txt")
def robots_txt() -> Response:
    return Response(ROBOTS_TXT, mimetype="text/plain")


@bp.after_app_request
def add_security_headers(response: Response) -> Response:
    response.headers.update(SECURITY_HEADERS)
    if carries_credentials():
        response.headers.update(PRIVATE_HEADERS)
    return response


def carries_credentials() -> bool:
    """Tell whether the request holds an edit token, in its URL or as an API bearer token."""
    return TOKEN_ARGUMENT in (request.view_args or {}) or "Authorization" in request.headers
