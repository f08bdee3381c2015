"""A new edit link made once per form submission: a double tap or a resent form ends on the
same new link, and never makes a third.

Only a token's digest is stored, so a repeated request cannot read the new token back. Under an
operation id the new token is therefore derived rather than drawn: an HMAC, under the app's
secret key, of the match, the operation id and the token it replaces. A repeat that brings the
same old token and operation id derives it again, and the stored digest shows whether it is
still the match's token. Deriving it takes the secret key, the operation id (random per page
shown, and kept in the database only once used) and the old token itself, which is stored
nowhere: even the database and the secret key together do not give the new token away.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import timedelta

from scorekeeper.store import idempotency
from scorekeeper.store.database import write_transaction
from scorekeeper.store.idempotency import Change, ChangeKind
from scorekeeper.store.links import EDIT_TOKEN_BYTES, token_digest, token_opens
from scorekeeper.store.models import Match, Operation, db, utc_now

# A double tap or a resent form comes within seconds, a retry after a lost answer within minutes.
REPEAT_WINDOW = timedelta(minutes=10)
# Sets these HMACs apart from every other use of the secret key (sessions, CSRF tokens).
PURPOSE = b"scorekeeper new edit token"


class TokenRefused(Exception):
    """The token is not the match's edit token, nor the one a repeated request replaced."""


def rotate_token_once(
    match: Match, token: str, *, operation_id: str | None, secret: str | bytes
) -> str:
    """Give the match a new edit token in place of `token` and return it; raise `TokenRefused`
    when `token` does not open the match, and `OperationIdRefused` for an id of another change.

    Repeated under `operation_id` with the same old token within `REPEAT_WINDOW`, return the
    same new token while it is still the match's.
    """
    change = Change(match.id, ChangeKind.NEW_TOKEN, None, operation_id)
    with write_transaction():
        # Hold the match, so that a twin request waits for this one, and read it afresh.
        db.session.refresh(match, ["edit_token_hash", "version"], with_for_update=True)
        if (operation := idempotency.applied(change)) is not None:
            return _repeat(change, match, token, secret, operation)
        if not token_opens(match, token):
            raise TokenRefused
        new_token = _new_token(change, match, token, secret)
        match.edit_token_hash = token_digest(new_token)
        idempotency.record(change, None)
    return new_token


def _new_token(change: Change, match: Match, token: str, secret: str | bytes) -> str:
    if change.operation_id is None:
        return secrets.token_urlsafe(EDIT_TOKEN_BYTES)
    return derived_token(secret, match.public_id, change.operation_id, token)


def _repeat(
    change: Change, match: Match, token: str, secret: str | bytes, operation: Operation
) -> str:
    assert change.operation_id is not None, "only a change under an operation id repeats"
    new_token = derived_token(secret, match.public_id, change.operation_id, token)
    recent = operation.created_at > utc_now() - REPEAT_WINDOW
    if not (recent and token_opens(match, new_token)):
        raise TokenRefused
    return new_token


def derived_token(secret: str | bytes, public_id: str, operation_id: str, old_token: str) -> str:
    """Return the edit token that replaces `old_token` under `operation_id`, shaped like a random
    one (43 URL-safe characters)."""
    key = secret.encode() if isinstance(secret, str) else secret
    # Public ids and operation ids hold no line break, so the parts cannot run into each other.
    message = "\n".join((public_id, operation_id, old_token)).encode()
    digest = hmac.new(key, PURPOSE + b"\n" + message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
