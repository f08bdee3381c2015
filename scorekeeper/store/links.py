"""What opens a stored match or club: its public id, and its edit token, stored only as a digest."""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from dataclasses import dataclass
from typing import Protocol

EDIT_TOKEN_BYTES = 32
PUBLIC_ID_BYTES = 16
PUBLIC_ID_LENGTH = math.ceil(PUBLIC_ID_BYTES * 8 / 6)  # base64 characters, no padding


class Opened(Protocol):
    """A stored match or club: what its edit token must match."""

    edit_token_hash: str


@dataclass(frozen=True)
class NewLinks:
    """A new public id and edit token; only the token's digest is stored."""

    public_id: str
    edit_token: str

    @property
    def token_hash(self) -> str:
        return token_digest(self.edit_token)


def new_links() -> NewLinks:
    """Return a random public id and edit token, unguessable both."""
    return NewLinks(
        public_id=secrets.token_urlsafe(PUBLIC_ID_BYTES),
        edit_token=secrets.token_urlsafe(EDIT_TOKEN_BYTES),
    )


def token_opens(opened: Opened, token: str | None) -> bool:
    """Return whether `token` is the edit token of `opened`, comparing digests in constant time."""
    return token is not None and hmac.compare_digest(token_digest(token), opened.edit_token_hash)


def token_digest(token: str) -> str:
    """Return the digest an edit token is stored as: the token itself is never stored."""
    return hashlib.sha256(token.encode()).hexdigest()
