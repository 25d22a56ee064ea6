"""Service load: N simulated players playing whole games at once through the real GameService.

Every player is a task in one asyncio event loop in one process pinned to one core, as the
bot runs. Each deals a seeded random game (``new_game``), then plays moves picked from the
reply's legal moves (foundation moves favoured, back-and-forth shuttles avoided, an undo now
and then) until the game ends or a move cap, then deals again, until the time is up. Every
command is one awaited service call, timed with ``time.perf_counter``. The database is a
fresh SQLite file per configuration and a fresh database on a PostgreSQL server (a throwaway
one from ``tests/postgres.py``, on the other core(s), or ``--postgres-url``).

Two load models, both reported, because in a closed loop latency is only Little's law
(latency = N / throughput) and says nothing about the goal:

* ``closed``: no think time, each player sends its next command as soon as the last is
  answered: the saturation throughput of the service;
* ``think``: each player waits an exponential think time (mean N / rate seconds) between
  commands, so the offered load is ``--rate`` commands/s in all: the latency at that load.

The goal: on one core with SQLite, at least 500 commands/s with p99 under 50 ms at 200
players. Run from the repository root (about three minutes with the defaults):

    .venv/bin/python benchmarks/service_load.py
    .venv/bin/python benchmarks/service_load.py --backend sqlite --users 200 --model think --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import math
import os
import platform
import random
import shlex
import sys
import tempfile
import time
import traceback
import uuid
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import sqlalchemy
from sqlalchemy.engine import make_url

from gatebot.rules import MAX_DEAL
from gatebot.service import Actor, GameService, Reply, ReplyKind
from gatebot.store import Database, GameStatus
from gatebot.store.migrate import ensure_schema

REPO = Path(__file__).resolve().parents[1]
GOAL_RATE = 500.0  # commands/s
GOAL_P99_MS = 50.0
GOAL_USERS = 200
#: A think-model run "kept up" when it served at least this share of the offered load (the
#: rest is the think-plus-latency cycle and Poisson noise, not the service falling behind).
KEPT_UP = 0.95


# -- the simulated player --------------------------------------------------------------------


def choose_move(rng: random.Random, moves: Sequence[str], recent: deque[tuple[str, str]]) -> str:
    """A legal move, at random but weighted so games progress.

    Foundation moves are favoured, cards out of the reserves and the waste next, draws
    (irreversible: there is no redeal) are plain, column-to-column moves are rarer, runs
    onto a free space rarer still, and undoing a recent column move (``37`` after ``73``)
    almost never happens.
    """
    weights: list[float] = []
    for token in moves:
        if token == "d":
            weight = 1.5
        else:
            source, target = token[0], token[1]
            if target == "f":
                weight = 12.0
            elif source in "lrw":
                weight = 4.0
            elif (target, source) in recent:
                weight = 0.02
            elif ":" in token:
                weight = 0.4
            else:
                weight = 1.0
        weights.append(weight)
    return rng.choices(moves, weights)[0]


@dataclass
class Sample:
    """What was measured in one configuration's window."""

    latencies: list[float] = field(default_factory=list)  # seconds, commands started in the window
    kinds: Counter[str] = field(default_factory=Counter)  # new / move / undo, in the window
    completed: int = 0  # commands that completed in the window (for throughput)
    errors: Counter[str] = field(default_factory=Counter)  # exceptions out of the service
    error_examples: list[str] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)  # replies that were not a board
    games: Counter[str] = field(default_factory=Counter)  # how dealt games ended: won/lost/capped


@dataclass
class Run:
    """One configuration: a backend, a load model and a number of players."""

    backend: str
    model: str
    users: int
    seconds: float
    warmup: float
    rate: float
    commands: int | None
    seed: int
    move_cap: int
    undo_share: float

    @property
    def think_mean(self) -> float:
        return self.users / self.rate if self.model == "think" else 0.0


class Clock:
    """The run's phases: warm-up, then the measured window, then stop.

    The window ends after ``run.seconds``, or earlier once ``run.commands`` commands were
    issued in it; ``stop_at`` is moved to that moment.
    """

    def __init__(self, run: Run) -> None:
        self.run = run
        self.start = time.perf_counter()
        self.measure_from = self.start + run.warmup
        self.stop_at = self.measure_from + run.seconds
        self.issued_in_window = 0
        self.enough = asyncio.Event()

    def issued(self) -> None:
        self.issued_in_window += 1
        if self.run.commands is not None and self.issued_in_window >= self.run.commands:
            self.stop_at = min(self.stop_at, time.perf_counter())
            self.enough.set()

    def stopping(self, now: float) -> bool:
        return now >= self.stop_at


