"""The board as a PNG picture of real cards on green felt, for Discord.

:func:`render_png`: a position in, PNG bytes out, the same bytes for the same position. It
takes 2.5-7 ms of CPU for a move's board (``benchmarks/board_speed.py``; 7-20 ms for a board
drawn afresh), so the bot must call it off the event loop, ``await asyncio.to_thread(render_png,
game)``, never directly in a coroutine; Pillow lets go of the GIL while it pastes and looks up
colours, zlib while it compresses, so the loop runs on.

The geometry is each family's layout (:func:`gatebot.render.boards.layout_board` finds it,
built from :mod:`gatebot.render.image_geometry`), the card pictures are in
:mod:`gatebot.render.image_cards`; this module pastes them together and encodes the PNG, a
256-colour palette PNG (see :func:`indices`): about a third of the bytes of an RGB one. It
keeps each game's last board and paints again only the places a move changed
(:func:`board_indices`), and compresses only the bands of rows it changed
(:mod:`gatebot.render.png_rows`).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise

from PIL import Image, ImageChops, ImageDraw

from gatebot.messages import ENGLISH, Language
from gatebot.render.boards import layout_board
from gatebot.render.image_cards import blank_card, card_back, card_face, shadow, slot
from gatebot.render.image_geometry import (
    Badge,
    Box,
    CardSpot,
    Layout,
    Metrics,
    Slot,
    SlotKind,
    Stack,
    Text,
    card_box,
    font,
    slot_note,
)
from gatebot.render.image_geometry import badge as badge_over
from gatebot.render.png_rows import Band, changed_bands, compressed_bands, png_bytes
from gatebot.rules import Card, Game, Suit

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


def render_png(
    game: Game, *, scale: float = 1.0, four_colour: bool = False, language: Language = ENGLISH,
    label: str | None = None, phone: bool = False,
) -> bytes:
    """Draw ``game`` as a PNG, deterministic: the same position and options, the same bytes.

    A Gate board is about ``1140 * scale`` px wide, a Canfield board about ``700 * scale``, an
    Archway board ``830 * scale``.

    Call it through ``asyncio.to_thread`` from async code: it is CPU work that would
    otherwise stall the bot's event loop.

    With ``four_colour`` the cards are a four-colour deck: clubs green, diamonds blue. The
    board's words (header, captions, empty places) are in ``language``; ``label`` names the game in
    the deal's place (see :func:`~gatebot.render.boards.render_text`). With ``phone`` it is the
    phone board (:func:`~gatebot.render.boards.layout_board`), at most about 850 px wide.

    The last board drawn of each game (its variant and deal) with these options is kept
    (:data:`KEPT_BYTES`): the next is that one with only the places a move changed painted
    again (:func:`board_indices`), pixel for pixel the board drawn afresh.
    """
    layout = layout_board(game, scale, language, label=label, phone=phone)
    key = (game.variant, game.deal, scale, phone, four_colour, language, label)
    before = _kept.get(key)
    kept = board_indices(layout, before, four_colour=four_colour, language=language)
    if before is not None and kept is before:  # nothing changed: the same bytes
        _kept.put(key, before)
        return before.png
    png, bands = compress(kept.board, before.bands if before else {}, kept.changed)
    kept = replace(kept, png=png, bands=bands)
    _kept.put(key, kept)
    return png


def draw_board(layout: Layout, *, four_colour: bool = False, language: Language = ENGLISH) -> Image.Image:
    """Paint a laid-out board: felt, header, badges, slots, stacks, then cards bottom to top.

    An empty place with no note of its own gets its kind's word in ``language`` (:func:`slot_note`).
    """
    image = _felt(layout.size).copy()
    _paint(image, layout, _placed(layout), (0, 0, *layout.size), four_colour=four_colour, language=language)
    return image


#: One piece a board draws (see :func:`_placed`): a badge, an empty place, a stack, a card or a
#: text as the layout has it, or ``("post", box)`` for a gatepost, ``("back", box, count)`` for the
#: stock's back with its count.
Piece = Hashable


def _placed(layout: Layout) -> list[tuple[Piece, Box]]:
    """Every piece ``layout`` draws, in the order it is drawn, with every pixel drawing it can change.

    That is a post's box, a card's with its shadow, the layers of a stack, a text's ink.
    """
    m = layout.metrics
    step = max(1, round(2 * m.scale))
    placed: list[tuple[Piece, Box]] = [(("post", post), (*post[:2], post[2] + 1, post[3] + 1)) for post in layout.posts]
    placed += [(badge, (*badge.box[:2], badge.box[2] + 1, badge.box[3] + 1)) for badge in layout.badges]
    placed += [(place, place.box) for place in layout.slots]
    for stack in layout.stacks:
        left, top, right, bottom = _card_reach(stack.box, m)
        placed.append((stack, (left, top, right + step * stack.layers, bottom + step * stack.layers)))
    placed += [(("back", box, layout.stock_count), _card_reach(box, m)) for box in layout.backs]
    placed += [(spot, _card_reach(spot.box, m)) for spot in layout.cards]
    placed += [(text, _text_reach(text)) for text in layout.texts]
    return placed


def _paint(
    image: Image.Image, layout: Layout, placed: list[tuple[Piece, Box]], area: Box, *, four_colour: bool = False,
    language: Language = ENGLISH,
) -> None:
    """Paint the pieces of ``layout`` (``placed``, from :func:`_placed`) that reach into ``area`` on ``image``.

    ``image`` shows ``area`` of the board: each piece is drawn where it lies less ``area``'s top
    left corner, in the board's order; Pillow leaves out what falls outside ``image``.
    """
    m = layout.metrics
    dx, dy = -area[0], -area[1]
    draw = ImageDraw.Draw(image)
    for piece, reach in placed:
        if not (reach[0] < area[2] and area[0] < reach[2] and reach[1] < area[3] and area[1] < reach[3]):
            continue
        if isinstance(piece, CardSpot):
            _card(image, _shadowed(piece.card, m, four_colour=four_colour), (piece.box[0] + dx, piece.box[1] + dy), m)
        elif isinstance(piece, Text):
            face = font(piece.size, bold=piece.role == "title")
            draw.text((piece.xy[0] + dx, piece.xy[1] + dy), piece.text, font=face, fill=TEXT_COLOURS[piece.role],
                      anchor=piece.anchor)
        elif isinstance(piece, Slot):
            sprite = slot(m, piece.suit, slot_note(piece, language))
            image.paste(sprite, (piece.box[0] + dx, piece.box[1] + dy), sprite)
        elif isinstance(piece, Badge):
            pill, shape = _badge(piece.text, piece.box[2] - piece.box[0], piece.box[3] - piece.box[1], m)
            image.paste(pill, (piece.box[0] + dx, piece.box[1] + dy), shape)
        elif isinstance(piece, Stack):
            sprite = _shadowed(None, m) if piece.face_down else _shadowed_blank(m)
            for layer in range(piece.layers, 0, -1):
                step = max(1, round(2 * m.scale)) * layer
                _card(image, sprite, (piece.box[0] + step + dx, piece.box[1] + step + dy), m)
        elif isinstance(piece, tuple) and piece[0] == "back":
            _card(image, _shadowed(None, m), (piece[1][0] + dx, piece[1][1] + dy), m)
            _count(draw, piece[2], _moved(piece[1], dx, dy), m)
        elif isinstance(piece, tuple) and piece[0] == "post":
            draw.rounded_rectangle(_moved(piece[1], dx, dy), radius=m.radius + m.pad, fill=GATEPOST)


def _moved(box: Box, dx: int, dy: int) -> Box:
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


@lru_cache(maxsize=1024)  # the same header, labels and captions come back move after move
def _text_reach(text: Text) -> Box:
    """The pixels ``text``'s ink can take, a pixel wider all round."""
    left, top, right, bottom = font(text.size, bold=text.role == "title").getbbox(text.text, anchor=text.anchor)
    x, y = text.xy
    return x + math.floor(left) - 1, y + math.floor(top) - 1, x + math.ceil(right) + 1, y + math.ceil(bottom) + 1


