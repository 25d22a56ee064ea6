"""PNG board sizes and drawing times: the palette PNG the bot sends beside the RGB PNG it sent before.

For each variant and three positions (the deal, a seeded random game part played, a won
board) it draws the board once per repeat and encodes it both ways, then prints the size
in KB and the median time of drawing plus encoding, with the ratios old / new. The RGB
encoder lives here only, for the comparison; the product encodes palette PNGs. Run:

    python benchmarks/board_images.py --repeat 9
    python benchmarks/board_images.py --encoder palette --scale 2
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from PIL import Image

from gatebot.render.boards import layout_board
from gatebot.render.image import draw_board, encode
from gatebot.render.image_geometry import Metrics
from gatebot.rules import VARIANTS, Game

#: A won board of each variant: every card on the foundations.
WON = {
    "gate": "gate\nL:\nR:\nF: KC KD KH KS\n" + "".join(f"{i}:\n" for i in range(1, 9)) + "W:\nS:",
    "little-gate": "little-gate\nL:\nR:\nF: KC KD KH KS\n" + "".join(f"{i}:\n" for i in range(1, 5)) + "W:\nS:",
    "canfield": "canfield\nR:\nF: QC QD QH QS\nB: K\n1:\n2:\n3:\n4:\nW:\nS:\nP: 1",
    "archway": "archway\nA: KC KD KH KS\nK: AC AD AH AS\nP:\n1:\n2:\n3:\n4:",
}

Encoder = Callable[[Image.Image, Metrics], bytes]


def encode_rgb(image: Image.Image, m: Metrics) -> bytes:
    """The encoder the board used before palette PNGs: the RGB picture at zlib level 3."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


ENCODERS: dict[str, Encoder] = {"rgb": encode_rgb, "palette": encode}


def positions(variant: str, deal: int, moves: int, seed: int) -> list[tuple[str, Game]]:
    """The deal, a random game ``moves`` moves in (building more than drawing), and a won board."""
    rng = random.Random(seed)
    game = Game.new(variant, deal=deal)
    found = [("deal", game.copy())]
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        builds = [move for move in legal if not move.is_draw]
        game.push(rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal))
    found.append((f"{len(game.moves)} moves", game))
    if variant in WON:
        found.append(("won", Game.from_text(WON[variant])))
    return found


def measure(game: Game, scale: float, encoder: Encoder, repeat: int) -> tuple[int, float]:
    """Bytes of the PNG, and the median CPU seconds of laying out, drawing and encoding it.

    CPU time of this process, not the wall clock: the work is single-threaded, and a busy
    machine then slows the figures down less.
    """
    m = layout_board(game, scale).metrics
    encoder(draw_board(layout_board(game, scale)), m)  # the card sprites are drawn once per scale, then kept
    times = []
    data = b""
    for _ in range(repeat):
        start = time.process_time()
        data = encoder(draw_board(layout_board(game, scale)), m)
        times.append(time.process_time() - start)
    return len(data), statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--encoder", choices=("both", *ENCODERS), default="both",
                        help="which PNG encoding to measure (default: the old RGB and the palette one side by side)")
    parser.add_argument("--repeat", type=int, default=7, help="draws per board; the median is shown")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--deal", type=int, default=1)
    parser.add_argument("--moves", type=int, default=40, help="random moves into the mid-game position")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = list(ENCODERS) if args.encoder == "both" else [args.encoder]

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"scale {args.scale}, median of {args.repeat}; time = CPU ms of layout + draw + encode")
    header = f"{'variant':<12} {'position':<10} {'pixels':>10}"
    for name in names:
        header += f" {name + ' KB':>11} {name + ' ms':>11}"
    if len(names) == 2:
        header += f" {'size ×':>7} {'time ×':>7}"
    print(header)
    size_ratios, time_ratios = [], []
    for variant in VARIANTS:
        for label, game in positions(variant.name, args.deal, args.moves, args.seed):
            width, height = layout_board(game, args.scale).size
            row = f"{variant.name:<12} {label:<10} {f'{width}x{height}':>10}"
            results = [measure(game, args.scale, ENCODERS[name], args.repeat) for name in names]
            for size, seconds in results:
                row += f" {size / 1024:>11.1f} {seconds * 1000:>11.1f}"
            if len(results) == 2:
                (old_size, old_time), (new_size, new_time) = results
                size_ratios.append(old_size / new_size)
                time_ratios.append(old_time / new_time)
                row += f" {size_ratios[-1]:>7.2f} {time_ratios[-1]:>7.2f}"
            print(row)
    if size_ratios:
        print(f"{names[0]} / {names[1]}: size × {min(size_ratios):.2f}-{max(size_ratios):.2f} "
              f"(median {statistics.median(size_ratios):.2f}), time × {min(time_ratios):.2f}-{max(time_ratios):.2f} "
              f"(median {statistics.median(time_ratios):.2f}; above 1 means the palette PNG is faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
