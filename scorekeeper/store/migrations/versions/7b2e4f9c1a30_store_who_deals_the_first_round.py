"""Store who deals a match's first round, by place in the deal order.

Revision ID: 7b2e4f9c1a30
Revises: 7f3a9c2d4b18
Create Date: 2026-12-06 10:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7b2e4f9c1a30"
down_revision = "7f3a9c2d4b18"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every match stored before dealt first from side 1's first player, as a new one does
    # unless told.
    with op.batch_alter_table("match") as batch_op:
        batch_op.add_column(
            sa.Column("first_dealer", sa.Integer(), server_default="0", nullable=False)
        )


def downgrade() -> None:
    # The earlier revisions have no place for it: every other value of every match is kept, and
    # upgrading again deals first from side 1's first player.
    with op.batch_alter_table("match") as batch_op:
        batch_op.drop_column("first_dealer")
