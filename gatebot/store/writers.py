"""One SQLite writer at a time in a process, and among those waiting, whoever has written least lately first.

SQLite lets one connection write at a time, so a process's writers queue here rather than in
SQLite's busy-timeout sleeps. First come, first served would let a few players who write
without pause (a move, a hint's count, a move…) keep a queue in front of everyone: a person's
move would wait behind all of theirs. So the next turn goes to the waiter who has written
least lately: each writer's turns are counted with a decay (a turn counts half after
:data:`HALF_LIFE` seconds, a quarter after twice that…), and the lowest count goes first —
someone who never wrote, or wrote a while ago, before someone writing many times a second —
and among equals whoever came first. Each writer names itself (a player), and a writer that
names nobody counts as new.

Counting turns, rather than ranking by the last one, matters for a person's two writes in a
row: a move and then the count of the hint they asked about it. By the time of the second,
their last turn is only milliseconds old, younger than most turns of players who write all
the time, yet they wrote twice in a second against those players' dozens.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable
from dataclasses import dataclass

#: How many writers' counts are remembered; one forgotten counts as never having written.
REMEMBERED_WRITERS = 4096
#: Seconds after which a turn counts half as much (then a quarter, and so on).
HALF_LIFE = 1.0


@dataclass(slots=True)
class _Usage:
    """A writer's decayed count of turns, as it stood at ``at`` (by the writer's clock)."""

    turns: float
    at: float

    def now(self, now: float) -> float:
        """The count at ``now``: every turn counted so far, halved for each :data:`HALF_LIFE` since ``at``."""
        return self.turns * math.exp2(-(now - self.at) / HALF_LIFE)


@dataclass(slots=True)
class _Waiter:
    who: Hashable | None
    arrival: int
    granted: asyncio.Future[None]


class FairWriter:
    """An asyncio lock that hands itself to the waiter who has written least lately (see the module)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """``clock`` tells the time in seconds that turns count down by (any start will do)."""
        self._clock = clock
        self._held = False
        self._waiting: list[_Waiter] = []
        self._arrivals = itertools.count()
        #: Each writer's decayed count of turns, least recently updated first.
        self._usage: OrderedDict[Hashable, _Usage] = OrderedDict()

    @property
    def waiting(self) -> int:
        """How many writers are waiting for their turn (for monitoring)."""
        return len(self._waiting)

    @contextlib.asynccontextmanager
    async def turn(self, who: Hashable | None = None) -> AsyncIterator[None]:
        """Hold the lock for one write by ``who``; waits behind those who have written less lately."""
        if self._held:
            waiter = _Waiter(who, next(self._arrivals), asyncio.get_running_loop().create_future())
            self._waiting.append(waiter)
            try:
                await waiter.granted
            except asyncio.CancelledError:
                if waiter in self._waiting:
                    self._waiting.remove(waiter)
                elif not waiter.granted.cancelled():
                    self._pass_on()  # it was handed the lock just as it gave up
                raise
        else:
            self._held = True
        try:
            yield
        finally:
            if who is not None:
                self._count(who)
            self._pass_on()

    def _count(self, who: Hashable) -> None:
        """Add one turn to ``who``'s count."""
        now = self._clock()
        usage = self._usage.pop(who, None)
        self._usage[who] = _Usage((0.0 if usage is None else usage.now(now)) + 1.0, now)
        while len(self._usage) > REMEMBERED_WRITERS:
            self._usage.popitem(last=False)

    def _pass_on(self) -> None:
        """Hand the lock to the waiter who has written least lately, or free it."""
        while self._waiting:
            now = self._clock()
            waiter = min(self._waiting, key=lambda w: (self._usage_now(w.who, now), w.arrival))
            self._waiting.remove(waiter)
            if not waiter.granted.done():
                waiter.granted.set_result(None)
                return
        self._held = False

    def _usage_now(self, who: Hashable | None, now: float) -> float:
        """``who``'s count of turns at ``now``, older turns counting less (0 for nobody, or someone new)."""
        usage = None if who is None else self._usage.get(who)
        return 0.0 if usage is None else usage.now(now)
