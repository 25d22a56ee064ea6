"""One SQLite writer at a time in a process, and among those waiting, whoever wrote least lately first.

SQLite lets one connection write at a time, so a process's writers queue here rather than in
SQLite's busy-timeout sleeps. First come, first served would let a few players who write
without pause (a move, a hint's count, a move…) keep a queue in front of everyone: a person's
move would wait behind all of theirs. So the next turn goes to the waiter whose last write is
oldest — someone who never wrote, or wrote a while ago, goes first — and among equals to who
came first; each writer names itself (a player), and a writer that names nobody counts as new.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from dataclasses import dataclass, field

#: How many writers' last turns are remembered; one forgotten counts as never having written.
REMEMBERED_WRITERS = 4096


@dataclass(order=True)
class _Waiter:
    last_turn: float
    arrival: int
    granted: asyncio.Future[None] = field(compare=False)


class FairWriter:
    """An asyncio lock that hands itself to the waiter who wrote least lately (see the module)."""

    def __init__(self) -> None:
        self._held = False
        self._waiting: list[_Waiter] = []
        self._arrivals = itertools.count()
        #: When each writer's last turn ended (``time.monotonic()``), oldest first.
        self._turns: OrderedDict[Hashable, float] = OrderedDict()

    @contextlib.asynccontextmanager
    async def turn(self, who: Hashable | None = None) -> AsyncIterator[None]:
        """Hold the lock for one write by ``who``; waits behind those who wrote less lately."""
        if self._held:
            last = -math.inf if who is None else self._turns.get(who, -math.inf)
            waiter = _Waiter(last, next(self._arrivals), asyncio.get_running_loop().create_future())
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
                self._turns[who] = time.monotonic()
                self._turns.move_to_end(who)
                while len(self._turns) > REMEMBERED_WRITERS:
                    self._turns.popitem(last=False)
            self._pass_on()

    def _pass_on(self) -> None:
        """Hand the lock to the waiter who wrote least lately, or free it."""
        while self._waiting:
            waiter = min(self._waiting)
            self._waiting.remove(waiter)
            if not waiter.granted.done():
                waiter.granted.set_result(None)
                return
        self._held = False
