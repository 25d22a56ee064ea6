"""Where games are stored: the database URL, the async engine and its sessions.

One :class:`Database` is made per process, at start-up, from a URL given to it (never from
a global), and hands out one ``AsyncSession`` per unit of work.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, ExceptionContext, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import PoolResetState

from gatebot.errors import UserError
from gatebot.messages import _
from gatebot.store.notices import Heartbeat, Listener, listener_dsn
from gatebot.store.writers import FairWriter

log = logging.getLogger(__name__)

_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg"}
_SUPPORTED = frozenset({"sqlite+aiosqlite", "postgresql+asyncpg"})

#: PostgreSQL's SQLSTATE for "disk full" (asyncpg's ``DiskFullError``).
_PG_DISK_FULL = "53100"
#: Seconds between the log lines that say writes are still refused for a full disk.
DISK_FULL_LOG_SECONDS = 60.0


class DatabaseError(Exception):
    """The database can't be used as configured; the message says why in one sentence."""


class DiskFull(UserError):
    """The database's disk is full: the write was refused and its transaction rolled back, so nothing changed.

    Raised in place of the driver's error (SQLite's "database or disk is full", PostgreSQL's
    disk_full, ``ENOSPC``) by every engine a :class:`Database` makes, so whatever request hit it
    — a move, a hint's count, a preference, a challenge — reaches its front end as this one
    sentence, and the game carries on as it was once space is freed.
    """

    def __init__(self) -> None:
        super().__init__(_("I couldn't save that: the server's disk is full, so nothing changed. "
                           "Please try again later."))


def is_disk_full(error: BaseException | None) -> bool:
    """Whether a driver's error (or one it was raised from) says the disk or the database is full."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, sqlite3.Error) and getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_FULL:
            return True
        if getattr(error, "sqlstate", None) == _PG_DISK_FULL:
            return True
        if isinstance(error, OSError) and error.errno == errno.ENOSPC:
            return True
        error = error.__cause__ or error.__context__
    return False


class _DiskFullLog:
    """Says in the log that the disk is full: one line at the first refusal, then one a minute with the count.

    Under load a full disk refuses a write per request (a thousand in ten seconds); each is
    answered, but the operator needs the fact, not a thousand tracebacks.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()  # engines raise on the event loop's thread or a driver's
        self._said_at: float | None = None
        self._since = 0

    def refused(self, url: str, error: BaseException) -> None:
        with self._lock:
            now = time.monotonic()
            self._since += 1
            if self._said_at is not None and now - self._said_at < DISK_FULL_LOG_SECONDS:
                return
            count, self._since, self._said_at = self._since, 0, now
        log.warning("the disk of the database %s is full (%s): %d write(s) refused, nothing saved; "
                    "free space and gatebot carries on", url, _first_line(error), count)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


