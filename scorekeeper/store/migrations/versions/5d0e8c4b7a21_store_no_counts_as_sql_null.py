"""Store an optional JSON value that is not there as SQL NULL, not as JSON's null.

Revision ID: 5d0e8c4b7a21
Revises: 3c1f0b7a9d2e
Create Date: 2026-12-03 10:00:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "5d0e8c4b7a21"
down_revision = "3c1f0b7a9d2e"
branch_labels = None
depends_on = None

# The columns the models now declare with none_as_null.
OPTIONAL_JSON_COLUMNS = (
    ("entry", "melded_counts"),
    ("entry", "leftover_counts"),
    ("operation", "entry"),
)


def upgrade() -> None:
    # JSON's null reads as the text 'null' on both databases; PostgreSQL's json has no `=`.
    for table, column in OPTIONAL_JSON_COLUMNS:
        op.execute(f"UPDATE {table} SET {column} = NULL WHERE CAST({column} AS TEXT) = 'null'")


def downgrade() -> None:
    # Nothing to undo: the earlier models read SQL NULL as no value too.
    pass
