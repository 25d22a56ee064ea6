"""A player can choose a four-colour deck: ``players.four_colour``.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

The four-colour deck (clubs green, diamonds blue) is a board preference beside the board
style and the compact layout, so it is a column of ``players`` as they are. Every player
starts with the two-colour deck they had. The new ``words`` board style needs nothing here:
``players.board_style`` is a string of up to 16 characters.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``players.four_colour``, off for everyone."""
    op.add_column("players", sa.Column("four_colour", sa.Boolean(), server_default=sa.text("false"), nullable=False))


def downgrade() -> None:
    """Drop ``players.four_colour``: boards go back to two colours.

    A plain ``ALTER TABLE ... DROP COLUMN`` (SQLite has it since 3.35), never a batch block:
    SQLite's batch copies the table and drops the old one, and with foreign keys enforced
    dropping ``players`` would delete every game (``ON DELETE CASCADE``). A player who chose
    the ``words`` style keeps it as a string the older code doesn't know; it draws them a
    text board, its fallback for any style but emoji and image.
    """
    op.drop_column("players", "four_colour")
