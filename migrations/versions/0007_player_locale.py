"""A player's boards keep the player's language: ``players.locale``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02

A board is its player's message, said in their language whoever edits it; a move typed in
a server says nothing of its sender's language (Discord gives a message none), so the
language of the player's own Discord client, as their last interaction named it, is kept
beside their board preferences. Empty for everyone until they next use a command or a button.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``players.locale``, unknown (NULL) for everyone."""
    op.add_column("players", sa.Column("locale", sa.String(length=16), nullable=True))


def downgrade() -> None:
    """Drop ``players.locale``: boards are said again in the language of whoever edits them.

    A plain ``ALTER TABLE ... DROP COLUMN``, never a batch block (see 0006: SQLite's batch
    copy would cascade-delete every game).
    """
    op.drop_column("players", "locale")
