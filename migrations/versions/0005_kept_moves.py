"""Move counts are the moves kept: every stored game's ``move_count`` recounted from its log.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

gatebot counts a game's moves one way everywhere (the board's header, the win sentence, the
result card, the statistics, the leaderboards): the moves of its line as it stands, a move
taken back no longer counted (see :func:`gatebot.service.games.move_count`). ``move_count``
used to count every move ever played, undone ones included; here each log is replayed as
tokens (``u`` takes back the move before it) to count what was kept. The downgrade keeps the
new counts: they are a cache, and the older code only adds to them.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNDO = "u"
GAMES = sa.table("games", sa.column("id", sa.Integer), sa.column("log", sa.Text), sa.column("move_count", sa.Integer))


def kept_moves(log: str) -> int:
    """How many moves of a log still stand: each ``u`` takes back the move before it."""
    kept = 0
    for token in log.split():
        kept = max(0, kept - 1) if token == UNDO else kept + 1
    return kept


def upgrade() -> None:
    """Recount the moves of every game whose stored count differs from its kept moves."""
    connection = op.get_bind()
    rows = connection.execute(sa.select(GAMES.c.id, GAMES.c.log, GAMES.c.move_count)).all()
    counts = [{"b_id": game_id, "b_moves": kept_moves(log)} for game_id, log, moves in rows if kept_moves(log) != moves]
    if counts:
        connection.execute(
            GAMES.update().where(GAMES.c.id == sa.bindparam("b_id")).values(move_count=sa.bindparam("b_moves")),
            counts,
        )


def downgrade() -> None:
    """Nothing to undo: the counts stay as recounted."""
