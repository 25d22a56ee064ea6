"""What runs in a hint worker process: its start, and the work it is given. It imports only the rules and the solvers.

A worker is started with ``spawn``: a fresh interpreter that imports the modules of whatever
it unpickles, the functions it is given and the process object itself. Everything it is given
lives here, so a worker imports this module, :mod:`gatebot.rules` and :mod:`gatebot.solver` and
nothing else of gatebot's: not the service (asyncio, the store and SQLAlchemy), the drawings
(Pillow) or Discord, which the event loop's process needs and a search does not. A worker so
holds about a third of what it held importing all of that: 15 MB of its own, not 47, after 40
players' hints (``benchmarks/bot_memory.py``). ``tests/service/test_workers.py`` checks a real
worker's ``sys.modules``.
:mod:`gatebot.service.thinking` runs the workers and shares them fairly.
"""

from __future__ import annotations

import logging
import os
import signal
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any

from gatebot.rules import VARIANTS, Game
from gatebot.solver import HINT_SECONDS, Hint, registry

log = logging.getLogger(__name__)

#: How much lower (in ``nice`` steps, 19 the most) a worker process runs than the event loop's
#: process: a search of up to a second then takes only what CPU the requests leave, so moves and
#: other players' answers come first even when every core is busy with hints.
WORKER_NICE = 19


def start_worker(nice: int) -> None:
    """Ready a worker process for solver work (its pool's initializer): lower its priority, ignore Ctrl-C.

    Ctrl-C at a terminal reaches the whole process group, but it is the event loop's process
    to handle (``Thinker.close`` stops the workers). The worker was started with SIGINT
    blocked (:class:`DeafProcess`), so a Ctrl-C typed while it was still importing waits,
    pending; ignoring SIGINT discards it, and only then is it unblocked. The priority is
    lowered with ``os.nice``, which only ever lowers it, so it needs no privilege; where the
    system allows no change (a sandbox), the worker runs at the priority it has.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if nice > 0:
        try:
            os.nice(nice)
        except OSError as error:
            log.warning("the solver's worker process runs at the event loop's priority: %s", error)


class DeafProcess(SpawnProcess):
    """A spawned worker process that starts with SIGINT blocked, until :func:`start_worker` ignores it.

    Without this, a Ctrl-C typed in the second or so a new worker spends importing (the first
    hint's) would raise KeyboardInterrupt inside it and print its traceback under the game. A
    blocked signal stays blocked across fork and exec (CPython's resource tracker starts the
    same way). Only the starting thread blocks it, and only while it starts the process: a
    Ctrl-C meant for this process meanwhile is delivered to another thread or, at the latest,
    when the mask is put back, never lost.
    """

    @staticmethod
    def _Popen(process_obj: Any) -> Any:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return SpawnProcess._Popen(process_obj)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


class DeafSpawnContext(SpawnContext):
    """The ``spawn`` start method, its processes starting deaf to Ctrl-C (:class:`DeafProcess`)."""

    Process = DeafProcess


def warmed() -> None:
    """A worker's first task: import every variant's solver (its first hint would otherwise pay for it)."""
    for variant in VARIANTS:
        registry.solver_for(variant)


def hint_for(visible: str, seconds: float = HINT_SECONDS, behind: tuple[str, ...] = ()) -> Hint:
    """The hint for a position given as its player sees it (runs in the worker).

    ``visible`` must be exactly what ``to_text(hide_stock=True)`` writes for it, so it holds
    nothing the player can't see; a full position is refused. ``behind``: the positions the
    game went through lately, as its player saw them, so the hint leads forward.
    """
    game = Game.from_text(visible)
    if game.to_text(hide_stock=True) != visible:
        raise ValueError("a hint is only ever asked for the position its player sees (to_text(hide_stock=True))")
    return registry.hint(game, seconds=seconds, behind=behind)


def solve_text(text: str, max_nodes: int, max_seconds: float) -> tuple[str, tuple[str, ...]]:
    """The solver's verdict on a full position (every card known) and its winning line, as tokens."""
    found = registry.solve(Game.from_text(text), max_nodes=max_nodes, max_seconds=max_seconds)
    return found.verdict.value, tuple(str(move) for move in found.line)
