"""Replay pictures: the animated GIF beside the animated WebP of the same finished game.

For each variant it solves the first deal the solver proved winnable, plays the winning line
back into positions, and makes the animation both ways (as ``gatebot replay --out x.gif`` and
``--out x.webp`` do), printing each file's size in KB and the CPU seconds of drawing plus
encoding (the median of the repeats), and the WebP's size over the GIF's. Run:

    python benchmarks/replay_sizes.py --repeat 3
    python benchmarks/replay_sizes.py --variant gate --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import time

from gatebot.render.replay import animate, positions
from gatebot.rules import Game
from gatebot.solver import Verdict, registry
from gatebot.solver.deals import winnable_deals

VARIANTS = ("gate", "canfield", "archway")


def won_positions(variant: str) -> list[Game]:
    """Every position of the first proved-winnable deal of ``variant``, won by the solver's line."""
    deal = Game.new(variant, deal=winnable_deals(variant)[0])
    solution = registry.solve(deal.copy())
    if solution.verdict is not Verdict.WINNABLE:
        raise SystemExit(f"{variant}: the solver did not win deal {deal.deal} in its budget")
    return positions(deal, [str(move) for move in solution.line], undo_token="u")


def measure(seen: list[Game], image_format: str, repeat: int) -> tuple[int, int, float]:
    """The picture's bytes, its frame count and the median CPU seconds of making it."""
    seconds = []
    for _ in range(repeat):
        started = time.process_time()
        animation = animate(seen, image_format=image_format)
        seconds.append(time.process_time() - started)
    return len(animation.data), animation.frames, statistics.median(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=VARIANTS, help="a variant (repeat it; default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="drawings of each picture (the median is shown)")
    args = parser.parse_args()
    print("| variant | positions | frames | GIF KB | WebP KB | WebP / GIF | GIF CPU s | WebP CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for variant in args.variant or VARIANTS:
        seen = won_positions(variant)
        gif, frames, gif_s = measure(seen, "gif", args.repeat)
        webp, _, webp_s = measure(seen, "webp", args.repeat)
        print(f"| {variant} | {len(seen)} | {frames} | {gif / 1024:.0f} | {webp / 1024:.0f} | {webp / gif:.2f} "
              f"| {gif_s:.2f} | {webp_s:.2f} |", flush=True)


if __name__ == "__main__":
    main()
