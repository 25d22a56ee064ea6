"""Hint fairness: other players' hints and moves while one player (or eight accounts) presses Hint non-stop.

A few *other* players play like people: a move, a hint about the new position, a pause
(exponential, ``--think`` seconds on average). *Spammers* play a move and then press Hint
``--burst`` times at once, and again as soon as all are answered, without pause. Every
call goes through the real ``GameService`` over a fresh SQLite file, with real worker
processes for the hints (not pinned: the bot and its workers share the machine's cores).

Three phases of ``--seconds`` each, after ``--warmup`` seconds each: *idle* (no spammer),
*one* spammer, *eight* spammers. The other players' hint latency and move latency — from
the call to the reply — are reported as p50 and p95 per phase, with each phase's p50 against
the idle one. The goal: under spam, hints within 2x of idle and moves within 1.5x at the median.

``--pool`` picks the worker processes: ``own``, the service's own pool (as the bot runs it);
``plain``, a plain process pool of as many workers at the event loop's own priority, handed
to the service; ``both`` (the default) measures the two side by side, each ``--rounds``
times, taking turns so that a machine's changing load falls on both alike, and pools each
one's rounds. Run from the repository root:

    .venv/bin/python benchmarks/hint_fairness.py --seconds 4
    .venv/bin/python benchmarks/hint_fairness.py --pool own --workers 1 --seconds 20

``--stages`` says where the other players' milliseconds went, phase by phase: their writes'
wait for SQLite's one writer and their time holding it (a move's save, a hint's count), their
hints' search (the queue for a worker and the worker), and how late the event loop ran a
5 ms timer (of everyone's, in that phase).

``--workers`` is passed to the service as ``hint_workers`` (without it, 2, the bot's
default). The script uses nothing else the service did not have before hints were shared
fairly, so the same command measures an older checkout of gatebot when ``PYTHONPATH``
points at it. ``--against`` does that in the same run: each round of each pool is measured
in a fresh process, once with this checkout's gatebot and once with the one at the folder
given (a checkout of an earlier commit, say ``git worktree add /tmp/before main``, with its C
search built in place by ``.venv/bin/python setup.py build_ext --inplace`` there, else it
searches in Python; repeat ``--against`` for more), in turns, and all are reported side by side:

    .venv/bin/python benchmarks/hint_fairness.py --seconds 4 --others 8 --pool own --rounds 5 --against /tmp/before
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import json
import logging
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Hashable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gatebot
from gatebot.rules import MAX_DEAL
from gatebot.service import Actor, GameService, Reply, ReplyKind
from gatebot.solver.gate import search
from gatebot.store import Database, GameStatus
from gatebot.store.migrate import ensure_schema

PHASES = (("idle", 0), ("one", 1), ("eight", 8))
GOAL_RATIO = 2.0  # other players' hints under spam, p50 against idle
MOVE_GOAL_RATIO = 1.5  # their moves, likewise
POOLS = ("plain", "own")


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    spammers: int
    latencies: list[float] = field(default_factory=list)  # the other players' hints, seconds
    moves: list[float] = field(default_factory=list)  # the other players' moves, seconds
    presses: int = 0  # the spammers' hint calls answered in the window
    refused: int = 0  # other players' hints that were not a hint
    #: With ``--stages``: seconds by ``request: stage`` (``hint: writer wait``, ``event loop: late``…).
    stages: dict[str, list[float]] = field(default_factory=dict)


#: What an other player's request under way is (``hint`` or ``move``), for ``--stages``; None for a spammer's.
DOING: contextvars.ContextVar[str | None] = contextvars.ContextVar("doing", default=None)


class Bench:
    """The shared state of one run: the service, the phase being measured, the stop signal."""

    def __init__(self, service: GameService, seed: int) -> None:
        self.service = service
        self.rng = random.Random(seed)
        self.phase: Phase | None = None  # None while warming up
        self.stop = False

    def note(self, stage: str, seconds: float, doing: str | None = None) -> None:
        """Count ``seconds`` spent in ``stage`` by an other player's request, in the phase being measured."""
        doing = doing or DOING.get()
        if doing is not None and self.phase is not None:
            self.phase.stages.setdefault(f"{doing}: {stage}", []).append(seconds)

    def time_stages(self, db: Database) -> None:
        """Time the other players' turns at SQLite's writer and their hints' search, from here on."""
        writer = db.writer
        hint = self.service.advice.thinker.hint

        @contextlib.asynccontextmanager
        async def timed_writer(who: Hashable | None = None) -> AsyncIterator[object]:
            started = time.perf_counter()
            async with writer(who) as turn:
                self.note("writer wait", time.perf_counter() - started)
                held = time.perf_counter()
                try:
                    yield turn
                finally:
                    self.note("writer hold", time.perf_counter() - held)

        async def timed_hint(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await hint(*args, **kwargs)
            finally:
                self.note("search (queue and worker)", time.perf_counter() - started)

        db.writer = timed_writer  # type: ignore[method-assign,assignment]
        self.service.advice.thinker.hint = timed_hint  # type: ignore[method-assign]

    async def time_loop(self) -> None:
        """Note how late the event loop runs a 5 ms timer, until cancelled."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.005)
            self.note("late", time.perf_counter() - started - 0.005, doing="event loop")

    async def deal(self, actor: Actor) -> Reply:
        return await self.service.new_game(actor, deal=self.rng.randint(1, MAX_DEAL), confirm=True)

    async def move(self, actor: Actor, reply: Reply, rng: random.Random, *, timed: bool = False) -> Reply:
        """One random legal move (favouring the foundations), or a new deal when the game is over.

        ``timed``: the move's latency counts in the phase (an other player's, not a spammer's).
        """
        if reply.status is not GameStatus.ACTIVE or not reply.moves:
            return await self.deal(actor)
        moves = list(reply.moves)
        home = [token for token in moves if token.endswith("f")]
        phase = self.phase
        doing = DOING.set("move" if timed else None)
        started = time.perf_counter()
        moved = await self.service.play(actor, rng.choice(home if home and rng.random() < 0.6 else moves))
        elapsed = time.perf_counter() - started
        DOING.reset(doing)
        if timed and phase is not None and phase is self.phase and moved.kind is not ReplyKind.ERROR:
            phase.moves.append(elapsed)
        if moved.kind is ReplyKind.ERROR or moved.status is not GameStatus.ACTIVE or not moved.moves:
            return await self.deal(actor)
        return moved


async def other_player(bench: Bench, actor: Actor, think: float, seed: int) -> None:
    rng = random.Random(seed)
    reply = await bench.deal(actor)
    while not bench.stop:
        reply = await bench.move(actor, reply, rng, timed=True)
        phase = bench.phase
        doing = DOING.set("hint")
        started = time.perf_counter()
        answer = await bench.service.hint(actor)
        elapsed = time.perf_counter() - started
        DOING.reset(doing)
        if phase is not None and phase is bench.phase:
            if answer.kind is ReplyKind.HINT:
                phase.latencies.append(elapsed)
            else:
                phase.refused += 1
        await asyncio.sleep(rng.expovariate(1 / think))


async def spammer(bench: Bench, actor: Actor, burst: int, done: asyncio.Event, seed: int) -> None:
    rng = random.Random(seed)
    reply = await bench.deal(actor)
    while not done.is_set():
        reply = await bench.move(actor, reply, rng)
        phase = bench.phase
        await asyncio.gather(*(bench.service.hint(actor) for _ in range(burst)))
        if phase is not None and phase is bench.phase:
            phase.presses += burst


async def run_block(args: argparse.Namespace, pool: str) -> list[Phase]:
    """The three phases once, with a fresh database and service whose workers come from ``pool``."""
    workers = args.workers or 2
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite+aiosqlite:///{Path(folder) / 'hints.db'}")
        await ensure_schema(db)
        plain = None
        if pool == "plain":
            plain = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        service = GameService(db, hint_workers=workers, solver=plain)
        bench = Bench(service, args.seed)
        ticking = None
        if args.stages:
            bench.time_stages(db)
            ticking = asyncio.create_task(bench.time_loop())
        try:
            warm = Actor("bench", "warm-up", "warm-up")
            await bench.deal(warm)
            await service.hint(warm)  # the worker processes start here, not in a measured window
            others = [
                asyncio.create_task(other_player(bench, Actor("bench", f"other-{i}", f"other {i}"), args.think,
                                                 args.seed + i))
                for i in range(args.others)
            ]
            phases = []
            for name, count in PHASES:
                done = asyncio.Event()
                spammers = [
                    asyncio.create_task(spammer(bench, Actor("bench", f"spam-{i}", f"spam {i}"), args.burst, done,
                                                args.seed + 100 + i))
                    for i in range(count)
                ]
                bench.phase = None
                await asyncio.sleep(args.warmup)
                phase = Phase(name, count)
                bench.phase = phase
                await asyncio.sleep(args.seconds)
                bench.phase = None
                phases.append(phase)
                done.set()
                await asyncio.gather(*spammers)
                print(f"  {pool}: {report_line(phase, phases[0], args.seconds)}", file=sys.stderr)
            bench.stop = True
            await asyncio.gather(*others)
        finally:
            if ticking is not None:
                ticking.cancel()
            service.close()
            if plain is not None:
                plain.shutdown(wait=True, cancel_futures=True)
            await db.dispose()
    return phases


async def run(args: argparse.Namespace) -> dict[str, list[list[Phase]]]:
    """Every pool's rounds, taken in turns with the other pool's."""
    pools = POOLS if args.pool == "both" else (args.pool,)
    rounds: dict[str, list[list[Phase]]] = {pool: [] for pool in pools}
    for _round in range(args.rounds):
        for pool in pools:
            rounds[pool].append(await run_block(args, pool))
    return rounds


def pooled_phases(rounds: Sequence[Sequence[Phase]]) -> list[Phase]:
    """The rounds' phases pooled: every latency and press of a phase, whichever round measured it."""
    pooled = [Phase(name, count) for name, count in PHASES]
    for phases in rounds:
        for total, phase in zip(pooled, phases, strict=True):
            total.latencies += phase.latencies
            total.moves += phase.moves
            total.presses += phase.presses
            total.refused += phase.refused
            for stage, seconds in phase.stages.items():
                total.stages.setdefault(stage, []).extend(seconds)
    return pooled


def measure_checkout(args: argparse.Namespace, pool: str, folder: Path) -> list[Phase]:
    """One round of ``pool``, measured in a fresh process with the gatebot in ``folder`` (for ``--against``)."""
    command = [sys.executable, __file__, "--pool", pool, "--rounds", "1", "--emit-json",
               "--seconds", str(args.seconds), "--warmup", str(args.warmup), "--others", str(args.others),
               "--think", str(args.think), "--burst", str(args.burst), "--seed", str(args.seed)]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    if args.stages:
        command.append("--stages")
    environment = dict(os.environ, PYTHONPATH=str(folder))
    done = subprocess.run(command, env=environment, stdout=subprocess.PIPE, check=True, text=True)
    return [Phase(**phase) for phase in json.loads(done.stdout)[pool]]


def run_against(args: argparse.Namespace) -> dict[str, list[list[Phase]]]:
    """This checkout's rounds and each ``--against`` folder's, in turns, each in a fresh process.

    Keyed ``pool, checkout``.
    """
    pools = POOLS if args.pool == "both" else (args.pool,)
    here = Path(gatebot.__file__).resolve().parent.parent
    checkouts = {"this checkout": here, **{str(folder): folder.resolve() for folder in args.against}}
    rounds: dict[str, list[list[Phase]]] = {f"{pool} pool, {name}": [] for pool in pools for name in checkouts}
    for _round in range(args.rounds):
        for pool in pools:
            for name, folder in checkouts.items():
                print(f"  round {_round + 1}, {pool} pool, {name}:", file=sys.stderr)
                rounds[f"{pool} pool, {name}"].append(measure_checkout(args, pool, folder))
    return rounds


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _p50_p95(values: Sequence[float], idle: Sequence[float]) -> str:
    """``p50 | p95 | ratio`` cells (ms) for one measure of a phase, the ratio against idle's p50."""
    if not values:
        return "— | — | —"
    p50 = statistics.median(values) * 1000
    p95 = percentile(values, 0.95) * 1000
    ratio = p50 / (statistics.median(idle) * 1000) if idle else float("nan")
    return f"{p50:.1f} | {p95:.1f} | {ratio:.2f}x"


def report_line(phase: Phase, idle: Phase, seconds: float) -> str:
    return (f"| {phase.name} | {phase.spammers} | {len(phase.latencies)} | {_p50_p95(phase.latencies, idle.latencies)} "
            f"| {len(phase.moves)} | {_p50_p95(phase.moves, idle.moves)} | {phase.presses / seconds:.0f} |")


def worst(phases: Sequence[Phase], measure: str) -> float | None:
    """The highest p50 under spam against idle's, for ``latencies`` (hints) or ``moves``; None if one is missing."""
    idle, *spammed = (getattr(phase, measure) for phase in phases)
    if not idle or any(not values for values in spammed):
        return None
    return max(statistics.median(values) for values in spammed) / statistics.median(idle)


def print_stages(phases: Sequence[Phase]) -> None:
    """The other players' stages, phase by phase: how many, p50 and p90 in ms."""
    print("\n| stage | " + " | ".join(f"{phase.name}: n, p50, p90 ms" for phase in phases) + " |")
    print("|---|" + "---|" * len(phases))
    for stage in sorted({stage for phase in phases for stage in phase.stages}):
        cells = []
        for phase in phases:
            seconds = phase.stages.get(stage, [])
            cells.append(f"{len(seconds)}, {statistics.median(seconds) * 1000:.2f}, "
                         f"{percentile(seconds, 0.9) * 1000:.2f}" if seconds else "—")
        print(f"| {stage} | " + " | ".join(cells) + " |")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per phase (default 10)")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds before each phase (default 1)")
    parser.add_argument("--others", type=int, default=4, help="players who ask like people (default 4)")
    parser.add_argument("--think", type=float, default=1.0, help="their mean pause in seconds (default 1)")
    parser.add_argument("--burst", type=int, default=16, help="a spammer's presses at once (default 16)")
    parser.add_argument("--workers", type=int, default=None, help="hint worker processes (default 2, the bot's)")
    parser.add_argument("--pool", choices=(*POOLS, "both"), default="both",
                        help="the service's own worker pool, a plain one at the event loop's priority, or both "
                             "side by side (default)")
    parser.add_argument("--rounds", type=int, default=1, help="measurements of each pool, taken in turns (default 1)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--against", type=Path, action="append", default=None,
                        help="a folder with another gatebot (a checkout of an earlier commit): measure it too, "
                             "each round in turns with this checkout's, each in a fresh process (may be repeated)")
    parser.add_argument("--stages", action="store_true",
                        help="time where the other players' milliseconds go: the writer, the search, the event loop")
    parser.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)  # a round for --against
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    print(f"Python {platform.python_version()}, {args.others} other players, bursts of {args.burst}, "
          f"workers {args.workers or 2}, {args.seconds:g} s a phase, {args.rounds} round(s); gatebot at "
          f"{Path(gatebot.__file__).parent.parent}, {'compiled' if search.COMPILED else 'Python'} search",
          file=sys.stderr)
    if args.emit_json:
        measured = asyncio.run(run(args))
        print(json.dumps({pool: [vars(phase) for phase in rounds[0]] for pool, rounds in measured.items()}))
        return 0
    if args.against is not None:
        measured = run_against(args)
    else:
        measured = {f"{pool} pool": rounds for pool, rounds in asyncio.run(run(args)).items()}
    seconds = args.seconds * args.rounds
    failed = False
    for label, rounds in measured.items():
        phases = pooled_phases(rounds)
        print(f"\n{label} ({args.rounds} round(s) pooled):\n")
        print("| phase | spammers | hints | p50 ms | p95 ms | p50 vs idle | moves | p50 ms | p95 ms | p50 vs idle "
              "| spam presses/s |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for phase in phases:
            print(report_line(phase, phases[0], seconds))
        hints, moves = worst(phases, "latencies"), worst(phases, "moves")
        if hints is None or moves is None:
            print("some phase measured no hint or no move", file=sys.stderr)
            failed = True
            continue
        print(f"\nworst p50 under spam: hints {hints:.2f}x idle (goal: under {GOAL_RATIO:g}x), "
              f"moves {moves:.2f}x idle (goal: under {MOVE_GOAL_RATIO:g}x)")
        if args.stages:
            print_stages(phases)
        if len(rounds) > 1:
            each = [(worst(phases, "latencies"), worst(phases, "moves")) for phases in rounds]
            print("each round: " + ", ".join("—" if hint is None or move is None else f"{hint:.2f}x / {move:.2f}x"
                                             for hint, move in each) + " (hints / moves)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
