"""Store matches, sides, players, rounds and entries.

Revision ID: 8ead35466b89
Revises:
Create Date: 2026-11-29 13:40:45.808644

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "8ead35466b89"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("preset", sa.String(length=40), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("edit_token_hash", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=35), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match")),
        sa.UniqueConstraint("public_id", name=op.f("uq_match_public_id")),
    )
    op.create_table(
        "round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_round_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round")),
        sa.UniqueConstraint("match_id", "number", name=op.f("uq_round_match_id_number")),
    )
    op.create_table(
        "side",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_side_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_side")),
        sa.UniqueConstraint("match_id", "position", name=op.f("uq_side_match_id_position")),
    )
    op.create_table(
        "entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("side_id", sa.Integer(), nullable=False),
        sa.Column("clean_books", sa.Integer(), nullable=False),
        sa.Column("dirty_books", sa.Integer(), nullable=False),
        sa.Column("wild_books", sa.Integer(), nullable=False),
        sa.Column("melded_points", sa.Integer(), nullable=True),
        sa.Column("melded_counts", sa.JSON(), nullable=True),
        sa.Column("red_threes", sa.Integer(), nullable=False),
        sa.Column("red_threes_held", sa.Integer(), nullable=False),
        sa.Column("went_out", sa.Boolean(), nullable=False),
        sa.Column("leftover_points", sa.Integer(), nullable=True),
        sa.Column("leftover_counts", sa.JSON(), nullable=True),
        sa.Column("deal_bonus", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"], ["round.id"], name=op.f("fk_entry_round_id_round"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["side_id"], ["side.id"], name=op.f("fk_entry_side_id_side"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entry")),
        sa.UniqueConstraint("round_id", "side_id", name=op.f("uq_entry_round_id_side_id")),
    )
    op.create_index(op.f("ix_entry_side_id"), "entry", ["side_id"])
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("side_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.ForeignKeyConstraint(
            ["side_id"], ["side.id"], name=op.f("fk_player_side_id_side"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("side_id", "position", name=op.f("uq_player_side_id_position")),
    )


def downgrade() -> None:
    op.drop_table("player")
    op.drop_index(op.f("ix_entry_side_id"), table_name="entry")
    op.drop_table("entry")
    op.drop_table("side")
    op.drop_table("round")
    op.drop_table("match")
