"""The first tables: players, and their games with at most one active game each.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Every name is the one ``Base.metadata``'s naming convention gives (``op.f`` marks a name as
final), so later SQLite batch migrations can find and alter each constraint.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from gatebot.store.sequences import ids_kept, keep_sequence, restore_sequence

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The rows the partial unique index covers: a player may have any number of finished games.
ACTIVE = sa.text("status = 'active'")


def upgrade() -> None:
    """Create ``players`` and ``games`` with their indexes and constraints."""
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("platform_user_id", sa.String(length=64), nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("board_style", sa.String(length=16), server_default="text", nullable=False),
        sa.Column("compact_board", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("platform", "platform_user_id", name=op.f("uq_players_platform")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("options", sa.String(length=100), server_default="", nullable=False),
        sa.Column("deal", sa.BigInteger(), nullable=False),
        sa.Column("log", sa.Text(), server_default="", nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("score", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("move_count", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("undo_count", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("hint_count", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("board_message_id", sa.BigInteger(), nullable=True),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_games_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_player_id"), "games", ["player_id"], unique=False)
    op.create_index(op.f("ix_games_status"), "games", ["status"], unique=False)
    op.create_index(
        op.f("uq_games_one_active_per_player"), "games", ["player_id"], unique=True,
        sqlite_where=ACTIVE, postgresql_where=ACTIVE,
    )
    restore_sequence("players")
    restore_sequence("games")


def downgrade() -> None:
    """Drop both tables (their indexes go with them), games first: they refer to players.

    The highest ids they gave are kept (:mod:`gatebot.store.sequences`): made again, they go on from there.
    """
    with ids_kept("players", "games"):
        op.drop_index(op.f("uq_games_one_active_per_player"), table_name="games")
        op.drop_index(op.f("ix_games_status"), table_name="games")
        op.drop_index(op.f("ix_games_player_id"), table_name="games")
        keep_sequence("games")
        op.drop_table("games")
        keep_sequence("players")
        op.drop_table("players")
