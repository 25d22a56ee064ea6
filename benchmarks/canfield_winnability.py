"""How many Canfield deals the thoughtful solver wins, next to Blake & Gent's published rates.

Blake & Gent (Solvitaire, "The Winnability of Klondike and Many Other Patience Games") give
thoughtful Canfield with whole-pile moves and the waste fill at 67.562 ± 0.034% winnable and
with partial moves at 71.245 ± 0.031%. This solves deals ``--deals`` under gatebot's rules
(three at a time, unlimited passes; ``--partial`` for partial moves) with ``--seconds`` each,
in ``--jobs`` processes, and prints the rate with its 95% Wilson interval, undecided deals
counted both ways:

    .venv/bin/python benchmarks/canfield_winnability.py --deals 1-200 --seconds 5 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time

from gatebot.analyse import format_deals, parse_deals, wilson_interval
from gatebot.rules import Game
from gatebot.solver.canfield import Verdict, position_of, solve

PUBLISHED = {False: (67.562, 0.034), True: (71.245, 0.031)}


def decide(job: tuple[int, bool, float]) -> tuple[int, str, int, float]:
    deal, partial, seconds = job
    game = Game.new("canfield", deal=deal, options=("partial-moves",) if partial else ())
    result = solve(position_of(game), max_seconds=seconds, max_nodes=10**9)  # type: ignore[arg-type]
    return deal, result.verdict.value, result.nodes, result.seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-200")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--partial", action="store_true", help="partial moves (the published 71.245%)")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    began = time.perf_counter()
    jobs = [(deal, args.partial, args.seconds) for deal in deals]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = sorted(pool.imap_unordered(decide, jobs))
    counts = {verdict.value: sum(row[1] == verdict.value for row in rows) for verdict in Verdict}
    won, lost, open_ = counts["winnable"], counts["lost"], counts["unresolved"]
    low, _ = wilson_interval(won, len(rows))
    _, high = wilson_interval(won + open_, len(rows))
    decided = [row[3] for row in rows if row[1] != "unresolved"]
    rate, margin = PUBLISHED[args.partial]
    print(f"Canfield{' partial-moves' if args.partial else ''}, deals {format_deals(deals)}, {args.seconds} s each")
    print(f"  winnable {won}, lost {lost}, undecided {open_} of {len(rows)}")
    print(f"  winnable: {100 * low:.1f}%–{100 * high:.1f}% (95% Wilson, undecided counted both ways)")
    print(f"  published (Blake & Gent): {rate}% ± {margin}%")
    if decided:
        print(f"  decided in a median {statistics.median(decided):.2f} s")
    print(f"  {time.perf_counter() - began:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
