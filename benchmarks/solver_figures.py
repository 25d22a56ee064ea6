"""Solver figures: the share of deals the solver decides within a time budget, the winnable share, and its speed.

For each variant, every deal of the range is solved in parallel processes (``gatebot.analyse``,
as ``gatebot analyse`` does), one row per deal is written to ``OUT/<variant>.csv``, and the
figures are printed as a markdown table ready for the README: the share decided within the
budget, the winnable share of the decided deals with its 95% Wilson interval over all deals
(the unresolved counted as lost for the lower bound and as winnable for the upper), the
median and 95th-percentile time per deal, nodes per second per process and the largest
peak memory of a worker. Progress goes to stderr. Run from the repository root; the
defaults (two variants, 1000 deals, 10 s each) can take hours of CPU, so try a small range
first:

    .venv/bin/python benchmarks/solver_figures.py --deals 1-20 --seconds 2 --out /tmp/figures
    .venv/bin/python benchmarks/solver_figures.py

The solvers search with their compiled cores where those are built; ``--python`` makes them search
in Python, the reference, and ``--compare`` runs every variant both ways, one row each, and then
the cost of a position compiled against Python, deal by deal: the two searches visit the same
positions (the same node count, which is checked), so the ratio of their times is the ratio of
their costs per position. The switch reaches the worker processes because they are forked (Linux).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from gatebot.analyse import (
    DealResult,
    Progress,
    Summary,
    analyse,
    format_deals,
    format_memory,
    format_seconds,
    format_share,
    parse_deals,
    summarise,
    write_csv,
)
from gatebot.rules import GateGame, find_variant, variant_names
from gatebot.solver import DEFAULT_NODES
from gatebot.solver.archway import search as archway_search
from gatebot.solver.canfield import search as canfield_search
from gatebot.solver.gate import search as gate_search

REPO = Path(__file__).resolve().parents[1]


def use_compiled(compiled: bool) -> None:
    """Let the solvers search with their compiled cores (where built), or make them search in Python."""
    gate_search.COMPILED = compiled and gate_search.NOT_COMPILED is None
    canfield_search.COMPILED = compiled and canfield_search.NOT_COMPILED is None
    archway_search.COMPILED = compiled and archway_search.NOT_COMPILED is None


def run_variant(variant: str, options: tuple[str, ...], deals: tuple[int, ...], args: argparse.Namespace,
                out: Path, suffix: str = "") -> tuple[Summary, Path, list[DealResult]]:
    """Solve ``deals`` of ``variant``, write the CSV, return the summary, where the CSV went and the rows."""
    sys.stderr.write(f"{' '.join((variant, *options))}{suffix}: deals {format_deals(deals)}\n")
    progress = Progress(len(deals), sys.stderr)
    rows: list[DealResult] = []
    for row in analyse(variant, deals, options=options, jobs=args.jobs,
                       max_nodes=args.nodes, max_seconds=args.seconds):
        rows.append(row)
        progress.update(row)
    progress.finish()
    path = out / ("-".join((variant, *options)) + suffix.replace(" ", "-") + ".csv")
    with path.open("w", encoding="utf-8", newline="") as file:
        write_csv(rows, file)
    return summarise(rows), path, rows


def cost_row(title: str, compiled: list[DealResult], python: list[DealResult]) -> str:
    """Python's time over the compiled search's for each deal both searched to the same node count."""
    by_deal = {row.deal: row for row in python}
    ratios, compiled_us, python_us, differ = [], [], [], 0
    for row in compiled:
        other = by_deal[row.deal]
        if other.nodes != row.nodes or other.verdict is not row.verdict:
            differ += 1
            continue
        if row.nodes >= 1_000 and row.seconds > 0:  # fewer, and the start-up of a search is all one sees
            ratios.append(other.seconds / row.seconds)
            compiled_us.append(row.seconds / row.nodes * 1e6)
            python_us.append(other.seconds / other.nodes * 1e6)
    if not ratios:
        return f"| {title} | — | — | — | — | {differ} |"
    return (f"| {title} | {len(ratios)} | {statistics.median(ratios):.0f}x ({min(ratios):.0f}x–{max(ratios):.0f}x) "
            f"| {statistics.median(compiled_us):.2f} µs | {statistics.median(python_us):.1f} µs | {differ} |")


def table_row(title: str, deals: tuple[int, ...], summary: Summary) -> str:
    winnable = "—" if summary.winnable_share is None else format_share(summary.winnable_share)
    interval = f"{format_share(summary.winnable_low)}–{format_share(summary.winnable_high)}"
    cells = [
        title,
        format_deals(deals).replace("-", "–"),
        f"{format_share(summary.decided_share)} ({summary.decided:,} of {summary.deals:,})",
        f"{winnable} ({interval})",
        format_seconds(summary.median_seconds),
        format_seconds(summary.p95_seconds),
        f"{summary.nodes_per_second:,.0f}",
        format_memory(summary.peak_kib),
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["gate", "little-gate"], choices=variant_names())
    parser.add_argument("--option", action="append", default=[], choices=GateGame.known_options,
                        help="a rule option for every variant; repeat for more")
    parser.add_argument("--deals", default="1-1000", help="like gatebot analyse: 1-1000, 5, 1-10,20,30-40")
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per deal")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="node budget per deal")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results",
                        help="folder for the CSV files (created if missing)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--python", action="store_true", help="search in Python even where a compiled core is built")
    how.add_argument("--compare", action="store_true",
                     help="run each variant compiled and in Python, and compare the cost of a position")
    args = parser.parse_args()
    try:
        deals = parse_deals(args.deals)
    except ValueError as error:
        parser.error(str(error))
    args.out.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    rows = []
    costs = []
    runs = [(True, " compiled"), (False, " Python")] if args.compare else [(not args.python, "")]
    for variant in args.variants:
        options = find_variant(variant).check_options(args.option)
        title = find_variant(variant).title + (f" ({', '.join(options)})" if options else "")
        found = []
        for compiled, suffix in runs:
            use_compiled(compiled)
            summary, path, deal_rows = run_variant(variant, options, deals, args, args.out, suffix)
            rows.append(table_row(title + suffix, deals, summary))
            found.append(deal_rows)
            sys.stderr.write(f"wrote {path}\n")
        if args.compare:
            costs.append(cost_row(title, found[0], found[1]))

    searched = "compiled and Python searches" if args.compare else "Python search" if args.python else (
        "compiled search where built")
    print(f"{platform.python_implementation()} {platform.python_version()}, {searched}, {args.jobs} worker processes "
          f"on {os.cpu_count()} CPUs; at most {args.seconds:g} s and {args.nodes:,} nodes per deal; "
          f"{time.perf_counter() - started:.0f} s in all.")
    print()
    print(f"| variant | deals | decided within {args.seconds:g} s | winnable (95% interval) "
          "| median time | p95 time | nodes/s | peak memory |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    print()
    print("Winnable: the share of the decided deals; the 95% Wilson interval is over all deals, with the "
          "unresolved ones counted as lost for its lower bound and as winnable for its upper. nodes/s is "
          "per process (total nodes over total search time); peak memory is the largest worker's.")
    if costs:
        print()
        print("| variant | deals compared | Python's time over compiled, median (min–max) "
              "| compiled per position, median | Python per position, median | deals that differ |")
        print("|---|---|---|---|---|---|")
        for row in costs:
            print(row)
        print()
        print("Compared: the deals both searches searched to the same node count with the same verdict, 1,000 "
              "nodes or more; a deal that differs in either would be a bug in the compiled search.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