async def player(index: int, service: GameService, run: Run, clock: Clock, sample: Sample) -> None:
    """One simulated player: deal, play to the end or the cap, deal again, until the time is up."""
    rng = random.Random(run.seed * 1_000_003 + index)
    actor = Actor("benchmark", f"player-{index}", f"Player {index}")
    reply: Reply | None = None
    moves_played = 0
    recent: deque[tuple[str, str]] = deque(maxlen=6)
    # Players start spread over the first think time, not all in the same instant.
    if run.think_mean:
        await asyncio.sleep(rng.uniform(0, run.think_mean))
    while True:
        if run.think_mean:
            pause = rng.expovariate(1 / run.think_mean)
            await asyncio.sleep(max(0.0, min(pause, clock.stop_at - time.perf_counter())))
        if clock.stopping(time.perf_counter()):
            return
        call: Coroutine[Any, Any, Reply]
        if reply is None or reply.status is not GameStatus.ACTIVE or moves_played >= run.move_cap:
            if reply is not None and reply.status is GameStatus.ACTIVE:
                sample.games["capped"] += 1
            kind = "new"
            # confirm=True: a capped game in progress is abandoned rather than asked about.
            call = service.new_game(actor, deal=rng.randint(1, MAX_DEAL), confirm=True)
            moves_played = 0
            recent.clear()
        elif "undo" in reply.actions and rng.random() < run.undo_share:
            kind = "undo"
            call = service.undo(actor)
        else:
            kind = "move"
            token = choose_move(rng, reply.moves, recent)
            if token != "d":
                recent.append((token[0], token[1]))
            call = service.play(actor, token)
        started = time.perf_counter()
        in_window = started >= clock.measure_from
        if in_window:
            clock.issued()
        try:
            answer = await call
        except Exception as error:  # a failure of the benchmark: counted and shown, never hidden
            finished = time.perf_counter()
            name = f"{type(error).__module__}.{type(error).__name__}"
            sample.errors[name] += 1
            if len(sample.error_examples) < 3:
                sample.error_examples.append("".join(traceback.format_exception(error)).rstrip())
            reply = None  # start afresh (a new deal) after a failure
        else:
            finished = time.perf_counter()
            if answer.kind is not ReplyKind.BOARD:
                sample.refused[f"{kind}: {answer.kind.value}: {answer.message}"] += 1
                reply = None
            else:
                reply = answer
                if kind == "move":
                    moves_played += 1
                if answer.status in (GameStatus.WON, GameStatus.LOST):
                    sample.games[str(answer.status)] += 1
        if in_window:
            sample.latencies.append(finished - started)
            sample.kinds[kind] += 1
        if clock.measure_from <= finished < clock.stop_at:
            sample.completed += 1


class RetryCounter(logging.Handler):
    """Counts the service's "retrying a request" log records (lost optimistic-locking races)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.retries = 0
        self.warnings = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("retrying a request"):
            self.retries += 1
        elif record.levelno >= logging.WARNING:
            self.warnings += 1


# -- databases -------------------------------------------------------------------------------


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@asynccontextmanager
async def fresh_database(backend: str, workdir: Path, postgres_url: str | None, name: str) -> AsyncIterator[str]:
    """The URL of a new, empty database: a SQLite file in ``workdir`` or a database on the server."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{workdir}/{name}.db"
        return
    assert postgres_url is not None
    database = f"bench_{name}_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(_asyncpg_dsn(postgres_url))
    try:
        await admin.execute(f'CREATE DATABASE "{database}"')
        yield make_url(postgres_url).set(database=database).render_as_string(hide_password=False)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        await admin.close()


