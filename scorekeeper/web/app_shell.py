"""Blueprint for what makes the app installable and lets it open without a network: the web app
manifest, the service worker (served from the site root, so that it may control every page) and
the page shown offline for a page this phone never opened."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask_babel import get_locale, gettext

from scorekeeper.serving.static_files import HASHED_NAME
from scorekeeper.store.models import utc_now

bp = Blueprint("app_shell", __name__)

THEME_COLOUR = "#1f5f3f"  # style.css's --accent
BACKGROUND_COLOUR = "#fdfcf8"  # style.css's --paper
ICONS = (("icons/icon-192.png", "192x192", "any"), ("icons/icon-512.png", "512x512", "any"))
MASKABLE_ICON = ("icons/maskable-512.png", "512x512", "maskable")
# Every static file the pages use: the service worker keeps them all when it installs.
SHELL_SUFFIXES = (".css", ".js", ".svg", ".png")
SHELL_PAGES = ("pages.index", "matches.recent", "app_shell.offline")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    document = {
        "name": gettext("Hand and Foot scorekeeper"),
        "short_name": gettext("scorekeeper"),
        "lang": str(get_locale()),
        "id": url_for("pages.index"),
        "start_url": url_for("pages.index"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {
                "src": url_for("static", filename=name),
                "sizes": sizes,
                "type": "image/png",
                "purpose": purpose,
            }
            for name, sizes, purpose in (*ICONS, MASKABLE_ICON)
        ],
    }
    return Response(json.dumps(document), mimetype="application/manifest+json")


@bp.get("/sw.js")
def service_worker() -> Response:
    """Serve the service worker, which names the static files of this release: a release with
    other files is a new service worker, which replaces the old one and its cache."""
    shell = [url_for(endpoint) for endpoint in SHELL_PAGES] + _static_urls()
    script = render_template("sw.js", shell=shell, version=release())
    response = Response(script, mimetype="text/javascript")
    # The browser asks for a new release after each page it opens: the same one costs a 304.
    # The tag is weak, as compression would mark a strong one with its encoding (Flask-Compress).
    response.cache_control.no_cache = True
    response.add_etag(weak=True)
    response.make_conditional(request)  # in place
    return response


@bp.get("/offline")
def offline() -> str:
    return render_template("offline.html")


def release() -> str:
    """Return the name of this release of the app, which changes with every file its pages are
    made of: templates, code, message catalogs and the static files' hashed names."""
    assert current_app.template_folder is not None and current_app.static_folder is not None
    static = Path(current_app.static_folder)
    return _release(Path(current_app.root_path), Path(current_app.template_folder), static)


@cache
def _release(package: Path, templates: Path, static: Path) -> str:
    files = [
        *((templates, path) for path in templates.rglob("*")),
        *((package, path) for pattern in ("*.py", "*.mo") for path in package.rglob(pattern)),
        (static, static / "cache_manifest.json"),
    ]
    digest = hashlib.sha256()
    for folder, path in sorted(files):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _static_urls() -> list[str]:
    assert current_app.static_folder is not None
    folder = Path(current_app.static_folder)
    names = sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.suffix in SHELL_SUFFIXES and not _is_copy(path) and path.name != "sw.js"
    )
    return [url_for("static", filename=name) for name in names]


def _is_copy(path: Path) -> bool:
    """Tell a hashed copy that `flask digest compile` wrote from a file of the project."""
    return HASHED_NAME.search(path.name) is not None


@bp.app_context_processor
def page_dates() -> dict[str, object]:
    """Give every page the moment it was rendered, and the app's colour for the browser's bar."""
    return {"rendered_at": utc_now().isoformat(), "theme_colour": THEME_COLOUR}
