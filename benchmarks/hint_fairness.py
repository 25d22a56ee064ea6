"""Hint fairness: other players' hint latency while one player (or eight accounts) presses Hint non-stop.

A few *other* players play like people: a move, a hint about the new position, a pause
(exponential, ``--think`` seconds on average). *Spammers* play a move and then press Hint
``--burst`` times at once, and again as soon as all are answered, without pause. Every
call goes through the real ``GameService`` over a fresh SQLite file, with its real worker
processes for the hints (not pinned: the bot and its workers share the machine's cores).

Three phases of ``--seconds`` each, after a second of warm-up each: *idle* (no spammer),
*one* spammer, *eight* spammers. The other players' hint latency — from the call to the
reply — is reported as p50 and p95 per phase, with each phase's p50 against the idle one.
The goal: under spam, within 2x of idle at the median. Run from the repository root:

    .venv/bin/python benchmarks/hint_fairness.py
    .venv/bin/python benchmarks/hint_fairness.py --workers 1 --seconds 20

``--workers`` is passed to the service as ``hint_workers`` (without it, the service's own
default, one process). The script uses nothing else the service did not have before
hints were shared fairly, so the same command measures an older checkout of gatebot when
``PYTHONPATH`` points at it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gatebot.rules import MAX_DEAL
from gatebot.service import Actor, GameService, Reply, ReplyKind
from gatebot.store import Database, GameStatus
from gatebot.store.migrate import ensure_schema

PHASES = (("idle", 0), ("one", 1), ("eight", 8))
GOAL_RATIO = 2.0


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    spammers: int
    latencies: list[float] = field(default_factory=list)  # the other players' hints, seconds
    presses: int = 0  # the spammers' hint calls answered in the window
    refused: int = 0  # other players' hints that were not a hint


class Bench:
    """The shared state of one run: the service, the phase being measured, the stop signal."""

    def __init__(self, service: GameService, seed: int) -> None:
        self.service = service
        self.rng = random.Random(seed)
        self.phase: Phase | None = None  # None while warming up
        self.stop = False

    async def deal(self, actor: Actor) -> Reply:
        return await self.service.new_game(actor, deal=self.rng.randint(1, MAX_DEAL), confirm=True)

    async def move(self, actor: Actor, reply: Reply, rng: random.Random) -> Reply:
        """One random legal move (favouring the foundations), or a new deal when the game is over."""
        if reply.status is not GameStatus.ACTIVE or not reply.moves:
            return await self.deal(actor)
        moves = list(reply.moves)
        home = [token for token in moves if token.endswith("f")]
        moved = await self.service.play(actor, rng.choice(home if home and rng.random() < 0.6 else moves))
        if moved.kind is ReplyKind.ERROR or moved.status is not GameStatus.ACTIVE or not moved.moves:
            return await self.deal(actor)
        return moved


async def other_player(bench: Bench, actor: Actor, think: float, seed: int) -> None:
    rng = random.Random(seed)
    reply = await bench.deal(actor)
    while not bench.stop:
        reply = await bench.move(actor, reply, rng)
        phase = bench.phase
        started = time.perf_counter()
        answer = await bench.service.hint(actor)
        elapsed = time.perf_counter() - started
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


async def run(args: argparse.Namespace) -> list[Phase]:
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite+aiosqlite:///{Path(folder) / 'hints.db'}")
        await ensure_schema(db)
        extra = {} if args.workers is None else {"hint_workers": args.workers}
        service = GameService(db, **extra)
        bench = Bench(service, args.seed)
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
                print(f"  {report_line(phase, phases[0], args.seconds)}", file=sys.stderr)
            bench.stop = True
            await asyncio.gather(*others)
        finally:
            service.close()
            await db.dispose()
    return phases


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report_line(phase: Phase, idle: Phase, seconds: float) -> str:
    if not phase.latencies:
        return f"| {phase.name} | {phase.spammers} | 0 | — | — | — | {phase.presses / seconds:.0f} |"
    p50 = statistics.median(phase.latencies) * 1000
    p95 = percentile(phase.latencies, 0.95) * 1000
    ratio = p50 / (statistics.median(idle.latencies) * 1000) if idle.latencies else float("nan")
    return (f"| {phase.name} | {phase.spammers} | {len(phase.latencies)} | {p50:.1f} | {p95:.1f} | "
            f"{ratio:.2f}x | {phase.presses / seconds:.0f} |")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per phase (default 10)")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds before each phase (default 1)")
    parser.add_argument("--others", type=int, default=4, help="players who ask like people (default 4)")
    parser.add_argument("--think", type=float, default=1.0, help="their mean pause in seconds (default 1)")
    parser.add_argument("--burst", type=int, default=16, help="a spammer's presses at once (default 16)")
    parser.add_argument("--workers", type=int, default=None, help="hint_workers for the service (default: its own)")
    parser.add_argument("--seed", type=int, default=2026)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    print(f"Python {platform.python_version()}, {args.others} other players, bursts of {args.burst}, "
          f"workers {args.workers or 'default'}, {args.seconds:g} s a phase", file=sys.stderr)
    phases = asyncio.run(run(args))
    print("| phase | spammers | hints | p50 ms | p95 ms | p50 vs idle | spam presses/s |")
    print("|---|---|---|---|---|---|---|")
    for phase in phases:
        print(report_line(phase, phases[0], args.seconds))
    idle, *spammed = phases
    if not idle.latencies or any(not phase.latencies for phase in spammed):
        print("some phase measured no hint", file=sys.stderr)
        return 1
    worst = max(statistics.median(phase.latencies) for phase in spammed) / statistics.median(idle.latencies)
    print(f"\nworst p50 under spam: {worst:.2f}x idle (goal: under {GOAL_RATIO:g}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
