"""The statistics picture: one variant's recent games and its score distribution, drawn with Pillow.

Two figures under a heading, each with its own caption:

- **Recent games**: one bar per game (the latest :data:`~gatebot.render.results.RECENT_GAMES`,
  oldest at the left), as tall as the cards it brought home, green for a win and grey
  otherwise, with the win rate of the last :data:`~gatebot.render.results.ROLLING` games drawn
  over them as a dark line (the top of the figure is 100%, and a full deck home).
- **Cards home**: how many games ended with how many cards home, in bars of a few cards
  each; a full deck home (a win) has its own green bar at the right.

It is drawn 640 px wide with labels of 22–34 px, so shown at a phone's 320 px in Discord they
still read at 11–17 px. Pillow draws and encodes it in 6–8 ms of CPU (``benchmarks/stats_image.py``),
a palette PNG of a dozen fixed colours, 9–12 KB. matplotlib would be a new dependency, with
NumPy, and a slow import, for a picture no better suited to a phone; gatebot already draws its
boards and cards with Pillow (docs/stats.md says more). Pure: a chart in, the same bytes out;
async code calls it through ``asyncio.to_thread``. Import this module only where a picture is
asked for (``tests/render/test_results_image.py`` checks no move imports it).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from gatebot.messages import ENGLISH, N_, NN_, Language
from gatebot.render.image_geometry import font
from gatebot.render.results import ROLLING, ResultsChart, bin_width, bins

Colour = tuple[int, int, int]

PAPER: Colour = (250, 248, 242)
INK: Colour = (32, 36, 44)
WON: Colour = (46, 125, 50)
NOT_WON: Colour = (172, 180, 192)
#: The axes' and gridlines' grey.
RULE: Colour = (205, 205, 200)
#: Shades from the paper to the ink, for anti-aliased text and the rate's line.
INK_LEVELS = 8

WIDTH = 640
MARGIN = 24
#: Room at the left of each figure for its scale's numbers, and at the right for the win rate's.
GUTTER = 58
RATE_GUTTER = 70
TITLE_FONT = 34
SUBTITLE_FONT = 26
CAPTION_FONT = 24
LABEL_FONT = 22
RECENT_HEIGHT = 220
SCORES_HEIGHT = 190
LEGEND_SQUARE = 18
LINE_WIDTH = 4
COMPRESS_LEVEL = 6

#: The picture's words, looked up in the reader's catalogue where it is drawn.
SUMMARY = NN_("{games} game, {wins} won ({rate}%)", "{games} games, {wins} won ({rate}%)")
RECENT_CAPTION = NN_("The last game: cards home", "The last {n} games: cards home")
SCORES_CAPTION = NN_("Cards home in {n} game", "Cards home in all {n} games")
WON_LABEL = N_("won")
NOT_WON_LABEL = N_("not won")
RATE_LABEL = N_("win rate of {n} games")
PERCENT = N_("{n}%")


def render_results_png(chart: ResultsChart, language: Language = ENGLISH) -> bytes:
    """The picture of ``chart`` as palette PNG bytes, its words in ``language``; call it in a worker thread."""
    return _encode(draw_results(chart, language))


def draw_results(chart: ResultsChart, language: Language = ENGLISH) -> Image.Image:
    """The picture of ``chart`` as an RGB image 640 px wide (:func:`render_results_png` encodes it)."""
    say = language.gettext
    recent = chart.shown
    legend = _legend_layout([(WON, say(WON_LABEL)), (NOT_WON, say(NOT_WON_LABEL)),
                             (INK, say(RATE_LABEL).format(n=ROLLING))])
    legend_lines = 1 + max(line for _colour, _text, _x, line in legend)
    height = (MARGIN + _line(TITLE_FONT) + _line(SUBTITLE_FONT) + 14
              + _line(CAPTION_FONT) + 10 + RECENT_HEIGHT + 12 + legend_lines * _line(LABEL_FONT) + 18
              + _line(CAPTION_FONT) + 10 + SCORES_HEIGHT + 8 + _line(LABEL_FONT) + MARGIN)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    draw.text((MARGIN, y), chart.title, font=font(TITLE_FONT), fill=INK)
    y += _line(TITLE_FONT)
    summary = language.ngettext(*SUMMARY, chart.games).format(
        games=chart.games, wins=chart.wins, rate=round(chart.win_rate * 100))
    draw.text((MARGIN, y), summary, font=font(SUBTITLE_FONT), fill=INK)
    y += _line(SUBTITLE_FONT) + 14

    caption = language.ngettext(*RECENT_CAPTION, len(recent)).format(n=len(recent))
    draw.text((MARGIN, y), caption, font=font(CAPTION_FONT), fill=INK)
    y += _line(CAPTION_FONT) + 10
    _recent(draw, recent, chart.shown_rates(), chart.total,
            (MARGIN + GUTTER, y, WIDTH - MARGIN - RATE_GUTTER, y + RECENT_HEIGHT), say(PERCENT))
    y += RECENT_HEIGHT + 12
    _legend(draw, y, legend)
    y += legend_lines * _line(LABEL_FONT) + 18

    caption = language.ngettext(*SCORES_CAPTION, chart.games).format(n=chart.games)
    draw.text((MARGIN, y), caption, font=font(CAPTION_FONT), fill=INK)
    y += _line(CAPTION_FONT) + 10
    _scores(draw, chart, (MARGIN + GUTTER, y, WIDTH - MARGIN, y + SCORES_HEIGHT))
    return image


def _line(size: int) -> int:
    return round(size * 1.3)


def _recent(draw: ImageDraw.ImageDraw, recent: Sequence[tuple[bool, int]], rates: Sequence[float], total: int,
            box: tuple[int, int, int, int], percent: str) -> None:
    """Each game a bar of its cards home; the rolling win rate a line over them; the scales at the sides."""
    left, top, right, bottom = box
    _scale(draw, box, str(total), "0")
    labels = font(LABEL_FONT)
    draw.text((right + 10, top), percent.format(n=100), font=labels, fill=INK, anchor="lt")
    draw.text((right + 10, bottom), percent.format(n=0), font=labels, fill=INK, anchor="lb")
    if not recent:
        return
    step = (right - left) / max(len(recent), 20)
    gap = 1 if step >= 4 else 0
    points = []
    for index, ((won, score), rate) in enumerate(zip(recent, rates, strict=True)):
        x0 = left + round(index * step)
        x1 = max(x0, left + round((index + 1) * step) - 1 - gap)
        # A game with nothing home still gets a stub, so every game shows.
        bar_top = min(bottom - 4, bottom - round(score / total * (bottom - top)) if total else bottom)
        draw.rectangle((x0, bar_top, x1, bottom - 1), fill=WON if won else NOT_WON)
        points.append(((x0 + x1 + 1) / 2, bottom - 1 - rate * (bottom - top - 1)))
    if len(points) > 1:
        draw.line(points, fill=PAPER, width=LINE_WIDTH + 4, joint="curve")
        draw.line(points, fill=INK, width=LINE_WIDTH, joint="curve")
    else:
        x, y = points[0]
        draw.ellipse((x - LINE_WIDTH, y - LINE_WIDTH, x + LINE_WIDTH, y + LINE_WIDTH), fill=INK)


def _scores(draw: ImageDraw.ImageDraw, chart: ResultsChart, box: tuple[int, int, int, int]) -> None:
    """The distribution's bars, the largest count at the top of the scale, cards home marked under them."""
    left, top, right, bottom = box
    counts = bins(chart)
    most = max(counts) if counts else 0
    _scale(draw, box, str(most), "0")
    slots = len(counts) + 0.5  # half a bar's room between the last bin and the full deck's bar
    step = (right - left) / slots
    width = bin_width(chart.total)
    labels = font(LABEL_FONT)
    for index, count in enumerate(counts):
        full = index == len(counts) - 1
        x0 = left + round((index + (0.5 if full else 0)) * step)
        x1 = left + round((index + 1 + (0.5 if full else 0)) * step) - 4
        if count and most:
            bar_top = bottom - max(2, round(count / most * (bottom - top)))
            draw.rectangle((x0, bar_top, x1, bottom - 1), fill=WON if full else NOT_WON)
        if full:
            draw.text(((x0 + x1) / 2, bottom + 8), str(chart.total), font=labels, fill=INK, anchor="mt")
        elif index % 3 == 0:
            draw.text((x0, bottom + 8), str(index * width), font=labels, fill=INK, anchor="mt")


