"""The result card as a small picture: the text card's lines and squares, drawn.

:func:`render_card_png` draws exactly what :func:`gatebot.render.card.render_card` writes,
from the same functions: the header (variant, challenge or deal, result), the counts (moves,
hints, undos, time), the grid with one coloured square per foundation card, and the legend
(a square before each meaning, white and black only when the grid has them). Nothing else
is drawn, so the picture gives away no more than the text: no rank, no suit, no stock order.

Emoji squares look different on every platform (and are missing on some terminals); a
picture looks the same everywhere. It is a palette PNG of a few colours, as the boards are
(:func:`gatebot.render.image.encode`), but with a palette fixed here instead of a quantized
one: a ramp from the paper to the ink for the anti-aliased text and one entry per square
colour, fourteen entries in all, so the PNG is written with 4 bits a pixel and a typical
card takes 2.5–4 KB (``benchmarks/card_image.py``). Pure: a card in, the same bytes for the
same card; it takes a few milliseconds of CPU, so async code calls it through
``asyncio.to_thread``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from gatebot.messages import ENGLISH, Language
from gatebot.render.card import DEALT_SQUARE, NEVER, THIRDS, ResultCard, counts_line, grid_rows, header, legend
from gatebot.render.image_geometry import Box, font

Colour = tuple[int, int, int]

PAPER: Colour = (250, 248, 242)
INK: Colour = (32, 36, 44)
#: The outline of every square, so the white one shows on the paper.
EDGE: Colour = (150, 150, 150)
#: The colour each square of the text card is drawn in.
SQUARE_COLOURS: dict[str, Colour] = {
    THIRDS[0]: (88, 170, 70),  # green
    THIRDS[1]: (250, 210, 40),  # yellow
    THIRDS[2]: (240, 120, 20),  # orange
    DEALT_SQUARE: (236, 236, 236),
    NEVER: (45, 48, 54),
}
#: Shades from the paper (0) to the ink (the last) for the text's anti-aliased edges.
INK_LEVELS = 8

MARGIN = 16
SQUARE = 26
SQUARE_GAP = 5
HEADER_FONT = 20
COUNTS_FONT = 16
LEGEND_FONT = 15
LEGEND_SQUARE = 14
#: Between a legend square and its meaning; and between two entries, where the text has " · ".
LEGEND_GAP = 6
ENTRY_GAP = 18
SEPARATOR = " · "
#: zlib effort: 9 saves 3% of the bytes of 6 for eight times the encoding time (1 ms against 8).
COMPRESS_LEVEL = 6


@dataclass(frozen=True, slots=True)
class Text:
    """A line (or a legend word) of the card: where its top left is, what it says, at what size."""

    xy: tuple[int, int]
    text: str
    size: int


@dataclass(frozen=True, slots=True)
class Square:
    """One square drawn on the card: its box and the text card's square it stands for."""

    box: Box
    square: str


@dataclass(frozen=True, slots=True)
class CardLayout:
    """Where everything of a picture card goes; :func:`draw_card` paints it, tests read it.

    ``grid`` has one tuple of squares per row of the text card's grid, left to right;
    ``legend`` the legend's squares in its order; ``texts`` every piece of text drawn.
    """

    size: tuple[int, int]
    texts: tuple[Text, ...]
    grid: tuple[tuple[Square, ...], ...]
    legend: tuple[Square, ...]


def render_card_png(card: ResultCard, language: Language = ENGLISH) -> bytes:
    """The result card as palette PNG bytes, showing exactly what :func:`render_card` writes in ``language``.

    Call it through ``asyncio.to_thread`` from async code (it is CPU work, if little).
    """
    return encode_card(draw_card(card_layout(card, language)))


