"""Static files under content-hashed names, kept a year and compressed; pages and JSON
compressed too."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.documents import FORMAT
from scorekeeper.serving.static_files import IMMUTABLE

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch

DECOMPRESS: dict[str, Callable[[bytes], bytes]] = {"br": brotli.decompress, "gzip": gzip.decompress}


def stylesheet_url(app: Flask) -> str:
    with app.test_request_context():
        return app.url_for("static", filename="style.css")


def test_a_static_url_names_its_file_by_its_content(app: Flask) -> None:
    assert re.fullmatch(r"/static/style-[0-9a-f]{32}\.css", stylesheet_url(app))


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_a_hashed_static_file_is_kept_a_year_and_sent_compressed(
    app: Flask, client: FlaskClient, encoding: str
) -> None:
    with client.get(stylesheet_url(app), headers={"Accept-Encoding": encoding}) as response:
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == IMMUTABLE
        assert response.headers["Content-Encoding"] == encoding
        assert response.headers["X-Content-Type-Options"] == "nosniff"  # as every response has


def test_a_static_file_asked_for_by_its_plain_name_is_kept_a_minute(client: FlaskClient) -> None:
    with client.get("/static/style.css") as response:
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "max-age=60, public"


def test_a_page_is_sent_compressed_to_a_browser_that_takes_it(client: FlaskClient) -> None:
    response = client.get("/", headers={"Accept-Encoding": "gzip, br"})

    assert response.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in response.headers["Vary"]


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_a_matchs_json_is_sent_compressed_its_etag_marked_with_the_encoding(
    client: FlaskClient, create_match: CreateMatch, encoding: str
) -> None:
    match = create_match()

    response = client.get(
        f"/api/v1/matches/{match.public_id}", headers={"Accept-Encoding": encoding}
    )

    assert response.headers["Content-Encoding"] == encoding
    assert response.headers["ETag"] == f'"1:{encoding}"'
    assert json.loads(DECOMPRESS[encoding](response.data))["version"] == 1


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_an_exported_match_downloads_compressed(
    client: FlaskClient, create_match: CreateMatch, encoding: str
) -> None:
    match = create_match()

    response = client.get(
        f"/api/v1/matches/{match.public_id}/export", headers={"Accept-Encoding": encoding}
    )

    assert response.headers["Content-Encoding"] == encoding
    assert response.headers["Content-Disposition"].startswith("attachment")
    assert json.loads(DECOMPRESS[encoding](response.data))["format"] == FORMAT


@pytest.mark.parametrize("encoding", ["br", "identity"])
def test_the_service_worker_is_checked_on_each_visit_and_an_unchanged_one_costs_a_304(
    client: FlaskClient, encoding: str
) -> None:
    first = client.get("/sw.js", headers={"Accept-Encoding": encoding})
    again = client.get(
        "/sw.js", headers={"Accept-Encoding": encoding, "If-None-Match": first.headers["ETag"]}
    )

    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-cache"
    assert again.status_code == 304
    assert again.data == b""
