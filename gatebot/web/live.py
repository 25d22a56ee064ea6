"""Live boards: each open page hears when its player's game changes, from any front end, in any process.

:class:`Live` watches the :class:`~gatebot.service.GameService` (its watchers are told after each
committed change) and wakes the pages of the change's owner; each page's stream
(``GET /api/events``, server-sent events) then reads the game as stored and sends the new view.
A page that reconnects (EventSource does by itself) is sent the board as stored first, so a
restart or a dropped connection shows the right board again. On PostgreSQL the service's watchers
hear other processes' changes too (their notices on :data:`~gatebot.store.notices.GAMES_CHANNEL`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import AsyncGenerator, Coroutine
from typing import Any

from gatebot.service import GameChange, GameService, Reply
from gatebot.service.players import PlayerKey

log = logging.getLogger(__name__)

#: Seconds between the comments that keep an idle stream open through proxies.
KEEPALIVE = 15.0
#: Put in a page's queue when the table stops: its stream ends (the page reconnects by itself).
_CLOSED = -1


class Live:
    """The open pages of each player, woken by the service's changes."""

    def __init__(self, service: GameService) -> None:
        self._pages: defaultdict[PlayerKey, set[asyncio.Queue[int | Reply | None]]] = defaultdict(set)
        self._stop = service.watch(self._changed)
        self._later: set[asyncio.Task[None]] = set()

    def _changed(self, change: GameChange) -> None:
        for page in self._pages.get(change.owner, ()):
            page.put_nowait(change.game_id)

    def tell(self, owner: PlayerKey, reply: Reply) -> None:
        """Send ``reply`` itself (an offer worked out after a move was answered) to ``owner``'s open pages."""
        for page in self._pages.get(owner, ()):
            page.put_nowait(reply)

    def later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` after the answer has gone, keeping hold of it until it ends (cancelled on :meth:`close`)."""
        task = asyncio.get_running_loop().create_task(work)
        self._later.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._later.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("work after an answer failed", exc_info=task.exception())

    async def changes(self, owner: PlayerKey) -> AsyncGenerator[int | Reply | None, None]:
        """Each change to ``owner``'s games as it comes, and None every :data:`KEEPALIVE` s of quiet.

        A change is a game id (the stream reads the game as stored) or a reply to send as it is.
        """
        page: asyncio.Queue[int | Reply | None] = asyncio.Queue()
        self._pages[owner].add(page)
        try:
            while True:
                try:
                    change = await asyncio.wait_for(page.get(), KEEPALIVE)
                except TimeoutError:
                    yield None
                    continue
                if change == _CLOSED:
                    return
                yield change
        finally:
            self._pages[owner].discard(page)
            if not self._pages[owner]:
                del self._pages[owner]

    def pages(self, owner: PlayerKey) -> int:
        """How many pages of ``owner`` are listening (for tests and counters)."""
        return len(self._pages.get(owner, ()))

    def end_streams(self) -> None:
        """End every open stream (the table is stopping), so no page holds the shutdown up."""
        for pages in self._pages.values():
            for page in pages:
                page.put_nowait(_CLOSED)

    async def close(self) -> None:
        """Stop watching the service, and what was left to do after answers."""
        self._stop()
        for task in self._later:
            task.cancel()
        await asyncio.gather(*self._later, return_exceptions=True)
