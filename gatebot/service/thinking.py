"""The solver and the hint engine, run off the event loop: in worker processes, started on first use.

Both are pure CPU work of up to about a second, which would stall every other player if it
ran on the event loop. Only position text crosses to the worker — for a hint, the position
as its player sees it (what ``to_text(hide_stock=True)`` writes), so a hint can't learn what
is hidden even by mistake — and only plain values come back. Every variant goes through
:mod:`gatebot.solver.registry`, so a variant whose solver registers there works here unchanged.

The workers are shared fairly. Each question names who asks it; one asker has at most one
question in a worker at a time; a question asked the moment its asker's last answer came
waits behind everyone else's and never takes the last free worker; among equals, the asker
served longest ago goes next. So a player pressing Hint over and over (or from eight
accounts) can't push everyone else's hints behind their own.
An asker's repeated question joins the one already asked, and a question about a newer
position takes the place of one still waiting.

Moves come first: the worker processes run at the lowest priority (:data:`WORKER_NICE`), so
when hints keep every core busy the event loop's process still gets the CPU it needs and
the searches take the rest. What runs inside a worker is :mod:`gatebot.service.workers`, which
imports only the rules and the solvers: a worker holds what a search needs and no more.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gatebot.service.workers import WORKER_NICE, DeafSpawnContext, hint_for, solve_text, start_worker, warmed
from gatebot.solver import HINT_SECONDS, Hint, Verdict

log = logging.getLogger(__name__)
T = TypeVar("T")

#: What a worker runs, defined where a worker imports little (:mod:`gatebot.service.workers`).
__all__ = ["WORKER_NICE", "Superseded", "Thinker", "ThinkingFailed", "hint_for", "solve_text", "start_worker"]


#: How many askers' last turns are remembered for fairness; one forgotten counts as never served.
_REMEMBERED_ASKERS = 4096
#: A question asked this soon (seconds) after its asker's previous answer is *eager* — pressing
#: again at once, as a person thinking about the board doesn't — and waits behind the others;
#: with two workers or more, the last free one never takes it, so bursts from a few accounts
#: can't fill every worker with searches of up to a second.
EAGER_SECONDS = 0.5


def _warming_done(future: Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a hint worker failed to start: %s", future.exception())


class ThinkingFailed(Exception):
    """The worker could not answer (it died or failed, or the service is closing); nothing was changed."""


class Superseded(ThinkingFailed):
    """The asker asked about another position before this question reached a worker: ask again."""


class _Anonymous:
    """The asker of a question nobody in particular asked: served like a newcomer, never remembered."""


def _answer_future() -> asyncio.Future[Any]:
    """A question's answer; its failure counts as seen even when every asker gave up (Ctrl-C, a timeout).

    Askers await it through ``asyncio.shield``, so when they are cancelled nobody retrieves a
    failure set later (the service closing), and asyncio would log "exception was never retrieved".
    """
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    future.add_done_callback(lambda done: done.cancelled() or done.exception())
    return future


@dataclass(eq=False)
class _Question:
    """One piece of work for a worker, and everyone awaiting its answer."""

    asker: Hashable
    key: tuple[Hashable, ...]  #: the kind of work, then its arguments: equal keys of one asker share an answer
    function: Callable[..., Any]
    args: tuple[object, ...]
    answer: asyncio.Future[Any] = field(default_factory=lambda: _answer_future())
    eager: bool = False  #: asked within EAGER_SECONDS of the asker's previous answer
    started: bool = False


class Thinker:
    """Hands solver work to an executor, ``workers`` questions at a time, fairly between askers.

    By default the executor is a process pool of ``workers`` processes, started (with
    ``spawn``, safe beside the database driver's threads) by the first request and shut
    down by :meth:`close`. An executor passed in — a thread pool in tests — belongs to the
    caller and is left running; it is given at most ``workers`` questions at once.

    Questions wait here, not in the executor's queue, so the next free worker can go to
    whoever deserves it: an asker with a question in a worker waits for it before their
    next one starts; an *eager* question (asked within :data:`EAGER_SECONDS` of its
    asker's previous answer) goes after the others and never to the last free worker of
    several; among equals, the asker whose last question started longest ago (or who never
    asked) goes first. An asker's question with the same key as one they already asked
    joins it; a hint about another position replaces their hint still waiting (its askers
    are told :class:`Superseded`).
    """

    def __init__(self, executor: Executor | None = None, *, workers: int = 1) -> None:
        """``executor`` overrides the worker processes; ``workers`` sizes the default pool."""
        if workers < 1:
            raise ValueError(f"a Thinker needs at least one worker, not {workers}")
        self._executor = executor
        self._owned = executor is None
        self._workers = workers
        self._closed = False
        #: Questions not yet in a worker, per asker, in the order the askers started waiting.
        self._waiting: dict[Hashable, list[_Question]] = {}
        #: Every unanswered question of each asker (in a worker or waiting), to join or replace.
        self._asked: dict[Hashable, list[_Question]] = {}
        self._busy: set[Hashable] = set()  #: askers with a question in a worker
        #: When each asker's last question started (``time.monotonic()``), oldest first.
        self._turns: OrderedDict[Hashable, float] = OrderedDict()
        #: When each asker's last answer came (``time.monotonic()``), oldest first.
        self._answered: OrderedDict[Hashable, float] = OrderedDict()
        self._running: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> int:
        """How many questions are waiting for a worker (for monitoring)."""
        return sum(len(questions) for questions in self._waiting.values())

    def _pool(self) -> Executor:
        if self._closed:
            raise ThinkingFailed("the service is closed")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self._workers, mp_context=DeafSpawnContext(),
                initializer=start_worker, initargs=(WORKER_NICE,),
            )
        return self._executor

    async def _ask(
        self, asker: Hashable | None, key: tuple[Hashable, ...], function: Callable[..., T], *args: object,
        replaces: bool = False,
    ) -> T:
        """Queue a question (or join the asker's equal one) and await its answer.

        An asker of None is anonymous: a question of its own, served like a newcomer's.
        ``replaces``: the question takes the place of the asker's waiting ones of its kind
        (``key[0]``).
        """
        if self._closed:
            raise ThinkingFailed("the service is closed")
        if asker is None:
            asker = _Anonymous()
        asked = self._asked.get(asker, [])
        question = next((q for q in asked if q.key == key), None)
        if question is None:
            if replaces:
                for old in [q for q in asked if not q.started and q.key[0] == key[0]]:
                    self._forget(old)
                    old.answer.set_exception(Superseded("a newer question took this one's place"))
            last = self._answered.get(asker)
            eager = last is not None and time.monotonic() - last < EAGER_SECONDS
            question = _Question(asker, key, function, args, eager=eager)
            self._asked.setdefault(asker, []).append(question)
            self._waiting.setdefault(asker, []).append(question)
            self._dispatch()
        # Shielded: one asker giving up must not cancel the answer others await.
        return await asyncio.shield(question.answer)

    def _forget(self, question: _Question) -> None:
        """Take a question off the books (answered, or replaced before it started)."""
        asked = self._asked.get(question.asker, [])
        if question in asked:
            asked.remove(question)
        if not asked:
            self._asked.pop(question.asker, None)
        waiting = self._waiting.get(question.asker)
        if waiting is not None and question in waiting:
            waiting.remove(question)
            if not waiting:
                del self._waiting[question.asker]

    def _next(self) -> _Question | None:
        """The question the next free worker takes: a free asker's oldest, the patient and longest-unserved first.

        The last free worker of several takes no eager question, so someone who presses
        Hint after thinking finds a worker even while a few accounts keep the others busy.
        """
        free = [asker for asker in self._waiting if asker not in self._busy]
        if self._workers > 1 and len(self._busy) == self._workers - 1:
            free = [asker for asker in free if not self._waiting[asker][0].eager]
        if not free:
            return None
        # Ties: who started waiting first.
        asker = min(free, key=lambda who: (self._waiting[who][0].eager, self._turns.get(who, -1.0)))
        return self._waiting[asker][0]

    def _dispatch(self) -> None:
        """Start waiting questions while workers are free."""
        while len(self._busy) < self._workers:
            question = self._next()
            if question is None:
                return
            waiting = self._waiting[question.asker]
            waiting.pop(0)
            if not waiting:
                del self._waiting[question.asker]
            question.started = True
            self._busy.add(question.asker)
            if not isinstance(question.asker, _Anonymous):
                self._turns[question.asker] = time.monotonic()
                self._turns.move_to_end(question.asker)
                while len(self._turns) > _REMEMBERED_ASKERS:
                    self._turns.popitem(last=False)
            task = asyncio.ensure_future(self._work(question))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _work(self, question: _Question) -> None:
        """Run one question in a worker, hand its answer (or failure) to its askers, start the next."""
        try:
            result = await self._run(question.function, *question.args)
        except ThinkingFailed as error:
            outcome: tuple[bool, Any] = (False, error)
        except asyncio.CancelledError:  # the executor was shut down under it
            outcome = (False, ThinkingFailed("the service is closed"))
        else:
            outcome = (True, result)
        self._busy.discard(question.asker)
        self._forget(question)
        if not isinstance(question.asker, _Anonymous):
            self._answered[question.asker] = time.monotonic()
            self._answered.move_to_end(question.asker)
            while len(self._answered) > _REMEMBERED_ASKERS:
                self._answered.popitem(last=False)
        if not question.answer.done():
            if outcome[0]:
                question.answer.set_result(outcome[1])
            else:
                question.answer.set_exception(outcome[1])
        if not self._closed:
            self._dispatch()

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

    async def hint(
        self, visible: str, seconds: float = HINT_SECONDS, behind: tuple[str, ...] = (),
        *, asker: Hashable | None = None,
    ) -> Hint:
        """The hint engine's answer for ``visible`` (a position as its player sees it).

        ``asker`` (a player) has one hint worked out at a time: asking the same again joins
        it; asking about another position replaces their hint still waiting, whose askers
        get :class:`Superseded`, or else waits for the one in a worker to finish.
        """
        return await self._ask(asker, ("hint", visible, seconds, behind), hint_for, visible, seconds, behind,
                               replaces=asker is not None)

    async def solve(
        self, text: str, *, max_nodes: int, max_seconds: float, asker: Hashable | None = None
    ) -> tuple[Verdict, tuple[str, ...]]:
        """The solver's verdict on the full position ``text`` and its winning line (tokens)."""
        verdict, line = await self._ask(asker, ("solve", text, max_nodes, max_seconds), solve_text,
                                        text, max_nodes, max_seconds)
        return Verdict(verdict), line

    async def warm_up(self, within: float) -> None:
        """Start every worker now, each importing the solvers, so the first questions wait for neither.

        Waits up to ``within`` seconds for them; workers still starting then go on doing so while
        the caller goes on (a failure there surfaces as the first question's, as it would have).
        """
        pool = self._pool()
        started = [pool.submit(warmed) for _ in range(self._workers)]
        for future in started:
            future.add_done_callback(_warming_done)
        await asyncio.wait([asyncio.wrap_future(future) for future in started], timeout=within)

    def close(self) -> None:
        """Stop the worker processes (a search under way is abandoned); waiting and later requests fail."""
        self._closed = True
        for questions in list(self._waiting.values()):
            for question in list(questions):
                self._forget(question)
                question.answer.set_exception(ThinkingFailed("the service is closed"))
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
