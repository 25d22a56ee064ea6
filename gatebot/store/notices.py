"""Notices between processes that share one PostgreSQL: sent in a writer's transaction, heard by every process.

Several ``gatebot run`` processes (one per group of shards) keep small caches of what is read
on almost every request (a player's board preferences, where a game's board is). A writer
queues a notice with :func:`notify` in the transaction that makes the change, so PostgreSQL
delivers it only if that commits, and only after; each process holds one :class:`Listener`,
a connection of its own doing ``LISTEN``, that hands every notice to a callback which drops
the cached answer. If that connection drops, notices sent meanwhile are lost: the listener
says so (``on_lost``, so the caller clears everything it kept and keeps nothing until
``listening`` is true again) and connects again, sooner after a short outage than a long one.

A connection can also hang without an error: its peer gone, a NAT or a proxy that forgot it,
so nothing arrives and nothing fails. Two things notice that. The server is asked to send
TCP keepalives (it then drops a client that vanished), and the listener sends itself a
heartbeat: every :attr:`Heartbeat.every` seconds it NOTIFYs a channel of its own and must
hear it back within :attr:`Heartbeat.deadline` seconds, or the connection counts as dropped
(``on_lost``, so the caller reads everything afresh until a new connection listens).

SQLite is one process by design: nothing is sent and nobody listens, and asyncpg (about 3 MB)
is imported only when a listener connects.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

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
#: How long connecting may take (asyncpg's default is a minute).
CONNECT_SECONDS = 10.0
#: The server's TCP keepalives on the listening connection: first probe after 30 s idle, then
#: every 10 s, and the connection is dropped after 3 unanswered (PostgreSQL's own settings).
KEEPALIVES = {"tcp_keepalives_idle": "30", "tcp_keepalives_interval": "10", "tcp_keepalives_count": "3"}


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """How often the listener checks its connection by notifying itself, and how long the answer may take.

    The most a process can serve a change made elsewhere from memory, after its connection
    hung, is about ``every + deadline`` seconds.
    """

    every: float = 5.0
    deadline: float = 5.0

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
    import asyncpg  # type: ignore[import-untyped]  # no type hints; imported here: a bot on SQLite never needs it

    return await asyncpg.connect(dsn, timeout=CONNECT_SECONDS, server_settings=KEEPALIVES)


#: Numbers the listeners of this process, so each one's heartbeat channel is its own.
_listeners = itertools.count(1)


class Listener:
    """One connection that LISTENs on ``channel`` and hands each notice's payload to ``on_notice``.

    ``on_lost`` is called when a connection that was listening drops or stops answering its
    ``heartbeat`` (notices may have been missed), never for :meth:`close`; ``on_listening`` each time listening
    (re)starts. All run in the event loop.
    """

    def __init__(
        self, dsn: str, channel: str, *, on_notice: Callable[[str], None], on_lost: Callable[[], None],
        on_listening: Callable[[], None] | None = None, connect: Connect = _connect,
        retry_seconds: float | None = None, heartbeat: Heartbeat | None = None,
    ) -> None:
        self._dsn = dsn
        self.channel = channel
        self._on_notice = on_notice
        self._on_lost = on_lost
        self._on_listening = on_listening
        self._connect = connect
        self._retry_seconds = RETRY_SECONDS if retry_seconds is None else retry_seconds
        self._heartbeat = heartbeat or Heartbeat()
        #: The channel only this listener hears: its heartbeat.
        self._beat_channel = f"gatebot_beat_{os.getpid()}_{next(_listeners)}"
        self._beats = 0
        self._beat = asyncio.Event()
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
        import asyncpg  # imported by _connect already (which says why it is imported there)

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

    def _heard_beat(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        if payload == str(self._beats):
            self._beat.set()

    async def _listen(self, connection: Any) -> None:
        """Listen on ``connection`` until it drops, or a heartbeat isn't heard back in time (TimeoutError)."""
        dropped = asyncio.Event()
        connection.add_termination_listener(lambda _connection: dropped.set())
        async with asyncio.timeout(self._heartbeat.deadline):
            await connection.add_listener(self.channel, self._deliver)
            await connection.add_listener(self._beat_channel, self._heard_beat)
        self.listening = True
        self.connections += 1
        if self._on_listening is not None:
            self._on_listening()
        log.info("listening for changes on %s", self.channel)
        while not connection.is_closed():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(dropped.wait(), self._heartbeat.every)
                return
            await self._beat_once(connection)

    async def _beat_once(self, connection: Any) -> None:
        """Notify this listener's own channel and hear it back within the deadline, else raise TimeoutError."""
        self._beats += 1
        self._beat.clear()
        try:
            async with asyncio.timeout(self._heartbeat.deadline):
                await connection.execute(f"NOTIFY {self._beat_channel}, '{self._beats}'")
                await self._beat.wait()
        except TimeoutError:
            log.warning("the connection listening on %s didn't answer its heartbeat within %g s",
                        self.channel, self._heartbeat.deadline)
            raise

    def _lost(self) -> None:
        """The connection stopped listening: tell ``on_lost``, unless :meth:`close` stopped it (nothing is missed)."""
        if self.listening:
            self.listening = False
            if not self._closed:
                self._on_lost()
