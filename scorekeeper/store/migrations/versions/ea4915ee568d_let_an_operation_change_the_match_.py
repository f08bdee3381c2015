"""Let an operation change the match itself, without a round: a new edit token.

Revision ID: ea4915ee568d
Revises: b66834ac0ab4
Create Date: 2026-11-29 16:10:29.959690

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "ea4915ee568d"
down_revision = "b66834ac0ab4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("operation") as batch_op:
        batch_op.alter_column("round_number", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    # Operations only make retries safe: those without a round cannot stay, and may go.
    op.execute("DELETE FROM operation WHERE round_number IS NULL")
    with op.batch_alter_table("operation") as batch_op:
        batch_op.alter_column("round_number", existing_type=sa.Integer(), nullable=False)
