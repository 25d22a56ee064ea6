"""How many Canfield deals the thoughtful solver wins, next to Blake & Gent's published rates.

Blake & Gent (Solvitaire, "The Winnability of Klondike and Many Other Patience Games") give
thoughtful Canfield at 67.562 ± 0.034% winnable with whole-pile moves and spaces filled from
the reserve, then the waste ("canfield-strict"), and at 71.245 ± 0.031% with partial pile
moves and spaces that, once the reserve is out, take any card ("canfield"). This solves the
deals ``--deals`` under the matching rules — gatebot's Canfield (three at a time, unlimited
passes), with ``--partial`` its ``partial-moves`` option plus Solvitaire's spaces — with a
node budget per deal (so the figure doesn't depend on how busy the machine is), in
``--jobs`` processes, and prints the rate with its 95% Wilson interval, undecided deals
counted both ways. ``--blocked RANK`` keeps one rank's cards off the tableau (12: no King on
an Ace; ``base``: the foundations' last rank, the one below the base) — Solvitaire's code
(``is_next_legal_card``) never builds the last rank, so ``--blocked base`` plays its rules
exactly, where gatebot's Canfield builds every rank ("an Ace takes a King"). ``--csv`` keeps a
row per deal.

    .venv/bin/python benchmarks/canfield_winnability.py --deals 1-2000 --nodes 50000 --jobs 2
    .venv/bin/python benchmarks/canfield_winnability.py --deals 1-2000 --nodes 50000 --jobs 2 --blocked base
    .venv/bin/python benchmarks/canfield_winnability.py --deals 1-2000 --nodes 20000 --jobs 2 --partial --blocked base

``--settle CSV`` takes the verdicts of an earlier run's ``--csv`` and searches again, with
``--nodes``, only the deals it left undecided, so a bigger budget is spent where it is needed:

    .venv/bin/python benchmarks/canfield_winnability.py --deals 1-2000 --nodes 2000000 --blocked base --csv first.csv
    .venv/bin/python benchmarks/canfield_winnability.py --deals 1-2000 --nodes 20000000 --blocked base \
        --settle first.csv --csv settled.csv
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace

from gatebot.analyse import format_deals, parse_deals, wilson_interval
from gatebot.rules import Game
from gatebot.rules.canfield import CanfieldGame
from gatebot.solver import Verdict
from gatebot.solver.canfield.search import RANKS, position_of, solve

PUBLISHED = {False: (67.562, 0.034), True: (71.245, 0.031)}


def decide(job: tuple[int, bool, int, str]) -> tuple[int, str, int, float]:
    deal, partial, nodes, blocked = job
    game = Game.new("canfield", deal=deal, options=("partial-moves",) if partial else ())
    assert isinstance(game, CanfieldGame)
    start = replace(position_of(game), any_space=partial)
    if blocked == "base":
        start = replace(start, blocked=(start.base - 1) % RANKS)
    elif blocked:
        start = replace(start, blocked=int(blocked))
    result = solve(start, max_seconds=3600.0, max_nodes=nodes)
    return deal, result.verdict.value, result.nodes, result.seconds


def settled_rows(path: str, deals: Sequence[int]) -> dict[int, tuple[int, str, int, float]]:
    """The decided rows among ``deals`` of a CSV this script wrote (``--csv``); every deal must be in it."""
    with open(path, newline="") as source:
        rows = {int(row["deal"]): (int(row["deal"]), row["verdict"], int(row["nodes"]), float(row["seconds"]))
                for row in csv.DictReader(source)}
    missing = [deal for deal in deals if deal not in rows]
    if missing:
        raise SystemExit(f"{path} has no row for deals {format_deals(missing)}")
    return {deal: rows[deal] for deal in deals if rows[deal][1] != Verdict.UNRESOLVED.value}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-200")
    parser.add_argument("--nodes", type=int, default=15_000, help="search budget per deal")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--partial", action="store_true", help="partial moves and any card to a space (71.245%%)")
    parser.add_argument("--blocked", default="", help="a rank (0-12) or 'base': never built on the tableau")
    parser.add_argument("--csv", help="write deal,verdict,nodes,seconds rows here")
    parser.add_argument("--settle", metavar="CSV",
                        help="keep this earlier --csv's verdicts; search only its undecided deals")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    began = time.perf_counter()
    earlier = settled_rows(args.settle, deals) if args.settle else {}
    jobs = [(deal, args.partial, args.nodes, args.blocked) for deal in deals if deal not in earlier]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = sorted([*earlier.values(), *pool.imap_unordered(decide, jobs, chunksize=1 if earlier else 4)])
    if args.settle:
        print(f"{len(earlier)} of {len(deals)} deals decided in {args.settle}; {len(jobs)} searched again")
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["deal", "verdict", "nodes", "seconds"])
            writer.writerows((deal, verdict, nodes, f"{seconds:.3f}") for deal, verdict, nodes, seconds in rows)
    counts = {verdict.value: sum(row[1] == verdict.value for row in rows) for verdict in Verdict}
    won, lost, open_ = counts["winnable"], counts["lost"], counts["unresolved"]
    low, _ = wilson_interval(won, len(rows))
    _, high = wilson_interval(won + open_, len(rows))
    decided = [row[3] for row in rows if row[1] != "unresolved"]
    rate, margin = PUBLISHED[args.partial]
    rules = "partial moves, any card to a space" if args.partial else "whole piles, spaces from the waste"
    blocked = {"": "", "base": ", the foundations' last rank never built on the tableau"}.get(
        args.blocked, f", rank {args.blocked} never built on the tableau"
    )
    print(f"Canfield ({rules}{blocked}), deals {format_deals(deals)}, {args.nodes} nodes each")
    print(f"  winnable {won}, lost {lost}, undecided {open_} of {len(rows)}")
    print(f"  winnable: {100 * low:.1f}%–{100 * high:.1f}% (95% Wilson, undecided counted both ways)")
    if won + lost:
        d_low, d_high = wilson_interval(won, won + lost)
        print(f"  of the decided deals: {100 * won / (won + lost):.1f}% ({100 * d_low:.1f}%–{100 * d_high:.1f}%)")
    print(f"  published (Blake & Gent): {rate}% ± {margin}%")
    if decided:
        print(f"  decided in a median {statistics.median(decided):.2f} s")
    print(f"  {time.perf_counter() - began:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