@dataclass
class Result:
    run: Run
    sample: Sample
    window: float  # seconds actually measured
    cpu: float  # this process's CPU seconds over the window, per wall second
    retries: int
    warnings: int

    @property
    def throughput(self) -> float:
        return self.sample.completed / self.window

    @property
    def cpu_per_command_ms(self) -> float:
        """This process's CPU time per completed command (the server's, for PostgreSQL, not included)."""
        return 1000 * self.cpu / self.throughput if self.throughput else math.nan

    @property
    def mean_ms(self) -> float:
        data = self.sample.latencies
        return 1000 * sum(data) / len(data) if data else math.nan

    @property
    def failures(self) -> int:
        return sum(self.sample.errors.values()) + sum(self.sample.refused.values())

    def percentile_ms(self, q: float) -> float:
        """Nearest-rank percentile of the latencies, in ms."""
        data = sorted(self.sample.latencies)
        if not data:
            return math.nan
        return 1000 * data[min(len(data) - 1, max(0, math.ceil(q / 100 * len(data)) - 1))]


async def measure(run: Run, workdir: Path, postgres_url: str | None, counter: RetryCounter) -> Result:
    name = f"{run.backend}_{run.model}_{run.users}"
    async with fresh_database(run.backend, workdir, postgres_url, name) as url:
        db = Database(url)
        try:
            await ensure_schema(db)
            service = GameService(db)
            sample = Sample()
            retries_before, warnings_before = counter.retries, counter.warnings
            clock = Clock(run)
            tasks = [asyncio.create_task(player(i, service, run, clock, sample)) for i in range(run.users)]
            await asyncio.sleep(max(0.0, clock.measure_from - time.perf_counter()))
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            with suppress(TimeoutError):
                await asyncio.wait_for(clock.enough.wait(), max(0.0, clock.stop_at - time.perf_counter()))
            cpu_end, wall_end = time.process_time(), time.perf_counter()
            await asyncio.gather(*tasks)  # the commands in flight at the stop finish
            window = min(wall_end, clock.stop_at) - clock.measure_from
            return Result(
                run,
                sample,
                max(window, 1e-9),
                (cpu_end - cpu_start) / max(wall_end - wall_start, 1e-9),
                counter.retries - retries_before,
                counter.warnings - warnings_before,
            )
        finally:
            await db.dispose()


# -- one core ------------------------------------------------------------------------------


def pin_to_one_core(core: int | None) -> tuple[int | None, set[int]]:
    """Pin this process (and the threads it starts later) to one core; return it and the others."""
    if not hasattr(os, "sched_setaffinity"):
        return None, set()
    allowed = os.sched_getaffinity(0)
    core = min(allowed) if core is None else core
    os.sched_setaffinity(0, {core})
    return core, allowed - {core}


