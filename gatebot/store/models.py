"""The tables: players and their games, servers' challenges and their daily schedules.

A game row is its variant, options and deal plus the log of what the player did; the
stored position, score and counters are caches of a replay of that log, kept so lists and
leaderboards need no replay. ``version`` is bumped on every write (optimistic locking), so
two writers can never both save over the same version.
"""

from __future__ import annotations

import enum
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    case,
    extract,
    func,
    literal_column,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.sql.elements import Grouping, SQLCoreOperations
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A ``TIMESTAMP WITH TIME ZONE`` that is always an aware UTC ``datetime`` in Python.

    PostgreSQL keeps the instant, but SQLite has no time zone type: SQLAlchemy stores the
    wall-clock time, dropping the offset, and reads back a naive ``datetime`` -- a different
    instant for non-UTC input, and a ``TypeError`` when compared with ``utcnow()``. So
    values are converted to UTC on the way in (a naive one is taken to be UTC already) and
    marked UTC on the way out. The DDL is the plain ``DateTime(timezone=True)`` one.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


#: The largest id each database's INTEGER column holds (SQLite's integers are 64-bit).
_LARGEST_ID = {"postgresql": 2**31 - 1}
_LARGEST_SQLITE_ID = 2**63 - 1


class RowId(TypeDecorator[int]):
    """An ``INTEGER`` id column that a lookup by an id no row can have simply doesn't find.

    Game and challenge ids come back from outside (a button's custom id, a command's
    option) as any Python int: ``2**63``, ``10**30`` or ``-5``. Bound as they are, the
    driver refuses them (``OverflowError`` on SQLite, a range error on PostgreSQL's 32-bit
    INTEGER) and the player would get an apology for a bug. Here, a value outside 1 to the
    column's largest is bound as 0, which no row has (ids count from 1), so every query of
    every service by such an id finds nothing and says "no such game" the usual way,
    without a check at each entry point. The DDL is the plain ``INTEGER`` one.
    """

    impl = Integer
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> int | None:
        if value is None:
            return None
        largest = _LARGEST_ID.get(dialect.name, _LARGEST_SQLITE_ID)
        return value if 1 <= value <= largest else 0


