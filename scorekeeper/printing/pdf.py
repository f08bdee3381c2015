"""PDFs: WeasyPrint with the one print stylesheet, a static-only URL fetcher, shared fonts, a cache,
a limit on renders at once and a time limit on each render.

WeasyPrint is imported here, and this module by `create_app`, because importing it takes over
half a second: the server pays that at start-up rather than on the first PDF request.

The time limit is an alarm signal (SIGALRM), which Python delivers to the main thread only: it
holds in gunicorn's sync workers, which serve each request there, while the threaded development
server renders without it.

At most `PDF_RENDERS_AT_ONCE` PDFs are rendered at once by a server's processes together: a
render takes a worker for a second or more, and a flood of them would leave none free for the
rounds being entered. A PDF asked for while that many are under way is refused (`PdfRendersBusy`,
answered 503) rather than queued; one in the cache is served whatever is being rendered.
"""

from __future__ import annotations

import base64
import binascii
import enum
import fcntl
import functools
import logging
import mimetypes
import signal
import tempfile
import threading
import weakref
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from urllib.parse import unquote, urlsplit

import weasyprint
from cachetools import LRUCache
from flask import Flask, current_app
from flask_babel import get_locale
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

# Documents are laid out as if served from this origin. It never resolves (.invalid is reserved):
# the fetcher maps its static URLs to files and refuses everything else but drawings.
ORIGIN = "https://scorekeeper.invalid"
# A drawing (the match report's chart) is given as an image whose URL carries its SVG, which
# WeasyPrint only draws, where it would style and box every element of an inline SVG as part of
# the page. Nothing is fetched for it, and whatever the drawing itself links to goes through this
# fetcher too.
DRAWING_URL_PREFIX = "data:image/svg+xml;base64,"
STYLESHEET = "print.css"
DEFAULT_CACHE_SIZE = 256
# One render at a time per server: with gunicorn's two sync workers by default, the other stays
# free for everything else.
DEFAULT_RENDERS_AT_ONCE = 1
# Seconds: some 30 times the slowest PDF's render, and under gunicorn's timeout (30 s), so that
# a reader whose PDF was stopped gets a page saying so rather than a dropped connection.
DEFAULT_TIME_LIMIT = 10
# Once the alarm has gone off, it goes off again this often until the render stops: WeasyPrint
# swallows even a BaseException around an SVG image (the match report's chart).
ALARM_REPEAT = 0.05  # seconds

logger = logging.getLogger(__name__)


class Paper(enum.StrEnum):
    """The paper sizes a PDF is laid out for; the value is the `?paper=` parameter."""

    A4 = "a4"
    LETTER = "letter"


class RefusedURL(ValueError):
    """A document asked for a URL outside the project's static files."""


class PdfTooSlow(Exception):
    """A PDF took longer than `PDF_TIME_LIMIT` to render, and was stopped."""


class PdfRendersBusy(Exception):
    """As many PDFs as may be rendered at once are being rendered: this one was not."""


class _Alarm(BaseException):
    """The time limit's alarm went off.

    A BaseException, like KeyboardInterrupt, because WeasyPrint catches Exception around each
    resource it loads and would render on.
    """


def drawing_url(svg: str) -> str:
    """Return the URL of an image that is the SVG drawing `svg`, which must carry its namespace."""
    return DRAWING_URL_PREFIX + base64.b64encode(svg.encode()).decode("ascii")


class StaticOnlyFetcher(URLFetcher):
    """Serve the project's static files and drawings to WeasyPrint and refuse every other URL."""

    def __init__(self, static_folder: Path, static_url_path: str) -> None:
        super().__init__()
        self.root = static_folder.resolve()
        self.prefix = f"{ORIGIN}{static_url_path.rstrip('/')}/"

    def url_for(self, filename: str) -> str:
        """Return the URL under which the fetcher serves a static file."""
        return self.prefix + filename

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        if url.startswith(DRAWING_URL_PREFIX):
            return self.drawing(url)
        path = self.static_path(url)
        if path is None:
            raise RefusedURL(f"PDFs may only use the project's static files, not {url[:200]}")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    @staticmethod
    def drawing(url: str) -> URLFetcherResponse:
        """Return the SVG that a drawing's URL carries (see `drawing_url`)."""
        try:
            svg = base64.b64decode(url.removeprefix(DRAWING_URL_PREFIX), validate=True)
        except binascii.Error:
            raise RefusedURL(f"Not a drawing: {url[:200]}") from None
        return URLFetcherResponse(url, svg, {"Content-Type": "image/svg+xml"})

    def static_path(self, url: str) -> Path | None:
        """Return the static file a URL names, or None when it names anything else."""
        if not url.startswith(self.prefix):
            return None
        relative = unquote(urlsplit(url).path.removeprefix(urlsplit(self.prefix).path))
        path = (self.root / relative).resolve()
        return path if path.is_relative_to(self.root) and path.is_file() else None


