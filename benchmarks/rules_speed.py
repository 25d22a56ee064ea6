"""Rules-core speed: legal-move generations and play+undo pairs per second on one core.

Positions come from seeded random playouts of deals 1..N of Gate, so they cover the
whole game (opening, middle, free spaces, end). Run:

    python benchmarks/rules_speed.py --deals 1000
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

from gatebot.rules import Game, Move


def collect_positions(variant: str, deals: int, seed: int) -> list[tuple[Game, list[Move]]]:
    """Random playouts: every position visited, with its legal moves, as independent games."""
    rng = random.Random(seed)
    positions: list[tuple[Game, list[Move]]] = []
    for deal in range(1, deals + 1):
        game = Game.new(variant, deal=deal)
        for _ in range(400):
            moves = game.legal_moves()
            if not moves:
                break
            positions.append((game.copy(), moves))
            game.push(rng.choice(moves))
    return positions


def bench_legal_moves(positions: list[tuple[Game, list[Move]]], rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for game, _moves in positions:
            game.legal_moves()
    return rounds * len(positions) / (time.perf_counter() - start)


def bench_play_undo(positions: list[tuple[Game, list[Move]]], rounds: int, checked: bool) -> float:
    """Each legal move of each position played and taken back; ``checked`` uses play() (validates)."""
    pairs = 0
    start = time.perf_counter()
    for _ in range(rounds):
        for game, moves in positions:
            apply = game.play if checked else game.push
            for move in moves:
                apply(move)
                game.undo()
            pairs += len(moves)
    return pairs / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--variant", default="gate")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the goal says
    positions = collect_positions(args.variant, args.deals, args.seed)
    mean_moves = sum(len(m) for _, m in positions) / len(positions)
    print(f"{platform.python_implementation()} {platform.python_version()}, one core, "
          f"{args.variant} deals 1-{args.deals}: {len(positions)} positions, "
          f"{mean_moves:.1f} legal moves each on average")
    print(f"legal_moves() calls/s:      {bench_legal_moves(positions, args.rounds):>10,.0f}")
    print(f"push+undo pairs/s:          {bench_play_undo(positions, args.rounds, False):>10,.0f}")
    print(f"play+undo pairs/s (checked): {bench_play_undo(positions, args.rounds, True):>9,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
