# Types for the part of WeasyPrint that scorekeeper uses: the package ships none.
from typing import Any

from .text.fonts import FontConfiguration
from .urls import URLFetcher

class CSS:
    def __init__(
        self,
        *,
        url: str | None = None,
        url_fetcher: URLFetcher | None = None,
        font_config: FontConfiguration | None = None,
        **kwargs: Any,
    ) -> None: ...

class HTML:
    def __init__(
        self,
        *,
        string: str | None = None,
        base_url: str | None = None,
        url_fetcher: URLFetcher | None = None,
        **kwargs: Any,
    ) -> None: ...
    def write_pdf(
        self,
        target: None = None,
        *,
        stylesheets: list[CSS] | None = None,
        font_config: FontConfiguration | None = None,
        **options: Any,
    ) -> bytes: ...
