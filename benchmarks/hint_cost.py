"""The CPU a hint costs through the service, against the bare search on the same positions, in one run.

A hint is asked as chat asks it: ``GameService.hint`` over a fresh SQLite file, with the
service's own worker process (one, so its CPU is all the hint's). For each variant and deal
the game is dealt, a hint is asked at the deal, then ``--moves`` moves are played (a
foundation play when there is one, else a seeded choice) and a hint is asked again
(*later*). Each hint's CPU is the service process's (``time.process_time``: the event loop
and the database driver's thread) plus the worker's (its process CPU clock, read from this
process at nanosecond resolution). Right after each, the *floor* is measured on the same
position in this process: the bare call of the variant's hint engine
(:func:`gatebot.solver.registry.hint`, with the positions behind as the service gives them),
which is what no hint can cost less than. That hint asked again (*again*, answered from the
service's memory), and the hint after taking it (*next*, as a player asking at every move
does), are reported too; ``--variants archway-kit`` plays Archway with ``kit``, where every
deal can be won.

Medians of each, and ratios of the medians, per variant and stage. The two searches are
also compared move for move: the service's hint must be the bare engine's. Run from the
repository root:

    nice -n 10 .venv/bin/python benchmarks/hint_cost.py --deals 15
    nice -n 10 .venv/bin/python benchmarks/hint_cost.py --deals 10 --profile service
    nice -n 10 .venv/bin/python benchmarks/hint_cost.py --deals 10 --profile worker
    nice -n 10 .venv/bin/python benchmarks/hint_cost.py --deals 10 --rounds 4 --against /tmp/before

``--against DIR`` measures another checkout too (``git archive main | tar -x -C
/tmp/before``, its compiled search cores built in place with ``.venv/bin/python setup.py
build_ext --inplace`` there, else it searches in Python): each round runs each checkout in a
fresh process on the same deals, in turns, and the rounds are pooled; the next round takes
the next deals.

``--profile service`` profiles the service process's part of every hint (cProfile on the CPU
time of the event loop's thread, so waiting counts nothing; the top entries by own time);
``--profile worker`` profiles what the worker runs (:func:`gatebot.service.thinking.hint_for`)
on the same positions, in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

# The checkout whose gatebot a round runs (``--against`` sets it for its rounds); by default this one.
sys.path.insert(0, os.environ.get("HINT_COST_CHECKOUT", str(Path(__file__).resolve().parent.parent)))

from gatebot.rules import Game
from gatebot.service import Actor, GameService, Reply, ReplyKind
from gatebot.service.thinking import hint_for
from gatebot.solver import HINT_SECONDS, registry
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema

VARIANTS = ("gate", "little-gate", "canfield", "archway")
#: Named games that are a variant with options (``--variants archway-kit``).
WITH_OPTIONS = {"archway-kit": ("archway", ("kit",))}
CHECKOUT = "HINT_COST_CHECKOUT"
HERE = Path(__file__).resolve().parent.parent
STAGES = ("deal", "later", "again", "next")


def process_clock(pid: int) -> Callable[[], float]:
    """The CPU seconds of process ``pid`` so far, all its threads (Linux's process CPU clock of another process)."""
    clock = ((~pid) << 3) | 2  # MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)
    return lambda: time.clock_gettime(clock)


@dataclass
class Figures:
    """One variant's and stage's hints: CPU seconds of each part, one entry per hint."""

    service: list[float] = field(default_factory=list)
    worker: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    differing: int = 0  #: hints whose move is not the bare engine's

    def total(self) -> list[float]:
        return [mine + theirs for mine, theirs in zip(self.service, self.worker, strict=True)]


class Bench:
    """The service, its one worker's clock, and the profiles asked for."""

    def __init__(self, service: GameService, worker: Callable[[], float], profile: str | None) -> None:
        self.service = service
        self.worker = worker
        # CPU time of the event loop's thread, so its waits for the worker and the database count nothing.
        self.profiler = cProfile.Profile(time.thread_time) if profile else None
        self.profile = profile

    async def hint(self, actor: Actor, figures: Figures | None) -> Reply:
        """Ask a hint as chat does, counting the CPU of both processes into ``figures``."""
        profiling = self.profiler is not None and self.profile == "service"
        worker = self.worker()
        started = time.process_time()
        if profiling:
            assert self.profiler is not None
            self.profiler.enable()
        reply = await self.service.hint(actor)
        if profiling:
            assert self.profiler is not None
            self.profiler.disable()
        spent = time.process_time() - started
        if figures is not None:
            figures.service.append(spent)
            figures.worker.append(self.worker() - worker)
        return reply

    def floor(self, game: Game, figures: Figures, suggested: str | None) -> None:
        """The bare hint engine on ``game`` in this process; its CPU into ``figures``."""
        behind = registry.positions_behind(game)
        started = time.process_time()
        found = registry.hint(game, seconds=HINT_SECONDS, behind=behind)
        figures.floor.append(time.process_time() - started)
        if (None if found.move is None else str(found.move)) != suggested:
            figures.differing += 1
        if self.profiler is not None and self.profile == "worker":
            visible = game.to_text(hide_stock=True)
            self.profiler.runcall(hint_for, visible, HINT_SECONDS, behind)


def next_move(reply: Reply, rng: random.Random) -> str | None:
    """A foundation play if there is one, else a seeded choice among the legal moves (draws last)."""
    moves = list(reply.moves)
    if not moves:
        return None
    home = [token for token in moves if token.endswith(("f", "a", "k"))]
    if home:
        return home[0]
    return rng.choice(moves)


async def one_deal(bench: Bench, variant: str, deal: int, moves: int, figures: dict[str, Figures]) -> None:
    """Deal, hint at the deal, play ``moves`` moves, hint again, ask that hint once more, take it and hint again."""
    actor = Actor("bench", f"{variant}-{deal}", f"{variant} {deal}")
    name, options = WITH_OPTIONS.get(variant, (variant, ()))
    reply = await bench.service.new_game(actor, name, deal=deal, options=options, confirm=True)
    assert reply.game is not None, reply.message
    hinted = await bench.hint(actor, figures["deal"])
    assert hinted.kind is ReplyKind.HINT, hinted.message
    bench.floor(reply.game, figures["deal"], hinted.suggestion)
    rng = random.Random(deal)
    for _ in range(moves):
        token = next_move(reply, rng)
        if token is None:
            break
        played = await bench.service.play(actor, token)
        if played.kind is ReplyKind.ERROR or played.game is None or not played.moves:
            break
        reply = played
    hinted = await bench.hint(actor, figures["later"])
    if hinted.kind is not ReplyKind.HINT or reply.game is None:
        figures["later"].service.pop()
        figures["later"].worker.pop()
        return
    bench.floor(reply.game, figures["later"], hinted.suggestion)
    again = await bench.hint(actor, figures["again"])
    figures["again"].floor.append(0.0)
    if again.suggestion != hinted.suggestion:
        figures["again"].differing += 1
    if hinted.suggestion is None:
        return
    played = await bench.service.play(actor, hinted.suggestion)
    if played.kind is ReplyKind.ERROR or played.game is None or not played.moves:
        return
    following = await bench.hint(actor, figures["next"])
    if following.kind is not ReplyKind.HINT:
        figures["next"].service.pop()
        figures["next"].worker.pop()
        return
    bench.floor(played.game, figures["next"], following.suggestion)


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.2f}" if values else "—"


