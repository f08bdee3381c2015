"""The time limit on rendering a PDF: a stopped render answers 503 and leaves nothing behind."""

from __future__ import annotations

import io
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper import create_app, store
from scorekeeper.domain.rules import build_rules
from scorekeeper.printing import pdf
from scorekeeper.printing.pdf import PdfTooSlow, within_time_limit

pytestmark = pytest.mark.own_app  # each test sets its app's time limit

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import StoredMatch

TOO_SHORT = 0.001  # seconds: every real render takes longer
STOPPED = "This PDF took too long to make, so it was stopped. Try again in a minute."
STOPPED_JA = (
    "このPDFは作るのに時間がかかりすぎたため、止めました。1分ほどしてからもう一度お試しください。"
)
RULES = build_rules("standard")


@pytest.fixture
def report_url(match_with_round_1: StoredMatch) -> str:
    """Return the report of a match with a round, chart and all; a report is never cached."""
    return f"/m/{match_with_round_1.public_id}/report.pdf"


@pytest.fixture
def own_alarm_handler() -> Iterator[Callable[[int, FrameType | None], None]]:
    """Put a handler of the test's own on SIGALRM, as anyone might, and take it off after."""

    def handler(_signal: int, _frame: FrameType | None) -> None:
        raise AssertionError("the render's alarm reached the handler it replaced")

    previous = signal.signal(signal.SIGALRM, handler)
    yield handler
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def one_page_pdf(data: bytes) -> bool:
    return len(PdfReader(io.BytesIO(data)).pages) == 1


def sleep_through_one_alarm() -> bytes:
    """Sleep, catching the first alarm as WeasyPrint catches anything around an SVG image."""
    try:
        time.sleep(5)
    except BaseException:  # noqa: B036 (WeasyPrint's own `except BaseException`)
        pass
    time.sleep(5)
    return b"never"


def catch_every_alarm_for(seconds: float) -> Callable[[], bytes]:
    """Return a render that sleeps for `seconds` whatever alarms go off, then returns."""

    def render() -> bytes:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                time.sleep(left)
            except BaseException:  # noqa: B036
                pass
        return b"late"

    return render


# -- Through the pages --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["card", "pocket", "sheet"])
def test_a_preset_pdf_past_the_limit_answers_503_then_renders_and_is_cached_afresh(
    app: Flask, client: FlaskClient, kind: str
) -> None:
    url = f"/rules/standard/{kind}.pdf"
    app.config["PDF_TIME_LIMIT"] = TOO_SHORT

    stopped = client.get(url)

    assert stopped.status_code == 503
    assert stopped.headers["Retry-After"] == "60"
    assert stopped.mimetype == "text/html"
    assert STOPPED in stopped.get_data(as_text=True)
    app.config["PDF_TIME_LIMIT"] = 10
    rendered = client.get(url)
    assert rendered.status_code == 200 and one_page_pdf(rendered.data)
    app.config["PDF_TIME_LIMIT"] = TOO_SHORT  # now served from the cache, which takes no time
    assert client.get(url).data == rendered.data


def test_a_match_report_past_the_limit_answers_503_and_the_next_request_renders_it(
    app: Flask, client: FlaskClient, report_url: str
) -> None:
    app.config["PDF_TIME_LIMIT"] = TOO_SHORT
    stopped = client.get(report_url)
    app.config["PDF_TIME_LIMIT"] = 10
    rendered = client.get(report_url)

    assert stopped.status_code == 503 and stopped.headers["Retry-After"] == "60"
    assert rendered.status_code == 200 and one_page_pdf(rendered.data)


