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
"""

from __future__ import annotations

import argparse
import os
import platform
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

REPO = Path(__file__).resolve().parents[1]


def run_variant(variant: str, options: tuple[str, ...], deals: tuple[int, ...], args: argparse.Namespace,
                out: Path) -> tuple[Summary, Path]:
    """Solve ``deals`` of ``variant``, write the CSV, return the summary and where the CSV went."""
    progress = Progress(len(deals), sys.stderr)
    sys.stderr.write(f"{' '.join((variant, *options))}: deals {format_deals(deals)}\n")
    rows: list[DealResult] = []
    for row in analyse(variant, deals, options=options, jobs=args.jobs,
                       max_nodes=args.nodes, max_seconds=args.seconds):
        rows.append(row)
        progress.update(row)
    progress.finish()
    path = out / ("-".join((variant, *options)) + ".csv")
    with path.open("w", encoding="utf-8", newline="") as file:
        write_csv(rows, file)
    return summarise(rows), path


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
    args = parser.parse_args()
    try:
        deals = parse_deals(args.deals)
    except ValueError as error:
        parser.error(str(error))
    args.out.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    rows = []
    for variant in args.variants:
        options = find_variant(variant).check_options(args.option)
        summary, path = run_variant(variant, options, deals, args, args.out)
        title = find_variant(variant).title + (f" ({', '.join(options)})" if options else "")
        rows.append(table_row(title, deals, summary))
        sys.stderr.write(f"wrote {path}\n")

    print(f"{platform.python_implementation()} {platform.python_version()}, {args.jobs} worker processes "
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