def ratio(mine: list[float], floor: list[float]) -> str:
    if not mine or not floor or statistics.median(floor) <= 0:
        return "—"
    return f"{statistics.median(mine) / statistics.median(floor):.2f}×"


async def run(args: argparse.Namespace) -> dict[str, dict[str, Figures]]:
    results = {variant: {stage: Figures() for stage in STAGES} for variant in args.variants}
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite+aiosqlite:///{Path(folder) / 'hints.db'}")
        await ensure_schema(db)
        service = GameService(db, hint_workers=1)
        try:
            await service.warm_up(30.0)
            executor = service.advice.thinker._executor
            assert isinstance(executor, ProcessPoolExecutor)
            (pid,) = executor._processes
            bench = Bench(service, process_clock(pid), args.profile)
            # A first deal and hint of each variant, unmeasured: the first use of every path.
            for variant in args.variants:
                await one_deal(bench, variant, 10_000, args.moves,
                               {stage: Figures() for stage in STAGES})
            # Interleaved: each deal of every variant in turn, so a changing load falls on all alike.
            for deal in args.deals:
                for variant in args.variants:
                    await one_deal(bench, variant, deal, args.moves, results[variant])
        finally:
            service.close()
            await db.dispose()
    if bench.profiler is not None:
        out = io.StringIO()
        pstats.Stats(bench.profiler, stream=out).sort_stats(args.sort).print_stats(args.top)
        print(out.getvalue())
    return results


