"""Keep operation ids, guess counts and each match's round version floor.

Revision ID: b66834ac0ab4
Revises: 8ead35466b89
Create Date: 2026-11-29 14:05:59.902097

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b66834ac0ab4"
down_revision = "8ead35466b89"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("match") as batch_op:
        batch_op.add_column(
            sa.Column("round_version_floor", sa.Integer(), server_default="0", nullable=False)
        )
    op.create_table(
        "operation",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("round_version", sa.Integer(), nullable=True),
        sa.Column("entry", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_operation_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operation")),
    )
    op.create_index(op.f("ix_operation_match_id"), "operation", ["match_id"])
    op.create_index(op.f("ix_operation_created_at"), "operation", ["created_at"])
    op.create_table(
        "guess_window",
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("window_start", "client", name=op.f("pk_guess_window")),
    )


def downgrade() -> None:
    op.drop_table("guess_window")
    op.drop_index(op.f("ix_operation_created_at"), table_name="operation")
    op.drop_index(op.f("ix_operation_match_id"), table_name="operation")
    op.drop_table("operation")
    with op.batch_alter_table("match") as batch_op:
        batch_op.drop_column("round_version_floor")
