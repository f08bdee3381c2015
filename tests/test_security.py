"""Security headers on every response, private token pages, robots.txt, production settings."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask, Response, session
from flask.sessions import SecureCookieSessionInterface
from flask.testing import FlaskClient
from itsdangerous import BadSignature, URLSafeTimedSerializer

from scorekeeper import create_app
from scorekeeper.serving.security import (
    CONTENT_SECURITY_POLICY,
    DEFAULT_HSTS_MAX_AGE,
    TOKEN_ARGUMENT,
    InsecureConfiguration,
    is_real_secret_key,
)
from scorekeeper.store.models import db

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateClub, CreateMatch

PRODUCTION = "scorekeeper.config.Production"
REAL_KEY = secrets.token_hex()


def production_app(tmp_path: Path, **config: Any) -> Flask:
    database = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db'}"}
    return create_app({**database, **config}, config_object=PRODUCTION)


def token_urls(app: Flask, public_id: str, token: str) -> list[str]:
    """Return a URL for every GET route that holds an edit token."""
    adapter = app.url_map.bind("localhost")
    known = {"public_id": public_id, TOKEN_ARGUMENT: token}
    return [
        adapter.build(rule.endpoint, {arg: known.get(arg, "1") for arg in rule.arguments})
        for rule in app.url_map.iter_rules()
        if TOKEN_ARGUMENT in rule.arguments and "GET" in (rule.methods or ())
    ]


@pytest.mark.parametrize(
    "url", ["/", "/robots.txt", "/api/v1/presets", "/static/style.css", "/no/such/page"]
)
def test_every_response_carries_the_security_headers_once(client: FlaskClient, url: str) -> None:
    with client.get(url) as response:  # closes the static file it streams
        headers = response.headers
    assert headers.getlist("Content-Security-Policy") == [CONTENT_SECURITY_POLICY]
    assert headers.getlist("X-Content-Type-Options") == ["nosniff"]
    assert headers.getlist("X-Frame-Options") == ["DENY"]
    assert headers.getlist("Referrer-Policy") == ["same-origin"]


@pytest.mark.parametrize("url", ["/", "/no/such/page", "/static/style.css"])
def test_an_answer_over_https_tells_browsers_to_keep_to_https(
    client: FlaskClient, url: str
) -> None:
    with client.get(url, base_url="https://localhost") as response:
        hsts = response.headers.getlist("Strict-Transport-Security")
    assert hsts == [f"max-age={DEFAULT_HSTS_MAX_AGE}"]


def test_an_answer_over_plain_http_has_no_hsts(client: FlaskClient) -> None:
    assert "Strict-Transport-Security" not in client.get("/").headers


def test_hsts_is_off_with_a_max_age_of_zero(app_config: dict[str, Any]) -> None:
    app = create_app({**app_config, "HSTS_MAX_AGE": 0})
    response = app.test_client().get("/", base_url="https://localhost")
    with app.app_context():
        db.engine.dispose()
    assert "Strict-Transport-Security" not in response.headers


@pytest.mark.own_app  # a hook of its own, and its configuration changed
def test_an_answer_that_skips_the_apps_response_hooks_carries_the_security_headers(
    app: Flask,
) -> None:
    @app.after_request
    def failing(response: Response) -> Response:
        raise RuntimeError("a bug in a hook: Flask then answers 500 without the other hooks")

    app.config["PROPAGATE_EXCEPTIONS"] = False  # answer 500 as served, not raise in the test

    response = app.test_client().get("/robots.txt")

    assert response.status_code == 500
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY


@pytest.mark.parametrize(
    "directive",
    ["default-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'"],
)
def test_the_content_security_policy_allows_only_the_site_itself(directive: str) -> None:
    assert directive in CONTENT_SECURITY_POLICY.split("; ")
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY


def test_every_page_reached_with_an_edit_token_stays_out_of_caches_and_search_engines(
    app: Flask, client: FlaskClient, create_match: CreateMatch
) -> None:
    stored = create_match()
    urls = token_urls(app, stored.public_id, stored.edit_token)
    assert urls, "the match pages hold their edit token in the URL"
    for url in urls:
        headers = client.get(url).headers
        assert (url, headers.get("Cache-Control"), headers.get("X-Robots-Tag")) == (
            url,
            "no-store",
            "noindex",
        )


def test_every_page_reached_with_a_clubs_edit_token_is_private_too(
    app: Flask, client: FlaskClient, create_club: CreateClub
) -> None:
    club = create_club()
    urls = [url for url in token_urls(app, club.public_id, club.edit_token) if "/c/" in url]
    assert urls, "the club pages hold their edit token in the URL"
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert (response.headers["Cache-Control"], response.headers["X-Robots-Tag"]) == (
            "no-store",
            "noindex",
        )


def test_a_wrong_token_answer_is_private_too(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    stored = create_match()
    response = client.get(f"/m/{stored.public_id}/edit/not-the-token")
    assert response.headers["Cache-Control"] == "no-store"


def test_an_api_request_with_a_bearer_token_gets_a_private_answer(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    stored = create_match()
    headers = {"Authorization": f"Bearer {stored.edit_token}"}
    response = client.get(f"/api/v1/matches/{stored.public_id}", headers=headers)
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Robots-Tag"] == "noindex"


def test_an_api_answer_that_hands_out_a_new_edit_token_is_private(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    stored = create_match()
    exported = client.get(f"/api/v1/matches/{stored.public_id}/export").get_json()
    imported = client.post("/api/v1/matches/import", json=exported)
    body = {
        "name": "Friday",
        "sides": [{"name": "Us", "players": ["Ann"]}, {"name": "Them", "players": ["Cy"]}],
    }
    created = client.post("/api/v1/matches", json=body)

    for response in (imported, created):
        assert response.status_code == 201, response.get_json()
        assert "edit_token" in response.get_json()
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["X-Robots-Tag"] == "noindex"


def test_a_page_without_a_token_may_be_cached_and_indexed(client: FlaskClient) -> None:
    headers = client.get("/").headers
    assert "X-Robots-Tag" not in headers
    assert headers.get("Cache-Control") != "no-store"


def test_robots_txt_keeps_crawlers_off_edit_pages_and_the_api(client: FlaskClient) -> None:
    response = client.get("/robots.txt")
    assert response.mimetype == "text/plain"
    assert response.text.splitlines() == [
        "User-agent: *",
        "Disallow: /m/*/edit/",
        "Disallow: /c/*/edit/",
        "Disallow: /api/",
    ]


@pytest.mark.parametrize(
    "key",
    [
        None,
        "",
        "dev",
        pytest.param(secrets.token_hex(15), id="random, but 30 characters"),
        "x" * 64,
        b"x" * 64,
        "ab" * 32,
        "0123456789abcdef" * 4,
        "0123456789abcdefghijklmnopqrstuvwxyz",
        "qwertyuiopasdfghjklzxcvbnm1234567890",
        "supersecretkeysupersecretkey1234",
        "scorekeeper-production-secret-2026",
        "a" * 100,
    ],
)
def test_a_short_or_guessable_secret_key_is_not_real(key: str | bytes | None) -> None:
    assert not is_real_secret_key(key)


@pytest.mark.parametrize(
    "make",
    [
        secrets.token_hex,
        secrets.token_urlsafe,
        secrets.token_bytes,
        lambda: secrets.token_hex(16),
        lambda: secrets.token_hex(64),  # longer than zxcvbn estimates
    ],
    ids=["token_hex", "token_urlsafe", "token_bytes", "token_hex(16)", "token_hex(64)"],
)
def test_random_secret_keys_are_real(make: Callable[[], str | bytes]) -> None:
    assert all(is_real_secret_key(make()) for _ in range(20))


@pytest.mark.parametrize("key", [None, "dev", "short", "k" * 64])
def test_production_refuses_to_start_without_a_real_secret_key(
    tmp_path: Path, key: str | None
) -> None:
    with pytest.raises(InsecureConfiguration, match="SECRET_KEY"):
        production_app(tmp_path, SECRET_KEY=key)


def test_production_session_cookies_are_secure_http_only_and_same_site(tmp_path: Path) -> None:
    app = production_app(tmp_path, SECRET_KEY=REAL_KEY)

    @app.get("/probe-session")
    def probe_session() -> str:
        session["seen"] = True
        return ""

    cookie = (
        app.test_client().get("/probe-session", base_url="https://localhost").headers["Set-Cookie"]
    )
    assert {"Secure", "HttpOnly", "SameSite=Lax"} <= {part.strip() for part in cookie.split(";")}


# -- Signing -------------------------------------------------------------------------------------


def session_serializer(app: Flask) -> URLSafeTimedSerializer:
    """Return the serializer that signs the app's session cookies now."""
    serializer = SecureCookieSessionInterface().get_signing_serializer(app)
    assert serializer is not None
    return serializer


@pytest.mark.own_app  # its secret key changed
def test_a_new_secret_key_signs_sessions_at_once_and_reads_old_ones_only_as_a_fallback(
    app: Flask,
) -> None:
    old_key, signed = app.secret_key, session_serializer(app).dumps({"seen": 1})
    app.secret_key = REAL_KEY
    with pytest.raises(BadSignature):
        session_serializer(app).loads(signed)
    app.config["SECRET_KEY_FALLBACKS"] = [old_key]
    assert session_serializer(app).loads(signed) == {"seen": 1}
