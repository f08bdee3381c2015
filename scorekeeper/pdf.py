"""PDFs: WeasyPrint with the one print stylesheet, a static-only URL fetcher, shared fonts, a cache.

WeasyPrint is imported here, and this module by `create_app`, because importing it takes over
half a second: the server pays that at start-up rather than on the first PDF request.
"""

from __future__ import annotations

import enum
import logging
import mimetypes
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from urllib.parse import unquote, urlsplit

import weasyprint
from flask import Flask, current_app
from flask_babel import get_locale
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

# Documents are laid out as if served from this origin. It never resolves (.invalid is reserved):
# the fetcher maps its static URLs to files and refuses everything else.
ORIGIN = "https://scorekeeper.invalid"
STYLESHEET = "print.css"
EXTENSION = "pdf"
DEFAULT_CACHE_SIZE = 256

logger = logging.getLogger(__name__)


class Paper(enum.StrEnum):
    """The paper sizes a PDF is laid out for; the value is the `?paper=` parameter."""

    A4 = "a4"
    LETTER = "letter"


class RefusedURL(ValueError):
    """A document asked for a URL outside the project's static files."""


class StaticOnlyFetcher(URLFetcher):
    """Serve the project's static files to WeasyPrint and refuse every other URL."""

    def __init__(self, static_folder: Path, static_url_path: str) -> None:
        super().__init__()
        self.root = static_folder.resolve()
        self.prefix = f"{ORIGIN}{static_url_path.rstrip('/')}/"

    def url_for(self, filename: str) -> str:
        """Return the URL under which the fetcher serves a static file."""
        return self.prefix + filename

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        path = self.static_path(url)
        if path is None:
            raise RefusedURL(f"PDFs may only use the project's static files, not {url[:200]}")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    def static_path(self, url: str) -> Path | None:
        """Return the static file a URL names, or None when it names anything else."""
        if not url.startswith(self.prefix):
            return None
        relative = unquote(urlsplit(url).path.removeprefix(urlsplit(self.prefix).path))
        path = (self.root / relative).resolve()
        return path if path.is_relative_to(self.root) and path.is_file() else None


class RenderCache:
    """Rendered PDFs by everything that determines them; the least recently used go first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._pdfs: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_render(self, key: Hashable, render: Callable[[], bytes]) -> bytes:
        """Return the cached PDF for `key`, rendering and keeping it on a miss."""
        with self._lock:
            if key in self._pdfs:
                self._pdfs.move_to_end(key)
                return self._pdfs[key]
        pdf = render()
        with self._lock:
            self._pdfs[key] = pdf
            while len(self._pdfs) > self.size:
                self._pdfs.popitem(last=False)
        return pdf

    def clear(self) -> None:
        with self._lock:
            self._pdfs.clear()


class PdfRenderer:
    """Render HTML to PDF with one font configuration and one parsed stylesheet for every PDF."""

    def __init__(self, fetcher: StaticOnlyFetcher, cache_size: int) -> None:
        self.fetcher = fetcher
        self.cache = RenderCache(cache_size)
        self._fonts = FontConfiguration()
        self._stylesheet = weasyprint.CSS(
            url=fetcher.url_for(STYLESHEET), url_fetcher=fetcher, font_config=self._fonts
        )
        # WeasyPrint's font configuration wraps a Pango font map, which is not thread-safe.
        self._lock = threading.Lock()

    def render(self, html: str) -> bytes:
        """Return the PDF of an HTML document, styled by the print stylesheet."""
        document = weasyprint.HTML(string=html, base_url=ORIGIN, url_fetcher=self.fetcher)
        with self._lock:
            return document.write_pdf(stylesheets=[self._stylesheet], font_config=self._fonts)


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
    fetcher = StaticOnlyFetcher(Path(app.static_folder), app.static_url_path)
    cache_size = app.config.get("PDF_CACHE_SIZE", DEFAULT_CACHE_SIZE)
    app.extensions["pdf"] = PdfRenderer(fetcher, cache_size)
    if font_subsetter() == "harfbuzz":
        logger.info("PDF fonts are subset by HarfBuzz.")
    else:
        logger.warning(
            "PDF fonts are subset by fontTools, several times slower than HarfBuzz: "
            "install the Debian package libharfbuzz-subset0."
        )


def renderer() -> PdfRenderer:
    return current_app.extensions["pdf"]


def render_pdf(html: str) -> bytes:
    """Return the PDF of an HTML document rendered with the app's print stylesheet."""
    return renderer().render(html)


def cached_pdf(key: tuple[Hashable, ...], render_html: Callable[[], str]) -> bytes:
    """Return the PDF for `key` in the request's language, rendering `render_html()` once.

    `key` must hold everything besides the language that the document depends on.
    """
    full_key = (str(get_locale()), *key)
    return renderer().cache.get_or_render(full_key, lambda: render_pdf(render_html()))
