"""Result card pictures: their size and drawing time, for each variant.

For each variant it plays a seeded random game (building more than drawing, as the board
benchmark does) and makes its result card the way the service does (the grid from the
log), plus a won card of every variant with its squares spread over the three thirds; then
draws each card once per repeat and prints the picture's size in pixels and KB and the
median CPU time of laying out, drawing and encoding it. Run:

    python benchmarks/card_image.py --repeat 21
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from gatebot.render.card import RANKS, ResultCard
from gatebot.render.card_image import card_layout, render_card_png
from gatebot.rules import VARIANTS, Game
from gatebot.service.stats import ascents


def played_card(variant: str, deal: int, moves: int, seed: int) -> ResultCard:
    """The card of a random game of ``variant``, ``moves`` moves long at most."""
    rng = random.Random(seed)
    game = Game.new(variant, deal=deal)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        builds = [move for move in legal if not move.is_draw]
        game.push(rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal))
    steps = [str(move) for move in game.moves]
    return ResultCard(title=game.title, deal=deal, won=False, score=game.score, moves=len(steps), hints=1, undos=0,
                      seconds=372, ascents=ascents(variant, deal, (), steps), steps=len(steps),
                      total=game.card_count)


def won_card(variant: str, deal: int) -> ResultCard:
    """A won card of ``variant``: every square coloured, the thirds mixed along each row."""
    game = Game.new(variant, deal=deal)
    rows = game.card_count // RANKS
    steps = game.card_count * 2
    grid = tuple(tuple(rank * rows * 2 + row for rank in range(RANKS)) for row in range(rows))
    return ResultCard(title=game.title, deal=deal, won=True, score=game.card_count, moves=steps, hints=0, undos=2,
                      seconds=1234, ascents=grid, steps=steps, total=game.card_count)


def measure(card: ResultCard, repeat: int) -> tuple[int, float]:
    """Bytes of the PNG, and the median CPU seconds of laying out, drawing and encoding it."""
    render_card_png(card)  # the fonts are loaded once, then kept
    times = []
    data = b""
    for _ in range(repeat):
        start = time.process_time()
        data = render_card_png(card)
        times.append(time.process_time() - start)
    return len(data), statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=11, help="draws per card; the median is shown")
    parser.add_argument("--deal", type=int, default=1)
    parser.add_argument("--moves", type=int, default=120, help="random moves in the played game")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"median of {args.repeat}; time = CPU ms of layout + draw + encode")
    print(f"{'variant':<12} {'card':<10} {'pixels':>10} {'KB':>6} {'ms':>6}")
    for variant in VARIANTS:
        for label, card in (("played", played_card(variant.name, args.deal, args.moves, args.seed)),
                            ("won", won_card(variant.name, args.deal))):
            width, height = card_layout(card).size
            size, seconds = measure(card, args.repeat)
            pixels = f"{width}x{height}"
            print(f"{variant.name:<12} {label:<10} {pixels:>10} {size / 1024:>6.1f} {seconds * 1000:>6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
