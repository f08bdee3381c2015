"""Count a side's deal bonuses: each player who cuts exactly the cards earns one.

Revision ID: 3c1f0b7a9d2e
Revises: ea4915ee568d
Create Date: 2026-12-01 23:40:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "3c1f0b7a9d2e"
down_revision = "ea4915ee568d"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("entry") as batch_op:
        batch_op.alter_column(
            "deal_bonus",
            existing_type=sa.Boolean(),
            type_=sa.Integer(),
            existing_nullable=False,
            postgresql_using="deal_bonus::integer",
        )


def downgrade() -> None:
    # A flag again: a side's bonuses become one, which loses a second player's. SQLite copies
    # the values as they are, so they are made flags first.
    op.execute("UPDATE entry SET deal_bonus = 1 WHERE deal_bonus > 1")
    with op.batch_alter_table("entry") as batch_op:
        batch_op.alter_column(
            "deal_bonus",
            existing_type=sa.Integer(),
            type_=sa.Boolean(),
            existing_nullable=False,
            postgresql_using="deal_bonus > 0",
        )