def test_a_stopped_pdf_is_explained_in_the_readers_language_not_the_pdfs(
    app: Flask, client: FlaskClient
) -> None:
    sides = [store.SideSpec("Us", ("Ann",)), store.SideSpec("Them", ("Bob",))]
    with app.app_context():  # its PDFs print in Dutch, whoever reads them
        created = store.create_match("Friday", "standard", RULES, sides, language="nl")
        public_id = created.match.public_id
    app.config["PDF_TIME_LIMIT"] = TOO_SHORT

    stopped = client.get(f"/m/{public_id}/sheet.pdf", headers={"Accept-Language": "ja"})

    assert stopped.status_code == 503
    assert STOPPED_JA in stopped.get_data(as_text=True)


def test_a_stopped_pdf_is_logged_with_its_path(
    app: Flask, client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    app.config["PDF_TIME_LIMIT"] = TOO_SHORT
    with caplog.at_level(logging.WARNING):
        client.get("/rules/simple/card.pdf")
    assert "/rules/simple/card.pdf took longer than PDF_TIME_LIMIT" in caplog.text


def test_the_limit_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, app_config: dict[str, object]
) -> None:
    monkeypatch.setenv("SCOREKEEPER_PDF_TIME_LIMIT", "2.5")
    assert create_app(app_config).config["PDF_TIME_LIMIT"] == 2.5
    monkeypatch.delenv("SCOREKEEPER_PDF_TIME_LIMIT")
    assert create_app(app_config).config["PDF_TIME_LIMIT"] == pdf.DEFAULT_TIME_LIMIT


def test_a_limit_of_0_lets_a_pdf_take_its_time(app: Flask, client: FlaskClient) -> None:
    app.config["PDF_TIME_LIMIT"] = 0
    response = client.get("/rules/standard/card.pdf")
    assert response.status_code == 200 and one_page_pdf(response.data)


def test_the_app_says_at_start_up_where_the_limit_holds(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="scorekeeper.printing.pdf"):
        pdf.init_app(app)
    assert "the threaded development server renders without a limit" in caplog.text


# -- The alarm ----------------------------------------------------------------------------------


def test_a_render_that_catches_the_alarm_is_stopped_by_the_next_one() -> None:
    started = time.monotonic()
    with pytest.raises(PdfTooSlow):
        within_time_limit(sleep_through_one_alarm, 0.01)
    assert time.monotonic() - started < 1


def test_a_render_that_catches_every_alarm_is_refused_when_it_ends() -> None:
    with pytest.raises(PdfTooSlow):
        within_time_limit(catch_every_alarm_for(0.2), 0.01)


def test_a_render_within_the_limit_returns_its_pdf() -> None:
    assert within_time_limit(lambda: b"%PDF", 5) == b"%PDF"


@pytest.mark.parametrize("render", [lambda: b"%PDF", sleep_through_one_alarm])
def test_the_alarm_is_off_and_the_previous_handler_back_however_a_render_ends(
    own_alarm_handler: Callable[[int, FrameType | None], None], render: Callable[[], bytes]
) -> None:
    try:
        within_time_limit(render, 0.01)
    except PdfTooSlow:
        pass
    assert signal.getsignal(signal.SIGALRM) is own_alarm_handler
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_someone_elses_pending_alarm_is_left_alone_and_the_pdf_rendered_without_a_limit(
    app: Flask, own_alarm_handler: Callable[[int, FrameType | None], None]
) -> None:
    app.config["PDF_TIME_LIMIT"] = TOO_SHORT
    signal.setitimer(signal.ITIMER_REAL, 100)
    with app.app_context():
        document = pdf.render_pdf("<p>Rendered</p>")
    assert one_page_pdf(document)
    assert 99 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100


def test_off_the_main_thread_a_pdf_renders_without_a_limit(app: Flask) -> None:
    app.config["PDF_TIME_LIMIT"] = TOO_SHORT
    documents: list[bytes] = []

    def render() -> None:
        with app.app_context():
            documents.append(pdf.render_pdf("<p>Rendered</p>"))

    thread = threading.Thread(target=render)
    thread.start()
    thread.join()
    assert len(documents) == 1 and one_page_pdf(documents[0])
