"""The CPU of the hints a hint player asks all game long, this checkout against another, on the same positions.

``benchmarks/hint_cost.py`` asks its hints early in a game; in Canfield those are all in the
first pass, where the hint turns the stock and only tells the odds. This one times the hints
of whole games: this checkout plays each deal taking every hint (as ``hint_player.py`` does),
and the moves played are kept; then each checkout, in a fresh process of its own and in turns
for ``--rounds`` rounds, replays those games and asks the hint engine
(:func:`gatebot.solver.registry.hint`, with the positions behind as the service gives them) at
every ``--every``-th position, timing each hint's CPU (``time.process_time``). So both are
timed on the very same positions, on the same machine at nearly the same moment; the medians,
the 95th percentiles and their ratios are reported, and how many hints differ between them.
Run from the repository root, the other checkout's compiled cores built in place:

    nice -n 5 .venv/bin/python benchmarks/hint_replay.py --variant canfield --deals 52001-52020 \
        --against /tmp/before --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# The checkout whose gatebot a replay runs (``--against`` sets it); by default this one.
sys.path.insert(0, os.environ.get("HINT_REPLAY_CHECKOUT", str(Path(__file__).resolve().parent.parent)))

from gatebot.analyse import parse_deals
from gatebot.rules import Game
from gatebot.solver import HINT_SECONDS, registry

CHECKOUT = "HINT_REPLAY_CHECKOUT"
HERE = Path(__file__).resolve().parent.parent


def play(variant: str, deal: int) -> list[str]:
    """The moves of ``deal`` played by taking every hint, as the hint player plays, until won or no hint is left."""
    from hint_player import play_out  # this checkout's: the games are played here alone, then replayed in each

    moves: list[str] = []
    play_out(Game.new(variant, deal=deal), moves=moves)
    return moves


def replay(variant: str, games: dict[int, list[str]], every: int) -> tuple[list[float], list[str]]:
    """Each game replayed, a hint asked at every ``every``-th position: each hint's CPU seconds and move."""
    seconds, said = [], []
    for deal, moves in games.items():
        game = Game.new(variant, deal=deal)
        for index, token in enumerate(moves):
            if index % every == 0:
                began = time.process_time()
                found = registry.hint(game, seconds=HINT_SECONDS, behind=registry.positions_behind(game))
                seconds.append(time.process_time() - began)
                said.append(str(found.move))
            game.play(token)
    return seconds, said


def in_checkout(checkout: str, *args: str) -> Any:
    """This script's answer (JSON on its output) run against ``checkout``'s gatebot, in a fresh process."""
    env = dict(os.environ, **{CHECKOUT: checkout})
    done = subprocess.run([sys.executable, __file__, *args], env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="canfield")
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("52001-52020"))
    parser.add_argument("--every", type=int, default=1, help="ask a hint at every n-th position")
    parser.add_argument("--against", metavar="DIR", help="the other checkout, its compiled cores built in place")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--replay", metavar="FILE", help=argparse.SUPPRESS)  # a round's own process
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        print(json.dumps({deal: play(args.variant, deal) for deal in args.deals}))
        return
    if args.replay:
        games = {int(deal): moves for deal, moves in json.loads(Path(args.replay).read_text()).items()}
        print(json.dumps(replay(args.variant, games, args.every)))
        return
    checkouts = {"now": str(HERE)} | ({"against": args.against} if args.against else {})
    deals = ",".join(map(str, args.deals))
    games = in_checkout(str(HERE), "--play", "--variant", args.variant, "--deals", deals)
    seconds: dict[str, list[float]] = {name: [] for name in checkouts}
    said: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.json"
        path.write_text(json.dumps(games))
        for _round in range(args.rounds):
            for name, checkout in checkouts.items():
                spent, moves = in_checkout(checkout, "--replay", str(path), "--variant", args.variant,
                                           "--every", str(args.every))
                seconds[name] += spent
                said[name] = moves
    print(f"{args.variant}, deals {args.deals[0]}-{args.deals[-1]}: {len(said['now'])} positions, "
          f"{args.rounds} rounds, each checkout in turn")
    print("| checkout | hints timed | CPU p50 ms | CPU p95 ms |")
    print("|---|---|---|---|")
    figures = {}
    for name, spent in seconds.items():
        ordered = sorted(spent)
        figures[name] = (statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))])
        print(f"| {name} ({checkouts[name]}) | {len(spent)} | {figures[name][0] * 1e3:.2f} | "
              f"{figures[name][1] * 1e3:.2f} |")
    if args.against:
        now, other = figures["now"], figures["against"]
        print(f"now ÷ against: p50 {now[0] / other[0]:.2f}×, p95 {now[1] / other[1]:.2f}×; hints differing: "
              f"{sum(a != b for a, b in zip(said['now'], said['against'], strict=True))} of {len(said['now'])}")


if __name__ == "__main__":
    main()
