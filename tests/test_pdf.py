"""PDF rendering: only the project's static files are fetched, fonts are shared, PDFs are cached."""

from __future__ import annotations

import io
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from pypdf import PdfReader
from weasyprint.text.fonts import FontConfiguration

from scorekeeper import create_app
from scorekeeper.printing import pdf
from scorekeeper.printing.pdf import (
    DRAWING_URL_PREFIX,
    ORIGIN,
    RefusedURL,
    StaticOnlyFetcher,
    drawing_url,
)

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch

# Each test is about what its app's renderer keeps (its cache, its slots), or fakes its renders.
pytestmark = pytest.mark.own_app


@pytest.fixture
def fetcher(app: Flask) -> StaticOnlyFetcher:
    return app.extensions["pdf"].fetcher


@pytest.fixture
def http_server() -> Iterator[tuple[str, list[str]]]:
    """Serve anything on a local port and record each path asked for."""
    requested: list[str] = []

    class Recorder(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            requested.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"root:x:0:0:secret")

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", requested
    server.shutdown()
    thread.join()
    server.server_close()


def pdf_text(document: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(document)).pages)


def test_the_fetcher_serves_a_static_file(fetcher: StaticOnlyFetcher, app: Flask) -> None:
    response = fetcher.fetch(fetcher.url_for("print.css"))
    assert response.read() == (Path(app.static_folder or "") / "print.css").read_bytes()
    assert response.content_type == "text/css"


def test_the_fetcher_gives_a_drawing_the_svg_its_url_carries(fetcher: StaticOnlyFetcher) -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><title>Löwe · 점수</title></svg>'
    response = fetcher.fetch(drawing_url(svg))
    assert response.read() == svg.encode()
    assert response.content_type == "image/svg+xml"


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://127.0.0.1:9/secret",
        "https://example.com/font.woff2",
        "ftp://example.com/file",
        "data:text/css,body{}",
        "data:image/svg+xml,<svg/>",
        f"{DRAWING_URL_PREFIX}not base64!",
        "data:image/svg+xml;base64;charset=utf-8,PHN2Zy8+",
        f"{ORIGIN}/static/../pyproject.toml",
        f"{ORIGIN}/static/%2e%2e/pyproject.toml",
        f"{ORIGIN}/static/missing.css",
        f"{ORIGIN}/pyproject.toml",
        f"{ORIGIN}.example.com/static/print.css",
    ],
)
def test_the_fetcher_refuses_every_url_but_a_static_file(
    fetcher: StaticOnlyFetcher, url: str
) -> None:
    with pytest.raises(RefusedURL):
        fetcher.fetch(url)


