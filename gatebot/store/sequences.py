"""Ids are never given twice, whatever a migration does to a table: helpers for the migrations.

An old board's buttons name their game's id, an announcement's Play button its challenge's,
and a process may still hold a forgotten player's id: none of them may come to mean a newer
row. On SQLite that takes ``AUTOINCREMENT``, whose highest id ever given is a row of
``sqlite_sequence``. A migration that makes a table again (a batch block copies it) or drops
it loses that row, so the next id would be the largest left plus one: :func:`ids_kept` notes
each table's highest id before and puts it back after, even for a table dropped meanwhile
(``sqlite_sequence`` keeps it until a table of that name is made again). On PostgreSQL a
sequence never goes back; only dropping a table drops its sequence, which
:func:`keep_sequence` and :func:`restore_sequence` carry across.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import sqlalchemy as sa
from alembic import op

#: The tables whose ids come back from outside gatebot's database (buttons, commands, caches).
TABLES = ("players", "games", "challenges")


def _sqlite() -> bool:
    return bool(op.get_bind().dialect.name == "sqlite")


def _exists(table: str) -> bool:
    return bool(sa.inspect(op.get_bind()).has_table(table))


def _has_sequences() -> bool:
    found = op.get_bind().execute(sa.text("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'")).first()
    return found is not None


def autoincrement(table: str) -> bool:
    """Whether SQLite was told never to reuse ``table``'s ids (False elsewhere: nothing to tell)."""
    if not _sqlite():
        return False
    sql = op.get_bind().execute(
        sa.text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = :name"), {"name": table}
    ).scalar()
    return sql is not None and "AUTOINCREMENT" in sql.upper()


def _highest(table: str) -> int:
    """The highest id ``table`` ever gave, as far as SQLite can tell: its sequence, or its largest id."""
    connection = op.get_bind()
    highest = 0
    if _has_sequences():
        highest = connection.execute(
            sa.text("SELECT max(seq) FROM sqlite_sequence WHERE name = :name"), {"name": table}
        ).scalar() or 0
    if _exists(table):
        highest = max(highest, connection.execute(sa.text(f"SELECT max(id) FROM {table}")).scalar() or 0)
    return int(highest)


@contextlib.contextmanager
def ids_kept(*tables: str) -> Iterator[None]:
    """Keep the highest id each of ``tables`` ever gave across what is done inside (SQLite; no-op elsewhere)."""
    if not _sqlite():
        yield
        return
    marks = {table: _highest(table) for table in tables}
    yield
    if not _has_sequences():
        return  # no table of the database ever had AUTOINCREMENT: nothing remembers more than the largest id
    connection = op.get_bind()
    for table, mark in marks.items():
        if not mark:
            continue
        rows = connection.execute(
            sa.text("UPDATE sqlite_sequence SET seq = max(seq, :mark) WHERE name = :name"),
            {"mark": mark, "name": table},
        ).rowcount
        if not rows:
            connection.execute(sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES (:name, :mark)"),
                               {"name": table, "mark": mark})


def _kept_sequence(table: str) -> str:
    return f"gatebot_{table}_ids_kept"


def keep_sequence(table: str) -> None:
    """Before ``table`` is dropped (PostgreSQL): keep its id sequence under another name, for later."""
    if op.get_bind().dialect.name != "postgresql":
        return
    sequence = op.get_bind().execute(sa.text("SELECT pg_get_serial_sequence(:table, 'id')"), {"table": table}).scalar()
    if sequence is not None:
        op.execute(f"ALTER SEQUENCE {sequence} OWNED BY NONE")
        op.execute(f"ALTER SEQUENCE {sequence} RENAME TO {_kept_sequence(table)}")


def restore_sequence(table: str) -> None:
    """After ``table`` is made again (PostgreSQL): its ids go on from where the kept sequence stopped."""
    if op.get_bind().dialect.name != "postgresql":
        return
    connection = op.get_bind()
    kept = _kept_sequence(table)
    found = connection.execute(sa.text("SELECT to_regclass(:kept)"), {"kept": kept}).scalar()
    if found is None:
        return
    last, called = connection.execute(sa.text(f"SELECT last_value, is_called FROM {kept}")).one()
    if called:
        connection.execute(
            sa.text(f"SELECT setval(pg_get_serial_sequence(:table, 'id'), greatest(:last, "
                    f"(SELECT coalesce(max(id), 0) FROM {table})))"),
            {"table": table, "last": last},
        )
    op.execute(f"DROP SEQUENCE {kept}")