def _card_reach(box: Box, m: Metrics) -> Box:
    """The pixels a card at ``box`` covers with its shadow (see :func:`_card`)."""
    mask, reach = shadow(m)
    drop = max(1, round(2 * m.scale))
    left, top = box[0] - reach + drop // 2, box[1] - reach + drop
    return left, top, left + mask.width, top + mask.height


def changed_areas(before: Layout, after: Layout) -> list[Box] | None:
    """The areas of the board to paint again to turn ``before``'s picture into ``after``'s; None for all of it.

    The reach of every piece one draws and the other does not (a card moved, a text changed),
    overlapping areas merged. None when the boards differ in size or lengths, or when pieces
    both draw come in a different order (one would then cover another the other way round).
    """
    if before.metrics != after.metrics or before.size != after.size:
        return None
    return _changed(_placed(before), _placed(after), after.size)


def _changed(old: list[tuple[Piece, Box]], new: list[tuple[Piece, Box]], size: tuple[int, int]) -> list[Box] | None:
    """:func:`changed_areas` of two boards of ``size`` by their pieces.

    Each piece is hashed once: hashing the pieces is most of the cost.
    """
    where = {piece: number for number, (piece, _) in enumerate(new)}
    found = [where.get(piece) for piece, _ in old]
    kept = [number for number in found if number is not None]
    if any(later <= earlier for earlier, later in pairwise(kept)):
        return None
    still = set(kept)
    gone = [reach for (_, reach), number in zip(old, found, strict=True) if number is None]
    areas: list[Box] = []
    for reach in [*gone, *(reach for number, (_, reach) in enumerate(new) if number not in still)]:
        area = max(0, reach[0]), max(0, reach[1]), min(size[0], reach[2]), min(size[1], reach[3])
        if area[0] < area[2] and area[1] < area[3]:
            areas.append(area)
    return _merged(areas)


