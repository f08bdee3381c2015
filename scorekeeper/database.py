"""Database sessions: one place that decides how a write transaction begins and ends."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from scorekeeper.models import db


@contextmanager
def write_transaction() -> Iterator[None]:
    """Run the block as one write transaction: commit when it succeeds, roll back when it fails."""
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