def test_a_hostile_document_fetches_nothing_and_shows_no_file(
    app: Flask, http_server: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    origin, requested = http_server
    asked: list[str] = []
    refuse = StaticOnlyFetcher.fetch

    def spy(self: StaticOnlyFetcher, url: str, headers: object = None) -> object:
        asked.append(url)
        return refuse(self, url)

    monkeypatch.setattr(StaticOnlyFetcher, "fetch", spy)
    html = f"""<html><head>
      <link rel="stylesheet" href="{origin}/linked.css">
      <style>@import url("{origin}/imported.css");
        @font-face {{ font-family: Remote; src: url("{origin}/font.woff2"); }}
        body {{ background: url("file:///etc/passwd"); font-family: Remote; }}</style>
      </head><body><p>Still renders</p>
      <img src="file:///etc/passwd"><img src="{origin}/image.png">
      <object data="{origin}/object"></object><iframe src="{origin}/frame"></iframe>
    </body></html>"""
    with app.app_context():
        document = pdf.render_pdf(html)
    assert requested == []
    assert any(url.startswith("file:") for url in asked)
    assert any(url.startswith(origin) for url in asked)
    text = pdf_text(document)
    assert "Still renders" in text and "root:x" not in text


def test_renders_reuse_the_apps_font_configuration(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    created: list[FontConfiguration] = []
    create = FontConfiguration.__init__

    def spy(self: FontConfiguration) -> None:
        created.append(self)
        create(self)

    monkeypatch.setattr(FontConfiguration, "__init__", spy)
    with app.app_context():
        pdf.render_pdf("<p>one</p>")
        pdf.render_pdf("<p>two</p>")
    assert created == []


def test_the_app_imports_weasyprint_when_it_starts_not_on_the_first_pdf(tmp_path: Path) -> None:
    script = f"""
import sys
import scorekeeper
before = "weasyprint" in sys.modules
scorekeeper.create_app({{"SQLALCHEMY_DATABASE_URI": "sqlite:///{tmp_path / "app.sqlite"}"}})
print(before, "weasyprint" in sys.modules)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stdout.split() == ["False", "True"], result.stderr


def test_the_app_logs_which_font_subsetter_pdfs_use(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="scorekeeper.printing.pdf"):
        pdf.init_app(app)
    subsetter = "HarfBuzz" if pdf.font_subsetter() == "harfbuzz" else "fontTools"
    assert f"subset by {subsetter}" in caplog.text


def test_the_debian_subsetter_is_installed_as_make_promises() -> None:
    # `make run` and `make test` install libharfbuzz-subset0; without it PDFs render 2-6x slower.
    assert pdf.font_subsetter() == "harfbuzz"


@pytest.fixture
def rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    """Render a document's HTML as its PDF, to see which renders the cache spares."""
    monkeypatch.setattr(pdf, "render_pdf", lambda html: html.encode())


def test_the_cache_renders_a_key_once(app: Flask, rendering: None) -> None:
    with app.test_request_context("/"):
        assert pdf.cached_pdf(("card",), lambda: "1") == b"1"
        assert pdf.cached_pdf(("card",), lambda: "2") == b"1"


def test_the_cache_forgets_the_least_recently_used_pdf(
    app_config: dict[str, object], rendering: None
) -> None:
    app = create_app({**app_config, "PDF_CACHE_SIZE": 2})
    with app.test_request_context("/"):
        for key in ("a", "b", "a", "c"):  # "a" was used after "b", so "b" goes
            pdf.cached_pdf((key,), lambda key=key: key)
        assert pdf.cached_pdf(("a",), lambda: "a again") == b"a"
        assert pdf.cached_pdf(("b",), lambda: "b again") == b"b again"


def test_a_cached_pdf_is_rendered_again_in_another_language(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[str] = []
    monkeypatch.setattr(pdf, "render_pdf", lambda html: rendered.append(html) or b"%PDF")
    with app.test_request_context("/"):
        for language in ("en", "en", "ja"):
            with force_locale(language):
                pdf.cached_pdf(("card", "standard"), lambda: "<p>card</p>")
    assert len(rendered) == 2


# -- Renders at once ---------------------------------------------------------------------------


def slots_of(app: Flask) -> pdf.RenderSlots:
    slots: pdf.RenderSlots = app.extensions["pdf"].slots
    return slots


def test_a_pdf_asked_for_while_every_render_slot_is_taken_answers_503_at_once(
    app: Flask, client: FlaskClient, create_match: CreateMatch, rendering: None
) -> None:
    public_id = create_match().public_id
    cached = client.get("/rules/standard/card.pdf")
    with slots_of(app).slot():
        busy = client.get(f"/m/{public_id}/report.pdf")
        served = client.get("/rules/standard/card.pdf")
    after = client.get(f"/m/{public_id}/report.pdf")

    assert (busy.status_code, busy.headers["Retry-After"]) == (503, "5")
    assert "Other PDFs are being made right now" in busy.text
    assert busy.mimetype == "text/html"
    assert (cached.status_code, served.status_code, after.status_code) == (200, 200, 200)
    assert served.data == cached.data


def test_a_report_refused_while_busy_reads_only_its_matchs_row(
    app: Flask,
    client: FlaskClient,
    create_match: CreateMatch,
    statements: list[str],
    rendering: None,
) -> None:
    public_id = create_match().public_id
    with slots_of(app).slot():
        statements.clear()
        busy = client.get(f"/m/{public_id}/report.pdf")

    assert busy.status_code == 503
    assert [sql for sql in statements if "FROM side" in sql or "FROM round" in sql] == []


def test_a_cached_report_is_served_while_busy(
    app: Flask, client: FlaskClient, create_match: CreateMatch, rendering: None
) -> None:
    public_id = create_match().public_id
    rendered = client.get(f"/m/{public_id}/report.pdf")
    with slots_of(app).slot():
        again = client.get(f"/m/{public_id}/report.pdf")

    assert (rendered.status_code, again.status_code) == (200, 200)
    assert again.data == rendered.data


def test_threads_of_one_process_take_a_slot_each(app: Flask) -> None:
    with slots_of(app).slot(), pytest.raises(pdf.PdfRendersBusy), slots_of(app).slot():
        pass


def test_as_many_renders_as_configured_run_at_once(app_config: dict[str, object]) -> None:
    slots = slots_of(create_app({**app_config, "PDF_RENDERS_AT_ONCE": 2}))
    with slots.slot(), slots.slot(), pytest.raises(pdf.PdfRendersBusy), slots.slot():
        pass


def hold_slot_in_child(slots: pdf.RenderSlots) -> int:
    """Fork a process, as gunicorn forks a worker, that takes a slot and keeps it; return its
    process id once it holds the slot."""
    ready, told = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        try:
            with slots.slot():
                os.write(told, b"1")
                time.sleep(60)
        finally:
            os._exit(0)
    os.read(ready, 1)
    os.close(ready)
    os.close(told)
    return child


def test_a_slot_held_by_another_process_is_free_once_that_process_is_killed(app: Flask) -> None:
    slots = slots_of(app)
    child = hold_slot_in_child(slots)
    try:
        with pytest.raises(pdf.PdfRendersBusy), slots.slot():
            pass
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)

    with slots.slot():  # the kernel let the killed process's lock go
        pass
