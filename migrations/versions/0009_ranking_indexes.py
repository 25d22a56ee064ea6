"""A challenge's attempts indexed in the order of its ranking, so a leaderboard page reads one page.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05

Four partial indexes on ``games`` (only rows with a challenge), one for each way a challenge
counts hints and undos, on the challenge, the game and options its attempts are dealt with,
and the ranking's whole-number keys: won first,
more cards up, fewer counted moves (see :data:`gatebot.store.models.RANKING_INDEXES`). The
expressions are written out here as they stood when this revision was made.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Each index's name and the moves it ranks by.
_INDEXES = {
    "ix_games_ranking": "move_count",
    "ix_games_ranking_undos": "move_count + undo_count",
    "ix_games_ranking_hints": "move_count + hint_count",
    "ix_games_ranking_hints_undos": "move_count + hint_count + undo_count",
}


#: 0 for a won game, 1 for another ranked one, 2 for one set aside or of an unknown status.
_WON_LAST = (
    "(CASE WHEN (status = 'won') THEN 0 "
    "WHEN (status IN ('active', 'lost', 'resigned', 'abandoned', 'expired')) THEN 1 ELSE 2 END)"
)


def upgrade() -> None:
    """Make the four ranking indexes, each only if missing.

    A database stamped behind its own tables (``gatebot db stamp``, as the advice for one says)
    may hold them already: upgrading it must not fail on an index that is there.
    """
    where = sa.text("challenge_id IS NOT NULL")
    for name, moves in _INDEXES.items():
        op.create_index(
            name, "games",
            ["challenge_id", "variant", "options", sa.text(_WON_LAST), sa.text("(-score)"),
             sa.text(f"({moves})")],
            sqlite_where=where, postgresql_where=where, if_not_exists=True,
        )


def downgrade() -> None:
    """Drop them: pages are then read from every attempt's row."""
    for name in _INDEXES:
        op.drop_index(name, table_name="games", if_exists=True)
