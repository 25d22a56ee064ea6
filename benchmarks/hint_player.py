"""The hint player: play each deal from the start by always taking the hint.

The game keeps its real stock; every hint is asked of the game through ``hint()``, which
reads only the position as the player sees it (the stock hidden). A game ends when it is
won, when the hint has no move left to suggest, or after a move cap (a guard against
shuttling, reported if it ever triggers). A game the hint proves lost is played on, as the
greedy player plays on: a player still wants the most cards home, and the score counts them.
Each hint is given the positions behind the game as the service gives them, so it leads
forward.

For comparison the same deals are played by a greedy player that never looks ahead: a
foundation play if there is one, else the first move that takes a card off a gatepost or
the waste or uncovers a card, else a draw — the "highest-scoring immediate move" of
PySolFC's default hint. Both players play the same deals in one run, and the comparison is
paired, deal by deal: the mean of the hint player's score minus the greedy player's with its
95% interval, and on how many deals the hints scored more, the same, or less.

    .venv/bin/python benchmarks/hint_player.py --variant gate --deals 1-1000 --jobs 2
    .venv/bin/python benchmarks/hint_player.py --variant little-gate --deals 1-200 --jobs 2
    .venv/bin/python benchmarks/hint_player.py --variant canfield --deals 1-100 --jobs 2

In Canfield and Archway the greedy player puts a card up if it can, else plays the first
other move that takes a card off the reserve, the waste or the arch (Canfield's reserve
first), else a pile move, else turns the stock.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gatebot.analyse import format_deals, parse_deals, percentile, wilson_interval
from gatebot.rules import Game, GateGame, Move
from gatebot.rules.gate import ACCEPTS, KEY
from gatebot.solver import HINT_SECONDS, registry
from gatebot.solver.gate.search import DRAW_CODE, Search
from gatebot.solver.gate.solve import to_move

MOVE_CAP = 1000


def play_with_hints(job: tuple[str, int]) -> tuple[int, bool, int, list[float], int, bool, list[float]]:
    """Play one deal taking every hint; return (deal, won, score, hint seconds, hints, capped, hint CPU seconds)."""
    variant, deal = job
    game = Game.new(variant, deal=deal)
    cpu: list[float] = []
    latencies, capped = play_out(game, cpu=cpu)
    return deal, game.is_won, game.score, latencies, len(latencies), capped, cpu


def play_out(
    game: Game, cap: int = MOVE_CAP, cpu: list[float] | None = None, moves: list[str] | None = None
) -> tuple[list[float], bool]:
    """Take every hint in ``game`` until it is won or the hint has no move; return the hint seconds and
    whether the move cap stopped it. ``cpu``, when given, receives each hint's CPU seconds (the process's
    own, which a busy machine doesn't inflate as it does the hint's clock); ``moves`` each move played.

    A hint that proves the game lost still suggests the move towards the most cards home, and
    it is played: the game ends only when no hint is left, as the greedy player's ends when no
    move is left.
    """
    latencies = []
    for _ in range(cap):
        began = time.process_time()
        found = registry.hint(game, seconds=HINT_SECONDS, behind=registry.positions_behind(game))
        if cpu is not None:
            cpu.append(time.process_time() - began)
        latencies.append(found.seconds)
        if found.move is None:
            return latencies, False
        game.play(found.move)
        if moves is not None:
            moves.append(str(found.move))
        if game.is_won:
            return latencies, False
    return latencies, True


def play_greedy(job: tuple[str, int]) -> tuple[int, bool, int, bool]:
    """Play one deal with the greedy player, which looks one move ahead; return (deal, won, score, capped)."""
    variant, deal = job
    game = Game.new(variant, deal=deal)
    if not isinstance(game, GateGame):
        return play_greedy_other(game, deal)
    for _ in range(MOVE_CAP):
        step = greedy_step(Search(game))
        if step is None:
            break
        game.play(to_move(game, step))
        if game.is_won:
            break
    else:
        return deal, game.is_won, game.score, True
    return deal, game.is_won, game.score, False


def play_greedy_other(game: Game, deal: int) -> tuple[int, bool, int, bool]:
    """The greedy player in Canfield or Archway: a card up, else a card off the reserve, waste or arch."""
    for _ in range(MOVE_CAP):
        move = greedy_move(game)
        if move is None:
            break
        game.play(move)
        if game.is_won or game.is_over:
            break
    else:
        return deal, game.is_won, game.score, True
    return deal, game.is_won, game.score, False


def greedy_move(game: Game) -> Move | None:
    legal = [move for move in game.legal_moves() if move.target != "p"]  # never back into Archway's arch
    ups = [move for move in legal if move.target in ("f", "a", "k")]
    plays = [move for move in legal if not move.is_draw and not move.source.isdigit()]
    plays.sort(key=lambda move: move.source != "r")
    piles = [move for move in legal if not move.is_draw and move.source.isdigit() and move not in ups]
    draws = [move for move in legal if move.is_draw]
    for group in (ups, plays, piles, draws):
        if group:
            return group[0]
    return None


def greedy_step(search: Search) -> tuple[int, int, int] | None:
    """A foundation play, else a gatepost or waste card onto a card, else a column move that
    shows a new card or empties the column, else a draw; None when only shuffles are left."""
    steps = search.moves()
    n = search.n
    columns = search.columns
    for step in steps:
        if step[0] >= 0 and step[1] == n:
            return step
    for step in steps:
        if step[0] >= n and step[1] < n and columns[step[1]]:
            return step
    for step in steps:
        source, target, count = step
        if 0 <= source < n and target < n and columns[target]:
            column = columns[source]
            if count == len(column) or ACCEPTS[column[-count - 1]] != KEY[column[-count]]:
                return step
    return next((step for step in steps if step[0] == DRAW_CODE), None)


def paired(hints: Sequence[int], greedy: Sequence[int]) -> tuple[float, float, float, int, int, int]:
    """The hint player's score minus the greedy player's over the same deals: the mean difference, its 95%
    interval (normal approximation, fine for the hundreds of deals compared), and the deals won, tied
    and lost by the hints.
    """
    differences = [mine - theirs for mine, theirs in zip(hints, greedy, strict=True)]
    mean = statistics.fmean(differences)
    spread = statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else math.inf
    half = statistics.NormalDist().inv_cdf(0.975) * spread
    better = sum(d > 0 for d in differences)
    same = sum(d == 0 for d in differences)
    return mean, mean - half, mean + half, better, same, len(differences) - better - same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="gate")
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("1-100"), help="like gatebot analyse: 1-1000")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    jobs = [(args.variant, deal) for deal in args.deals]
    started = time.perf_counter()
    latencies: list[float] = []
    cpu: list[float] = []
    wins = scores = capped = hints = 0
    lost: list[int] = []
    circling: list[int] = []
    hint_scores: list[int] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, (deal, won, score, times, count, cap, spent) in enumerate(pool.map(play_with_hints, jobs), 1):
            wins += won
            if not won:
                (circling if cap else lost).append(deal)
            scores += score
            hint_scores.append(score)
            capped += cap
            hints += count
            latencies += times
            cpu += spent
            if done % 50 == 0:
                elapsed = time.perf_counter() - started
                print(f"  {done}/{len(jobs)} played, {wins} won, {elapsed:.0f} s", file=sys.stderr)
        greedy = list(pool.map(play_greedy, jobs, chunksize=8))
    greedy_wins = sum(won for _deal, won, _score, _cap in greedy)
    greedy_score = statistics.fmean(score for _deal, _won, score, _cap in greedy)
    greedy_circling = [deal for deal, _won, _score, cap in greedy if cap]
    n = len(jobs)
    elapsed = time.perf_counter() - started
    print(f"{args.variant}, deals {format_deals(args.deals)}, {n} games, {hints} hints, "
          f"{elapsed:.0f} s with {args.jobs} processes ({sum(latencies) / n:.1f} s of hints a game)")
    print("| player | games won | mean score | hint seconds (clock) p50 / p95 / max |")
    print("|---|---|---|---|")
    print(f"| hints | {wins} of {n} ({wins / n:.1%}) | {scores / n:.1f} | "
          f"{statistics.median(latencies) * 1000:.0f} ms / {percentile(latencies, 0.95) * 1000:.0f} ms / "
          f"{max(latencies) * 1000:.0f} ms |")
    print(f"| greedy | {greedy_wins} of {n} ({greedy_wins / n:.1%}) | {greedy_score:.1f} | — |")
    low_rate, high_rate = wilson_interval(wins, n)
    print(f"hints won {wins / n:.1%} (95% interval {low_rate:.1%} to {high_rate:.1%}); hint CPU p50 / p95 / max "
          f"{statistics.median(cpu) * 1000:.1f} ms / {percentile(cpu, 0.95) * 1000:.1f} ms / {max(cpu) * 1000:.0f} ms")
    mean, low, high, better, same, worse = paired(hint_scores, [score for _deal, _won, score, _cap in greedy])
    print(f"paired, hints minus greedy: mean score difference {mean:+.2f} (95% interval {low:+.2f} to {high:+.2f}); "
          f"hints scored more on {better} deals, the same on {same}, less on {worse}")
    print(f"not won: {' '.join(map(str, lost)) or 'none'}")
    if capped:
        print(f"{capped} games stopped at the {MOVE_CAP}-move cap: {' '.join(map(str, circling))}")
    if greedy_circling:
        print(f"{len(greedy_circling)} greedy games stopped at the {MOVE_CAP}-move cap: "
              f"{' '.join(map(str, greedy_circling))}")


if __name__ == "__main__":
    main()
