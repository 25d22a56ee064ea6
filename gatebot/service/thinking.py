"""The solver and the hint engine, run off the event loop: in one worker process, started on first use.

Both are pure CPU work of up to about a second, which would stall every other player if it
ran on the event loop. Only position text crosses to the worker — for a hint, the position
as its player sees it (what ``to_text(hide_stock=True)`` writes), so a hint can't learn what
is hidden even by mistake — and only plain values come back. Every variant goes through
:mod:`gatebot.solver.family`, so a variant whose solver registers there works here unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from gatebot.rules import Game
from gatebot.solver import HINT_SECONDS, Hint, Verdict, family

log = logging.getLogger(__name__)
T = TypeVar("T")


class ThinkingFailed(Exception):
    """The worker could not answer (it died or failed, or the service is closing); nothing was changed."""


def hint_for(visible: str, seconds: float = HINT_SECONDS, behind: tuple[str, ...] = ()) -> Hint:
    """The hint for a position given as its player sees it (runs in the worker).

    ``visible`` must be exactly what ``to_text(hide_stock=True)`` writes for it, so it holds
    nothing the player can't see; a full position is refused. ``behind``: the positions the
    game went through lately, as its player saw them, so the hint leads forward.
    """
    game = Game.from_text(visible)
    if game.to_text(hide_stock=True) != visible:
        raise ValueError("a hint is only ever asked for the position its player sees (to_text(hide_stock=True))")
    return family.hint(game, seconds=seconds, behind=behind)


def solve_text(text: str, max_nodes: int, max_seconds: float) -> tuple[str, tuple[str, ...]]:
    """The solver's verdict on a full position (every card known) and its winning line, as tokens."""
    found = family.solve(Game.from_text(text), max_nodes=max_nodes, max_seconds=max_seconds)
    return found.verdict.value, tuple(str(move) for move in found.line)


class Thinker:
    """Hands solver work to an executor and awaits it.

    By default the executor is a one-worker process pool, started (with ``spawn``, safe
    beside the database driver's threads) by the first request and shut down by
    :meth:`close`. An executor passed in — a thread pool in tests — belongs to the caller
    and is left running.
    """

    def __init__(self, executor: Executor | None = None, *, workers: int = 1) -> None:
        """``executor`` overrides the worker process; ``workers`` sizes the default pool."""
        self._executor = executor
        self._owned = executor is None
        self._workers = workers
        self._closed = False

    def _pool(self) -> Executor:
        if self._closed:
            raise ThinkingFailed("the service is closed")
        if self._executor is None:
            # The worker ignores SIGINT: Ctrl-C at a terminal reaches the whole process group,
            # but it is this process's to handle (close() stops the worker). signal.signal itself
            # is the initializer, so it runs before the worker imports gatebot.
            self._executor = ProcessPoolExecutor(
                max_workers=self._workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN),
            )
        return self._executor

    async def _run(self, function: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            return await loop.run_in_executor(pool, function, *args)
        except BrokenProcessPool as error:
            log.error("the solver's worker process died; a new one starts with the next request")
            if self._owned and self._executor is pool:
                self._executor = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise ThinkingFailed(str(error)) from error
        except RuntimeError as error:  # "cannot schedule new futures after shutdown"
            raise ThinkingFailed(str(error)) from error
        except Exception as error:
            # A bug in the search must cost the player one answer, not the request.
            log.exception("%s failed on %r", function.__name__, args)
            raise ThinkingFailed(str(error)) from error

    async def hint(self, visible: str, seconds: float = HINT_SECONDS, behind: tuple[str, ...] = ()) -> Hint:
        """The hint engine's answer for ``visible`` (a position as its player sees it)."""
        return await self._run(hint_for, visible, seconds, behind)

    async def solve(self, text: str, *, max_nodes: int, max_seconds: float) -> tuple[Verdict, tuple[str, ...]]:
        """The solver's verdict on the full position ``text`` and its winning line (tokens)."""
        verdict, line = await self._run(solve_text, text, max_nodes, max_seconds)
        return Verdict(verdict), line

    def close(self) -> None:
        """Stop the worker process (a search under way is abandoned); later requests fail."""
        self._closed = True
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
