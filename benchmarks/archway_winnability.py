"""How many Archway deals the solver wins with perfect play, next to the commercial claim.

Archway is usually sold as one of the hardest patiences: "about 1 in 100" games come out.
Everything is open, so the solver's verdict is the truth for each deal it decides. This
solves deals ``--deals`` with a node budget ``--nodes`` each (nodes, not seconds, so the
figure doesn't depend on the machine's load; the seconds are printed too), in ``--jobs``
processes, optionally with ``--kit`` (cards may go back to the arch), and prints the rate
with its 95% Wilson interval, undecided deals counted both ways:

    .venv/bin/python benchmarks/archway_winnability.py --deals 1-1000 --nodes 200000 --jobs 1

``--python`` searches in Python (the reference) rather than with the compiled core, for comparing
their speed: the last line gives the nodes searched a second over all deals.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterable, Iterator

from gatebot.analyse import format_deals, parse_deals, wilson_interval
from gatebot.rules import Game
from gatebot.solver.archway.search import solve_position
from gatebot.solver.results import Verdict

CLAIM = "about 1 in 100"


def decide(job: tuple[int, bool, int, bool]) -> tuple[int, str, int, float]:
    deal, kit, nodes, python = job
    game = Game.new("archway", deal=deal, options=("kit",) if kit else ())
    result = solve_position(game, max_nodes=nodes, max_seconds=10.0**9, compiled=not python)
    return deal, result.verdict.value, result.nodes, result.seconds


def _run(jobs: list[tuple[int, bool, int, bool]], processes: int) -> Iterator[tuple[int, str, int, float]]:
    if processes <= 1:
        yield from map(decide, jobs)
        return
    with multiprocessing.Pool(processes) as pool:
        yield from pool.imap_unordered(decide, jobs)


def _deals(rows: Iterable[tuple[int, str, int, float]], verdict: str) -> str:
    chosen = [row[0] for row in rows if row[1] == verdict]
    return format_deals(chosen) if chosen else "none"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-200")
    parser.add_argument("--nodes", type=int, default=200_000, help="search nodes per deal")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--kit", action="store_true", help="the Playing Card Kit's game: cards may go back to the arch")
    parser.add_argument("--python", action="store_true", help="search in Python, not with the compiled core")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    began = time.perf_counter()
    jobs = [(deal, args.kit, args.nodes, args.python) for deal in deals]
    rows = sorted(_run(jobs, args.jobs))
    counts = {verdict.value: sum(row[1] == verdict.value for row in rows) for verdict in Verdict}
    won, lost, open_ = counts["winnable"], counts["lost"], counts["unresolved"]
    low, _ = wilson_interval(won, len(rows))
    _, high = wilson_interval(won + open_, len(rows))
    decided = [row for row in rows if row[1] != "unresolved"]
    print(f"Archway{' kit' if args.kit else ''}, deals {format_deals(deals)}, {args.nodes} nodes each")
    print(f"  winnable {won}, lost {lost}, undecided {open_} of {len(rows)}")
    print(f"  winnable: {100 * low:.1f}%–{100 * high:.1f}% (95% Wilson, undecided counted both ways)")
    print(f"  commercial claim: {CLAIM}")
    print(f"  winnable deals: {_deals(rows, 'winnable')}")
    print(f"  undecided deals: {_deals(rows, 'unresolved')}")
    if decided:
        print(
            f"  decided in a median {statistics.median(row[2] for row in decided):.0f} nodes, "
            f"{statistics.median(row[3] for row in decided):.3f} s (slowest {max(row[3] for row in decided):.1f} s)"
        )
    searched, seconds = sum(row[2] for row in rows), sum(row[3] for row in rows)
    print(f"  {time.perf_counter() - began:.0f} s in all; {searched} nodes in {seconds:.2f} s of search, "
          f"{searched / max(seconds, 1e-9):,.0f} nodes/s ({'Python' if args.python else 'compiled'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