@dataclass(frozen=True)
class PrintStyle:
    """One font configuration and the parsed print stylesheet, with the lock that guards them:
    WeasyPrint's font configuration wraps a Pango font map, which is not thread-safe."""

    fonts: FontConfiguration
    stylesheet: weasyprint.CSS
    lock: threading.Lock


@functools.cache
def print_style(static_folder: Path, static_url_path: str) -> PrintStyle:
    """Return the print style of the static files in `static_folder`, made once per process:
    it takes a tenth of a second, and every app of a process reads the same files."""
    fetcher = StaticOnlyFetcher(static_folder, static_url_path)
    fonts = FontConfiguration()
    stylesheet = weasyprint.CSS(
        url=fetcher.url_for(STYLESHEET), url_fetcher=fetcher, font_config=fonts
    )
    return PrintStyle(fonts, stylesheet, threading.Lock())


class RenderSlots:
    """At most `count` renders at once among this process, its threads and every process forked
    from it after: gunicorn's workers, which the master forks once it has created the app.

    Each slot is one byte of an unlinked file, held with a POSIX record lock. Such a lock belongs
    to a process, so the workers that share the file exclude one another, and the kernel frees
    it when its process dies, however it dies: a killed worker never keeps a slot. Threads of one
    process share their process's locks, so the slots it holds are kept apart here as well.
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self.file = tempfile.TemporaryFile()
        weakref.finalize(self, self.file.close)  # an app in tests goes long before its process
        self.lock = threading.Lock()
        self.held: set[int] = set()

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold a free slot for the block; raise `PdfRendersBusy` at once when none is free."""
        slot = self._take()
        if slot is None:
            raise PdfRendersBusy
        try:
            yield
        finally:
            with self.lock:
                fcntl.lockf(self.file, fcntl.LOCK_UN, 1, slot)
                self.held.discard(slot)

    def any_free(self) -> bool:
        """Tell whether a slot is free now; another render may take it before this one does."""
        try:
            with self.slot():
                return True
        except PdfRendersBusy:
            return False

    def _take(self) -> int | None:
        with self.lock:
            for slot in set(range(self.count)) - self.held:
                try:
                    fcntl.lockf(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, slot)
                except OSError:  # another process holds it
                    continue
                self.held.add(slot)
                return slot
        return None


class PdfRenderer:
    """Render HTML to PDF with one font configuration and one parsed stylesheet for every PDF."""

    def __init__(
        self, fetcher: StaticOnlyFetcher, style: PrintStyle, cache_size: int, slots: RenderSlots
    ) -> None:
        self.fetcher = fetcher
        self.style = style
        # Rendered PDFs by everything that determines them, the least recently used dropped.
        self.cache: LRUCache[tuple[Hashable, ...], bytes] = LRUCache(maxsize=cache_size)
        self.cache_lock = threading.Lock()
        self.slots = slots

    def render(self, html: str) -> bytes:
        """Return the PDF of an HTML document, styled by the print stylesheet."""
        document = weasyprint.HTML(string=html, base_url=ORIGIN, url_fetcher=self.fetcher)
        with self.style.lock:
            return document.write_pdf(
                stylesheets=[self.style.stylesheet], font_config=self.style.fonts
            )


