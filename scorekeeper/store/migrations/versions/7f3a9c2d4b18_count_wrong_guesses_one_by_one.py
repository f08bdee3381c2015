"""Count wrong guesses one by one, per address and per match, for a sliding window.

Revision ID: 7f3a9c2d4b18
Revises: 5d0e8c4b7a21
Create Date: 2026-12-06 02:30:00.000000

Each client's count per fixed window becomes that many wrong guesses made as the window began,
so that they stop counting when the window would have ended. Going down, the guesses counted
against addresses are counted again per fixed window; those counted against a match have no
place in the earlier table and are lost.
"""

from collections import Counter
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7f3a9c2d4b18"
down_revision = "5d0e8c4b7a21"
branch_labels = None
depends_on = None

WINDOW_SECONDS = 600  # the earlier windows' default length, which they started at multiples of
MOST_KEPT = 1_000  # guesses kept per earlier count: past any limit, a count says no more
ADDRESS = "address"

guess_windows = sa.table(
    "guess_window",
    sa.column("window_start", sa.DateTime(timezone=True)),
    sa.column("client", sa.String(64)),
    sa.column("failures", sa.Integer()),
)
wrong_guesses = sa.table(
    "wrong_guess",
    sa.column("scope", sa.String(8)),
    sa.column("key", sa.String(64)),
    sa.column("guessed_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    op.create_table(
        "wrong_guess",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=8), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("guessed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_wrong_guess")),
    )
    op.create_index(op.f("ix_wrong_guess_guessed_at"), "wrong_guess", ["guessed_at"])
    op.create_index(
        "ix_wrong_guess_scope_key_guessed_at", "wrong_guess", ["scope", "key", "guessed_at"]
    )
    windows = op.get_bind().execute(sa.select(guess_windows)).all()
    guesses = [
        {"scope": ADDRESS, "key": client, "guessed_at": start}
        for start, client, failures in windows
        for _ in range(min(failures, MOST_KEPT))
    ]
    if guesses:
        op.bulk_insert(wrong_guesses, guesses)
    op.drop_table("guess_window")


def downgrade() -> None:
    op.create_table(
        "guess_window",
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("window_start", "client", name=op.f("pk_guess_window")),
    )
    by_address = sa.select(wrong_guesses.c.key, wrong_guesses.c.guessed_at).where(
        wrong_guesses.c.scope == ADDRESS
    )
    counts = Counter(
        (_window_start(guessed_at), key) for key, guessed_at in op.get_bind().execute(by_address)
    )
    if counts:
        op.bulk_insert(
            guess_windows,
            [
                {"window_start": start, "client": client, "failures": failures}
                for (start, client), failures in counts.items()
            ],
        )
    op.drop_index("ix_wrong_guess_scope_key_guessed_at", table_name="wrong_guess")
    op.drop_index(op.f("ix_wrong_guess_guessed_at"), table_name="wrong_guess")
    op.drop_table("wrong_guess")


def _window_start(moment: datetime) -> datetime:
    """Return the start of the earlier window that `moment` (UTC, zoned or not) fell in."""
    seconds = moment.replace(tzinfo=moment.tzinfo or UTC).timestamp()
    return datetime.fromtimestamp(seconds // WINDOW_SECONDS * WINDOW_SECONDS, UTC)
