"""Notices between processes that share one PostgreSQL: sent in a writer's transaction, heard by every process.

Several ``gatebot run`` processes (one per group of shards) keep small caches of what is read
on almost every request (a player's board preferences, where a game's board is). A writer
queues a notice with :func:`notify` in the transaction that makes the change, so PostgreSQL
delivers it only if that commits, and only after; each process holds one :class:`Listener`,
a connection of its own doing ``LISTEN``, that hands every notice to a callback which drops
the cached answer. If that connection drops, notices sent meanwhile are lost: the listener
says so (``on_lost``, so the caller clears everything it kept and keeps nothing until
``listening`` is true again) and connects again, sooner after a short outage than a long one.

SQLite is one process by design: nothing is sent and nobody listens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints
from sqlalchemy import Select, func, select
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncSession

log = logging.getLogger(__name__)

#: The channel of changes to players: their preferences (``player:<platform>:<id>``) and where
#: their games' boards are (``board:<game id>:<channel id>:<message id>``).
PLAYERS_CHANNEL = "gatebot_players"
#: The channel of committed changes to games (``<origin>:<game id>:<version>:<platform>:<user id>``), for
#: pages that show a game live in another process than the one that changed it.
GAMES_CHANNEL = "gatebot_games"
#: Seconds before connecting again after the first failure; doubled after each one, up to the most.
RETRY_SECONDS = 0.5
MOST_RETRY_SECONDS = 30.0
#: How often an idle listening connection is asked whether it is still there, and how long it has to answer:
#: a connection whose peer vanished without closing it (a host gone, a NAT forgetting it) says nothing.
PROBE_SECONDS = 30.0
PROBE_TIMEOUT = 10.0
#: How long connecting may take (asyncpg's default is a minute).
CONNECT_SECONDS = 10.0

Connect = Callable[[str], Awaitable[Any]]


async def notify(session: AsyncSession, channel: str, payload: str) -> None:
    """Queue ``payload`` on ``channel`` in the session's transaction; delivered once it commits (no-op on SQLite)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    await session.execute(notice(channel, payload))


def notice(channel: str, payload: str) -> Select[tuple[Any]]:
    """The statement that queues ``payload`` on ``channel`` in whatever transaction runs it (PostgreSQL only)."""
    return select(func.pg_notify(channel, payload))


def listener_dsn(url: URL) -> str:
    """A SQLAlchemy ``postgresql+asyncpg://`` URL as the plain DSN ``asyncpg.connect`` takes."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def _connect(dsn: str) -> Any:
    return await asyncpg.connect(dsn, timeout=CONNECT_SECONDS)


class Listener:
    """One connection that LISTENs on ``channel`` and hands each notice's payload to ``on_notice``.

    ``on_lost`` is called when a connection that was listening drops (notices may have been
    missed); ``on_listening`` each time listening (re)starts. All run in the event loop.
    """

    def __init__(
        self, dsn: str, channel: str, *, on_notice: Callable[[str], None], on_lost: Callable[[], None],
        on_listening: Callable[[], None] | None = None, connect: Connect = _connect,
        retry_seconds: float | None = None, probe_seconds: float = PROBE_SECONDS,
    ) -> None:
        self._dsn = dsn
        self.channel = channel
        self._on_notice = on_notice
        self._on_lost = on_lost
        self._on_listening = on_listening
        self._connect = connect
        self._retry_seconds = RETRY_SECONDS if retry_seconds is None else retry_seconds
        self._probe_seconds = probe_seconds
        self._task: asyncio.Task[None] | None = None
        self._connection: Any = None
        self._closed = False
        #: True while a connection is listening: only then is every committed change heard.
        self.listening = False
        #: Times listening has started, the first included (for logs and tests).
        self.connections = 0

    def start(self) -> None:
        """Start listening in the background (once; after :meth:`close`, never)."""
        if self._task is None and not self._closed:
            self._task = asyncio.create_task(self._run(), name=f"gatebot LISTEN {self.channel}")

    async def close(self) -> None:
        """Stop listening and close the connection."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _deliver(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        try:
            self._on_notice(payload)
        except Exception:  # one bad notice must not stop the others being heard
            log.exception("could not act on the notice %r on %s", payload, self.channel)

    async def _run(self) -> None:
        delay = self._retry_seconds
        while not self._closed:
            try:
                connection = await self._connect(self._dsn)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("can't listen for changes on %s (%s); trying again in %g s", self.channel,
                            type(error).__name__, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, MOST_RETRY_SECONDS)
                continue
            try:
                await self._listen(connection)
                delay = self._retry_seconds
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("the connection listening on %s failed (%s)", self.channel, type(error).__name__)
            finally:
                self._lost()
                connection.terminate()
            if not self._closed:
                log.warning("stopped hearing changes on %s: cleared what was kept, connecting again", self.channel)

    async def _listen(self, connection: Any) -> None:
        """Listen on ``connection`` until it drops or stops answering."""
        dropped = asyncio.Event()
        connection.add_termination_listener(lambda _connection: dropped.set())
        await connection.add_listener(self.channel, self._deliver)
        self.listening = True
        self.connections += 1
        if self._on_listening is not None:
            self._on_listening()
        log.info("listening for changes on %s", self.channel)
        while not connection.is_closed():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(dropped.wait(), self._probe_seconds)
                return
            await asyncio.wait_for(connection.fetchval("SELECT 1"), PROBE_TIMEOUT)

    def _lost(self) -> None:
        if self.listening:
            self.listening = False
            self._on_lost()