def card_layout(card: ResultCard, language: Language = ENGLISH) -> CardLayout:
    """The card laid out: header, counts, the grid, the legend, each below the last, in ``language``."""
    rows = grid_rows(card)
    texts: list[Text] = []
    y = MARGIN
    for line, points in ((header(card, language), HEADER_FONT), (counts_line(card, language), COUNTS_FONT)):
        texts.append(Text((MARGIN, y), line, points))
        y += round(points * 1.4)
    y += SQUARE_GAP
    grid = []
    for row in rows:
        squares = tuple(row)
        grid.append(tuple(
            Square(_box(MARGIN + column * (SQUARE + SQUARE_GAP), y, SQUARE), square)
            for column, square in enumerate(squares)
        ))
        y += SQUARE + SQUARE_GAP
    y += SQUARE_GAP
    legend_squares, legend_texts, right = _legend(rows, y, language)
    texts.extend(legend_texts)
    widths = [right, *(MARGIN + round(font(t.size).getlength(t.text)) for t in texts)]
    widths.extend(row[-1].box[2] for row in grid if row)
    size = (max(widths) + MARGIN, y + round(LEGEND_FONT * 1.4) + MARGIN)
    return CardLayout(size, tuple(texts), tuple(grid), legend_squares)


def _legend(rows: tuple[str, ...], y: int, language: Language) -> tuple[tuple[Square, ...], list[Text], int]:
    """The legend's squares and words on one line from the top ``y``, and where the line ends.

    It is :func:`gatebot.render.card.legend`'s line with each emoji drawn as a square; the
    entries are read back from that line, so the two can't say different things.
    """
    squares: list[Square] = []
    texts: list[Text] = []
    x = MARGIN
    words = font(LEGEND_FONT)
    top = y + (round(LEGEND_FONT * 1.2) - LEGEND_SQUARE) // 2
    for index, entry in enumerate(legend(rows, language).split(SEPARATOR)):
        square, meaning = entry.split(" ", 1)
        if index:
            x += ENTRY_GAP - LEGEND_GAP
        squares.append(Square(_box(x, top, LEGEND_SQUARE), square))
        x += LEGEND_SQUARE + LEGEND_GAP
        texts.append(Text((x, y), meaning, LEGEND_FONT))
        x += round(words.getlength(meaning)) + LEGEND_GAP
    return tuple(squares), texts, x - LEGEND_GAP


def _box(x: int, y: int, side: int) -> Box:
    return (x, y, x + side, y + side)


#: Palette indices: the ink ramp first (0 is the paper), then the edge, then one per square.
_EDGE_INDEX = INK_LEVELS
_SQUARE_INDEX = {square: _EDGE_INDEX + 1 + n for n, square in enumerate(SQUARE_COLOURS)}
_TO_LEVEL = [(value * (INK_LEVELS - 1) + 127) // 255 for value in range(256)]


def palette() -> list[int]:
    """The card's palette, flat RGB: the ink ramp, the squares' edge, the squares' colours."""
    ramp = [
        tuple(round(p + (i - p) * level / (INK_LEVELS - 1)) for p, i in zip(PAPER, INK, strict=True))
        for level in range(INK_LEVELS)
    ]
    return [value for colour in (*ramp, EDGE, *SQUARE_COLOURS.values()) for value in colour]


def draw_card(layout: CardLayout) -> Image.Image:
    """Paint a laid-out card as a palette ("P") image with :func:`palette`.

    The text is drawn anti-aliased into a coverage mask that is cut to :data:`INK_LEVELS`
    shades; the squares are then filled with their own entries (rounded, with an edge).
    """
    ink = Image.new("L", layout.size, 0)
    draw = ImageDraw.Draw(ink)
    for text in layout.texts:
        draw.text(text.xy, text.text, font=font(text.size), fill=255, anchor="lt")
    indices = ink.point(_TO_LEVEL)
    squares = ImageDraw.Draw(indices)
    for square in (*(s for row in layout.grid for s in row), *layout.legend):
        side = square.box[2] - square.box[0]
        box = (square.box[0], square.box[1], square.box[2] - 1, square.box[3] - 1)
        squares.rounded_rectangle(box, radius=max(2, side // 6), fill=_SQUARE_INDEX[square.square],
                                  outline=_EDGE_INDEX, width=1)
    image = Image.frombytes("P", layout.size, indices.tobytes())
    image.putpalette(palette())
    return image


def encode_card(image: Image.Image) -> bytes:
    """A card drawn by :func:`draw_card` as PNG bytes, no metadata (equal cards, equal bytes).

    With its fourteen colours Pillow writes it 4 bits a pixel, at the boards' zlib effort.
    """
    data = io.BytesIO()
    image.save(data, format="PNG", compress_level=COMPRESS_LEVEL)
    return data.getvalue()
