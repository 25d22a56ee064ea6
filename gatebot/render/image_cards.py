"""Card pictures for the PNG board: faces, the back, empty slots and the shadow, as sprites.

Each sprite is drawn four times too large and reduced, which anti-aliases the rounded
corners and the suit shapes (Pillow's own polygons and rounded rectangles have jagged
edges), then kept (for a few scales at most): a board is pasted together from cached sprites,
which is what makes a render take milliseconds. Suits are drawn as shapes (a heart curve, circles, polygons), so
no font needs the ``♣♦♥♠`` glyphs; the ranks are the pictures' font's bold weight
(:func:`gatebot.render.image_geometry.font`).
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from gatebot.render.image_geometry import Metrics, centre_pip_y, font
from gatebot.rules import Card, Suit

SUPERSAMPLE = 4
#: A colour as Pillow draws with it: (red, green, blue) or with alpha, 0-255 each.
Colour = tuple[int, ...]
RED = (206, 28, 42)
BLACK = (24, 24, 30)
#: The four-colour deck's clubs and diamonds (hearts stay red, spades black), as on poker decks.
GREEN = (22, 128, 52)
BLUE = (28, 84, 196)
FOUR_COLOURS: tuple[Colour, ...] = (GREEN, BLUE, RED, BLACK)
CARD_FACE = (253, 252, 247)
CARD_EDGE = (150, 154, 160)
COURT_PANEL = (250, 238, 205)
BACK_BLUE = (30, 64, 140)
BACK_LINES = (70, 110, 190)
SLOT_LINE = (255, 255, 255, 120)
SLOT_FILL = (0, 0, 0, 34)
SLOT_TEXT = (255, 255, 255, 150)
_RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def suit_colour(suit: Suit, *, four_colour: bool = False) -> Colour:
    """The ink of a suit: red and black, or with ``four_colour`` clubs green and diamonds blue.

    The four-colour deck tells clubs from spades and diamonds from hearts by colour alone,
    for players who find the two red (or the two black) suits hard to tell apart.
    """
    if four_colour:
        return FOUR_COLOURS[suit]
    return RED if suit.is_red else BLACK


def _heart_points(cx: float, cy: float, size: float, flip: bool = False) -> list[tuple[float, float]]:
    """The classic heart curve, fitted to a ``size`` box centred on (cx, cy); ``flip`` for a spade."""
    points = []
    for i in range(96):
        t = 2 * math.pi * i / 96
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        # The curve spans x in [-16, 16] and y in [-12, 17]: centre it and fit the height.
        y = (y - 2.5) / 29
        points.append((cx + x / 29 * size, cy + (-y if flip else y) * size))
    return points


def draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, cx: float, cy: float, size: float, fill: Colour) -> None:
    """Draw ``suit`` as a filled shape about ``size`` tall, centred on (cx, cy)."""
    s = size
    if suit is Suit.HEARTS:
        draw.polygon(_heart_points(cx, cy + s * 0.02, s * 0.98), fill=fill)
    elif suit is Suit.DIAMONDS:
        half_w, half_h = s * 0.41, s * 0.5
        points = []
        for (x0, y0), (x1, y1) in (((0, -1), (1, 0)), ((1, 0), (0, 1)), ((0, 1), (-1, 0)), ((-1, 0), (0, -1))):
            for i in range(12):  # each side bows slightly inwards, like a printed pip
                t = i / 12
                bow = 0.12 * math.sin(math.pi * t)
                x = x0 + (x1 - x0) * t - bow * (x0 + x1)
                y = y0 + (y1 - y0) * t - bow * (y0 + y1)
                points.append((cx + x * half_w, cy + y * half_h))
        draw.polygon(points, fill=fill)
    elif suit is Suit.SPADES:
        draw.polygon(_heart_points(cx, cy - s * 0.1, s * 0.8, flip=True), fill=fill)
        _stem(draw, cx, cy, s, fill)
    else:
        r = s * 0.215
        for dx, dy in ((0, -0.24), (-0.25, 0.08), (0.25, 0.08)):
            draw.ellipse((cx + dx * s - r, cy + dy * s - r, cx + dx * s + r, cy + dy * s + r), fill=fill)
        draw.polygon(
            [(cx, cy - s * 0.2), (cx - s * 0.22, cy + s * 0.1), (cx + s * 0.22, cy + s * 0.1)], fill=fill
        )
        _stem(draw, cx, cy, s, fill)


def _stem(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Colour) -> None:
    """The flared foot of a spade or club."""
    draw.polygon(
        [(cx - s * 0.05, cy + s * 0.05), (cx + s * 0.05, cy + s * 0.05),
         (cx + s * 0.2, cy + s * 0.5), (cx - s * 0.2, cy + s * 0.5)],
        fill=fill,
    )


def _canvas(m: Metrics) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    k = SUPERSAMPLE
    image = Image.new("RGBA", (m.card_w * k, m.card_h * k), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image), k


def _card_shape(draw: ImageDraw.ImageDraw, m: Metrics, k: int, fill: Colour, edge: Colour) -> None:
    draw.rounded_rectangle(
        (0, 0, m.card_w * k - 1, m.card_h * k - 1), radius=m.radius * k, fill=fill, outline=edge,
        width=max(1, round(1.3 * m.scale * k)),
    )


def card_face(card: Card, m: Metrics, *, four_colour: bool = False) -> Image.Image:
    """A face-up card: rank top left, suit top right, a large pip in the middle, index mirrored below.

    Its ink is :func:`suit_colour`'s, two colours or (``four_colour``) four. Not cached here:
    the board keeps each face with its shadow (``gatebot.render.image._shadowed``), the one copy it pastes.
    """
    image, draw, k = _canvas(m)
    colour = suit_colour(card.suit, four_colour=four_colour)
    _card_shape(draw, m, k, CARD_FACE, CARD_EDGE)
    rank = _RANK_TEXT[card.rank - 1]
    pad = m.pad * k
    # The rank's middle sits level with the corner pip, inside the fanned strip.
    middle = pad + m.rank_font * k // 2 + k
    corner = m.corner_pip * k
    _rank(image, rank, m, middle, m.card_w * k - pad - corner - corner // 2, colour)
    draw_suit(draw, card.suit, m.card_w * k - pad - corner / 2, middle, corner, colour)

    centre_x, centre_y = m.card_w * k / 2, centre_pip_y(m) * k
    if card.rank > 10:  # court cards get a tinted panel, where printed ones have a picture
        half_w, half_h = m.centre_pip * k * 0.62, m.centre_pip * k * 0.52
        draw.rounded_rectangle(
            (centre_x - half_w, centre_y - half_h, centre_x + half_w, centre_y + half_h), radius=m.radius * k // 2,
            fill=COURT_PANEL, outline=colour, width=max(1, round(1.4 * m.scale * k)),
        )
    size = m.centre_pip * k * {1: 1.15, 11: 0.74, 12: 0.74, 13: 0.74}.get(card.rank, 1.0)
    draw_suit(draw, card.suit, centre_x, centre_y, size, colour)

    # The index again, upside down in the bottom right corner, small.
    small = Image.new("RGBA", (m.card_w * k // 3, m.rank_font * k), (0, 0, 0, 0))
    small_draw = ImageDraw.Draw(small)
    small_draw.text(
        (small.width // 2, 0), rank, font=font(m.index_font * k, bold=True), fill=colour, anchor="mt",
    )
    image.alpha_composite(small.rotate(180), (m.card_w * k - small.width - pad // 2, m.card_h * k - small.height - pad))
    return image.reduce(k)


def _rank(image: Image.Image, rank: str, m: Metrics, middle: int, right: int, colour: Colour) -> None:
    """Write ``rank`` in a card's top left corner (in the four times larger sprite), in the bold weight.

    Its capitals are centred on ``middle`` unless a J's or a Q's tail, which DejaVu draws below
    the line, would then reach under the next card of a fanned pile: then every rank sits a
    little higher, so a J never loses its hook. A rank wider than the room left of ``right``
    (the 10, in a bold face) is drawn narrower, as printed decks set their 10s.
    """
    k = SUPERSAMPLE
    face = font(m.rank_font * k, bold=True)
    cap = -face.getbbox("K", anchor="ls")[1]
    tail = max(face.getbbox(letter, anchor="ls")[3] for letter in "JQ")
    # Clear of the next card's edge and of the top of its shadow, which reaches up past it.
    baseline = min(middle + cap // 2, m.fan * k - tail - 3 * k)
    x0, _, x1, _ = face.getbbox(rank, anchor="ls")
    start = min(0, math.floor(x0))  # a J's hook reaches left of where its advance starts
    mask = Image.new("L", (math.ceil(x1) - start, image.height), 0)
    ImageDraw.Draw(mask).text((-start, baseline), rank, font=face, fill=255, anchor="ls")
    left = m.pad * k - k + start
    if mask.width > right - left:
        mask = mask.resize((right - left, mask.height), Image.Resampling.LANCZOS)
    image.paste(Image.new(image.mode, mask.size, colour), (left, 0), mask)


@lru_cache(maxsize=8)
def blank_card(m: Metrics) -> Image.Image:
    """A card seen only by its edge, under the waste's top card."""
    image, draw, k = _canvas(m)
    _card_shape(draw, m, k, CARD_FACE, CARD_EDGE)
    return image.reduce(k)


