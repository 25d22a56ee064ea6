"""The board as a PNG picture of real cards on green felt, for Discord.

:func:`render_png` is a pure function: a position in, PNG bytes out, the same bytes for the
same position. It takes tens of milliseconds of CPU, so the bot must call it off the event
loop, ``await asyncio.to_thread(render_png, game)``, never directly in a coroutine.

The geometry is each family's layout (:func:`gatebot.render.boards.layout_board` finds it,
built from :mod:`gatebot.render.image_geometry`), the card pictures are in
:mod:`gatebot.render.image_cards`; this module pastes them together and encodes the PNG.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

from gatebot.render.boards import layout_board
from gatebot.render.image_cards import blank_card, card_back, card_face, shadow, slot
from gatebot.render.image_geometry import Box, Layout, Metrics, SlotKind, font
from gatebot.rules import Game

FELT_CENTRE = (40, 118, 66)
FELT_EDGE = (20, 78, 42)
BADGE_FILL = (14, 52, 28)
GATEPOST = (26, 88, 48)
BADGE_TEXT = (245, 236, 200)
TEXT_COLOURS = {
    "title": (250, 244, 220),
    "facts": (220, 232, 212),
    "won": (255, 214, 90),
    "over": (255, 170, 150),
    "caption": (235, 240, 225),
}
_SLOT_NOTES = {SlotKind.FREE: "free", SlotKind.EMPTY: "empty", SlotKind.FOUNDATION: ""}


def render_png(game: Game, *, scale: float = 1.0, four_colour: bool = False) -> bytes:
    """Draw ``game`` as a PNG, deterministic and side-effect free.

    A Gate board is about ``1140 * scale`` px wide, a Canfield board about ``700 * scale``, an
    Archway board ``1000 * scale``.

    Call it through ``asyncio.to_thread`` from async code: it is CPU work that would
    otherwise stall the bot's event loop.

    With ``four_colour`` the cards are a four-colour deck: clubs green, diamonds blue.
    """
    return encode(draw_board(layout_board(game, scale), four_colour=four_colour))


def draw_board(layout: Layout, *, four_colour: bool = False) -> Image.Image:
    """Paint a laid-out board: felt, header, badges, slots, stacks, then cards bottom to top."""
    m = layout.metrics
    image = _felt(layout.size).copy()
    draw = ImageDraw.Draw(image)
    for post in layout.posts:
        draw.rounded_rectangle(post, radius=m.radius + m.pad, fill=GATEPOST)
    for badge in layout.badges:
        _badge(draw, badge.text, badge.box, m)
    for place in layout.slots:
        sprite = slot(m, place.suit, _SLOT_NOTES[place.kind] if place.note is None else place.note)
        image.paste(sprite, place.box[:2], sprite)
    for stack in layout.stacks:
        sprite = card_back(m) if stack.face_down else blank_card(m)
        for layer in range(stack.layers, 0, -1):
            step = max(1, round(2 * m.scale)) * layer
            _card(image, sprite, (stack.box[0] + step, stack.box[1] + step), m)
    for box in layout.backs:
        _card(image, card_back(m), box[:2], m)
        _count(draw, layout.stock_count, box, m)
    for spot in layout.cards:
        _card(image, card_face(spot.card, m, four_colour=four_colour), spot.box[:2], m)
    for text in layout.texts:
        colour = TEXT_COLOURS[text.role]
        bold = max(1, round(0.6 * m.scale)) if text.role == "title" else 0
        draw.text(text.xy, text.text, font=font(text.size), fill=colour, anchor=text.anchor,
                  stroke_width=bold, stroke_fill=colour)
    return image


def encode(image: Image.Image) -> bytes:
    """PNG bytes of ``image``, with no metadata, so equal pictures give equal bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _card(image: Image.Image, sprite: Image.Image, xy: tuple[int, int], m: Metrics) -> None:
    """Paste a card with its soft shadow falling down and to the right."""
    mask, reach = shadow(m)
    drop = max(1, round(2 * m.scale))
    image.paste((0, 0, 0), (xy[0] - reach + drop // 2, xy[1] - reach + drop), mask)
    image.paste(sprite, xy, sprite)


def _badge(draw: ImageDraw.ImageDraw, text: str, box: Box, m: Metrics) -> None:
    draw.rounded_rectangle(box, radius=(box[3] - box[1]) // 2, fill=BADGE_FILL)
    centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
    bold = max(1, round(0.5 * m.scale))
    draw.text(centre, text, font=font(m.badge_font), fill=BADGE_TEXT, anchor="mm", stroke_width=bold,
              stroke_fill=BADGE_TEXT)


def _count(draw: ImageDraw.ImageDraw, count: int, box: Box, m: Metrics) -> None:
    """The stock's size on a white pill in the middle of its back: the only thing it shows."""
    text = str(count)
    size = m.header_font
    width = round(font(size).getlength(text)) + size
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    height = round(size * 1.35)
    draw.rounded_rectangle(
        (cx - width // 2, cy - height // 2, cx + width // 2, cy + height // 2), radius=height // 2,
        fill=(253, 252, 247), outline=(20, 40, 90), width=max(1, round(2 * m.scale)),
    )
    draw.text((cx, cy), text, font=font(size), fill=(20, 40, 90), anchor="mm", stroke_width=max(1, round(m.scale)),
              stroke_fill=(20, 40, 90))


@lru_cache(maxsize=8)  # boards differ in height, a few sizes come back again and again
def _felt(size: tuple[int, int]) -> Image.Image:
    """Green baize: lighter in the middle, darker towards the edges."""
    gradient = Image.radial_gradient("L").resize(size, Image.Resampling.BILINEAR)
    return Image.composite(Image.new("RGB", size, FELT_EDGE), Image.new("RGB", size, FELT_CENTRE), gradient)
