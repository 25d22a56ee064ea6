"""Live boards: each open page hears when its player's game changes, from any front end, in any process.

:class:`Live` watches the :class:`~gatebot.service.GameService` (its watchers are told after each
committed change) and wakes the pages of the change's owner; each page's stream
(``GET /api/events``, server-sent events) then reads the game as stored and sends the new view.
A page that reconnects (EventSource does by itself) is sent the board as stored first, so a
restart or a dropped connection shows the right board again. On PostgreSQL the service's watchers
hear other processes' changes too (their notices on :data:`~gatebot.store.notices.GAMES_CHANNEL`).

A change this process's table made itself needs no read: its handler hands the reply over
(:meth:`Live.answered`), and the streams send the board from it (:meth:`Live.stored`). Reading
and replaying the game for every open page after every move was most of a web move's cost.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import AsyncGenerator, Coroutine
from dataclasses import replace
from typing import Any

from gatebot.service import GameChange, GameService, GameStatus, Reply, ReplyKind
from gatebot.service.players import PlayerKey

log = logging.getLogger(__name__)

#: Seconds between the comments that keep an idle stream open through proxies.
KEEPALIVE = 15.0
#: Put in a page's queue when the table stops: its stream ends (the page reconnects by itself).
_CLOSED = -1


class Live:
    """The open pages of each player, woken by the service's changes."""

    def __init__(self, service: GameService) -> None:
        self._pages: defaultdict[PlayerKey, set[asyncio.Queue[GameChange | Reply | int | None]]] = defaultdict(set)
        self._stop = service.watch(self._changed)
        self._later: set[asyncio.Task[None]] = set()
        #: The latest change each player with open pages made through this table, as its handler answered it.
        self._answers: dict[PlayerKey, Reply] = {}
        #: The table is stopping: a stream opened now (a page reconnecting on a kept-alive connection) ends at once.
        self._ended = False

    def _changed(self, change: GameChange) -> None:
        for page in self._pages.get(change.owner, ()):
            page.put_nowait(change)

    def answered(self, owner: PlayerKey, reply: Reply) -> None:
        """A handler's ``reply`` to ``owner``, kept for their open pages when it committed a change to an active game.

        The service tells its watchers of the change before the handler gets the reply back, and
        the pages' streams run only after the handler returns, so they find it here.
        """
        if (owner in self._pages and reply.saved and reply.kind is ReplyKind.BOARD
                and reply.status is GameStatus.ACTIVE and reply.game_id is not None):
            self._answers[owner] = reply

    def stored(self, change: GameChange) -> Reply | None:
        """The game as stored after ``change``, from the reply that made it (:meth:`answered`); None if not kept.

        The reply is the one ``GameService.show`` would give now, but for what only the asker
        is told (its sentence, that it saved): those are left out, as the stream tells pages the board.
        """
        reply = self._answers.get(change.owner)
        if reply is None or reply.game_id != change.game_id or reply.version != change.version:
            return None
        return replace(reply, message=None, saved=False, suggestion=None, played=())

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

    async def changes(self, owner: PlayerKey) -> AsyncGenerator[GameChange | Reply | None, None]:
        """Each change to ``owner``'s games as it comes, and None every :data:`KEEPALIVE` s of quiet.

        A change is a :class:`~gatebot.service.GameChange` (the stream sends the game as stored)
        or a reply to send as it is (an offer).
        """
        if self._ended:
            return
        page: asyncio.Queue[GameChange | Reply | int | None] = asyncio.Queue()
        self._pages[owner].add(page)
        try:
            while True:
                try:
                    change = await asyncio.wait_for(page.get(), KEEPALIVE)
                except TimeoutError:
                    yield None
                    continue
                if isinstance(change, int):  # _CLOSED
                    return
                yield change
        finally:
            self._pages[owner].discard(page)
            if not self._pages[owner]:
                del self._pages[owner]
                self._answers.pop(owner, None)

    def pages(self, owner: PlayerKey) -> int:
        """How many pages of ``owner`` are listening (for tests and counters)."""
        return len(self._pages.get(owner, ()))

    def end_streams(self) -> None:
        """End every open stream and any opened from now on (the table is stopping): none holds the shutdown up."""
        self._ended = True
        for pages in self._pages.values():
            for page in pages:
                page.put_nowait(_CLOSED)

    async def close(self) -> None:
        """Stop watching the service, and what was left to do after answers."""
        self._stop()
        for task in self._later:
            task.cancel()
        await asyncio.gather(*self._later, return_exceptions=True)