def _merged(areas: list[Box]) -> list[Box]:
    """``areas`` with every two that overlap replaced by the box around both, until none overlap."""
    merged: list[Box] = []
    for area in areas:
        while True:
            for other in merged:
                if other[0] < area[2] and area[0] < other[2] and other[1] < area[3] and area[1] < other[3]:
                    merged.remove(other)
                    area = (min(area[0], other[0]), min(area[1], other[1]),
                            max(area[2], other[2]), max(area[3], other[3]))
                    break
            else:
                break
        merged.append(area)
    return merged


@dataclass(frozen=True, slots=True)
class _Kept:
    """A board as it was last drawn: its layout, its palette picture (never changed once kept) and its PNG.

    With the PNG, its bands of rows compressed at each level tried (:mod:`gatebot.render.png_rows`);
    ``changed`` says which bands differ from the board it was painted over (None: all of them).
    """

    layout: Layout
    placed: list[tuple[Piece, Box]]
    board: Image.Image
    changed: frozenset[int] | None = None
    png: bytes = b""
    bands: Mapping[int, tuple[Band, ...]] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """The bytes it holds: a byte a pixel, and the PNG's."""
        return self.board.width * self.board.height + len(self.png) * (1 + len(self.bands))


#: The most bytes of boards kept to paint the next move on (a byte a pixel and the PNG): about
#: 20 wide boards or 40 phone boards. A board not kept is drawn afresh.
KEPT_BYTES = 16_000_000


