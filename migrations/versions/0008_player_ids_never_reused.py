"""Player ids are never reused, on SQLite too (AUTOINCREMENT), like game and challenge ids since 0003.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

A process keeps players' row ids in memory, and a forgotten player's id must never come to
mean someone who joins later. ``AUTOINCREMENT`` can only be set by making ``players`` again,
and SQLite drops the old table with foreign keys enforced (they can't be switched off inside
the migration's transaction): that deletes every game (``ON DELETE CASCADE``) and unlinks the
challenges players made (``SET NULL``). Both are saved in temporary tables first and put back,
with their ids. PostgreSQL's sequences never give an id twice: nothing to do there.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from gatebot.store.sequences import autoincrement, ids_kept

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Make ``players`` again with ``AUTOINCREMENT`` (SQLite only), keeping every game and challenge's maker."""
    if op.get_bind().dialect.name != "sqlite" or autoincrement("players"):
        return
    op.execute("CREATE TEMPORARY TABLE _gatebot_games AS SELECT * FROM games")
    op.execute("CREATE TEMPORARY TABLE _gatebot_makers AS "
               "SELECT id, created_by FROM challenges WHERE created_by IS NOT NULL")
    with ids_kept("players", "games"):
        with op.batch_alter_table("players", recreate="always", table_kwargs={"sqlite_autoincrement": True}):
            pass
        op.execute("INSERT INTO games SELECT * FROM _gatebot_games")
        op.execute(
            "UPDATE challenges SET created_by = "
            "(SELECT makers.created_by FROM _gatebot_makers AS makers WHERE makers.id = challenges.id) "
            "WHERE id IN (SELECT id FROM _gatebot_makers)"
        )
    op.execute("DROP TABLE _gatebot_games")
    op.execute("DROP TABLE _gatebot_makers")


def downgrade() -> None:
    """Nothing: ``players`` keeps ``AUTOINCREMENT``, so ids stay never reused whatever runs on it."""