def load_average() -> str:
    """The 1-minute load average: other programs on the machine skew the numbers."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def move_server_off(data_dir: Path, cores: set[int]) -> int:
    """Put the PostgreSQL postmaster and its children on ``cores`` (new backends inherit it)."""
    if not cores:
        return 0
    postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
    moved = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with suppress(OSError, IndexError, ValueError):
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            pid = int(entry.name)
            if pid == postmaster or parent == postmaster:
                os.sched_setaffinity(pid, cores)
                moved += 1
    return moved


# -- reporting -------------------------------------------------------------------------------


HEADER = (
    f"{'backend':<10} {'model':<6} {'users':>5} {'offered/s':>9} {'cmds/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
    f"{'max ms':>7} {'cpu':>5} {'cpu ms/cmd':>10} {'cmds':>6} {'new/mv/undo':>15} {'won/lost/cap':>13} {'errors':>6} "
    f"{'refused':>7} {'retries':>7}"
)


def row(result: Result) -> str:
    run, sample = result.run, result.sample
    offered = "-" if run.model == "closed" else f"{run.rate:.0f}"
    mix = f"{sample.kinds['new']}/{sample.kinds['move']}/{sample.kinds['undo']}"
    games = f"{sample.games['won']}/{sample.games['lost']}/{sample.games['capped']}"
    return (
        f"{run.backend:<10} {run.model:<6} {run.users:>5} {offered:>9} {result.throughput:>8.0f} "
        f"{result.percentile_ms(50):>7.2f} {result.percentile_ms(99):>7.2f} {result.percentile_ms(100):>7.1f} "
        f"{result.cpu:>5.0%} {result.cpu_per_command_ms:>10.2f} {len(sample.latencies):>6} {mix:>15} {games:>13} "
        f"{sum(sample.errors.values()):>6} {sum(sample.refused.values()):>7} {result.retries:>7}"
    )


def verdict(result: Result) -> str:
    run = result.run
    label = f"{run.backend} {run.model} N={run.users}:"
    problems = []
    if result.failures:
        problems.append(f"{sum(result.sample.errors.values())} errors, {sum(result.sample.refused.values())} refused")
    if result.warnings:
        problems.append(f"{result.warnings} service warnings")
    broken = f" -- BROKEN ({'; '.join(problems)})" if problems else ""
    if run.model == "closed":
        ok = result.throughput >= GOAL_RATE
        little = 1000 * run.users / result.throughput if result.throughput else math.inf
        return (
            f"{label} capacity {result.throughput:.0f} cmds/s {'>=' if ok else '<'} {GOAL_RATE:.0f} "
            f"({'enough' if ok else 'NOT enough'}); closed-loop latency is just N/X = {little:.1f} ms "
            f"(Little's law), not a goal measure{broken}"
        )
    kept = result.throughput >= KEPT_UP * run.rate
    fast = result.percentile_ms(99) < GOAL_P99_MS
    # Each player waits for its answer, so N players can offer at most N / (think time + latency).
    reach = 1000 * run.users / (1000 * run.think_mean + result.mean_ms) if result.sample.latencies else math.inf
    out_of_reach = not kept and fast  # not congested: too few players to offer the rate
    if out_of_reach:
        served = (
            f"served {result.throughput:.0f}/s: {run.users} player(s) thinking {1000 * run.think_mean:.1f} ms "
            f"+ {result.mean_ms:.1f} ms latency can offer only ~{reach:.0f}/s (the model's limit, not the service's)"
        )
    else:
        pace = "kept up" if kept else "FELL BEHIND"
        served = f"served {result.throughput:.0f}/s ({pace}: >= {KEPT_UP:.0%} of offered)"
    passed = (kept or out_of_reach) and fast and not problems
    return (
        f"{label} offered {run.rate:.0f}/s, {served}, p99 {result.percentile_ms(99):.1f} ms "
        f"{'<' if fast else '>='} {GOAL_P99_MS:.0f} ms: {'PASS' if passed else 'FAIL'}{broken}"
    )


def goal_verdict(results: list[Result]) -> str | None:
    """The goal itself: SQLite, 200 players, one core: capacity >= 500/s and p99 < 50 ms at 500/s."""
    mine = {r.run.model: r for r in results if r.run.backend == "sqlite" and r.run.users == GOAL_USERS}
    think = mine.get("think")
    if think is None or think.run.rate < GOAL_RATE:
        return None
    closed = mine.get("closed")
    parts = []
    met = not think.failures and think.throughput >= KEPT_UP * think.run.rate and think.percentile_ms(99) < GOAL_P99_MS
    parts.append(f"p99 {think.percentile_ms(99):.1f} ms serving {think.throughput:.0f} of {think.run.rate:.0f} cmds/s")
    if closed is not None:
        met = met and closed.throughput >= GOAL_RATE and not closed.failures
        parts.append(f"capacity {closed.throughput:.0f} cmds/s")
    return (
        f"GOAL (SQLite, one core, {GOAL_USERS} players, >= {GOAL_RATE:.0f} cmds/s with p99 < {GOAL_P99_MS:.0f} ms): "
        f"{'MET' if met else 'MISSED'} -- {', '.join(parts)}"
    )


def report_failures(result: Result) -> None:
    sample = result.sample
    if not (sample.errors or sample.refused):
        return
    run = result.run
    print(f"\n  failures in {run.backend} {run.model} N={run.users}:")
    for name, count in sample.errors.most_common():
        print(f"    {count:>6} x exception {name}")
    for text, count in sample.refused.most_common(5):
        print(f"    {count:>6} x reply {text}")
    for example in sample.error_examples[:1]:
        print("    first traceback:\n      " + example.replace("\n", "\n      "))


# -- main ----------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--users", type=int, nargs="+", default=[1, 50, 200], help="players at once (default 1 50 200)")
    parser.add_argument("--seconds", type=float, default=12.0, help="measured seconds per configuration (default 12)")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds first (default 1)")
    parser.add_argument("--commands", type=int, default=None, help="stop a configuration after this many commands")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--model", choices=("closed", "think", "both"), default="both")
    parser.add_argument("--rate", type=float, default=GOAL_RATE, help="offered commands/s in the think model")
    parser.add_argument("--postgres-url", help="a PostgreSQL server to use instead of a throwaway one")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--move-cap", type=int, default=150, help="moves before a game is abandoned (default 150)")
    parser.add_argument("--undo-share", type=float, default=0.05, help="share of commands that undo (default 0.05)")
    parser.add_argument("--core", type=int, default=None, help="the core to pin to (default: the lowest allowed)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parser.add_argument("--profile", type=Path, help="write cProfile stats of the runs (event-loop thread) here")
    return parser.parse_args(argv)


def reproduce_command(args: argparse.Namespace) -> list[str]:
    """This run's command line with every option spelled out (defaults included)."""
    command = [".venv/bin/python", "benchmarks/service_load.py", "--users", *map(str, args.users)]
    for option in ("seconds", "warmup", "backend", "model", "rate", "seed", "move_cap", "undo_share"):
        command += [
            f"--{option.replace('_', '-')}",
            f"{getattr(args, option):g}" if isinstance(getattr(args, option), float) else str(getattr(args, option)),
        ]
    if args.commands is not None:
        command += ["--commands", str(args.commands)]
    if args.postgres_url is not None:
        command += ["--postgres-url", make_url(args.postgres_url).render_as_string(hide_password=True)]
    if args.core is not None:
        command += ["--core", str(args.core)]
    if args.no_pin:
        command.append("--no-pin")
    return command


