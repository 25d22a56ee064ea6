"""The statistics picture: a PNG of the expected size and weight, its sums checked against plain counting.

And its module stays off the way of a move: importing what plays a move (the service, the
bot's commands, the terminal's game, the web table) doesn't import it.
"""

from __future__ import annotations

import io
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from gatebot.locale import translator
from gatebot.render.results import ResultsChart, bin_width, bins, rolling_rate
from gatebot.render.results_image import GUTTER, MARGIN, NOT_WON, WIDTH, WON, render_results_png

games = st.lists(st.tuples(st.booleans(), st.integers(0, 51)), max_size=150).map(
    lambda drawn: [(won, 52 if won else score) for won, score in drawn])


def chart_of(results: list[tuple[bool, int]], total: int = 52) -> ResultsChart:
    scores = [0] * (total + 1)
    for _won, score in results:
        scores[score] += 1
    return ResultsChart("Gate", total, len(results), sum(won for won, _ in results), tuple(results[-100:]),
                        tuple(scores))


@given(games, st.integers(1, 20))
def test_the_rolling_rate_is_the_share_of_wins_of_the_last_games(results: list[tuple[bool, int]], window: int) -> None:
    rates = rolling_rate(results, window)
    for index, rate in enumerate(rates):
        last = results[max(0, index - window + 1): index + 1]
        assert abs(rate - sum(won for won, _ in last) / len(last)) < 1e-9


@given(games, st.sampled_from([52, 104]))
def test_the_bars_count_every_game_once(results: list[tuple[bool, int]], total: int) -> None:
    results = [(won, total if won else score) for won, score in results]
    counted = bins(chart_of(results, total))
    width = bin_width(total)
    assert sum(counted) == len(results) and counted[-1] == sum(won for won, _ in results)
    for index, count in enumerate(counted[:-1]):
        assert count == sum(1 for won, score in results if not won and score // width == index)


def test_the_picture_is_a_small_png_with_a_bar_for_every_recent_game() -> None:
    results = [(n % 3 == 1, 52 if n % 3 == 1 else n % 50) for n in range(140)]  # the rate never near 0
    data = render_results_png(chart_of(results))
    assert len(data) < 30_000
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.format == "PNG" and picture.mode == "P" and picture.width == WIDTH
        assert 600 <= picture.height <= 900
        rgb = picture.convert("RGB")
    # Along the recent games' baseline, one bar per game, in the colour of its result, oldest first.
    first_bar = MARGIN + GUTTER + 1
    # The first figure's first bar ends at its baseline: read the row just above it, which every bar reaches.
    bar_top = next(y for y in range(rgb.height) if rgb.getpixel((first_bar, y)) in (WON, NOT_WON))
    base = next(y for y in range(bar_top, rgb.height) if rgb.getpixel((first_bar, y)) not in (WON, NOT_WON)) - 2
    colours = [rgb.getpixel((x, base)) for x in range(MARGIN + GUTTER, WIDTH)]
    runs = [colour for index, colour in enumerate(colours) if colour in (WON, NOT_WON)
            and (index == 0 or colours[index - 1] != colour)]
    assert runs == [WON if won else NOT_WON for won, _ in results[-100:]], "a bar a game, a gap between bars"


def test_german_words_and_no_game_at_all_still_draw() -> None:
    english = render_results_png(chart_of([(True, 52)]))
    german = render_results_png(chart_of([(True, 52)]), translator("de"))
    assert english != german
    with Image.open(io.BytesIO(render_results_png(chart_of([])))) as empty:
        assert empty.width == WIDTH


def test_no_move_imports_the_picture() -> None:
    code = (
        "import sys\n"
        "import gatebot.service.games, gatebot.service.stats, gatebot.service.history\n"
        "import gatebot.bot.games, gatebot.bot.table, gatebot.terminal.play, gatebot.terminal.stats, gatebot.web.app\n"
        "print('gatebot.render.results_image' in sys.modules)\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert found.stdout.strip() == "False"
