"""The phone board against the wide one: rank height on a phone, picture size and bytes, per variant.

For random deals of each variant, the deal and the positions every ``--every`` moves of a
random playout are drawn both ways; each covered number card's rank is measured in the
drawn pixels as ``tests/render/test_phone_image.py`` measures it, scaled to a phone showing the
picture 320 px wide (and 264 px, the width docs/previews.py gives an embed's image on a 380 px
phone), and the PNG's bytes are counted.

    python benchmarks/phone_board.py --deals 4 --moves 120 --every 20
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from statistics import median

from gatebot.render import layout_board
from gatebot.render.image import PHONE_SCALE, render_png
from gatebot.rules import Game

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the playouts and the measure live in tests/

from tests.render.playouts import playout  # noqa: E402
from tests.render.test_phone_image import PHONE_WIDTH, decode, measured  # noqa: E402

VARIANTS = ("gate", "little-gate", "canfield", "archway")
EMBED_WIDTH = 264


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--every", type=int, default=20)
    args = parser.parse_args()
    print("variant      board  size (px)   rank at 320 px (min-max)  at 264 px  PNG KB (median, largest)")
    for variant in VARIANTS:
        for phone in (False, True):
            heights: list[float] = []
            sizes: list[int] = []
            shape = (0, 0)
            for seed in range(args.deals):
                rng = random.Random(seed)
                game = Game.new(variant, deal=rng.randint(1, 2**32 - 1))
                for position in playout(game, rng, args.moves, every=args.every):
                    scale = PHONE_SCALE if phone else 1.0
                    png = render_png(position, scale=scale, phone=phone)
                    image = decode(png)
                    heights += [height for _, height in measured(layout_board(position, scale, phone=phone), image)]
                    sizes.append(len(png))
                    shape = max(shape, image.size, key=lambda size: size[1])
            low, high = min(heights), max(heights)
            print(f"{variant:12} {'phone' if phone else 'wide':5}  {shape[0]:4}×{shape[1]:<5}  "
                  f"{low:5.1f}-{high:4.1f} px ({len(heights)} ranks)   {low * EMBED_WIDTH / PHONE_WIDTH:5.1f} px  "
                  f"{median(sizes) / 1000:5.1f}, {max(sizes) / 1000:5.1f}")


if __name__ == "__main__":
    main()