async def run_all(runs: list[Run], postgres_url: str | None, on_result: Callable[[Result], None]) -> list[Result]:
    counter = RetryCounter()
    service_log = logging.getLogger("gatebot.service.games")
    service_log.addHandler(counter)
    service_log.setLevel(logging.INFO)
    results = []
    with tempfile.TemporaryDirectory(prefix="gatebot-load-") as workdir:
        for run in runs:
            result = await measure(run, Path(workdir), postgres_url, counter)
            on_result(result)
            results.append(result)
    service_log.removeHandler(counter)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    models = ["closed", "think"] if args.model == "both" else [args.model]
    runs = [
        Run(backend, model, users, args.seconds, args.warmup, args.rate, args.commands, args.seed,
            args.move_cap, args.undo_share)
        for backend in backends for model in models for users in args.users
    ]  # fmt: skip

    server = None
    postgres_url = args.postgres_url
    if "postgresql" in backends and postgres_url is None:
        sys.path.insert(0, str(REPO))
        from tests.postgres import PostgresServer  # the throwaway server of the test suite

        server = PostgresServer.start()  # before pinning, so it does not inherit our core
        postgres_url = server.url
    try:
        core, others = (None, set()) if args.no_pin else pin_to_one_core(args.core)
        python = f"{platform.python_implementation()} {platform.python_version()}"
        notes = [f"{python}, SQLAlchemy {sqlalchemy.__version__}, load average {load_average()} at start"]
        if core is None:
            notes.append("not pinned: all cores")
        else:
            notes.append(f"this process (event loop + aiosqlite threads) pinned to core {core} of {len(others) + 1}")
        if "postgresql" in backends:
            if server is not None:
                moved = move_server_off(server.data_dir, others)
                where = f"cores {sorted(others)}" if moved else "unpinned"
                notes.append(
                    f"PostgreSQL {server.bindir.parent.name}: a separate throwaway server process on {where}"
                    " (fsync off), its CPU not counted in 'cpu'"
                )
            else:
                notes.append("PostgreSQL: the server given by --postgres-url, a separate process")
        print("; ".join(notes))
        models_line = (
            f"closed = no think time; think = exponential think time, mean N/{args.rate:.0f} s "
            f"(offered {args.rate:.0f} cmds/s in all)"
        )
        print(
            f"{models_line}; {args.seconds:g} s measured after {args.warmup:g} s warm-up per configuration; "
            "latency = one awaited service call; cpu = this process's CPU time / wall time (well under 100% "
            "in a closed loop: the core was shared, or the process waited on the server)"
        )
        print()
        print(HEADER)

        def show(result: Result) -> None:
            print(row(result), flush=True)

        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        results = asyncio.run(run_all(runs, postgres_url, show))
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(str(args.profile))
    finally:
        if server is not None:
            server.stop()

    for result in results:
        report_failures(result)
    print()
    for result in results:
        print(verdict(result))
    goal = goal_verdict(results)
    if goal is not None:
        print(goal)
    print(f"\nreproduce: {shlex.join(reproduce_command(args))}")
    return 1 if any(r.failures for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