def table(results: dict[str, dict[str, Figures]]) -> None:
    """Each variant's and stage's medians, and all variants' together."""
    print("| variant | stage | hints | service ms | worker ms | hint ms (both) | bare search ms | "
          "hint ÷ search | moves not the search's |")
    print("|---|---|---|---|---|---|---|---|---|")
    everything: dict[str, list[float]] = {stage: [] for stage in STAGES}
    floors: dict[str, list[float]] = {stage: [] for stage in STAGES}
    for variant, stages in results.items():
        for stage, figures in stages.items():
            total = figures.total()
            everything[stage] += total
            floors[stage] += figures.floor
            print(f"| {variant} | {stage} | {len(total)} | {ms(figures.service)} | {ms(figures.worker)} | "
                  f"{ms(total)} | {ms(figures.floor)} | {ratio(total, figures.floor)} | {figures.differing} |")
    for stage in STAGES:
        print(f"| all | {stage} | {len(everything[stage])} | | | {ms(everything[stage])} | {ms(floors[stage])} | "
              f"{ratio(everything[stage], floors[stage])} | |")


def child(args: argparse.Namespace, checkout: Path, first: int) -> dict[str, dict[str, Figures]]:
    """One round of this benchmark in a fresh process, with the gatebot of ``checkout``, read back as figures."""
    command = [sys.executable, __file__, "--json", "--first", str(first), "--deals", str(args.deals),
               "--moves", str(args.moves), "--variants", *args.variants]
    env = {**os.environ, "PYTHONPATH": str(checkout), CHECKOUT: str(checkout)}
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    raw = json.loads(done.stdout)
    return {variant: {stage: Figures(**figures) for stage, figures in stages.items()}
            for variant, stages in raw.items()}


def against(args: argparse.Namespace) -> None:
    """``--rounds`` rounds, each checkout in turn on the same deals, pooled; each one's table, then side by side."""
    checkouts = {"now": HERE, **{Path(folder).name: Path(folder).resolve() for folder in args.against}}
    pooled = {name: {variant: {stage: Figures() for stage in STAGES} for variant in args.variants}
              for name in checkouts}
    for round_ in range(args.rounds):
        first = args.first + round_ * args.deals
        for name, checkout in (checkouts.items() if round_ % 2 == 0 else reversed(checkouts.items())):
            for variant, stages in child(args, checkout, first).items():
                for stage, figures in stages.items():
                    into = pooled[name][variant][stage]
                    into.service += figures.service
                    into.worker += figures.worker
                    into.floor += figures.floor
                    into.differing += figures.differing
            print(f"  round {round_ + 1}: {name} done", file=sys.stderr)
    for name, results in pooled.items():
        print(f"\n{name} ({checkouts[name]}):")
        table(results)
    names = list(checkouts)
    print("\nhint ms (service and worker, median) side by side, and each against now:")
    print("| variant | stage | " + " | ".join(names) + " | " + " | ".join(f"{name} ÷ now" for name in names[1:]) + " |")
    print("|---|---|" + "---|" * (2 * len(names) - 1))
    for variant in args.variants:
        for stage in STAGES:
            totals = [pooled[name][variant][stage].total() for name in names]
            print(f"| {variant} | {stage} | " + " | ".join(ms(total) for total in totals) + " | "
                  + " | ".join(ratio(total, totals[0]) for total in totals[1:]) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=[*VARIANTS, *WITH_OPTIONS])
    parser.add_argument("--deals", type=int, default=15, help="deals of each variant in a round")
    parser.add_argument("--first", type=int, default=1, help="the first deal number")
    parser.add_argument("--moves", type=int, default=5, help="moves played before the later hint")
    parser.add_argument("--profile", choices=("service", "worker"))
    parser.add_argument("--sort", default="tottime", help="the profile's order (pstats keys)")
    parser.add_argument("--top", type=int, default=25, help="profile entries shown")
    parser.add_argument("--against", action="append", default=[], metavar="DIR",
                        help="another checkout measured in turns with this one, each round in a fresh process")
    parser.add_argument("--rounds", type=int, default=1, help="rounds with --against (the next deals each round)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.against:
        against(args)
        return
    args.deals = range(args.first, args.first + args.deals)
    started = time.perf_counter()
    results = asyncio.run(run(args))
    if args.json:
        print(json.dumps({variant: {stage: dataclasses.asdict(figures) for stage, figures in stages.items()}
                          for variant, stages in results.items()}))
        return
    print(f"deals {args.deals.start}-{args.deals.stop - 1} of each variant, a hint at the deal and after "
          f"{args.moves} moves, then that hint again; {time.perf_counter() - started:.0f} s")
    table(results)


if __name__ == "__main__":
    main()
