"""Static files for phones on weak networks: content-hashed names, kept a year, compressed.

`flask digest compile` (Flask-Static-Digest, run by `make`) copies each file of `static/` under a
name that holds its content's hash, beside gzip and brotli versions, and writes the manifest of
those names. Every `url_for("static", ...)` then gives the hashed name, and WhiteNoise serves it
with the encoding the browser accepts and a header that keeps it for a year without asking
again. A name without a hash (no manifest yet, or a file asked for by its plain name) is kept a
minute. Pages and JSON answers are compressed as they leave (Flask-Compress), which marks a
strong ETag with the encoding ("12" leaves as "12:br"): the API reads such a tag back as the
version it names (`names_version` in `http.py`).
"""

from __future__ import annotations

import re
from typing import Any
from wsgiref.headers import Headers

from flask import Flask
from flask_compress import Compress
from flask_static_digest import FlaskStaticDigest
from whitenoise import WhiteNoise

# Flask-Static-Digest's names: the file's name, a dash, the MD5 of its content, its extension.
HASHED_NAME = re.compile(r"-[0-9a-f]{32}\.\w+$")
IMMUTABLE = "public, max-age=31536000, immutable"
PLAIN_NAME_MAX_AGE = 60  # seconds

compress = Compress()


def init_app(app: Flask) -> None:
    """Serve static files by their hashed names and compress what the app answers."""
    app.config.setdefault("FLASK_STATIC_DIGEST_COMPRESSION", ["gzip", "brotli"])
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # A download (send_file) is streamed: in brotli or gzip as the rest, not zstd or deflate.
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "gzip"])
    # Each view answers its own conditional requests, before its answer is compressed: a second
    # check after it would answer 304 to a round's "3:br" where "3" gets its 200.
    app.config.setdefault("COMPRESS_EVALUATE_CONDITIONAL_REQUEST", False)
    app.config.setdefault(
        "COMPRESS_MIMETYPES", ["text/html", "text/javascript", "application/json"]
    )
    digests = FlaskStaticDigest(app)
    manifest: dict[str, str] = digests.manifests.get("static", {})

    @app.url_defaults
    def hashed_static_name(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values:
            values["filename"] = manifest.get(values["filename"], values["filename"])

    compress.init_app(app)
    assert app.static_folder is not None and app.static_url_path is not None
    app.wsgi_app = WhiteNoise(  # type: ignore[method-assign]
        app.wsgi_app,
        root=app.static_folder,
        prefix=app.static_url_path,
        autorefresh=app.debug,
        max_age=PLAIN_NAME_MAX_AGE,
        add_headers_function=_keep_hashed_names,
    )


def _keep_hashed_names(headers: Headers, path: str, _url: str) -> None:
    if HASHED_NAME.search(path):
        headers["Cache-Control"] = IMMUTABLE
