"""Browser fixtures: the app on a real threaded server and Debian's chromium driven by Playwright.

The server runs once per session on a free localhost port with a SQLite file of its own; each test
gets fresh browser contexts, so no page state leaks between tests.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask_migrate import upgrade
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from werkzeug.serving import WSGIRequestHandler, make_server

if TYPE_CHECKING:  # types only: the WSGI protocols live in typeshed's stubs
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

from scorekeeper import create_app
from scorekeeper.store.models import db

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
WAIT_MS = 15_000  # the view page polls every few seconds


def read_whole(app: WSGIApplication) -> WSGIApplication:
    """Return `app` with each response read whole, and closed, before the server sends it.

    Werkzeug's development server closes a response only after reading what is left of the
    request, and that read raises when the browser has dropped the connection (a favicon left
    behind by the next page): the response's static file is then left open, and its
    ResourceWarning fails whichever test is running when it is collected. The app's responses
    are small and none streams, so reading them whole costs the tests nothing.
    """

    def whole(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        response = app(environ, start_response)
        try:
            return [b"".join(response)]
        finally:
            if hasattr(response, "close"):
                response.close()

    return whole


@dataclass
class Served:
    """What the live server answered: each request's path and query, and its body's bytes as
    sent (compressed where it was); and each answer's bytes on the wire, headers and all."""

    answers: list[tuple[str, int]] = field(default_factory=list)
    on_the_wire: list[tuple[str, int]] = field(default_factory=list)
    answered: threading.Condition = field(default_factory=threading.Condition)

    def clear(self) -> None:
        with self.answered:
            self.answers.clear()
            self.on_the_wire.clear()

    def logged(self, app: WSGIApplication) -> WSGIApplication:
        def log(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
            body = app(environ, start_response)
            path = environ["PATH_INFO"] + (
                f"?{environ['QUERY_STRING']}" if environ.get("QUERY_STRING") else ""
            )
            with self.answered:
                self.answers.append((path, sum(map(len, body))))
                self.answered.notify_all()
            return body

        return log

    def wait_for(self, path: str) -> None:
        """Wait until `path` is answered: a request the browser makes in its own time."""
        with self.answered:
            asked = self.answered.wait_for(
                lambda: any(answered == path for answered, _ in self.answers), WAIT_MS / 1000
            )
        assert asked, f"{path} was not asked for"

    def wait_until_quiet(self, seconds: float) -> None:
        """Wait until nothing has been answered for `seconds`: what a page set going is done."""
        with self.answered:
            while self.answered.wait(seconds):
                pass


SERVED = Served()


class CountedWrites:
    """A connection's stream to the browser, counting the bytes written to it."""

    def __init__(self, stream: Any) -> None:
        self.stream, self.written = stream, 0

    def write(self, data: bytes) -> Any:
        self.written += len(data)
        return self.stream.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class WireCounting(WSGIRequestHandler):
    """Werkzeug's handler, which answers one request per connection, keeping in SERVED how
    many bytes each answer took on the wire: status line, headers and body."""

    def setup(self) -> None:
        super().setup()
        self.wfile = CountedWrites(self.wfile)

    def handle(self) -> None:
        super().handle()
        with SERVED.answered:
            SERVED.on_the_wire.append((self.path, self.wfile.written))


@pytest.fixture
def served() -> Served:
    """Return the log of what the live server answered, emptied for the test."""
    SERVED.clear()
    return SERVED


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the app on a free port for the whole session; return its base URL."""
    database = tmp_path_factory.mktemp("browser") / "browser.sqlite"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-tests",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
        }
    )
    with app.app_context():
        upgrade()
    app_served = SERVED.logged(read_whole(app))
    server = make_server("127.0.0.1", 0, app_served, threaded=True, request_handler=WireCounting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
    with app.app_context():
        db.engine.dispose()


def post_json(url: str, body: dict[str, object], token: str | None = None) -> bytes:
    """POST `body` to the API as another client would, and return the answer's body."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request) as response:
        answer: bytes = response.read()
    return answer


@pytest.fixture
def stored_match(live_server: str) -> Callable[[dict[str, object]], dict[str, str]]:
    """Return a function that stores a match through the API and returns its links."""

    def store(body: dict[str, object]) -> dict[str, str]:
        links: dict[str, str] = json.loads(post_json(f"{live_server}/api/v1/matches", body))
        return links

    return store


@pytest.fixture
def stored_round(live_server: str) -> Callable[[dict[str, str], dict[str, object]], None]:
    """Return a function that enters a round (an API body) into the match of these links."""

    def store(links: dict[str, str], body: dict[str, object]) -> None:
        url = f"{live_server}/api/v1/matches/{links['id']}/rounds"
        post_json(url, body, links["edit_token"])

    return store


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Return a factory of pages, each in a context of its own: another person's device."""
    contexts: list[BrowserContext] = []

    def open_page(device: dict[str, object] = PHONE) -> Page:
        context = browser.new_context(**device)  # type: ignore[arg-type]
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def controlled(page: Page, url: str) -> Page:
    """Open `url` until the service worker controls the page, as from the second visit on."""
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    return page


@pytest.fixture
def screenshot() -> Callable[[Page, str], None]:
    """Return a function that saves a full-page screenshot under tests/artifacts/.

    The screen is made as tall as the page for it: a full-page capture of a phone-sized screen
    draws sticky parts where the scrolled screen holds them, a card's header in the middle of
    the card and the save bar over the fields. Once the page fits, each sits in its own place.
    """

    def save(page: Page, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        screen = page.viewport_size
        assert screen is not None
        page_height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": screen["width"], "height": page_height})
        page.screenshot(path=ARTIFACTS / f"{name}.png", full_page=True)
        page.set_viewport_size(screen)

    return save


@pytest.fixture
def viewport_screenshots() -> Callable[[Page, str], None]:
    """Return a function that saves what the screen shows at each screenful down the page, as a
    person scrolling sees it, under tests/artifacts/<name>-<n>.png."""

    def save(page: Page, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        height = page.evaluate("window.innerHeight")
        total = page.evaluate("document.documentElement.scrollHeight")
        for number, top in enumerate(range(0, total, height * 2 // 3), start=1):
            page.evaluate(f"window.scrollTo(0, {top})")
            page.screenshot(path=ARTIFACTS / f"{name}-{number}.png")

    return save
