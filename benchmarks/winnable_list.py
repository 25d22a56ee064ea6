"""Regenerate a shipped list of winnable deals: solve each deal of a range, keep the wins.

    python benchmarks/winnable_list.py gate 1 200
    python benchmarks/winnable_list.py little-gate 1 200 --nodes 50000 --seconds 2
    python benchmarks/winnable_list.py gate 1 1000 --from-csv gate.csv   # from gatebot analyse --csv
    python benchmarks/winnable_list.py canfield 1 2000 --from-csv whole.csv \
        --made-by "benchmarks/canfield_winnability.py --deals 1-2000 --nodes 20000 --jobs 2 --csv whole.csv"

Writes ``gatebot/solver/data/<variant>-winnable.txt`` (or ``--out``): a header saying how
it was made, then one deal number a line. Deals the solver could not decide within the
budget are left out and counted in the header, as are the ones it proved lost.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

from gatebot.rules import Game, variant_names
from gatebot.solver import Verdict, registry
from gatebot.solver.deals import DATA_FOLDER, list_name

DATA = Path(__file__).resolve().parents[1] / "gatebot" / "solver" / DATA_FOLDER


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=variant_names())
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--out", type=Path, help="where to write the list (default: the shipped file)")
    parser.add_argument("--from-csv", type=Path, metavar="CSV",
                        help="take the verdicts from a `gatebot analyse --csv` file (or a benchmark's, which has "
                        "no variant column) instead of solving")
    parser.add_argument("--made-by", metavar="COMMAND", help="the command that wrote the CSV, for the header")
    args = parser.parse_args()

    counts = {verdict: 0 for verdict in Verdict}
    winnable: list[int] = []
    started = time.perf_counter()
    if args.from_csv:
        with args.from_csv.open(newline="", encoding="utf-8") as rows:
            for row in csv.DictReader(rows):
                deal = int(row["deal"])
                variant, options = row.get("variant", args.variant), row.get("options", "")
                if variant != args.variant or options or not args.first <= deal <= args.last:
                    continue
                verdict = Verdict(row["verdict"])
                counts[verdict] += 1
                if verdict is Verdict.WINNABLE:
                    winnable.append(deal)
        how = (
            f"# Verdicts from `{args.made_by}`:" if args.made_by else
            f"# Verdicts from `gatebot analyse --variant {args.variant} --deals {args.first}-{args.last} "
            f"--csv {args.from_csv.name}` (10 s a deal):"
        )
        again = f"--from-csv {args.from_csv.name}" + (f" --made-by '{args.made_by}'" if args.made_by else "")
    else:
        for deal in range(args.first, args.last + 1):
            game = Game.new(args.variant, deal=deal)
            found = registry.solve(game, max_nodes=args.nodes, max_seconds=args.seconds)
            counts[found.verdict] += 1
            if found.verdict is Verdict.WINNABLE:
                winnable.append(deal)
        how = f"# solve(Game.new(variant, deal=d), max_nodes={args.nodes}, max_seconds={args.seconds}):"
        again = f"--nodes {args.nodes} --seconds {args.seconds}"
    seconds = time.perf_counter() - started
    header = [
        f"# Deals {args.first}-{args.last} of {args.variant} (no options) that the solver proved winnable.",
        how,
        f"# {counts[Verdict.WINNABLE]} winnable, {counts[Verdict.LOST]} lost, "
        f"{counts[Verdict.UNRESOLVED]} undecided" + ("." if args.from_csv else f"; {seconds:.0f} s."),
        f"# Regenerate with: python benchmarks/winnable_list.py {args.variant} {args.first} {args.last} {again}",
    ]
    out = args.out or DATA / list_name(args.variant)
    out.write_text("\n".join([*header, *map(str, winnable)]) + "\n", encoding="utf-8")
    print(f"{out}: {len(winnable)} winnable of {args.last - args.first + 1}", file=sys.stderr)
    for line in header:
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
