"""Shard load: the same simulated players on one PostgreSQL, served by one process or by two (half each).

This is what splitting the shards between two ``gatebot run`` processes buys on this machine:
each configuration drives ``--users`` players (``service_load.player``: deal, play weighted
random legal moves, undo now and then, deal again) through the real GameService on a fresh
PostgreSQL database; "one process" runs all of them in one event loop, "two processes" runs
half in each of two worker processes started at the same instant. Throughput is every
worker's completed commands over the measured window, summed; p50/p95 are over every
command's latency from all workers together. Each configuration runs ``--trials`` times,
alternating, and the table shows the medians side by side (every trial's commands/s after).
Nothing is pinned: the processes, and the PostgreSQL server (a throwaway one from
``tests/postgres.py`` unless ``--postgres-url``), share the machine's cores as a deployment's
would. Run from the repository root (about a minute with the defaults):

    .venv/bin/python benchmarks/shard_load.py
    .venv/bin/python benchmarks/shard_load.py --users 200 --seconds 10 --trials 3 --model think --rate 400

Measured on a 2-core machine that was busy with other work (load average 5 to 8), with the
defaults: one process 232 cmds/s (p50 309 ms, p95 1066 ms), two processes 204 cmds/s (p50
310 ms, p95 1065 ms); a second run 332 (p50 201, p95 844) against 309 (232, 807). On two
cores shared with PostgreSQL a second process has no core of its own to add, so it buys
nothing; it pays off where each process (and the database) has its own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy

from gatebot.service import Actor, GameService
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema

sys.path.insert(0, str(Path(__file__).resolve().parent))
from service_load import Clock, Run, Sample, fresh_database, load_average, player

REPO = Path(__file__).resolve().parents[1]
#: Seconds between launching the workers and the moment they all start playing (imports, connecting).
START_DELAY = 3.0


# -- one worker process ---------------------------------------------------------------------


async def work(url: str, run: Run, first: int, start_at: float) -> dict[str, object]:
    """Players ``first`` .. ``first + run.users - 1`` from wall time ``start_at``: what they measured."""
    db = Database(url)
    service = GameService(db)
    try:
        await service.preferences(Actor("benchmark", "warm-up", "Warm-up"))  # connects, starts listening
        await asyncio.sleep(max(0.0, start_at - time.time()))
        sample = Sample()
        clock = Clock(run)
        tasks = [asyncio.create_task(player(first + i, service, run, clock, sample)) for i in range(run.users)]
        await asyncio.sleep(max(0.0, clock.measure_from - time.perf_counter()))
        await asyncio.sleep(max(0.0, clock.stop_at - time.perf_counter()))
        await asyncio.gather(*tasks)
        return {
            "completed": sample.completed,
            "window": run.seconds,
            "latencies": sample.latencies,
            "failures": sum(sample.errors.values()) + sum(sample.refused.values()),
            "errors": dict(sample.errors),
        }
    finally:
        service.close()
        await db.dispose()


# -- the driver -----------------------------------------------------------------------------


@dataclass
class Trial:
    processes: int
    throughput: float
    p50_ms: float
    p95_ms: float
    failures: int


def percentile_ms(data: list[float], q: float) -> float:
    """Nearest-rank percentile, in ms."""
    ordered = sorted(data)
    return 1000 * ordered[min(len(ordered) - 1, max(0, -(-len(ordered) * q // 100) - 1))] if ordered else float("nan")


def worker_command(args: argparse.Namespace, url: str, users: int, first: int, start_at: float) -> list[str]:
    return [sys.executable, __file__, "--worker", "--url", url, "--users", str(users), "--first", str(first),
            "--start-at", repr(start_at), "--seconds", str(args.seconds), "--warmup", str(args.warmup),
            "--model", args.model, "--rate", str(args.rate), "--seed", str(args.seed),
            "--total-users", str(args.users)]


async def trial(args: argparse.Namespace, processes: int, postgres_url: str, workdir: Path) -> Trial:
    """One configuration once: ``processes`` workers sharing ``args.users`` players on a fresh database."""
    async with fresh_database("postgresql", workdir, postgres_url, f"shards{processes}") as url:
        db = Database(url)
        await ensure_schema(db)
        await db.dispose()
        start_at = time.time() + START_DELAY
        shares = [args.users // processes + (1 if i < args.users % processes else 0) for i in range(processes)]
        firsts = [sum(shares[:i]) for i in range(processes)]
        workers = [
            await asyncio.create_subprocess_exec(*worker_command(args, url, share, first, start_at),
                                                 stdout=subprocess.PIPE, cwd=REPO)
            for share, first in zip(shares, firsts, strict=True)
        ]
        outputs = [await worker.communicate() for worker in workers]
    results = []
    for worker, (stdout, _) in zip(workers, outputs, strict=True):
        if worker.returncode != 0:
            raise RuntimeError(f"a worker failed with exit code {worker.returncode}")
        results.append(json.loads(stdout))
    latencies = [latency for result in results for latency in result["latencies"]]
    return Trial(
        processes,
        sum(result["completed"] for result in results) / args.seconds,
        percentile_ms(latencies, 50),
        percentile_ms(latencies, 95),
        sum(result["failures"] for result in results),
    )


async def drive(args: argparse.Namespace, postgres_url: str) -> dict[int, list[Trial]]:
    trials: dict[int, list[Trial]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="gatebot-shards-") as workdir:
        for _ in range(args.trials):
            for processes in (1, 2):  # alternating, so a drift of the machine touches both alike
                found = await trial(args, processes, postgres_url, Path(workdir))
                trials[processes].append(found)
                print(f"  {processes} process{'es' if processes > 1 else ''}: {found.throughput:.0f} cmds/s, "
                      f"p50 {found.p50_ms:.1f} ms, p95 {found.p95_ms:.1f} ms", flush=True)
    return trials


def report(args: argparse.Namespace, trials: dict[int, list[Trial]]) -> None:
    print()
    print(f"{'configuration':<16}{'players':>8}{'cmds/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'failures':>10}"
          "   every trial's cmds/s")
    for processes, label in ((1, "one process"), (2, "two processes")):
        found = trials[processes]
        print(f"{label:<16}{args.users:>8}{statistics.median(t.throughput for t in found):>9.0f}"
              f"{statistics.median(t.p50_ms for t in found):>9.1f}{statistics.median(t.p95_ms for t in found):>9.1f}"
              f"{sum(t.failures for t in found):>10}   {' '.join(f'{t.throughput:.0f}' for t in found)}")
    one = statistics.median(t.throughput for t in trials[1])
    two = statistics.median(t.throughput for t in trials[2])
    print(f"\ntwo processes serve {two / one:.2f}x the commands/s of one (medians of {args.trials})")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--users", type=int, default=100, help="players in all (default 100; two processes: half each)")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per trial (default 8)")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds first (default 1)")
    parser.add_argument("--trials", type=int, default=3, help="runs of each configuration (default 3)")
    parser.add_argument("--model", choices=("closed", "think"), default="closed",
                        help="closed: no think time (saturation); think: --rate commands/s offered in all")
    parser.add_argument("--rate", type=float, default=400.0, help="offered commands/s in the think model")
    parser.add_argument("--postgres-url", help="a PostgreSQL server to use instead of a throwaway one")
    parser.add_argument("--seed", type=int, default=2026)
    # A worker's own options (the driver passes them).
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--total-users", type=int, default=0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        # The think model's rate is offered by all the players: each worker offers its players' share of it.
        rate = args.rate * args.users / max(1, args.total_users)
        run = Run("postgresql", args.model, args.users, args.seconds, args.warmup, rate, None, args.seed, 150, 0.05)
        print(json.dumps(asyncio.run(work(args.url, run, args.first, args.start_at))))
        return 0
    server = None
    postgres_url = args.postgres_url
    if postgres_url is None:
        sys.path.insert(0, str(REPO))
        from tests.postgres import PostgresServer  # the throwaway server of the test suite

        server = PostgresServer.start()
        postgres_url = server.url
    try:
        print(f"{platform.python_implementation()} {platform.python_version()}, SQLAlchemy {sqlalchemy.__version__}, "
              f"{os.cpu_count()} cores, nothing pinned, load average {load_average()} at start; "
              f"{args.model} model, {args.users} players, {args.seconds:g} s measured after {args.warmup:g} s warm-up")
        trials = asyncio.run(drive(args, postgres_url))
    finally:
        if server is not None:
            server.stop()
    report(args, trials)
    command = [".venv/bin/python", "benchmarks/shard_load.py", "--users", str(args.users), "--seconds",
               f"{args.seconds:g}", "--warmup", f"{args.warmup:g}", "--trials", str(args.trials), "--model", args.model,
               "--rate", f"{args.rate:g}", "--seed", str(args.seed)]
    print(f"reproduce: {shlex.join(command)}")
    return 1 if any(t.failures for found in trials.values() for t in found) else 0


if __name__ == "__main__":
    sys.exit(main())
