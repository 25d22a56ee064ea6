"""Bring a database's tables up to the schema this gatebot was built for, with Alembic.

The revisions ship inside the package as :mod:`gatebot.migrations` (``migrations/`` in the
repository, mapped into the package when it is installed) and the Alembic config is
built here in code, so an installed gatebot needs no ``alembic.ini``. Every function runs on a
connection of the app's own :class:`~gatebot.store.database.Database` engine, handed to
Alembic's ``env.py`` through ``config.attributes`` (Alembic's connection-sharing recipe), so
start-up checks, upgrades and the ``gatebot db`` command see the same database the bot uses.

Failures that a person running gatebot can fix — an unreachable database, a database written
by a newer gatebot, one stamped at a revision its tables have outgrown — become
:class:`~gatebot.store.database.DatabaseError` with one sentence that never shows a password.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.resources
import logging
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from gatebot.messages import _
from gatebot.store.database import Database, DatabaseError, DiskFull
from gatebot.store.models import RANKING_INDEXES, Base

T = TypeVar("T")

#: Where the revisions are: the installed package gatebot.migrations, wherever that is (found by
#: name, as the import system finds it: in the repository it is the top-level migrations/).
MIGRATIONS_DIR = Path(str(importlib.resources.files("gatebot.migrations"))).resolve()

#: What drivers raise when they can't open a database: asyncpg's refusals (wrong password, no
#: such database) arrive as plain DBAPIError, unreachable hosts as OSError or TimeoutError, and
#: impossible settings (port 99999) as ValueError or OverflowError.
_CANT_CONNECT = (DBAPIError, OSError, TimeoutError, ValueError, OverflowError)
#: What they raise when an open database can't do its work (locked, read-only, disk full), as
#: opposed to a bug in a migration, which is left to propagate with its traceback.
_CANT_USE = (OperationalError, InterfaceError, OSError, TimeoutError, DiskFull)

#: Key of the PostgreSQL advisory lock that makes concurrent start-ups upgrade one at a time.
_UPGRADE_LOCK = int.from_bytes(b"gatebot", "big")


#: Indexes on expressions, which autogenerate can't compare: SQLite doesn't reflect them, and
#: PostgreSQL gives their expressions back in its own words. Migration tests check them by name.
EXPRESSION_INDEXES = frozenset(index.name for index in RANKING_INDEXES)


def compared(item: object, name: str | None, type_: str, reflected: bool, compare_to: object) -> bool:
    """Alembic's ``include_object``: everything but :data:`EXPRESSION_INDEXES` is compared with the models."""
    return not (type_ == "index" and name in EXPRESSION_INDEXES)


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config for gatebot's migrations, built in code; with ``connection``, runs share it."""
    config = Config()
    # The config is a ConfigParser: "%" would start an interpolation.
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@functools.cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def _in_order() -> tuple[str, ...]:
    """Every revision this gatebot ships, from the first to the head."""
    return tuple(reversed([script.revision for script in _scripts().walk_revisions()]))


@functools.cache
def tables_at(revision: str) -> dict[str, frozenset[str]]:
    """Each of gatebot's tables at ``revision`` with its columns' names, as its migrations make them.

    Worked out by running the migrations up to ``revision`` on a scratch in-memory SQLite
    database: the revisions themselves are the record of what each one holds. Alembic's
    "Running upgrade" lines are kept out of the log: no real database is being upgraded.
    """
    engine = create_engine("sqlite://")
    talker = logging.getLogger("alembic.runtime.migration")
    level = talker.level
    talker.setLevel(logging.WARNING)
    try:
        with engine.begin() as scratch:
            command.upgrade(alembic_config(scratch), revision)
            return _gatebot_tables(scratch)
    finally:
        talker.setLevel(level)
        engine.dispose()


def _gatebot_tables(connection: Connection) -> dict[str, frozenset[str]]:
    """The database's tables that some revision of gatebot makes, each with its columns' names."""
    inspector = inspect(connection)
    ours = set(Base.metadata.tables)
    return {
        name: frozenset(column["name"] for column in inspector.get_columns(name))
        for name in inspector.get_table_names() if name in ours
    }


def head_revision() -> str:
    """The newest revision this gatebot knows: what :func:`upgrade` brings a database to."""
    head = _scripts().get_current_head()
    assert head is not None, "gatebot ships at least one migration, on a single branch"
    return head


def known_revisions() -> frozenset[str]:
    """Every revision this gatebot ships, from the first to the head."""
    return frozenset(script.revision for script in _scripts().walk_revisions())


async def current_revision(db: Database) -> str | None:
    """The revision the database is at, or None when Alembic has never run on it (e.g. it is empty)."""
    return await _run(db, _revision_on)


async def upgrade(db: Database) -> tuple[str | None, str]:
    """Upgrade the database to head in one transaction; return (revision before, revision after).

    Raises :class:`DatabaseError`, changing nothing, when the database is at a revision this
    gatebot doesn't know (a newer gatebot wrote it) or holds gatebot's tables without any
    revision (they were made some other way, so Alembic would trip over them).
    """
    return await _run(db, _upgrade_on, begin=True)


async def ensure_schema(db: Database) -> str | None:
    """Start-up check: upgrade the database when it is behind; say so in one line, or None if current.

    The line ("Upgraded the database from empty to 0001.") is for the log. A database this
    gatebot can't handle (see :func:`upgrade`) raises :class:`DatabaseError` and is left as it was.
    """
    before, after = await upgrade(db)
    if before == after:
        return None
    return f"Upgraded the database from {before or 'empty'} to {after}."


