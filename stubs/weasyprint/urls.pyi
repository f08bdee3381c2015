from typing import Any

class URLFetcherResponse:
    def __init__(
        self,
        url: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        status: int = 200,
        **kwargs: Any,
    ) -> None: ...

class URLFetcher:
    def __init__(self, timeout: int = 10, **kwargs: Any) -> None: ...
    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse: ...