@lru_cache(maxsize=8)
def card_back(m: Metrics) -> Image.Image:
    """A face-down card: white border, blue field with a lattice, as on a real deck."""
    image, draw, k = _canvas(m)
    _card_shape(draw, m, k, CARD_FACE, CARD_EDGE)
    inset = m.pad * k
    field = (inset, inset, m.card_w * k - inset, m.card_h * k - inset)
    pattern = Image.new("RGBA", image.size, BACK_BLUE)
    pattern_draw = ImageDraw.Draw(pattern)
    step, line = 11 * k * m.scale, max(1, round(1.4 * m.scale * k))
    span = image.width + image.height
    for i in range(-int(span // step), int(span // step) + 1):
        offset = i * step
        pattern_draw.line((offset, 0, offset + image.height, image.height), fill=BACK_LINES, width=line)
        pattern_draw.line((offset, image.height, offset + image.height, 0), fill=BACK_LINES, width=line)
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(field, radius=m.radius * k // 2, fill=255)
    image.paste(pattern, (0, 0), mask)
    return image.reduce(k)


@lru_cache(maxsize=32)
def slot(m: Metrics, suit: Suit | None, note: str) -> Image.Image:
    """An empty place: an outlined slot with a faint suit (an empty foundation) or a word."""
    image, draw, k = _canvas(m)
    draw.rounded_rectangle(
        (0, 0, m.card_w * k - 1, m.card_h * k - 1), radius=m.radius * k, fill=SLOT_FILL, outline=SLOT_LINE,
        width=max(1, round(2 * m.scale * k)),
    )
    if suit is not None:
        draw_suit(draw, suit, m.card_w * k / 2, m.card_h * k / 2, m.centre_pip * k, (255, 255, 255, 70))
    if note:
        draw.text(
            (m.card_w * k / 2, m.card_h * k / 2), note, font=font(m.caption_font * k), fill=SLOT_TEXT, anchor="mm"
        )
    return image.reduce(k)


@lru_cache(maxsize=8)
def shadow(m: Metrics) -> tuple[Image.Image, int]:
    """A soft shadow mask for one card, and how far it reaches past the card on each side."""
    reach = max(2, round(6 * m.scale))
    mask = Image.new("L", (m.card_w + 2 * reach, m.card_h + 2 * reach), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (reach, reach, reach + m.card_w - 1, reach + m.card_h - 1), radius=m.radius, fill=110
    )
    return mask.filter(ImageFilter.GaussianBlur(reach / 2)), reach