class _KeptBoards:
    """The last board of each game drawn lately, the least recently drawn forgotten first; safe across threads."""

    def __init__(self, most_bytes: int) -> None:
        self._boards: OrderedDict[Hashable, _Kept] = OrderedDict()
        self._bytes = 0
        self._most = most_bytes
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> _Kept | None:
        with self._lock:
            return self._boards.get(key)

    def put(self, key: Hashable, kept: _Kept) -> None:
        with self._lock:
            old = self._boards.pop(key, None)
            if old is not None:
                self._bytes -= old.size
            self._boards[key] = kept
            self._bytes += kept.size
            while self._bytes > self._most and self._boards:
                _, dropped = self._boards.popitem(last=False)
                self._bytes -= dropped.size

    def clear(self) -> None:
        """Forget every board."""
        with self._lock:
            self._boards.clear()
            self._bytes = 0


_kept = _KeptBoards(KEPT_BYTES)


def board_indices(
    layout: Layout, kept: _Kept | None = None, *, four_colour: bool = False, language: Language = ENGLISH
) -> _Kept:
    """``layout``'s board as a palette picture: drawn afresh, or ``kept``'s with what changed painted again.

    Each changed area (:func:`changed_areas`) is painted from bare felt with every piece that
    reaches into it, in the board's order, then turned into palette indices (:func:`indices`):
    a pixel's colour and index depend on nothing but the pieces over it, so the board is the one
    drawn afresh. Returned with its layout, to keep for the next; ``kept`` itself when nothing changed.
    """
    m = layout.metrics
    placed = _placed(layout)
    areas = None
    if kept is not None and kept.layout.metrics == m and kept.layout.size == layout.size:
        areas = _changed(kept.placed, placed, layout.size)
    if kept is None or areas is None:
        image = _felt(layout.size).copy()
        _paint(image, layout, placed, (0, 0, *layout.size), four_colour=four_colour, language=language)
        return _Kept(layout, placed, indices(image, m, (0, 0), four_colour=four_colour))
    if not areas:
        return kept
    board = kept.board.copy()
    felt = _felt(layout.size)
    for area in areas:
        image = felt.crop(area)
        _paint(image, layout, placed, area, four_colour=four_colour, language=language)
        board.paste(indices(image, m, area[:2], board_size=layout.size, four_colour=four_colour), area[:2])
    return _Kept(layout, placed, board, changed_bands(areas))


#: The scale the phone board is drawn at: the ratio of a rank to the board's width is the same
#: at every scale, so this is small enough for the fullest board (Archway's deal) to stay well
#: within :data:`PHONE_BYTES` and large enough to stay sharp on a phone's dense screen.
PHONE_SCALE = 0.7
#: The most bytes a board picture may take, wide or phone, so it uploads and loads quickly on any connection.
BOARD_BYTES = 60_000
#: The most bytes a phone board may take, so it loads quickly on a phone's connection: every board's.
PHONE_BYTES = BOARD_BYTES

#: zlib effort for the palette PNG, first the fastest that keeps most boards within
#: :data:`BOARD_BYTES`, then more for a board over them. Compressing is the largest part of a
#: board's CPU and its cost grows with the level: 3 takes about half of 6's time for 15-25% more
#: bytes (the banded felt, :data:`FELT_BAND`, more than makes up for them); 5 is 10% smaller than
#: 3 for half as much again (wide Archway boards, near the bytes at 3, often need it); 1 and 2 save
#: little time and are larger again; 9 (what ``optimize=True`` sets) is five to eight times 6's time.
COMPRESS_LEVELS = (3, 5, 9)


def encode(image: Image.Image, m: Metrics, *, four_colour: bool = False) -> bytes:
    """A board drawn by :func:`draw_board` at ``m`` as palette PNG bytes, no metadata (equal boards, equal bytes)."""
    return compress(indices(image, m, (0, 0), four_colour=four_colour))[0]


