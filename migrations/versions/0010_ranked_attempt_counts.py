"""Each challenge keeps the count of its ranked attempts, kept by the database, so a leaderboard page counts nothing.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05

``challenges.ranked_attempts`` is the number of the challenge's attempts its ranking counts:
rows of ``games`` naming the challenge, dealt with its game and options, of a status ranked
(every one but ``quarantined`` and those unknown here). Triggers on ``games`` keep it as rows
are added, change status or challenge, or are deleted (a player forgotten), whoever writes
them, in the writer's own transaction; the upgrade counts the rows already there. A page of
standings then reads one row for its "N players" instead of counting N.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The statuses a ranking counts, as they stood when this revision was made.
_RANKED = "('won', 'active', 'lost', 'resigned', 'abandoned', 'expired')"


def _counts(row: str) -> str:
    """SQL: the games row ``row`` (``NEW`` or ``OLD``) is an attempt its challenge ranks."""
    return f"{row}.challenge_id IS NOT NULL AND {row}.status IN {_RANKED}"


def _add(row: str, step: str) -> str:
    """SQL: add ``step`` to the count of the challenge ``row`` is ranked in, if it is dealt as the challenge."""
    return (
        f"UPDATE challenges SET ranked_attempts = ranked_attempts {step} "
        f"WHERE id = {row}.challenge_id AND variant = {row}.variant AND options = {row}.options"
    )


#: An update changes a count only when one of these changes (a move changes none of them).
_WHAT_COUNTS = ("challenge_id", "status", "variant", "options")
_CHANGED = " OR ".join(f"OLD.{column} IS DISTINCT FROM NEW.{column}" for column in _WHAT_COUNTS)

_SQLITE_TRIGGERS = (
    f"CREATE TRIGGER games_ranked_insert AFTER INSERT ON games WHEN {_counts('NEW')} "
    f"BEGIN {_add('NEW', '+ 1')}; END",
    f"CREATE TRIGGER games_ranked_delete AFTER DELETE ON games WHEN {_counts('OLD')} "
    f"BEGIN {_add('OLD', '- 1')}; END",
    f"CREATE TRIGGER games_ranked_update AFTER UPDATE OF {', '.join(_WHAT_COUNTS)} ON games "
    f"WHEN {_CHANGED.replace('IS DISTINCT FROM', 'IS NOT')} BEGIN "
    f"{_add('OLD', '- 1')} AND {_counts('OLD')}; "
    f"{_add('NEW', '+ 1')} AND {_counts('NEW')}; END",
)

_POSTGRESQL_FUNCTION = f"""
CREATE FUNCTION games_ranked_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND {_counts('OLD')} THEN
        {_add('OLD', '- 1')};
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND {_counts('NEW')} THEN
        {_add('NEW', '+ 1')};
    END IF;
    RETURN NULL;
END
$$
"""

_POSTGRESQL_TRIGGERS = (
    "CREATE TRIGGER games_ranked_insert_delete AFTER INSERT OR DELETE ON games "
    "FOR EACH ROW EXECUTE FUNCTION games_ranked_count()",
    f"CREATE TRIGGER games_ranked_update AFTER UPDATE OF {', '.join(_WHAT_COUNTS)} ON games "
    f"FOR EACH ROW WHEN ({_CHANGED}) EXECUTE FUNCTION games_ranked_count()",
)

_RECOUNT = (
    "UPDATE challenges SET ranked_attempts = (SELECT count(*) FROM games "
    f"WHERE games.challenge_id = challenges.id AND games.variant = challenges.variant "
    f"AND games.options = challenges.options AND games.status IN {_RANKED})"
)


def upgrade() -> None:
    """Add the count, its triggers, and count the attempts already there."""
    op.add_column(
        "challenges", sa.Column("ranked_attempts", sa.Integer(), nullable=False, server_default=sa.text("0"))
    )
    if op.get_bind().dialect.name == "sqlite":
        statements: Sequence[str] = _SQLITE_TRIGGERS
    else:
        statements = (_POSTGRESQL_FUNCTION, *_POSTGRESQL_TRIGGERS)
    for statement in statements:
        op.execute(statement)
    op.execute(_RECOUNT)


def downgrade() -> None:
    """Drop the triggers and the count: pages then count the attempts again."""
    if op.get_bind().dialect.name == "sqlite":
        for name in ("games_ranked_insert", "games_ranked_delete", "games_ranked_update"):
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    else:
        for name in ("games_ranked_insert_delete", "games_ranked_update"):
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON games")
        op.execute("DROP FUNCTION IF EXISTS games_ranked_count()")
    # (dropped in place: SQLite copying the table would unlink every attempt from its challenge)
    op.drop_column("challenges", "ranked_attempts")
