"""Chat boards that follow their games: a change made outside the bot's own answer edits the board message.

A Discord player may move on the web table (signed in by ``/gate table``), or another process may
change their game; the service tells its watchers of every committed change
(:meth:`GameService.watch <gatebot.service.GameService.watch>`, other processes' too on
PostgreSQL). :class:`Follower` gathers those changes per game and has the table redraw the
game's board message (:meth:`gatebot.bot.table.Table.follow`), which draws it as its player
likes and leaves it alone when the bot itself drew that version already.

Discord's limits are kept: a burst of changes becomes one edit to the latest version (the first
:data:`GATHER_SECONDS` after a change, then at most one edit a board every :data:`GAP_SECONDS`),
never one per move. A failed edit never stops the bot: the table forgets a board that was deleted
(404) and gives up on one it may not edit (403); anything else (a 429 or 5xx discord.py did not
retry away, a dropped connection) is tried again later, after 1, 2, 4... seconds, at most
:data:`TRIES` times, and then logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from gatebot.bot.errors import DELIVERY_ERRORS
from gatebot.service import GameChange, GameService
from gatebot.service.players import PlayerKey

log = logging.getLogger(__name__)

#: Seconds a change waits for the rest of its burst before the board is edited.
GATHER_SECONDS = 0.2
#: The least time between two edits of one board by this follower (Discord allows about 5 edits in 5 s).
GAP_SECONDS = 1.0
#: Seconds before the first new try of a failed edit; each next one waits twice as long.
RETRY_SECONDS = 1.0
TRIES = 6

#: Redraws a game's board (the game, its owner): raises a delivery error to be tried again.
Redraw = Callable[[int, PlayerKey], Awaitable[None]]


class Follower:
    """Turns the service's changes to Discord players' games into edits of their board messages."""

    def __init__(self, service: GameService, redraw: Redraw, *, platform: str) -> None:
        """``platform``: whose games have chat boards (``discord``); ``redraw`` edits one game's board."""
        self._service = service
        self._redraw = redraw
        self._platform = platform
        self._dirty: dict[int, PlayerKey] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._stop: Callable[[], None] | None = None

    def start(self) -> None:
        """Begin following the service's changes (on the running loop)."""
        if self._stop is None:
            self._stop = self._service.watch(self._changed)

    async def close(self) -> None:
        """Stop following, and drop the edits not made yet."""
        if self._stop is not None:
            self._stop()
            self._stop = None
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _changed(self, change: GameChange) -> None:
        if change.owner[0] != self._platform:
            return
        self._dirty[change.game_id] = change.owner
        if change.game_id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._follow(change.game_id))
            self._tasks[change.game_id] = task

    async def _follow(self, game_id: int) -> None:
        """Edit one game's board until no change is left unshown, one edit per gap at most."""
        try:
            await asyncio.sleep(GATHER_SECONDS)
            while game_id in self._dirty:
                owner = self._dirty.pop(game_id)
                await self._edit(game_id, owner)
                await asyncio.sleep(GAP_SECONDS)
        finally:
            self._tasks.pop(game_id, None)

    async def _edit(self, game_id: int, owner: PlayerKey) -> None:
        """One redraw, tried again after a failure; a later change meanwhile is drawn instead of a retry."""
        wait = RETRY_SECONDS
        for attempt in range(1, TRIES + 1):
            try:
                await self._redraw(game_id, owner)
                return
            except DELIVERY_ERRORS as error:
                if attempt == TRIES:
                    log.warning("gave up redrawing the board of game %s after %d tries: %s", game_id, TRIES,
                                error)
                    return
                log.info("could not redraw the board of game %s (%s): trying again in %.0f s", game_id, error, wait)
            except Exception:
                log.exception("redrawing the board of game %s failed", game_id)
                return
            await asyncio.sleep(wait)
            wait *= 2
            if game_id in self._dirty:
                return  # a newer change is waiting: its redraw reads the latest version
