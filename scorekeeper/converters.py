"""URL converters: a match's public id is matched by its shape, so that no other path (such as
/api/v1/matches/import) can be read as one."""

from __future__ import annotations

from werkzeug.routing import BaseConverter

from scorekeeper.store.matches import PUBLIC_ID_LENGTH


class PublicIdConverter(BaseConverter):
    """A match's public id: URL-safe base64 of its random bytes, as `store.create_match` makes."""

    regex = rf"[A-Za-z0-9_-]{{{PUBLIC_ID_LENGTH}}}"