def indices(
    image: Image.Image, m: Metrics, corner: tuple[int, int], *, board_size: tuple[int, int] | None = None,
    four_colour: bool = False,
) -> Image.Image:
    """The part of a board at ``m`` that ``image`` shows, its top left at ``corner``, as a palette picture.

    A board holds a few thousand colours: the felt's gradient and, on it, the cards, their
    shadows and the anti-aliased blends along every edge. The felt gets its own colours
    exactly (:data:`_FELT_COLOURS`, the palette's first entries): a quantizer merges the
    felt's neighbouring shades and the smooth gradient shows rings. Every other pixel (where
    anything was drawn) takes its nearest colour in the whole palette, the felt's and
    :func:`card_colours`, fixed for the metrics and the deck, through Pillow's cached lookup:
    no board is quantized afresh, which took three times as long and gave a PNG as large.
    Dithering stays off (dither noise would show as grain on flat card faces and cost bytes).
    ``board_size`` is the whole board's, when ``image`` shows only part of it.
    """
    size = board_size or image.size
    area = (*corner, corner[0] + image.width, corner[1] + image.height)
    palette = _palette_image(m, four_colour)
    felt = _felt_shades(size).crop(area)
    felt.paste(image.quantize(palette=palette, dither=Image.Dither.NONE), (0, 0), _drawn(image, _felt(size).crop(area)))
    felt.putpalette(palette.getpalette() or [])
    return felt


def compress(
    board: Image.Image, kept: Mapping[int, tuple[Band, ...]] | None = None, changed: frozenset[int] | None = None
) -> tuple[bytes, dict[int, tuple[Band, ...]]]:
    """A palette picture from :func:`indices` as PNG bytes, no metadata (equal boards, equal bytes).

    At the first of :data:`COMPRESS_LEVELS` that keeps it within :data:`BOARD_BYTES`, or at the
    last. Its rows are compressed in bands (:mod:`gatebot.render.png_rows`): the bands ``kept``
    from the board it was painted over at a level are used again at that level where they are
    not ``changed``. Returned with its bands at each level tried, to keep.
    """
    kept = kept or {}
    tried: dict[int, tuple[Band, ...]] = {}
    data = b""
    for level in COMPRESS_LEVELS:
        tried[level] = compressed_bands(board, level, kept.get(level, ()), changed if level in kept else None)
        data = png_bytes(board, tried[level])
        if len(data) <= BOARD_BYTES:
            break
    return data, tried


