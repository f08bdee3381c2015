"""Keep each match's result beside its rounds, and clubs with their players.

The result (whether the last round is in, and each side's total) is written from now on by the
one write path in the transaction that changes the rounds. For the matches stored before, it is
worked out here as the app works it out: every round's breakdown through the domain's scoring,
under the match's stored rules. SQL alone cannot add the totals up: what a book or a card is
worth is in each match's settings.

Revision ID: 7a3c9e1f2b64
Revises: 7b2e4f9c1a30
Create Date: 2026-12-06 02:14:37.510782

"""

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

import sqlalchemy as sa
from alembic import op

from scorekeeper.domain.entries import CardCounts, SideEntry
from scorekeeper.domain.rules import DEFAULT_PRESET, build_rules
from scorekeeper.domain.scoring import side_breakdown

# revision identifiers, used by Alembic.
revision = "7a3c9e1f2b64"
down_revision = "7b2e4f9c1a30"
branch_labels = None
depends_on = None

# The tables as this revision reads them, whatever the models say later.
MATCH = sa.table(
    "match",
    sa.column("id", sa.Integer),
    sa.column("settings", sa.JSON),
    sa.column("finished", sa.Boolean),
)
SIDE = sa.table("side", sa.column("id", sa.Integer), sa.column("total", sa.Integer))
ROUND = sa.table("round", sa.column("id", sa.Integer), sa.column("match_id", sa.Integer))
ENTRY = sa.table(
    "entry",
    sa.column("round_id", sa.Integer),
    sa.column("side_id", sa.Integer),
    *(
        sa.column(name, sa.Integer)
        for name in ("clean_books", "dirty_books", "wild_books", "melded_points")
    ),
    sa.column("melded_counts", sa.JSON),
    *(sa.column(name, sa.Integer) for name in ("red_threes", "red_threes_held", "deal_bonus")),
    sa.column("went_out", sa.Boolean),
    sa.column("leftover_points", sa.Integer),
    sa.column("leftover_counts", sa.JSON),
)


def upgrade() -> None:
    op.create_table(
        "club",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("edit_token_hash", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=35), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club")),
        sa.UniqueConstraint("public_id", name=op.f("uq_club_public_id")),
    )
    op.create_table(
        "club_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=240), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["club.id"], name=op.f("fk_club_player_club_id_club"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_player")),
        sa.UniqueConstraint("club_id", "name_key", name=op.f("uq_club_player_club_id_name_key")),
        sa.UniqueConstraint("club_id", "number", name=op.f("uq_club_player_club_id_number")),
    )
    with op.batch_alter_table("match") as batch_op:
        batch_op.add_column(
            sa.Column("finished", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("club_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_match_club_id"), ["club_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_match_club_id_club"), "club", ["club_id"], ["id"], ondelete="SET NULL"
        )
    with op.batch_alter_table("player") as batch_op:
        batch_op.add_column(sa.Column("club_player_id", sa.Integer(), nullable=True))
        batch_op.create_index(
            batch_op.f("ix_player_club_player_id"), ["club_player_id"], unique=False
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_player_club_player_id_club_player"),
            "club_player",
            ["club_player_id"],
            ["id"],
            ondelete="SET NULL",
        )
    with op.batch_alter_table("side") as batch_op:
        batch_op.add_column(sa.Column("total", sa.Integer(), server_default="0", nullable=False))
    _fill_results(op.get_bind())


def _fill_results(connection: sa.Connection) -> None:
    """Write every stored match's result: each side's total, and whether it is finished."""
    rounds: dict[int, int] = defaultdict(int)
    for (match_id,) in connection.execute(sa.select(ROUND.c.match_id)):
        rounds[match_id] += 1
    totals = dict(_side_totals(connection))
    finished = [
        {"match_id": match_id}
        for match_id, settings in connection.execute(sa.select(MATCH.c.id, MATCH.c.settings))
        if rounds[match_id] >= build_rules(DEFAULT_PRESET, settings).rounds
    ]
    if finished:
        update = MATCH.update().where(MATCH.c.id == sa.bindparam("match_id"))
        connection.execute(update.values(finished=True), finished)
    if totals:
        update = SIDE.update().where(SIDE.c.id == sa.bindparam("side_id"))
        rows = [{"side_id": side, "side_total": total} for side, total in totals.items()]
        connection.execute(update.values(total=sa.bindparam("side_total")), rows)


def _side_totals(connection: sa.Connection) -> Iterator[tuple[int, int]]:
    """Yield each side's total over its stored rounds, a match at a time."""
    rules = {
        match_id: build_rules(DEFAULT_PRESET, settings)
        for match_id, settings in connection.execute(sa.select(MATCH.c.id, MATCH.c.settings))
    }
    entries = connection.execute(
        sa.select(ROUND.c.match_id, ENTRY).join(ROUND, ROUND.c.id == ENTRY.c.round_id)
    ).mappings()
    totals: dict[int, int] = defaultdict(int)
    for row in entries:
        totals[row["side_id"]] += side_breakdown(rules[row["match_id"]], _side_entry(row)).total
    yield from totals.items()


def _side_entry(row: Mapping[str, Any]) -> SideEntry:
    """Return an entry row as the domain reads it (store.scores.side_entry, as of this revision)."""
    return SideEntry(
        clean_books=row["clean_books"],
        dirty_books=row["dirty_books"],
        wild_books=row["wild_books"],
        melded=_cards(row["melded_points"], row["melded_counts"]),
        red_threes=row["red_threes"],
        red_threes_held=row["red_threes_held"],
        went_out=bool(row["went_out"]),
        leftover=_cards(row["leftover_points"], row["leftover_counts"]),
        deal_bonus=row["deal_bonus"],
    )


def _cards(points: int | None, counts: Mapping[str, int] | None) -> int | CardCounts:
    return CardCounts.from_mapping(counts) if counts is not None else points or 0


def downgrade() -> None:
    with op.batch_alter_table("side") as batch_op:
        batch_op.drop_column("total")
    with op.batch_alter_table("player") as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_player_club_player_id_club_player"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_player_club_player_id"))
        batch_op.drop_column("club_player_id")
    with op.batch_alter_table("match") as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_match_club_id_club"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_match_club_id"))
        batch_op.drop_column("club_id")
        batch_op.drop_column("finished")
    op.drop_table("club_player")
    op.drop_table("club")
