"""How many Canfield deals the solver decides within a time budget, and how fast it searches.

Solves gatebot's Canfield (three at a time, unlimited passes) deals ``--deals`` with
``--seconds`` (and at most ``--nodes``) a deal, and prints how many were won, proved lost and
left undecided, the median time of a decided deal and the positions searched per second over
all deals. ``--compare REF`` also runs the solver of another checkout (a directory holding a
``gatebot`` package, such as a worktree of an older commit) in the same run: each deal is
solved by one, then the other, in two worker processes one at a time, so both see the same
machine load and their figures can be read as ratios even on a busy machine. ``--csv`` keeps a
row per deal and solver.

    .venv/bin/python benchmarks/canfield_decided.py --deals 1-200 --seconds 5
    git worktree add --detach /tmp/canfield-ref main
    .venv/bin/python benchmarks/canfield_decided.py --deals 1-200 --seconds 5 --compare /tmp/canfield-ref
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Row:
    """One deal's result from one solver."""

    solver: str
    deal: int
    verdict: str
    nodes: int
    seconds: float


def work() -> int:
    """The worker: reads ``deal seconds nodes`` lines, answers each with a JSON line.

    It imports ``gatebot`` from the checkout its parent put first on ``PYTHONPATH``, and names
    the file it uses so a run can't silently compare a solver with itself, and whether its search is
    the compiled one (a checkout from before the compiled core has none).
    """
    from gatebot.rules import Game
    from gatebot.rules.canfield import CanfieldGame
    from gatebot.solver.canfield import search

    print(json.dumps({"file": search.__file__, "compiled": getattr(search, "COMPILED", False)}), flush=True)
    for line in sys.stdin:
        deal, seconds, nodes = line.split()
        game = Game.new("canfield", deal=int(deal))
        assert isinstance(game, CanfieldGame)
        result = search.solve(search.position_of(game), max_seconds=float(seconds), max_nodes=int(nodes))
        answer = {"verdict": result.verdict.value, "nodes": result.nodes, "seconds": result.seconds}
        print(json.dumps(answer), flush=True)
    return 0


class Worker:
    """A worker process solving with the ``gatebot`` of ``checkout``.

    ``script`` is the benchmark whose ``--worker`` mode answers (this one unless another
    benchmark brings a worker of its own); it speaks a JSON line per request line.
    """

    def __init__(self, name: str, checkout: Path, script: Path | None = None) -> None:
        self.name = name
        environment = dict(os.environ, PYTHONPATH=str(checkout))
        self.process = subprocess.Popen(
            [sys.executable, str(script or Path(__file__).resolve()), "--worker"], cwd=checkout, env=environment,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        said = json.loads(self._read())
        self.file, self.compiled = said["file"], said["compiled"]

    def _read(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"The {self.name} solver's worker stopped")
        return line

    def ask(self, request: str) -> dict[str, Any]:
        """Send one request line and return the worker's JSON answer."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{request}\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self._read())
        return answer

    def solve(self, deal: int, seconds: float, nodes: int) -> Row:
        answer = self.ask(f"{deal} {seconds} {nodes}")
        return Row(self.name, deal, answer["verdict"], answer["nodes"], answer["seconds"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def write_csv(path: str, rows: dict[str, list[Row]]) -> None:
    """A row per deal and solver, for reading the run again later."""
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["solver", "deal", "verdict", "nodes", "seconds"])
        for found in rows.values():
            writer.writerows((row.solver, row.deal, row.verdict, row.nodes, f"{row.seconds:.4f}") for row in found)


def summary(rows: list[Row]) -> str:
    """Won / lost / undecided, the decided share, the median time of a decided deal and positions/s."""
    won = sum(row.verdict == "winnable" for row in rows)
    lost = sum(row.verdict == "lost" for row in rows)
    undecided = len(rows) - won - lost
    decided = [row.seconds for row in rows if row.verdict != "unresolved"]
    median = f"{statistics.median(decided):.3f} s" if decided else "-"
    speed = sum(row.nodes for row in rows) / max(1e-9, sum(row.seconds for row in rows))
    return (f"won {won}, lost {lost}, undecided {undecided}: {100 * (won + lost) / max(1, len(rows)):.1f}% decided,"
            f" median {median} a decided deal, {speed:,.0f} positions/s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-200", help="deal numbers: 1-200, or 1-10,20")
    parser.add_argument("--seconds", type=float, default=5.0, help="time budget per deal")
    parser.add_argument("--nodes", type=int, default=100_000_000, help="node budget per deal")
    parser.add_argument("--compare", type=Path, help="another checkout whose solver runs alongside")
    parser.add_argument("--csv", type=Path, help="write solver,deal,verdict,nodes,seconds rows here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return work()
    sys.path.insert(0, str(HERE))
    from gatebot.analyse import format_deals, parse_deals

    deals = parse_deals(args.deals)
    workers = [Worker("this", HERE)]
    if args.compare:
        workers.insert(0, Worker("reference", args.compare.resolve()))
        if workers[0].file == workers[1].file:
            raise SystemExit(f"Both solvers are {workers[0].file}")
    for worker in workers:
        print(f"{worker.name}: {worker.file} ({'compiled' if worker.compiled else 'Python'})", file=sys.stderr)
    rows: dict[str, list[Row]] = {worker.name: [] for worker in workers}
    began = time.perf_counter()
    for index, deal in enumerate(deals):
        order = workers if index % 2 == 0 else workers[::-1]  # neither always runs first
        for worker in order:
            row = worker.solve(deal, args.seconds, args.nodes)
            rows[worker.name].append(row)
            print(f"deal {deal} {worker.name}: {row.verdict} {row.nodes} nodes {row.seconds:.3f} s", file=sys.stderr)
    for worker in workers:
        worker.close()
    if args.csv:
        write_csv(args.csv, rows)
    print(f"Canfield deals {format_deals(deals)}, {args.seconds:g} s a deal")
    for name, found in rows.items():
        print(f"  {name}: {summary(found)}")
    if args.compare:
        pairs = zip(rows["reference"], rows["this"], strict=True)
        changed = [(old.deal, old.verdict, new.verdict) for old, new in pairs
                   if "unresolved" not in (old.verdict, new.verdict) and old.verdict != new.verdict]
        print(f"  verdicts that differ between decided deals: {changed or 'none'}")
    print(f"  {time.perf_counter() - began:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
