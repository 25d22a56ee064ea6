"""A TCP proxy on loopback that can make the connections through it hang: open, silent, no error.

That is how a connection looks whose peer vanished without closing it (a host gone, a NAT or
a firewall that forgot it): nothing arrives and nothing fails. :meth:`Proxy.hang` stops
forwarding on every connection open at that moment, both ways, and keeps their sockets
open; connections made later are forwarded as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType


class _Link:
    """One client's connection and its upstream one, forwarded both ways until it is hung."""

    def __init__(self) -> None:
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.tasks: list[asyncio.Task[None]] = []
        self.writers: list[asyncio.StreamWriter] = []

    async def pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                await self.flowing.wait()  # hung: what arrives is held, never forwarded
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()


class Proxy:
    """Forwards ``127.0.0.1:<port>`` to ``host:port``; use as ``async with Proxy(host, port) as proxy``."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._links: list[_Link] = []
        self._server: asyncio.Server | None = None
        self.port = 0

    async def __aenter__(self) -> Proxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *_exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        assert self._server is not None
        self._server.close()
        for link in self._links:
            for task in link.tasks:
                task.cancel()
            for writer in link.writers:
                writer.close()
        await asyncio.gather(*(task for link in self._links for task in link.tasks), return_exceptions=True)

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        link = _Link()
        self._links.append(link)
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self._target)
        except OSError:
            client_writer.close()
            return
        link.writers = [client_writer, upstream_writer]
        link.tasks = [
            asyncio.create_task(link.pump(client_reader, upstream_writer)),
            asyncio.create_task(link.pump(upstream_reader, client_writer)),
        ]

    def hang(self) -> int:
        """Stop forwarding on every connection open now (their sockets stay open); how many there were."""
        hung = [link for link in self._links
                if link.flowing.is_set() and link.tasks and not any(task.done() for task in link.tasks)]
        for link in hung:
            link.flowing.clear()
        return len(hung)
