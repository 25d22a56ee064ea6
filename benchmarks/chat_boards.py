"""CPU per chat board, text and emoji, wide and compact, for every variant, this checkout against others.

A chat move redraws its board as text or emoji (:func:`gatebot.render.boards.render_text`,
:func:`~gatebot.render.boards.render_emoji`). For each variant, ``--games`` seeded random games
are played ``--moves`` moves (building more than drawing) and every ``--every``-th position is
drawn in each style and layout; a style's figure is the CPU of drawing all of them
(``time.process_time``) over the boards drawn, the least of ``--repeat`` passes (the pass least
disturbed by the rest of the machine). ``--against DIR`` measures the gatebot in DIR too (a
checkout, or ``git archive`` of one): each checkout runs in a fresh process, in turns, for
``--rounds`` rounds, and each cell is the median over the rounds, with the ratio of the first
checkout's to this one's::

    git -C /work/main archive HEAD gatebot | tar -x -C /tmp/before
    .venv/bin/python benchmarks/chat_boards.py --against /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from gatebot.render.boards import render_emoji, render_text
from gatebot.rules import Game

VARIANTS = ("gate", "little-gate", "canfield", "archway")
STYLES: dict[str, Callable[[Game], str]] = {
    "text": lambda game: render_text(game),
    "text compact": lambda game: render_text(game, compact=True),
    "emoji": lambda game: render_emoji(game),
    "emoji compact": lambda game: render_emoji(game, compact=True),
}


def positions(variant: str, games: int, moves: int, every: int) -> list[Game]:
    """Every ``every``-th position of ``games`` seeded random games (building more than drawing)."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.new(variant, deal=rng.randint(1, 2**32 - 1))
        for number in range(moves + 1):
            if number % every == 0:
                found.append(game.copy())
            legal = game.legal_moves()
            if not legal:
                break
            builds = [move for move in legal if not move.is_draw]
            game.push(rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal))
    return found


def measure(args: argparse.Namespace) -> dict[str, float]:
    """Microseconds of CPU per board, by ``variant style``."""
    figures = {}
    for variant in VARIANTS:
        found = positions(variant, args.games, args.moves, args.every)
        for style, draw in STYLES.items():
            draw(found[0])  # the first use of every path
            passes = []
            for _ in range(args.repeat):
                start = time.process_time()
                for game in found:
                    draw(game)
                passes.append((time.process_time() - start) / len(found))
            figures[f"{variant} {style}"] = min(passes) * 1e6
    return figures


def in_fresh_process(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    """:func:`measure` with the gatebot in ``folder``, in a fresh process."""
    command = [sys.executable, __file__, "--emit-json", "--games", str(args.games), "--moves", str(args.moves),
               "--every", str(args.every), "--repeat", str(args.repeat)]
    done = subprocess.run(command, env=dict(os.environ, PYTHONPATH=str(folder)), stdout=subprocess.PIPE,
                          check=True, text=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="random games per variant")
    parser.add_argument("--moves", type=int, default=120, help="moves per game")
    parser.add_argument("--every", type=int, default=4, help="draw every n-th position")
    parser.add_argument("--repeat", type=int, default=5, help="passes over the positions; the least is kept")
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per checkout, in turns")
    parser.add_argument("--against", type=Path, action="append", default=[],
                        help="also measure the gatebot in this folder (repeatable)")
    parser.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.emit_json:
        print(json.dumps(measure(args)))
        return 0
    here = Path(__file__).resolve().parents[1]
    checkouts = {**{str(folder): folder.resolve() for folder in args.against}, "this checkout": here}
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):
        for name, folder in checkouts.items():
            rounds[name].append(in_fresh_process(args, folder))
    names = list(checkouts)
    print(f"CPU µs per board, median of {args.rounds} rounds; {args.games} games × {args.moves} moves per variant, "
          f"every {args.every}th position, the least of {args.repeat} passes")
    header = f"{'variant':<12} {'style':<14}" + "".join(f" | {name[-14:]:>14}" for name in names)
    print(header + (" | ×" if len(names) > 1 else ""))
    for variant in VARIANTS:
        for style in STYLES:
            key = f"{variant} {style}"
            cells = [statistics.median(figures[key] for figures in rounds[name]) for name in names]
            row = f"{variant:<12} {style:<14}" + "".join(f" | {cell:14.1f}" for cell in cells)
            print(row + (f" | {cells[0] / cells[-1]:4.2f}" if len(cells) > 1 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
