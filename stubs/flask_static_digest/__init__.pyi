from flask import Flask

class FlaskStaticDigest:
    manifests: dict[str, dict[str, str]]
    def __init__(self, app: Flask | None = None) -> None: ...
