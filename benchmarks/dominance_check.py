"""Check each of the solver's pruning rules: with and without it, the verdicts must agree.

For every rule in :class:`gatebot.solver.gate.search.Dominances`, each position is solved twice — all
rules on, and all rules on but that one — and the two verdicts are compared wherever both
runs decided; last, all rules on against none at all (which also catches a mistake the
rules share, such as what counts as a safe card). A winning verdict is replayed through
the rules engine, so a disagreement can only mean a rule threw away the last way to win.
Positions: the opening deals of each variant, with and without the single-moves option,
and end games with the stock out reached by seeded random play (small searches where a
wrong "lost" would show quickly).

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

from gatebot.analyse import parse_deals
from gatebot.rules import Game, GateGame
from gatebot.solver.gate.search import DEFAULT_DOMINANCES, NO_DOMINANCES, Dominances
from gatebot.solver.gate.solve import solve
from gatebot.solver.results import Verdict

RULES = [field.name for field in dataclasses.fields(Dominances)]
ALL = "all of them"
OPTIONS = ((), ("single-moves",))


def endgame(variant: str, seed: int, options: tuple[str, ...]) -> str:
    """A position with the stock out, reached by random play that favours building."""
    rng = random.Random(seed)
    game = Game.new(variant, deal=seed, options=options)
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
    bare = solve(game, max_nodes=nodes, max_seconds=seconds, dominances=NO_DOMINANCES).verdict.value
    results[ALL] = (full, bare)
    return label, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("1-60"), help="like gatebot analyse: 1-20")
    parser.add_argument("--endgames", type=int, default=200, help="random end games per variant")
    parser.add_argument("--nodes", type=int, default=300_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    jobs = []
    for variant in ("gate", "little-gate"):
        for options in OPTIONS:
            name = " ".join((variant, *options))
            for deal in args.deals:
                text = Game.new(variant, deal=deal, options=options).to_text()
                jobs.append((f"{name} deal {deal}", text, args.nodes, args.seconds))
            for seed in range(1, args.endgames + 1):
                jobs.append((f"{name} end game {seed}", endgame(variant, seed, options), args.nodes, args.seconds))
    started = time.perf_counter()
    rows = [*RULES, ALL]
    compared = dict.fromkeys(rows, 0)
    agreed = dict.fromkeys(rows, 0)
    verdicts = dict.fromkeys(rows, 0)
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
    for rule in rows:
        name = rule if rule == ALL else f"`{rule}`"
        print(f"| {name} | {compared[rule]} | {verdicts[rule]} | {agreed[rule]} of {compared[rule]} |")
    for line in disagreements:
        print("DISAGREE", line)


if __name__ == "__main__":
    main()
