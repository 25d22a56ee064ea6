"""Gate and Little Gate verdicts within a node budget, and a check of new verdicts against old ones.

A node budget (not a time budget) makes the verdicts repeatable, so two checkouts of the
solver can be compared deal by deal: ``--write FILE`` records, one line per deal,
``variant deal verdict nodes``; ``--against FILE`` solves the same deals and reports every
deal where a verdict contradicts the file's (winnable against lost: a pruning rule that threw
away a win, or a search that found a win that isn't there), how many deals each decided, and
the median ratio of nodes over the deals both decided. Run it from the repository root of the
checkout to measure (or with that checkout first on ``PYTHONPATH`` from elsewhere):

    .venv/bin/python benchmarks/gate_verdicts.py --variant little-gate --deals 1-200 --nodes 150000 --write old.txt
    .venv/bin/python benchmarks/gate_verdicts.py --variant little-gate --deals 1-200 --nodes 150000 --against old.txt
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from gatebot.analyse import analyse, parse_deals


def read_verdicts(path: Path) -> dict[tuple[str, int], tuple[str, int]]:
    """``(variant, deal) -> (verdict, nodes)`` from a file ``--write`` made (``#`` lines are comments)."""
    rows: dict[tuple[str, int], tuple[str, int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        variant, deal, verdict, nodes = line.split()
        rows[variant, int(deal)] = verdict, int(nodes)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="little-gate", choices=["gate", "little-gate"])
    parser.add_argument("--deals", default="1-200")
    parser.add_argument("--nodes", type=int, default=150_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", type=Path, help="append this run's verdicts to FILE")
    parser.add_argument("--against", type=Path, help="compare this run's verdicts with FILE's")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    rows = sorted(analyse(args.variant, deals, jobs=args.jobs, max_nodes=args.nodes, max_seconds=1e9),
                  key=lambda row: row.deal)
    if args.write:
        with args.write.open("a", encoding="utf-8") as file:
            for row in rows:
                file.write(f"{args.variant} {row.deal} {row.verdict.value} {row.nodes}\n")
    decided = sum(row.verdict.value != "unresolved" for row in rows)
    print(f"{args.variant} deals {args.deals}, {args.nodes:,} nodes: {decided} of {len(rows)} decided, "
          f"{sum(row.verdict.value == 'winnable' for row in rows)} winnable, "
          f"{sum(row.seconds for row in rows):.1f} s of search")
    if not args.against:
        return 0
    old = read_verdicts(args.against)
    contradictions = []
    ratios = []
    old_decided = 0
    for row in rows:
        if (args.variant, row.deal) not in old:
            continue
        verdict, nodes = old[args.variant, row.deal]
        old_decided += verdict != "unresolved"
        new = row.verdict.value
        if "unresolved" in (verdict, new):
            continue
        if verdict != new:
            contradictions.append(f"deal {row.deal}: {verdict} before, {new} now")
        ratios.append(row.nodes / max(nodes, 1))
    print(f"decided before: {old_decided}; now: {decided}")
    if ratios:
        print(f"nodes now / before, median over the {len(ratios)} deals both decided: "
              f"{statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})")
    for line in contradictions:
        print("CONTRADICTION", line)
    return 1 if contradictions else 0


if __name__ == "__main__":
    sys.exit(main())