class Base(DeclarativeBase):
    """Declarative base whose constraint names are predictable, so SQLite batch migrations work."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class GameStatus(enum.StrEnum):
    """Where a game stands. Only ``active`` games can be played; one per player at most.

    The ``status`` column holds this as plain text, not as SQLAlchemy's ``Enum`` type: a row
    may have been written by another gatebot version (or by hand) with a status this one
    doesn't know, and an ``Enum`` column would make every query that loads such a row fail
    (``LookupError``) for everyone, not only for its owner. Text becomes a status in one
    place, :meth:`read`, which answers None for an unknown one, so each reader can set that
    game aside and go on with the others (:mod:`gatebot.service.saved`).
    """

    ACTIVE = "active"
    WON = "won"
    LOST = "lost"
    RESIGNED = "resigned"
    ABANDONED = "abandoned"
    QUARANTINED = "quarantined"
    #: A challenge attempt still running when its challenge closed: it ends with its score.
    EXPIRED = "expired"

    @property
    def finished(self) -> bool:
        """Over with a result that counts in statistics (not running, not set aside)."""
        return self not in (GameStatus.ACTIVE, GameStatus.QUARANTINED)

    @classmethod
    def read(cls, text: str) -> GameStatus | None:
        """The status a row's text names; None for one this gatebot doesn't know."""
        try:
            return cls(text)
        except ValueError:
            return None


class Rule(enum.StrEnum):
    """How a challenge treats hints, and undo: free, free but paid for in the ranking, or refused."""

    ALLOWED = "allowed"
    COUNTED = "counted"  # each use adds one move to the attempt's count for the ranking
    FORBIDDEN = "forbidden"


class ChallengeKind(enum.StrEnum):
    CUSTOM = "custom"  # made by a member with Manage Server
    DAILY = "daily"  # opened by the scheduler at 00:00 UTC


class Player(Base):
    """Someone who plays: a user of one platform (``discord``, ``terminal``) and their preferences."""

    __tablename__ = "players"
    # Ids never reused, like games': a process may still hold a forgotten player's id in memory.
    __table_args__ = (UniqueConstraint("platform", "platform_user_id"), {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    platform_user_id: Mapped[str] = mapped_column(String(64))
    display_name: Mapped[str] = mapped_column(String(100))
    board_style: Mapped[str] = mapped_column(String(16), default="text", server_default="text")
    #: A new player gets the compact board, which fits a phone (Preferences.compact). The
    #: column's server default stays false: players stored before compact was the default keep
    #: the board they had, and changing a column default on SQLite means copying ``players``,
    #: which would cascade-delete their games. gatebot always inserts players through the ORM.
    compact_board: Mapped[bool] = mapped_column(default=True, server_default=text("false"))
    four_colour: Mapped[bool] = mapped_column(default=False, server_default=text("false"))
    #: The language of the player's own Discord client as their last interaction named it
    #: (``de``, ``en-US``): their boards are said in it, whoever's message edits them.
    locale: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    games: Mapped[list[GameRecord]] = relationship(back_populates="player", lazy="raise")


class GameRecord(Base):
    """One game of one player, from its deal to its end (or to being set aside)."""

    __tablename__ = "games"
    __table_args__ = (
        Index(
            "uq_games_one_active_per_player",
            "player_id",
            unique=True,
            sqlite_where=text("status = 'active'"),
            postgresql_where=text("status = 'active'"),
        ),
        # One attempt per player per challenge (games outside challenges have NULL, never equal).
        Index("uq_games_one_attempt_per_challenge", "challenge_id", "player_id", unique=True),
        # Ids are never reused (SQLite would reuse the largest after a delete): an old board's
        # buttons name their game's id, which must never come to mean someone's new game.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(RowId, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(String(100), default="", server_default="")
    deal: Mapped[int] = mapped_column(BigInteger)
    #: Every action in order, space-separated: canonical move tokens, and ``u`` for an undo.
    log: Mapped[str] = mapped_column(Text, default="", server_default="")
    #: The position text after replaying ``log`` (a cache, checked on load).
    position: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.ACTIVE, index=True)
    score: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    move_count: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    undo_count: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    hint_count: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    board_message_id: Mapped[int | None] = mapped_column(BigInteger)
    #: Why a game was set aside (status ``quarantined``): shown to its owner.
    problem: Mapped[str | None] = mapped_column(Text)
    #: The challenge this game is an attempt at; a removed challenge leaves an ordinary game.
    challenge_id: Mapped[int | None] = mapped_column(ForeignKey("challenges.id", ondelete="SET NULL"))
    #: The solver proved that no win is left from the stored position (so End game is offered);
    #: kept through later plays, cleared by an undo.
    proved_lost: Mapped[bool] = mapped_column(default=False, server_default=text("false"))
    version: Mapped[int] = mapped_column(default=1, server_default=text("1"))

    player: Mapped[Player] = relationship(back_populates="games", lazy="raise")

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy's documented form


def won_last() -> ColumnElement[int]:
    """0 for a won game, 1 for any other a ranking counts, 2 for one set aside (or of a status unknown here).

    The first key of a challenge's ranking. Written with literal values, not parameters, so
    that a query's expression is the very one indexed (:data:`RANKING_INDEXES`).
    """
    status = GameRecord.__table__.c.status
    ranked: list[ColumnElement[str]] = [literal_column(f"'{value}'") for value in _RANKED_STATUSES]
    return case(
        (status == literal_column(f"'{GameStatus.WON.value}'"), literal_column("0")),
        (status.in_(ranked), literal_column("1")),
        else_=literal_column("2"),
    )


#: The statuses ranked after a win: every one this gatebot knows but ``won`` and ``quarantined``.
_RANKED_STATUSES = ("active", "lost", "resigned", "abandoned", "expired")


def counted_moves(hints: bool, undos: bool) -> ColumnElement[int]:
    """A game's moves, plus its hints and undos where its challenge counts them: the third key of the ranking."""
    games = GameRecord.__table__.c
    moves: ColumnElement[int] = games.move_count
    if hints:
        moves = moves + games.hint_count
    if undos:
        moves = moves + games.undo_count
    return moves


