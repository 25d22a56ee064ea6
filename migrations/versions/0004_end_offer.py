"""A game remembers the solver's proof that no win is left, so End game is offered from stored state.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

``games.proved_lost`` is where the End-game offer comes from, so the offer outlives the
process that found the proof (a restart, or another process serving the player). The column
is added in place; dropping it again goes through a batch block (SQLite copies the table),
so the partial index of active games is dropped first and made again after, as in ``0002``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from gatebot.store.sequences import autoincrement, ids_kept

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("status = 'active'")


def upgrade() -> None:
    """Add ``games.proved_lost``: no game has a proof yet (the solver gives it again when asked)."""
    op.add_column("games", sa.Column("proved_lost", sa.Boolean(), server_default=sa.text("false"), nullable=False))


def downgrade() -> None:
    """Drop ``games.proved_lost``: End game is offered again once the solver proves it afresh.

    The copy keeps ``AUTOINCREMENT`` and the highest id given (:mod:`gatebot.store.sequences`).
    """
    op.drop_index(op.f("uq_games_one_active_per_player"), table_name="games")
    with ids_kept("games"), op.batch_alter_table(
        "games", table_kwargs={"sqlite_autoincrement": autoincrement("games")}
    ) as batch:
        batch.drop_column("proved_lost")
    op.create_index(
        op.f("uq_games_one_active_per_player"), "games", ["player_id"], unique=True,
        sqlite_where=ACTIVE, postgresql_where=ACTIVE,
    )