def _scale(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], high: str, low: str) -> None:
    """The figure's frame: a base line, a faint top line, and the top and bottom values at the left."""
    left, top, right, bottom = box
    draw.line((left, top, right, top), fill=RULE, width=1)
    draw.line((left, bottom, right, bottom), fill=INK, width=2)
    labels = font(LABEL_FONT)
    draw.text((left - 10, top), high, font=labels, fill=INK, anchor="rt")
    draw.text((left - 10, bottom), low, font=labels, fill=INK, anchor="rb")


def _legend_layout(entries: list[tuple[Colour, str]]) -> list[tuple[Colour, str, int, int]]:
    """Each legend entry's colour, words, left edge and line (from 0): on one line while they fit, else wrapped."""
    labels = font(LABEL_FONT)
    placed = []
    x, line = MARGIN + GUTTER, 0
    for colour, meaning in entries:
        width = (2 * LEGEND_SQUARE if colour == INK else LEGEND_SQUARE) + 8 + round(labels.getlength(meaning))
        if x + width > WIDTH - MARGIN and x > MARGIN + GUTTER:
            x, line = MARGIN + GUTTER, line + 1
        placed.append((colour, meaning, x, line))
        x += width + 22
    return placed


def _legend(draw: ImageDraw.ImageDraw, y: int, placed: list[tuple[Colour, str, int, int]]) -> None:
    """A square (or, for the ink, a short line) before each meaning, under the figure, as laid out."""
    labels = font(LABEL_FONT)
    for colour, meaning, x, line in placed:
        middle = y + line * _line(LABEL_FONT) + _line(LABEL_FONT) // 2
        if colour == INK:
            draw.line((x, middle, x + 2 * LEGEND_SQUARE, middle), fill=INK, width=LINE_WIDTH)
            x += 2 * LEGEND_SQUARE + 8
        else:
            half = LEGEND_SQUARE // 2
            draw.rectangle((x, middle - half, x + LEGEND_SQUARE, middle + half), fill=colour)
            x += LEGEND_SQUARE + 8
        draw.text((x, middle), meaning, font=labels, fill=INK, anchor="lm")


def palette() -> list[int]:
    """The picture's colours, flat RGB: the ink ramp from the paper, then the bars' and rules' colours."""
    ramp = [
        tuple(round(p + (i - p) * level / (INK_LEVELS - 1)) for p, i in zip(PAPER, INK, strict=True))
        for level in range(INK_LEVELS)
    ]
    return [value for colour in (*ramp, WON, NOT_WON, RULE) for value in colour]


def _encode(image: Image.Image) -> bytes:
    """The picture as a palette PNG of :func:`palette`'s colours (4 bits a pixel), no metadata."""
    colours = Image.new("P", (1, 1))
    colours.putpalette(palette())
    data = io.BytesIO()
    image.quantize(palette=colours, dither=Image.Dither.NONE).save(data, format="PNG", compress_level=COMPRESS_LEVEL)
    return data.getvalue()