@lru_cache(maxsize=16)
def card_colours(m: Metrics, *, four_colour: bool = False) -> Image.Image:
    """The colours every board at ``m`` (with a two- or four-colour deck) draws beside the bare felt, as a palette.

    What Pillow's fast octree quantizer finds on :func:`_sample`, a board that shows every
    card face, the back, the empty places, badges, the stock's count and text in every colour,
    each as a board draws them (shadows on the felt and on other cards). Drawn once per metrics
    and deck, then kept: every board takes the same colours, so its picture depends on nothing
    but its own cards.
    """
    sample = draw_board(_sample(m), four_colour=four_colour)
    # Bare felt takes the felt's own entries: paint it one colour, so it costs the octree one entry.
    sample.paste(FELT_CENTRE, (0, 0, *sample.size), _bare_felt(sample, _felt(sample.size)))
    quantized = sample.quantize(_CARD_ENTRIES, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = Image.new("P", (1, 1))
    palette.putpalette((quantized.getpalette() or [])[: 3 * _CARD_ENTRIES])
    return palette


@lru_cache(maxsize=16)
def _palette_image(m: Metrics, four_colour: bool) -> Image.Image:
    """The PNG's palette as an image to quantize with: the felt's shades, then :func:`card_colours`.

    One image per metrics and deck, kept: Pillow keeps its nearest-colour lookup with it.
    """
    cards = card_colours(m, four_colour=four_colour).getpalette() or []
    palette = Image.new("P", (1, 1))
    palette.putpalette((*(value for colour in _FELT_COLOURS for value in colour), *cards[: 3 * _CARD_ENTRIES]))
    return palette


def _sample(m: Metrics) -> Layout:
    """A board with one of everything a board draws: see :func:`card_colours`.

    Thirteen columns, one per rank, of the four suits fanned downwards; then the stock's back
    with its count over its stacked edges and a waste over its own; under them an empty
    foundation of each suit, an empty place of each word and a gatepost; badges; every text colour.
    """
    step = m.card_w + m.gap
    top = 2 * m.margin + m.header_font + m.badge_h
    low = top + m.card_h + 4 * m.fan
    cards = [
        CardSpot(str(rank), Card(rank, suit), card_box(m.margin + (rank - 1) * step, top + suit * m.fan, m),
                 m.card_h if suit is Suit.SPADES else m.fan)
        for rank in range(1, 14) for suit in Suit
    ]
    stock, waste = card_box(m.margin + 13 * step, top, m), card_box(m.margin + 14 * step, top, m)
    cards.append(CardSpot("W", Card(12, Suit.HEARTS), waste, m.card_h))
    slots = [Slot("F", card_box(m.margin + i * step, low, m), SlotKind.FOUNDATION, suit) for i, suit in enumerate(Suit)]
    slots += [Slot("1", card_box(m.margin + 4 * step, low, m), SlotKind.FREE),
              Slot("W", card_box(m.margin + 5 * step, low, m), SlotKind.EMPTY)]
    roles = ("title", "facts", "won", "over")
    texts = [Text("Gate · 12 Won!", (m.margin + i * 4 * step, m.margin), m.header_font, role)
             for i, role in enumerate(roles)]
    texts.append(Text("+12 under 7 K", (m.margin + 9 * step, low), m.caption_font, "caption"))
    badge_top = top - m.badge_h - m.pad
    return Layout(
        metrics=m, size=(m.margin + 15 * step + m.margin, low + m.card_h + m.margin), texts=tuple(texts),
        badges=(badge_over("S", stock, badge_top, m), badge_over("W", waste, badge_top, m)), slots=tuple(slots),
        stacks=(Stack("S", stock, 3, face_down=True), Stack("W", waste, 3, face_down=False)), cards=tuple(cards),
        backs=(stock,), posts=((m.margin + 6 * step, low - m.pad, m.margin + 8 * step, low + m.card_h + m.pad),),
        stock_count=24,
    )


def _bare_felt(image: Image.Image, felt: Image.Image) -> Image.Image:
    """A mask, 255 where ``image`` shows the felt untouched, 0 wherever anything was drawn."""
    return ImageChops.invert(_drawn(image, felt))


def _drawn(image: Image.Image, felt: Image.Image) -> Image.Image:
    """A mask, 255 wherever ``image`` differs from ``felt`` in any channel, 0 where it shows the felt untouched.

    Each channel's difference weighs 255 in the sum, which stops at 255: a difference of one
    in one channel is enough.
    """
    return ImageChops.difference(image, felt).convert("L", (255.0, 255.0, 255.0, 0.0))


def _card(image: Image.Image, sprite: Image.Image, xy: tuple[int, int], m: Metrics) -> None:
    """Paste a card sprite from :func:`_shadowed` with its top left corner at ``xy``."""
    _, reach = shadow(m)
    drop = max(1, round(2 * m.scale))
    image.paste(sprite, (xy[0] - reach + drop // 2, xy[1] - reach + drop), sprite)


def _with_shadow(sprite: Image.Image, m: Metrics) -> Image.Image:
    """``sprite`` over its soft shadow, which falls down and to the right: one paste per card, not two."""
    mask, reach = shadow(m)
    drop = max(1, round(2 * m.scale))
    combined = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    combined.putalpha(mask)
    combined.alpha_composite(sprite, (reach - drop // 2, reach - drop))
    return combined


@lru_cache(maxsize=8 * 53)
def _shadowed(card: Card | None, m: Metrics, *, four_colour: bool = False) -> Image.Image:
    """A face-up ``card`` (in a two- or four-colour deck), or the back for None, with its shadow."""
    return _with_shadow(card_back(m) if card is None else card_face(card, m, four_colour=four_colour), m)


@lru_cache(maxsize=8)
def _shadowed_blank(m: Metrics) -> Image.Image:
    return _with_shadow(blank_card(m), m)


@lru_cache(maxsize=64)  # a board has at most a dozen badges, the same on every board of its variant
def _badge(text: str, width: int, height: int, m: Metrics) -> tuple[Image.Image, Image.Image]:
    """A pile's name on a dark pill: the picture and the pill's shape to paste it through."""
    pill = Image.new("RGB", (width + 1, height + 1), BADGE_FILL)  # the box's right and bottom edges are drawn
    shape = Image.new("L", pill.size, 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, width, height), radius=height // 2, fill=255)
    ImageDraw.Draw(pill).text((width // 2, height // 2), text, font=font(m.badge_font, bold=True), fill=BADGE_TEXT,
                              anchor="mm")
    return pill, shape


def _count(draw: ImageDraw.ImageDraw, count: int, box: Box, m: Metrics) -> None:
    """The stock's size on a white pill in the middle of its back: the only thing it shows."""
    text = str(count)
    size = m.header_font
    face = font(size, bold=True)
    while size > 1 and round(face.getlength(text)) + size > m.card_w - 2 * m.pad:  # the pill stays on the card
        size -= 1
        face = font(size, bold=True)
    width = round(face.getlength(text)) + size
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    height = round(size * 1.35)
    draw.rounded_rectangle(
        (cx - width // 2, cy - height // 2, cx + width // 2, cy + height // 2), radius=height // 2,
        fill=(253, 252, 247), outline=(20, 40, 90), width=max(1, round(2 * m.scale)),
    )
    draw.text((cx, cy), text, font=face, fill=(20, 40, 90), anchor="mm")


def _felt_mix(gradient: Image.Image) -> Image.Image:
    """The felt's colour for each gradient value: the edge's where it is 255, the centre's at 0."""
    size = gradient.size
    return Image.composite(Image.new("RGB", size, FELT_EDGE), Image.new("RGB", size, FELT_CENTRE), gradient)


#: Rows of the felt in bands this tall share their shades (each band takes its middle row's).
#: A shade is one step of one channel, so a ring's edge stepping every 16 px instead of every
#: row shows no more than the ring itself; but a row equal to the one above costs deflate a single
#: match, where a row with every ring's edge moved costs it one per edge: the felt took about
#: a third of a board's bytes.
FELT_BAND = 16


@lru_cache(maxsize=8)  # boards differ in height, a few sizes come back again and again
def _gradient(size: tuple[int, int]) -> Image.Image:
    """The felt's radial gradient for a board of ``size``, 0 in the middle, in bands of :data:`FELT_BAND` rows."""
    width, height = size
    smooth = Image.radial_gradient("L").resize(size, Image.Resampling.BILINEAR)
    banded = Image.new("L", size)
    for top in range(0, height, FELT_BAND):
        rows = min(FELT_BAND, height - top)
        middle = top + rows // 2
        banded.paste(smooth.crop((0, middle, width, middle + 1)).resize((width, rows)), (0, top))
    return banded


@lru_cache(maxsize=8)
def _felt(size: tuple[int, int]) -> Image.Image:
    """Green baize: lighter in the middle, darker towards the edges."""
    return _felt_mix(_gradient(size))


@lru_cache(maxsize=8)
def _felt_shades(size: tuple[int, int]) -> Image.Image:
    """The felt as a palette image of indices into :data:`_FELT_COLOURS`, the first entries of every board's palette."""
    return Image.frombytes("P", size, _gradient(size).point(_FELT_INDEX).tobytes())


def _felt_palette() -> tuple[tuple[tuple[int, int, int], ...], list[int]]:
    """Every colour the felt can take (as Pillow mixes them), and each gradient value's index among them."""
    data = _felt_mix(Image.frombytes("L", (256, 1), bytes(range(256)))).tobytes()
    mixed = [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]
    colours = tuple(sorted(set(mixed)))
    return colours, [colours.index(colour) for colour in mixed]


_FELT_COLOURS, _FELT_INDEX = _felt_palette()
_CARD_ENTRIES = 256 - len(_FELT_COLOURS)