async def stamp(db: Database, revision: str) -> str | None:
    """Record that the database is at ``revision`` without running any migration; return the revision it said before.

    For a database whose tables are already at a revision its ``alembic_version`` doesn't
    say (see :func:`upgrade`'s refusal). A revision this gatebot doesn't ship is refused.
    """
    if revision not in known_revisions():
        raise DatabaseError(_(
            "There is no schema revision {revision} in this gatebot: its revisions are {known}",
            revision=repr(revision), known=", ".join(_in_order()),
        ))
    return await _run(db, functools.partial(_stamp_on, revision=revision), begin=True)


def _stamp_on(connection: Connection, revision: str) -> str | None:
    before = _revision_on(connection)
    command.stamp(alembic_config(connection), revision, purge=True)
    return before


def _revision_on(connection: Connection) -> str | None:
    """The revision stamped in ``alembic_version``, None when there is none."""
    heads = MigrationContext.configure(connection).get_current_heads()
    if len(heads) > 1:
        raise DatabaseError(_(
            "The database is at several revisions at once ({heads}), which gatebot never writes: "
            "repair its alembic_version table, or point DATABASE_URL elsewhere",
            heads=", ".join(heads),
        ))
    return heads[0] if heads else None


def _upgrade_on(connection: Connection) -> tuple[str | None, str]:
    """Check what the database holds, then run the migrations from there to head on ``connection``."""
    if connection.dialect.name == "postgresql":
        # Held to the end of the transaction: a second gatebot starting now waits, then finds head.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _UPGRADE_LOCK})
    before = _revision_on(connection)
    head = head_revision()
    if before == head:
        return before, head
    if before is not None and before not in known_revisions():
        raise DatabaseError(_(
            "This database was written by a newer gatebot (revision {revision}): upgrade gatebot, "
            "or point DATABASE_URL elsewhere",
            revision=before,
        ))
    if before is None:
        found = sorted(set(inspect(connection).get_table_names()) & set(Base.metadata.tables))
        if found:
            raise DatabaseError(_(
                "The database already has gatebot's tables ({tables}) but no schema revision, so gatebot "
                "can't tell what they hold: point DATABASE_URL at an empty database, or stamp this one "
                "with `alembic stamp`",
                tables=", ".join(found),
            ))
    if before is not None:
        _check_tables_match(connection, before)
    try:
        command.upgrade(alembic_config(connection), "head")
    except CommandError as error:
        raise DatabaseError(_("Alembic can't upgrade the database ({reason})",
                              reason=_first_line(str(error)))) from error
    return before, head


def _check_tables_match(connection: Connection, stamped: str) -> None:
    """Refuse, changing nothing, to upgrade a database whose tables already are a later revision's.

    Its ``alembic_version`` says one revision, but a later one's migrations have run (or its
    tables were made some other way): upgrading would try to make them again and fail half
    way. The advice names the revision its tables match, which is what to stamp.
    """
    found = _gatebot_tables(connection)
    if found == tables_at(stamped):
        return
    revisions = _in_order()
    later = revisions[revisions.index(stamped) + 1:]
    matched = next((revision for revision in later if tables_at(revision) == found), None)
    if matched is not None:
        raise DatabaseError(_(
            "The database says it is at revision {stamped} but its tables are already at {matched}'s, "
            "so upgrading would make them twice: if they hold what {matched} made, run "
            "`gatebot db stamp {matched}` and start again, or else restore a backup",
            stamped=stamped, matched=matched,
        ))


async def _run(db: Database, work: Callable[[Connection], T], *, begin: bool = False) -> T:
    """Run ``work`` on a connection of ``db``'s engine (in one transaction if ``begin``).

    Failing to reach or use the database becomes a :class:`DatabaseError` naming the URL
    without its password; any other error (a bug in a migration) is left to propagate.
    """
    threads_before = set(threading.enumerate())
    connection = db.engine.connect()
    try:
        await connection.start()
    except _CANT_CONNECT as error:
        await _let_stray_workers_stop(threads_before)
        raise DatabaseError(_(
            "Can't open the database {url} ({reason}): check DATABASE_URL and that the database is reachable",
            url=db.safe_url, reason=_reason(error, db),
        )) from None
    try:
        if not begin:
            return await connection.run_sync(work)
        async with connection.begin():
            return await connection.run_sync(work)
    except _CANT_USE as error:
        raise DatabaseError(_(
            "The database {url} failed while gatebot used it ({reason}): check that it is writable and "
            "that no other program is holding it",
            url=db.safe_url, reason=_reason(error, db),
        )) from None
    finally:
        await connection.close()


async def _let_stray_workers_stop(threads_before: set[threading.Thread]) -> None:
    """Wait (a second at most) for the worker thread of an aiosqlite connection that failed to open.

    aiosqlite 0.22 tells that thread to stop without waiting for it; if the event loop closes
    first (``asyncio.run`` returning, as ``gatebot db`` does), the thread dies with a traceback
    on stderr after our one-sentence message.
    """
    for thread in set(threading.enumerate()) - threads_before:
        if "_connection_worker_thread" in thread.name:
            await asyncio.to_thread(thread.join, 1.0)


def _reason(error: BaseException, db: Database) -> str:
    """What went wrong, in the driver's words, on one line and with any password masked."""
    cause = getattr(error, "orig", None) or (error.__cause__ if isinstance(error, DiskFull) else None) or error
    if isinstance(cause, OSError) and cause.strerror:
        words = cause.strerror
    else:
        # asyncpg errors come wrapped as "<class 'asyncpg.exceptions.X'>: message".
        words = re.sub(r"^<class '[\w.]+'>:\s*", "", str(cause)) or type(cause).__name__
    password = db.url.password
    if password:
        words = words.replace(str(password), "***")
    return _first_line(words)


def _first_line(words: str) -> str:
    lines = words.strip().splitlines()
    return lines[0].rstrip(".") if lines else "no reason given"
