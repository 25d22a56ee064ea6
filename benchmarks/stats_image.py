"""The statistics picture: its size and drawing time, the import it costs, and the example pictures in the docs.

A seeded player of each variant (a few to a thousand games, winning more often as they go)
is drawn once per repeat; the median CPU time of drawing and encoding, the PNG's size and the
time to import the drawing module in a fresh interpreter are printed. With ``--examples DIR``
it also writes the English and German pictures of the 240-game Gate player the docs show
(``stats-en.png``, ``stats-de.png``). The statistics queries on 10,000 stored games are
timed by ``tests/service/test_history.py``. Run:

    python benchmarks/stats_image.py --repeat 21 --examples docs/images
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gatebot.locale import translator
from gatebot.render.results import KEPT_GAMES, ResultsChart
from gatebot.render.results_image import render_results_png
from gatebot.service.variants import deck_size


def sample(variant: str, title: str, games: int, seed: int) -> ResultsChart:
    """A player of ``games`` games of ``variant`` who wins from a quarter to half of them, more as they learn."""
    rng = random.Random(seed)
    total = deck_size(variant)
    results = []
    for n in range(games):
        won = rng.random() < 0.25 + 0.25 * n / max(1, games)
        results.append((won, total if won else max(0, min(total - 1, round(rng.gauss(0.55, 0.2) * total)))))
    scores = [0] * (total + 1)
    for _won, score in results:
        scores[score] += 1
    return ResultsChart(title, total, games, sum(won for won, _ in results), tuple(results[-KEPT_GAMES:]),
                        tuple(scores))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--examples", type=Path, help="write stats-en.png and stats-de.png here")
    args = parser.parse_args()
    charts = [sample("gate", "Gate", 3, 1), sample("gate", "Gate", 240, 7), sample("archway", "Archway", 1000, 3)]
    for chart in charts:
        times = []
        for _ in range(args.repeat):
            began = time.process_time()
            data = render_results_png(chart)
            times.append(time.process_time() - began)
        print(f"{chart.title:8} {chart.games:5} games: {len(data) / 1024:5.1f} KB, "
              f"median {statistics.median(times) * 1000:5.1f} ms CPU to draw and encode")
    code = "import gatebot.render.image_geometry, gatebot.render.results; import gatebot.render.results_image"
    costs = []
    for _ in range(5):  # python -X importtime: the drawing module's own cumulative microseconds, PIL's ImageDraw in it
        trace = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True,
                               check=True).stderr
        line = next(line for line in trace.splitlines() if line.rstrip().endswith("gatebot.render.results_image"))
        costs.append(int(line.split("|")[1]))
    print(f"importing the drawing module once Pillow and the font helper are in: {min(costs) / 1000:.1f} ms")
    if args.examples is not None:
        chart = charts[1]
        (args.examples / "stats-en.png").write_bytes(render_results_png(chart))
        (args.examples / "stats-de.png").write_bytes(render_results_png(chart, translator("de")))
        print(f"wrote {args.examples / 'stats-en.png'} and {args.examples / 'stats-de.png'}")


if __name__ == "__main__":
    main()