def default_database_path(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_DATA_HOME/gatebot/gatebot.db``, else ``~/.local/share/gatebot/gatebot.db``."""
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gatebot" / "gatebot.db"


def default_database_url(environ: Mapping[str, str] = os.environ) -> str:
    return f"sqlite+aiosqlite:///{default_database_path(environ)}"


def database_url_from_env(environ: Mapping[str, str] = os.environ) -> str:
    """``DATABASE_URL`` when set, else the default SQLite file."""
    return environ.get("DATABASE_URL") or default_database_url(environ)


def parse_database_url(raw: str) -> URL:
    """Read a database URL, choosing the async driver for ``sqlite:`` and ``postgresql:``."""
    try:
        url = make_url(raw)
    except (ArgumentError, ValueError):
        raise DatabaseError(_(
            "DATABASE_URL is not a database URL: use sqlite+aiosqlite:///path/to/gatebot.db "
            "or postgresql+asyncpg://user:password@host/dbname"
        )) from None
    drivername = _DRIVERS.get(url.drivername, url.drivername)
    if drivername not in _SUPPORTED:
        raise DatabaseError(_(
            "gatebot can't store games with {driver}: use a sqlite+aiosqlite or postgresql+asyncpg URL",
            driver=repr(url.drivername),
        ))
    return url.set(drivername=drivername)


class Database:
    """The engine and the session factory for one database URL."""

    def __init__(self, url: str | URL, *, heartbeat: Heartbeat | None = None, **engine_options: Any) -> None:
        """``heartbeat``: how the connection hearing other processes' notices is checked (PostgreSQL)."""
        self.url = parse_database_url(url) if isinstance(url, str) else url
        self._heartbeat = heartbeat
        self.is_sqlite = self.url.drivername.startswith("sqlite")
        if self.is_sqlite:
            self._prepare_sqlite_file()
        if self.is_sqlite:
            # A connection back in the pool is rolled back only while in a transaction (:func:`_sqlite_reset`).
            engine_options.setdefault("pool_reset_on_return", None)
        if not self.is_sqlite:
            # Fail within seconds, not asyncpg's default minute, when the server can't be reached.
            engine_options.setdefault("connect_args", {"timeout": 10})
        self.engine: AsyncEngine = create_async_engine(self.url, **engine_options)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            event.listen(self.engine.sync_engine, "reset", _sqlite_reset)
        self._disk_full_log = _DiskFullLog()
        event.listen(self.engine.sync_engine, "handle_error", self._disk_full)
        self.sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(
            self.engine, expire_on_commit=False
        )
        self._writer = FairWriter() if self.is_sqlite else None
        self._listeners: list[Listener] = []

    def _disk_full(self, context: ExceptionContext) -> BaseException | None:
        """The engine's error hook: a full disk becomes :class:`DiskFull`, logged without a traceback."""
        if context.is_pre_ping or not is_disk_full(context.original_exception):
            return None
        self._disk_full_log.refused(self.safe_url, context.original_exception)
        return DiskFull()

    def writer(self, who: Hashable | None = None) -> contextlib.AbstractAsyncContextManager[object]:
        """Hold this while writing: on SQLite, one writer at a time in this process, who has written least lately first.

        SQLite lets one connection write at a time; without this, writers of one process
        would wait for each other in SQLite's busy-timeout sleeps, which makes latency jumpy.
        ``who`` (a player) names the writer, so one who writes without pause can't keep a
        queue in front of the others (:mod:`gatebot.store.writers`). PostgreSQL needs no such thing.
        """
        return self._writer.turn(who) if self._writer is not None else contextlib.nullcontext()

    @property
    def writers_waiting(self) -> int:
        """How many of this process's writers are waiting for their turn (for monitoring; always 0 on PostgreSQL)."""
        return 0 if self._writer is None else self._writer.waiting

    @property
    def safe_url(self) -> str:
        """The URL with any password hidden, fit for logs and messages."""
        return self.url.render_as_string(hide_password=True)

    def _prepare_sqlite_file(self) -> None:
        path = self.url.database
        if not path or path == ":memory:":
            return
        if Path(path).expanduser().is_dir():
            raise DatabaseError(_("The database path {path} is a folder: name a file, like {path}/gatebot.db",
                                  path=path))
        folder = Path(path).expanduser().parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseError(_(
                "Can't create the folder {folder} for the database ({reason}): set DATABASE_URL to a writable place",
                folder=str(folder), reason=error.strerror,
            )) from None
        if not os.access(folder, os.W_OK) or (Path(path).exists() and not os.access(path, os.W_OK)):
            raise DatabaseError(_("The database {path} is not writable: set DATABASE_URL to a writable place",
                                  path=path))

    def listen(
        self, channel: str, *, on_notice: Callable[[str], None], on_lost: Callable[[], None],
        on_listening: Callable[[], None] | None = None,
    ) -> Listener | None:
        """Start hearing ``channel``'s notices (:mod:`gatebot.store.notices`); None on SQLite, where nobody sends any.

        The listener has a connection of its own, outside the engine's pool; :meth:`dispose` closes it.
        """
        if self.is_sqlite:
            return None
        listener = Listener(listener_dsn(self.url), channel, on_notice=on_notice, on_lost=on_lost,
                            on_listening=on_listening, heartbeat=self._heartbeat)
        self._listeners.append(listener)
        listener.start()
        return listener

    async def wipe_log(self) -> None:
        """After deleting someone's data, leave none of it in SQLite's write-ahead log (no-op on PostgreSQL).

        ``secure_delete`` (set on every connection) overwrites deleted rows in the pages it
        writes, but the log still holds older copies of those pages until a checkpoint copies
        the log into the database file and truncates it. Another process reading at that
        moment can hold the checkpoint back; then the log is emptied by the next one that
        gets through (SQLite checkpoints by itself as the log grows), and that is logged.
        """
        if not self.is_sqlite:
            return
        async with self.engine.connect() as connection:
            checkpoint = (await connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")).one()
        if checkpoint[0]:  # (busy, log pages, pages moved)
            log.warning("a checkpoint after deleting a player's data was held back by a reader; "
                        "their old rows stay in the write-ahead log until the next one")

    async def dispose(self) -> None:
        listeners, self._listeners = self._listeners, []
        for listener in listeners:
            await listener.close()
        await self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers work while one writer commits; the busy timeout makes writers queue.

    ``secure_delete`` overwrites what a deletion frees with zeros, so a forgotten player's
    rows can't be read back from the file's free pages.
    """
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _sqlite_reset(dbapi_connection: Any, record: Any, state: PoolResetState) -> None:
    """A connection back in the pool: rolled back when it is still in a transaction, else left as it is.

    The pool's own reset rolls back every connection returned, even after its transaction
    committed: on SQLite through aiosqlite that is one more trip to the database's thread for
    each request (a move's fast path makes five). ``in_transaction`` is SQLite's own word on it,
    read without that trip; an open transaction is rolled back as before.
    """
    if state.terminate_only or not state.asyncio_safe:
        return
    driver = record.driver_connection if record is not None else None
    if driver is None or driver.in_transaction:
        dbapi_connection.rollback()


def saved_where(db: Database, home: Path | None = None) -> str | None:
    """The SQLite file the games are saved in, written as a person types it (``~`` for the home folder).

    None for any other database (its address is its operator's, who chose it) and for a
    database in memory: there is no file to tell of.
    """
    if not db.is_sqlite or db.url.database in (None, "", ":memory:"):
        return None
    path = Path(db.url.database).expanduser().resolve()
    home = (home or Path.home()).resolve()
    if path.is_relative_to(home):
        return str(Path("~") / path.relative_to(home))
    return str(path)
