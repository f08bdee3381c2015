"""Security headers on every response, private headers on token pages, robots.txt, and the
signing of session cookies and CSRF tokens."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Flask, Response, current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import Serializer, URLSafeTimedSerializer, base64_encode

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
ROBOTS_TXT = "User-agent: *\nDisallow: /m/*/edit/\nDisallow: /api/\n"
MIN_SECRET_KEY_LENGTH = 32
# Shorter payloads are signed uncompressed: here they are a CSRF token, or a session holding
# little more than one, random hex that zlib cannot shorten; and each try at it sets up a
# quarter megabyte of zlib state, which costs more than the signing itself.
COMPRESS_FROM = 128
CSRF_SALT = "wtf-csrf-token"  # flask_wtf's, with which its validate_csrf checks a token
CSRF_FIELD = "csrf_token"  # flask_wtf's default WTF_CSRF_FIELD_NAME

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
    app.session_interface = SessionCookies()
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

    Headers are constants here, so they are appended as they are, where a Flask response checks
    and replaces each one: that took about a fiftieth of a round submission's instructions.
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


class CompactSerializer(URLSafeTimedSerializer):
    """itsdangerous' URL-safe timed serializer, which leaves a short payload uncompressed.

    Its output is what itsdangerous writes without compression, so every reader of either kind
    reads it."""

    def dump_payload(self, obj: Any) -> bytes:
        payload = Serializer.dump_payload(self, obj)
        if len(payload) < COMPRESS_FROM:
            return base64_encode(payload)
        return super().dump_payload(obj)


class SessionCookies(SecureCookieSessionInterface):
    """Flask's signed session cookie, signed by one serializer per set of keys instead of a new
    one each time a request reads and writes it."""

    def __init__(self) -> None:
        self._signing: tuple[tuple[object, ...], URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ()))
        signing = self._signing
        if signing is None or signing[0] != keys:
            signing = self._signing = (keys, self._new_serializer(app))
        return signing[1]

    def _new_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        flasks = super().get_signing_serializer(app)
        if flasks is None:
            return None
        return CompactSerializer(
            flasks.secret_keys,
            salt=self.salt,
            serializer=self.serializer,
            signer_kwargs=flasks.signer_kwargs,
        )


def csrf_token() -> str:
    """Return the request's signed CSRF token: the one flask_wtf's `generate_csrf` gives and
    its `validate_csrf` checks, from a serializer kept per key rather than built per call."""
    config = current_app.config
    field = config.get("WTF_CSRF_FIELD_NAME", CSRF_FIELD)
    token: str | None = g.get(field)
    if token is None:
        secret_key = config.get("WTF_CSRF_SECRET_KEY", current_app.secret_key)
        if not secret_key:
            raise RuntimeError("A secret key is required to use CSRF.")
        if field not in session:
            session[field] = secrets.token_hex(20)  # as random and as long as flask_wtf's
        token = _csrf_serializer(secret_key).dumps(session[field])
        setattr(g, field, token)
    return token


@lru_cache(maxsize=8)
def _csrf_serializer(secret_key: str | bytes) -> CompactSerializer:
    return CompactSerializer(secret_key, salt=CSRF_SALT)