def time_between(
    dialect: str, start: SQLCoreOperations[Any], end: SQLCoreOperations[Any], *, per_second: int = 1
) -> ColumnElement[Any]:
    """The time from ``start`` to ``end`` as the database computes it, in seconds (or ``1/per_second`` of one).

    SQLite keeps the times as text, which ``julianday`` reads (in days); PostgreSQL keeps instants,
    whose difference is an interval.
    """
    if dialect == "sqlite":
        return (func.julianday(end) - func.julianday(start)) * (86_400.0 * per_second)
    seconds = extract("epoch", end - start)
    return seconds if per_second == 1 else seconds * per_second


def ranking_key(hints: bool, undos: bool) -> tuple[ColumnElement[int], ...]:
    """What a challenge's attempts are ranked by, in whole numbers: won first, more cards up, fewer counted moves.

    Queries must order by these very expressions for the database to use the ranking index.
    """
    return won_last(), -GameRecord.__table__.c.score, counted_moves(hints, undos)


def _ranking_index(hints: bool, undos: bool) -> Index:
    where = text("challenge_id IS NOT NULL")
    name = "ix_games_ranking" + ("_hints" if hints else "") + ("_undos" if undos else "")
    won, cards, moves = ranking_key(hints, undos)
    games = GameRecord.__table__.c
    return Index(  # PostgreSQL wants an expression that is no function call in brackets
        name, games.challenge_id, games.variant, games.options, Grouping(won), cards, moves,
        sqlite_where=where, postgresql_where=where,
    )


#: A challenge's attempts in the order of its ranking, one index for each way it counts hints
#: and undos (partial: ordinary games are not in them), so a page of its standings is read
#: without reading every attempt. The game and options come before the ranking keys: an
#: attempt ranks only with its challenge's (a row another gatebot version named otherwise does
#: not), and the count of those that do is a range of the index.
RANKING_INDEXES = tuple(_ranking_index(hints, undos) for hints in (False, True) for undos in (False, True))


class Challenge(Base):
    """One deal a server plays, each member once, between an opening and a closing time.

    A daily challenge has its ``day``: one per server per day, so the scheduler of any
    process that opens it twice gets an integrity error instead of a second challenge.
    ``announced_at`` and ``closed_at`` are each set once, by whoever announces its opening or
    closes it first (the scheduler, the command that made it, or an admin's ``end``); only
    that one posts the announcement, or the standings.
    """

    __tablename__ = "challenges"
    # Ids never reused, like games': an old announcement's Play button names its challenge's id.
    __table_args__ = (UniqueConstraint("guild_id", "day"), {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(RowId, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    kind: Mapped[str] = mapped_column(String(16), default=ChallengeKind.CUSTOM)
    name: Mapped[str] = mapped_column(String(100))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(String(100), default="", server_default="")
    deal: Mapped[int] = mapped_column(BigInteger)
    hints: Mapped[str] = mapped_column(String(16), default=Rule.ALLOWED)
    undo: Mapped[str] = mapped_column(String(16), default=Rule.ALLOWED)
    #: Where it is announced and its standings are posted (None: nowhere).
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    announcement_id: Mapped[int | None] = mapped_column(BigInteger)
    day: Mapped[date | None] = mapped_column(Date)
    opens_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    closes_at: Mapped[datetime] = mapped_column(UTCDateTime())
    announced_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: How many of its attempts its ranking counts (see :func:`won_last`), kept by the database's
    #: own triggers (migration ``0010``) whoever adds, sets aside or deletes one: never written here.
    ranked_attempts: Mapped[int] = mapped_column(server_default=text("0"))


class DailySchedule(Base):
    """A server's daily challenge: where it is posted, what it plays, and the secret behind its deals.

    ``secret`` is random and never shown: each day's deal is a keyed hash of the date, so it
    is the same after any restart yet can't be worked out before the day comes.
    """

    __tablename__ = "daily_schedules"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    variant: Mapped[str] = mapped_column(String(32), default="gate")
    options: Mapped[str] = mapped_column(String(100), default="", server_default="")
    winnable: Mapped[bool] = mapped_column(default=False, server_default=text("false"))
    hints: Mapped[str] = mapped_column(String(16), default=Rule.ALLOWED)
    undo: Mapped[str] = mapped_column(String(16), default=Rule.ALLOWED)
    secret: Mapped[str] = mapped_column(String(64))
    enabled: Mapped[bool] = mapped_column(default=True, server_default=text("true"))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
