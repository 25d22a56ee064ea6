"""Lets time pass for challenges: ticks the challenge service and announces what it claimed.

The service's :meth:`~gatebot.service.challenges.ChallengeService.tick` closes challenges
whose time is up and opens each server's daily challenge; everything it returns was
claimed in the database by that call alone, so announcing each exactly once is only a
matter of posting what it returns. The scheduler ticks once when the bot starts (catching
up on what happened while it was down) and then every :data:`TICK_SECONDS`. A tick or a post
that fails is logged and the loop goes on; stopping waits for a tick in progress, so nothing
claimed is left unannounced by a clean shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from gatebot.bot.challenges._herald import Herald
from gatebot.service.challenges import Announcement, ChallengeService

log = logging.getLogger(__name__)

#: How often challenges are looked at: a daily challenge opens at most this long after midnight.
TICK_SECONDS = 30.0
#: How long stopping waits for a tick in progress before cancelling it.
STOP_SECONDS = 10.0


class Scheduler:
    """Ticks the challenge service now and every ``every`` seconds, until stopped."""

    def __init__(self, challenges: ChallengeService, herald: Herald, *, every: float = TICK_SECONDS) -> None:
        self.challenges = challenges
        self.herald = herald
        self.every = every
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._first_tick = asyncio.Event()
        self._ticking = asyncio.Lock()

    def start(self) -> None:
        """Start ticking in the background (once: later calls, and calls after :meth:`stop`, do nothing)."""
        if self._task is None and not self._stopping.is_set():
            self._task = asyncio.create_task(self._run(), name="gatebot challenge scheduler")

    async def run_once(self) -> list[Announcement]:
        """One tick: close what is due, open today's daily challenges, and announce each; what was announced."""
        async with self._ticking:
            announcements = await self.challenges.tick()
            for announcement in announcements:
                try:
                    await self.herald.announce(announcement)
                except Exception:  # one failed post must not cost the others theirs: each is claimed once
                    info = announcement.challenge
                    log.exception("could not announce that challenge %s %s in server %s",
                                  info.id, announcement.happening, info.guild_id)
            return announcements

    async def started(self) -> None:
        """Wait until the tick at start has been made (announced, or failed and logged)."""
        await self._first_tick.wait()

    async def stop(self) -> None:
        """Stop ticking, letting a tick in progress finish its announcements first."""
        self._stopping.set()
        task, self._task = self._task, None
        if task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), STOP_SECONDS)
        except TimeoutError:
            log.warning("the challenge scheduler did not stop within %s s: cancelling it", STOP_SECONDS)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                announced = await self.run_once()
                if announced:
                    log.info("announced %d challenge events", len(announced))
            except Exception:
                log.exception("a challenge tick failed; trying again in %s s", self.every)
            finally:
                self._first_tick.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.every)
