"""The database: typed SQLAlchemy 2.0 models of stored matches and clubs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    JSON,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The models' base. They subclass it rather than `db.Model`, which type checkers cannot
    follow, and so name their tables themselves; `db` shares its metadata."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# Objects keep what they read when a transaction ends: a change decided on a match read in the
# request's read transaction is written in a write transaction of its own, under the version read.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})


# A JSON column that may hold nothing holds SQL NULL then, not JSON's null: `IS NULL` finds it,
# and reading it decodes nothing (an entry made in points has no counts, on every read).
OPTIONAL_JSON = JSON(none_as_null=True)


def table_of(model: type[Base]) -> Table:
    """Return a model's table, typed as the Table it is: SQLAlchemy types it as any FromClause."""
    table = model.__table__
    assert isinstance(table, Table), "a model mapped to a table"
    return table


def utc_now() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp, even on SQLite, which stores no zone and returns naive."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        # PostgreSQL answers in the session's time zone, SQLite with none: both become UTC.
        return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


class Match(Base):
    """A match a table keeps score of, under the rules it chose when it began."""

    __tablename__ = "match"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    preset: Mapped[str] = mapped_column(String(40))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    language: Mapped[str | None] = mapped_column(String(35))
    # Every change to the match or its rounds moves it on by one, and is written only if the
    # match is still at the version the change was decided on (optimistic concurrency).
    version: Mapped[int] = mapped_column(default=1)
    # The highest version any deleted round of this match reached: a round entered later starts
    # above it, so that an old ETag never matches a new round of the same number.
    round_version_floor: Mapped[int] = mapped_column(default=0, server_default="0")
    # Who deals round 1: the player so many places on from side 1's first player in the order
    # the deal passes round the table (domain.dealing); 0, side 1's first player, unless told.
    first_dealer: Mapped[int] = mapped_column(default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)
    # The match's result as its rounds stand, written with every change to them (rounds.py):
    # whether the last round is in; each side keeps its total. A club's records read these.
    finished: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The club the match belongs to, if any. A club deleted leaves its matches whole, in none.
    club_id: Mapped[int | None] = mapped_column(
        ForeignKey("club.id", ondelete="SET NULL"), index=True
    )

    sides: Mapped[list[Side]] = relationship(
        back_populates="match", cascade="all, delete-orphan", order_by="Side.position"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="match", cascade="all, delete-orphan", order_by="Round.number"
    )

    __mapper_args__ = {"version_id_col": version}


class Side(Base):
    """A side of a match: a partnership, or one player alone."""

    __tablename__ = "side"
    __table_args__ = (UniqueConstraint("match_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))
    total: Mapped[int] = mapped_column(default=0, server_default="0")  # after its rounds stored

    match: Mapped[Match] = relationship(back_populates="sides")
    players: Mapped[list[Player]] = relationship(
        back_populates="side", cascade="all, delete-orphan", order_by="Player.position"
    )


class Player(Base):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("side_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))
    # The club's player this is, in a club's match.
    club_player_id: Mapped[int | None] = mapped_column(
        ForeignKey("club_player.id", ondelete="SET NULL"), index=True
    )

    side: Mapped[Side] = relationship(back_populates="players")
    club_player: Mapped[ClubPlayer | None] = relationship()


class Club(Base):
    """A group that plays together: its players, each named once, and its matches.

    Like a match, it is opened by its public id and changed with its edit token, stored only as
    a digest. Deleting a club deletes its list of players and nothing of its matches: each
    stays whole, with its rounds and links, and belongs to no club.
    """

    __tablename__ = "club"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    language: Mapped[str | None] = mapped_column(String(35))  # of its PDFs; None: the reader's
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)

    players: Mapped[list[ClubPlayer]] = relationship(
        back_populates="club", cascade="all, delete-orphan", order_by="ClubPlayer.number"
    )


class ClubPlayer(Base):
    """A player of a club, numbered in the club in the order they joined it."""

    __tablename__ = "club_player"
    __table_args__ = (
        UniqueConstraint("club_id", "number"),
        # Two players of a club never share a name, whatever its case (`club.name_key`).
        UniqueConstraint("club_id", "name_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))
    name_key: Mapped[str] = mapped_column(String(240))  # NFKC can make a character several

    club: Mapped[Club] = relationship(back_populates="players")


class Round(Base):
    """A round as entered; its version lets two phones notice each other's edits."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    number: Mapped[int]
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)

    match: Mapped[Match] = relationship(back_populates="rounds")
    entries: Mapped[list[Entry]] = relationship(
        back_populates="round", cascade="all, delete-orphan"
    )


class Entry(Base):
    """What one side entered for one round; melded and left-over cards as points or as counts."""

    __tablename__ = "entry"
    __table_args__ = (UniqueConstraint("round_id", "side_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"))
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id", ondelete="CASCADE"), index=True)
    clean_books: Mapped[int] = mapped_column(default=0)
    dirty_books: Mapped[int] = mapped_column(default=0)
    wild_books: Mapped[int] = mapped_column(default=0)
    melded_points: Mapped[int | None]
    melded_counts: Mapped[dict[str, int] | None] = mapped_column(OPTIONAL_JSON)
    red_threes: Mapped[int] = mapped_column(default=0)
    red_threes_held: Mapped[int] = mapped_column(default=0)
    went_out: Mapped[bool] = mapped_column(default=False)
    leftover_points: Mapped[int | None]
    leftover_counts: Mapped[dict[str, int] | None] = mapped_column(OPTIONAL_JSON)
    deal_bonus: Mapped[int] = mapped_column(default=0)  # players who earned it

    round: Mapped[Round] = relationship(back_populates="entries")
    side: Mapped[Side] = relationship()


class Operation(Base):
    """A change applied under an operation id, kept a while so that a repeat applies nothing.

    `entry` holds the round as the change stored it (running scores included), so that a repeat
    answers exactly as the first request did, whatever happened to the round since. A change to
    the match itself (a new edit token) has no round.
    """

    __tablename__ = "operation"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    round_number: Mapped[int | None]
    round_version: Mapped[int | None]
    entry: Mapped[dict[str, Any] | None] = mapped_column(OPTIONAL_JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now, index=True)


class WrongGuess(Base):
    """A request for a match that guessed wrong, counted for a while against one rate-limit key:
    the client's address, or the match whose edit token it got wrong."""

    __tablename__ = "wrong_guess"
    __table_args__ = (Index("ix_wrong_guess_scope_key_guessed_at", "scope", "key", "guessed_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(String(8))  # what `key` names: "address" or "match"
    key: Mapped[str] = mapped_column(String(64))
    guessed_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