def within_time_limit(render: Callable[[], bytes], seconds: float) -> bytes:
    """Return `render()`, or raise `PdfTooSlow` once it has run for `seconds`; main thread only.

    The alarm is off and the previous SIGALRM handler back in place however the render ends.
    """
    went_off = False

    def alarm(_signal: int, _frame: FrameType | None) -> None:
        nonlocal went_off
        went_off = True
        raise _Alarm

    previous = signal.signal(signal.SIGALRM, alarm)
    # One frame of nested try blocks, no context manager: an alarm may go off at any line until
    # the timer is off, and every such line must lead to the timer off and the handler back.
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds, ALARM_REPEAT)
            pdf = render()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Alarm:
        raise PdfTooSlow from None
    finally:
        signal.signal(signal.SIGALRM, previous)
    if went_off:  # WeasyPrint caught every alarm and rendered on
        raise PdfTooSlow
    return pdf


def alarm_available() -> bool:
    """Tell whether a render may set the alarm: on the main thread, the only one that receives
    signals, while no one else's alarm is pending (a process has one)."""
    on_main_thread = threading.current_thread() is threading.main_thread()
    return on_main_thread and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def font_subsetter() -> str:
    """Return the library WeasyPrint subsets fonts with: "harfbuzz", or the slower "fonttools"."""
    # WeasyPrint's own test (weasyprint.pdf.fonts.Font.subset); it has no public API for it.
    from weasyprint.text.ffi import harfbuzz, harfbuzz_subset

    if harfbuzz_subset is not None and harfbuzz.hb_version_atleast(4, 1, 0):
        return "harfbuzz"
    return "fonttools"


def init_app(app: Flask) -> None:
    """Give the app its PDF renderer and say which font subsetter PDFs will use."""
    assert app.static_folder is not None and app.static_url_path is not None
    static_folder = Path(app.static_folder).resolve()
    fetcher = StaticOnlyFetcher(static_folder, app.static_url_path)
    style = print_style(static_folder, app.static_url_path)
    cache_size = app.config.get("PDF_CACHE_SIZE", DEFAULT_CACHE_SIZE)
    slots = RenderSlots(app.config.setdefault("PDF_RENDERS_AT_ONCE", DEFAULT_RENDERS_AT_ONCE))
    app.extensions["pdf"] = PdfRenderer(fetcher, style, cache_size, slots)
    limit = app.config.setdefault("PDF_TIME_LIMIT", DEFAULT_TIME_LIMIT)
    logger.info(
        "A PDF that takes over %s s to render is stopped where requests run on the main thread "
        "(gunicorn's sync workers); the threaded development server renders without a limit.",
        limit,
    )
    if font_subsetter() == "harfbuzz":
        logger.info("PDF fonts are subset by HarfBuzz.")
    else:
        logger.warning(
            "PDF fonts are subset by fontTools, several times slower than HarfBuzz: "
            "install the Debian package libharfbuzz-subset0."
        )


def renderer() -> PdfRenderer:
    pdf_renderer: PdfRenderer = current_app.extensions["pdf"]
    return pdf_renderer


def render_pdf(html: str) -> bytes:
    """Return the PDF of an HTML document rendered with the app's print stylesheet; raise
    `PdfTooSlow` when it takes longer than `PDF_TIME_LIMIT` seconds."""
    render = functools.partial(renderer().render, html)
    seconds = current_app.config["PDF_TIME_LIMIT"]
    return within_time_limit(render, seconds) if seconds > 0 and alarm_available() else render()


def refuse_if_busy(key_start: tuple[Hashable, ...]) -> None:
    """Raise `PdfRendersBusy` when no render slot is free and no PDF in the cache has a key that
    begins with `key_start`, in any language: a request that `cached_pdf` would refuse, told so
    before it does the work of building its whole key."""
    pdfs = renderer()
    if pdfs.slots.any_free():
        return
    with pdfs.cache_lock:
        cached = any(key[1 : len(key_start) + 1] == key_start for key in pdfs.cache)
    if not cached:
        raise PdfRendersBusy


def cached_pdf(key: tuple[Hashable, ...], render_html: Callable[[], str]) -> bytes:
    """Return the PDF for `key` in the request's language, rendering `render_html()` once; raise
    `PdfRendersBusy` when it must be rendered and as many renders as may run are running.

    `key` must hold everything besides the language that the document depends on.
    """
    full_key, pdfs = (str(get_locale()), *key), renderer()
    with pdfs.cache_lock:
        pdf = pdfs.cache.get(full_key)
    if pdf is None:
        with pdfs.slots.slot():
            pdf = render_pdf(render_html())
        with pdfs.cache_lock:
            pdfs.cache[full_key] = pdf
    return pdf
