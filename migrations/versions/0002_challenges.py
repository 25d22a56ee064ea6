"""Servers' challenges and daily schedules; a game may be one player's attempt at a challenge.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

``games.challenge_id`` is added inside a batch block, which SQLite carries out by copying the
table; the partial index of active games is dropped first and made again after, so the copy
can't lose its ``WHERE``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from gatebot.store.sequences import autoincrement, ids_kept, keep_sequence, restore_sequence

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("status = 'active'")


def upgrade() -> None:
    """Create ``challenges`` and ``daily_schedules``; link games to challenges, one attempt each."""
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("options", sa.String(length=100), server_default="", nullable=False),
        sa.Column("deal", sa.BigInteger(), nullable=False),
        sa.Column("hints", sa.String(length=16), nullable=False),
        sa.Column("undo", sa.String(length=16), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("announcement_id", sa.BigInteger(), nullable=True),
        sa.Column("day", sa.Date(), nullable=True),
        sa.Column("opens_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("announced_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["players.id"], name=op.f("fk_challenges_created_by_players"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
        sa.UniqueConstraint("guild_id", "day", name=op.f("uq_challenges_guild_id")),
    )
    op.create_index(op.f("ix_challenges_guild_id"), "challenges", ["guild_id"], unique=False)
    op.create_index(op.f("ix_challenges_closed_at"), "challenges", ["closed_at"], unique=False)
    op.create_table(
        "daily_schedules",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("options", sa.String(length=100), server_default="", nullable=False),
        sa.Column("winnable", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("hints", sa.String(length=16), nullable=False),
        sa.Column("undo", sa.String(length=16), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("enabled", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_daily_schedules")),
    )
    restore_sequence("challenges")
    op.drop_index(op.f("uq_games_one_active_per_player"), table_name="games")
    with ids_kept("games", "challenges"), op.batch_alter_table(
        "games", table_kwargs={"sqlite_autoincrement": autoincrement("games")}
    ) as batch:
        batch.add_column(sa.Column("challenge_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            batch.f("fk_games_challenge_id_challenges"), "challenges", ["challenge_id"], ["id"], ondelete="SET NULL"
        )
    op.create_index(
        op.f("uq_games_one_active_per_player"), "games", ["player_id"], unique=True,
        sqlite_where=ACTIVE, postgresql_where=ACTIVE,
    )
    op.create_index(
        op.f("uq_games_one_attempt_per_challenge"), "games", ["challenge_id", "player_id"], unique=True
    )


def downgrade() -> None:
    """Unlink games from challenges (their attempts become ordinary games), then drop both tables.

    Games keep ``AUTOINCREMENT`` if they had it, and the highest game and challenge ids are kept
    (:mod:`gatebot.store.sequences`): no id is given twice after an upgrade again.
    """
    op.drop_index(op.f("uq_games_one_attempt_per_challenge"), table_name="games")
    op.drop_index(op.f("uq_games_one_active_per_player"), table_name="games")
    op.execute("UPDATE games SET status = 'resigned' WHERE status = 'expired'")
    with ids_kept("games", "challenges"):
        with op.batch_alter_table("games", table_kwargs={"sqlite_autoincrement": autoincrement("games")}) as batch:
            batch.drop_constraint(batch.f("fk_games_challenge_id_challenges"), type_="foreignkey")
            batch.drop_column("challenge_id")
        op.create_index(
            op.f("uq_games_one_active_per_player"), "games", ["player_id"], unique=True,
            sqlite_where=ACTIVE, postgresql_where=ACTIVE,
        )
        op.drop_table("daily_schedules")
        op.drop_index(op.f("ix_challenges_closed_at"), table_name="challenges")
        op.drop_index(op.f("ix_challenges_guild_id"), table_name="challenges")
        keep_sequence("challenges")
        op.drop_table("challenges")
