"""Game and challenge ids are never reused, on SQLite too (AUTOINCREMENT).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

SQLite gives a new row the largest id plus one, so after the newest game is deleted (its
player's data forgotten) the next game gets its id, and an old board's buttons would name
someone else's new game. ``AUTOINCREMENT`` makes SQLite remember the largest id ever given.
It can only be set by making the table again, which batch mode does (``recreate="always"``),
keeping the highest id each table gave (:mod:`gatebot.store.sequences`). PostgreSQL's
sequences never give an id twice: nothing to do there.

The downgrade keeps ``AUTOINCREMENT``: an older gatebot works the same on such tables, and
its ids are never reused either.

Two things don't survive SQLite's copy on their own, and are kept by hand:

* the partial index of active games (a copy loses its ``WHERE``): dropped first, made again
  after, as in 0002;
* games' links to their challenges: dropping the old ``challenges`` table, with foreign keys
  enforced, deletes its rows first, and ``ON DELETE SET NULL`` would unlink every attempt. The
  links are saved in a temporary table and put back.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from gatebot.store.sequences import ids_kept

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("status = 'active'")


def upgrade() -> None:
    """Make ``games`` and ``challenges`` again with ``AUTOINCREMENT`` (SQLite only)."""
    if op.get_bind().dialect.name != "sqlite":
        return
    with ids_kept("games", "challenges"):
        _rebuild(autoincrement=True)


def downgrade() -> None:
    """Nothing: both tables keep ``AUTOINCREMENT``, so ids stay never reused whatever runs on them."""


def _rebuild(*, autoincrement: bool) -> None:
    op.execute(
        "CREATE TEMPORARY TABLE _gatebot_links AS "
        "SELECT id, challenge_id FROM games WHERE challenge_id IS NOT NULL"
    )
    op.drop_index(op.f("uq_games_one_active_per_player"), table_name="games")
    for table in ("challenges", "games"):
        with op.batch_alter_table(
            table, recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
        ):
            pass
    op.execute(
        "UPDATE games SET challenge_id = "
        "(SELECT links.challenge_id FROM _gatebot_links AS links WHERE links.id = games.id) "
        "WHERE id IN (SELECT id FROM _gatebot_links)"
    )
    op.execute("DROP TABLE _gatebot_links")
    op.create_index(
        op.f("uq_games_one_active_per_player"), "games", ["player_id"], unique=True,
        sqlite_where=ACTIVE, postgresql_where=ACTIVE,
    )
