"""Security headers on every response, HSTS on those that went out over HTTPS, private headers on
token pages, robots.txt, and the refusal of a guessable secret key."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from flask import Blueprint, Flask, Response, g, request
from zxcvbn import zxcvbn

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
Headers = tuple[tuple[str, str], ...]
# Every response leaves with these, and nothing in the app sets them (`SecurityHeaders`).
SECURITY_HEADERS: Headers = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
)
# Seconds a browser that saw the app over HTTPS keeps to HTTPS (HSTS): two years, as browsers'
# preload lists ask. Not for subdomains: other sites of the domain may still need plain HTTP.
DEFAULT_HSTS_MAX_AGE = 2 * 365 * 24 * 60 * 60
# A page reached with an edit token must stay out of caches, search engines and other sites.
PRIVATE_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex"}
HANDS_OUT_TOKEN = "scorekeeper_hands_out_token"  # on g: the response holds a new edit token
TOKEN_ARGUMENT = "token"  # every route that holds an edit token names its URL variable so
ROBOTS_TXT = "User-agent: *\nDisallow: /m/*/edit/\nDisallow: /c/*/edit/\nDisallow: /api/\n"
MIN_SECRET_KEY_LENGTH = 32
# zxcvbn's estimate of the guesses a key takes, as a power of ten. Every random key of 16 bytes or
# more, written in hex or base64, scores above it (zxcvbn underrates random hex: some 26 at
# worst for 16 bytes, 57 for `secrets.token_hex()`), while repeated characters or patterns,
# sequences, keyboard rows and repeated words score far below, long as they are.
MIN_SECRET_KEY_GUESSES_LOG10 = 25
SCORED_LENGTH = 72  # zxcvbn estimates at most this many characters

bp = Blueprint("security", __name__)


class InsecureConfiguration(RuntimeError):
    """The production configuration lacks something it cannot safely run without."""


def init_app(app: Flask) -> None:
    """Refuse a guessable secret key where one is required, then add the headers and robots.txt."""
    if app.config["REQUIRE_REAL_SECRET_KEY"] and not is_real_secret_key(app.config["SECRET_KEY"]):
        raise InsecureConfiguration(
            "Set SECRET_KEY in the environment to a random value of at least "
            f"{MIN_SECRET_KEY_LENGTH} characters, not a pattern, a sequence or words, e.g. from "
            "`python -c 'import secrets; print(secrets.token_hex())'`."
        )
    max_age = app.config.setdefault("HSTS_MAX_AGE", DEFAULT_HSTS_MAX_AGE)
    hsts = (("Strict-Transport-Security", f"max-age={max_age}"),) if max_age else ()
    app.wsgi_app = SecurityHeaders(app.wsgi_app, hsts)  # type: ignore[method-assign]
    app.register_blueprint(bp)


def is_real_secret_key(key: str | bytes | None) -> bool:
    """Tell whether `key` is a random secret rather than a placeholder: long enough, and hard
    to guess by zxcvbn's estimate, which sees through a long key made of one character, a short
    pattern repeated, a sequence or a few words."""
    if key is None or len(key) < MIN_SECRET_KEY_LENGTH:
        return False
    text = key.decode("latin-1") if isinstance(key, bytes) else key  # every byte a character
    guesses_log10: float = zxcvbn(text[:SCORED_LENGTH])["guesses_log10"]
    return guesses_log10 >= MIN_SECRET_KEY_GUESSES_LOG10


@bp.get("/robots.txt")
def robots_txt() -> Response:
    return Response(ROBOTS_TXT, mimetype="text/plain")


class SecurityHeaders:
    """WSGI middleware that adds the security headers to every response as it starts: Flask's
    own, and any answer made outside its request handling; and `hsts` (Strict-Transport-Security,
    if on) to those that go out over HTTPS.

    The request came over HTTPS when gunicorn says so: from its own TLS, or from a proxy listed
    in FORWARDED_ALLOW_IPS that sent `X-Forwarded-Proto: https`. Over plain HTTP the header
    would mean nothing to a browser, and from anyone else it could be a client's claim.
    """

    def __init__(self, app: WSGIApplication, hsts: Headers) -> None:
        self.app = app
        self.hsts = hsts

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        over_https = environ.get("wsgi.url_scheme") == "https"
        added = SECURITY_HEADERS + self.hsts if over_https else SECURITY_HEADERS

        def start_with_headers(
            status: str, headers: list[tuple[str, str]], exc_info: OptExcInfo | None = None
        ) -> Callable[[bytes], object]:
            headers.extend(added)
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
