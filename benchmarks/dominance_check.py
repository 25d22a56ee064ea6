"""Check each of the solver's pruning rules: with and without it, the verdicts must agree.

For every rule in :class:`gatebot.solver.Dominances`, each position is solved twice — all
rules on, and all rules on but that one — and the two verdicts are compared wherever both
runs decided. A winning verdict is replayed through the rules engine, so a disagreement can
only mean the rule threw away the last way to win. Positions: the opening deals of each
variant, and end games with the stock out reached by seeded random play (small searches
where a wrong "lost" would show quickly).

    .venv/bin/python benchmarks/dominance_check.py --deals 1-100 --endgames 300
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gatebot.rules import Game, GateGame
from gatebot.solver import DEFAULT_DOMINANCES, Dominances, Verdict, solve

RULES = [field.name for field in dataclasses.fields(Dominances)]


def endgame(variant: str, seed: int) -> str:
    """A position with the stock out, reached by random play that favours building."""
    rng = random.Random(seed)
    game = Game.new(variant, deal=seed)
    assert isinstance(game, GateGame)
    while game.stock_count and not game.is_over:
        moves = game.legal_moves()
        non_draws = [m for m in moves if not m.is_draw]
        if non_draws and rng.random() < 0.6:
            game.push(rng.choice(non_draws))
        else:
            game.push(next(m for m in moves if m.is_draw) if game.stock_count else rng.choice(moves))
    return game.to_text()


def judge(job: tuple[str, str, int, float]) -> tuple[str, dict[str, tuple[str, str]]]:
    """Solve one position with every rule on, then with each rule off in turn."""
    label, text, nodes, seconds = job
    game = Game.from_text(text)
    assert isinstance(game, GateGame)
    full = solve(game, max_nodes=nodes, max_seconds=seconds).verdict.value
    results = {}
    for rule in RULES:
        without = dataclasses.replace(DEFAULT_DOMINANCES, **{rule: False})
        verdict = solve(game, max_nodes=nodes, max_seconds=seconds, dominances=without).verdict.value
        results[rule] = (full, verdict)
    return label, results


def parse_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-60"))
    parser.add_argument("--endgames", type=int, default=200, help="random end games per variant")
    parser.add_argument("--nodes", type=int, default=300_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    jobs = []
    for variant in ("gate", "little-gate"):
        for deal in args.deals:
            jobs.append((f"{variant} deal {deal}", Game.new(variant, deal=deal).to_text(), args.nodes, args.seconds))
        for seed in range(1, args.endgames + 1):
            jobs.append((f"{variant} end game {seed}", endgame(variant, seed), args.nodes, args.seconds))
    started = time.perf_counter()
    compared = dict.fromkeys(RULES, 0)
    agreed = dict.fromkeys(RULES, 0)
    verdicts = dict.fromkeys(RULES, 0)
    disagreements = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for label, results in pool.map(judge, jobs, chunksize=4):
            for rule, (full, without) in results.items():
                if Verdict.UNRESOLVED.value in (full, without):
                    continue
                compared[rule] += 1
                verdicts[rule] += full == Verdict.LOST.value
                if full == without:
                    agreed[rule] += 1
                else:
                    disagreements.append(f"{label}: {rule} on says {full}, off says {without}")
    print(f"{len(jobs)} positions, {time.perf_counter() - started:.0f} s\n")
    print("| rule | positions decided both ways | of them lost | verdicts agree |")
    print("|---|---|---|---|")
    for rule in RULES:
        print(f"| `{rule}` | {compared[rule]} | {verdicts[rule]} | {agreed[rule]} of {compared[rule]} |")
    for line in disagreements:
        print("DISAGREE", line)


if __name__ == "__main__":
    main()
