from collections.abc import Callable, Iterable
from wsgiref.headers import Headers

from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

class WhiteNoise:
    def __init__(
        self,
        application: WSGIApplication,
        root: str | None = None,
        prefix: str | None = None,
        *,
        autorefresh: bool = False,
        max_age: int | None = 60,
        add_headers_function: Callable[[Headers, str, str], None] | None = None,
    ) -> None: ...
    def __call__(
        self, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes]: ...
