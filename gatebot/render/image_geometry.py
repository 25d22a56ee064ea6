"""The vocabulary of a PNG board: its lengths at a scale, and the boxes of what is drawn where.

Every variant's layout (:mod:`gatebot.render.gate.layout` for Gate,
:mod:`gatebot.render.canfield.layout` for Canfield, ...) returns a :class:`Layout` made of these
pieces, and :mod:`gatebot.render.image` paints any of them the same way. Nothing here draws:
:func:`pip_centre` / :func:`corner_pip_centre` say where a card's suit pips are, so tests can
look for a card's colour exactly where it is drawn.
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib.resources import files

from PIL import ImageFont

from gatebot.messages import ENGLISH, N_, Language
from gatebot.rules import Card, Game, Suit, Termination

#: Piles longer than this are squeezed (a smaller fan step) so the board never grows taller.
LONGEST_UNSQUEEZED = 13
#: The scales a board may be drawn at: smaller is unreadable, larger wastes memory.
MIN_SCALE, MAX_SCALE = 0.25, 4.0
#: The smallest the header, a badge's letter and a caption are set, in px, whatever the scale: a
#: replay draws Gate at 0.4 (13, 10 and 9 px) and Archway's larger board at 0.31, where 8 px
#: badges and 7 px captions could not be read. Only the cards' own indices shrink with the cards.
SMALLEST_HEADER, SMALLEST_BADGE, SMALLEST_CAPTION = 12, 10, 10

Box = tuple[int, int, int, int]
"""Left, top, right, bottom in pixels (right and bottom exclusive)."""


#: The pictures' typeface, DejaVu Sans cut to the Latin script (``scripts/fonts.py``): every
#: European language's letters, German's ä ö ü ß among them, the punctuation the messages use
#: and the card suits. ``tests/render/test_font.py`` checks every word a picture can draw has its glyph.
FONT_FILES = {False: "DejaVuSans-Latin.ttf", True: "DejaVuSans-Bold-Latin.ttf"}

_fonts = threading.local()


@lru_cache(maxsize=2)
def font_data(bold: bool = False) -> bytes:
    """The font file of one weight, read from the package once per process (about 70 KB)."""
    return files("gatebot.render").joinpath("fonts", FONT_FILES[bold]).read_bytes()


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The pictures' font at ``size`` px, regular or ``bold``; built once per size and thread.

    Bold is the typeface's own bold weight, drawn by FreeType with its hinting, never a
    regular weight thickened with a stroke: a stroke fills a small letter's counters (at a
    replay's 10 px an S read as 8). Latin needs no shaping, so the text is laid out without
    Raqm, the same way on every machine whatever libraries Pillow found.

    Each thread keeps its own fonts (a FreeType face must not be used by two threads at
    once, which matters once boards are drawn in worker threads without a GIL).
    """
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] = _fonts.__dict__.setdefault("by_size", {})
    key = (size, bold)
    if key not in cache:
        cache[key] = ImageFont.truetype(io.BytesIO(font_data(bold)), size, layout_engine=ImageFont.Layout.BASIC)
    return cache[key]


def shortened(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` as it fits ``width`` px in ``face``: whole, or cut at its end with an ellipsis.

    Only a header too long even at its smallest size is cut: a long challenge name with a
    variant's options on a replay's small board.
    """
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text.rstrip() + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


@dataclass(frozen=True, slots=True)
class Metrics:
    """Every length of the board, in pixels, for one scale."""

    scale: float
    margin: int
    card_w: int
    card_h: int
    radius: int
    gap: int
    post_gap: int
    fan: int
    header_font: int
    badge_font: int
    badge_h: int
    caption_font: int
    rank_font: int
    index_font: int
    corner_pip: int
    centre_pip: int
    pad: int

    @classmethod
    def at(cls, scale: float) -> Metrics:
        """The lengths at ``scale``; ValueError outside :data:`MIN_SCALE`..:data:`MAX_SCALE`."""
        if not MIN_SCALE <= scale <= MAX_SCALE:
            raise ValueError(f"scale must be between {MIN_SCALE} and {MAX_SCALE}, not {scale}")

        def px(value: float) -> int:
            return max(1, round(value * scale))

        badge_font = max(SMALLEST_BADGE, px(25))
        return cls(
            scale=scale, margin=px(20), card_w=px(96), card_h=px(134), radius=px(9), gap=px(12),
            post_gap=px(30), fan=px(46), header_font=max(SMALLEST_HEADER, px(32)), badge_font=badge_font,
            badge_h=max(px(34), badge_font + 4), caption_font=max(SMALLEST_CAPTION, px(22)), rank_font=px(37),
            index_font=px(22), corner_pip=px(26), centre_pip=px(54), pad=px(7),
        )


class SlotKind(Enum):
    """What an empty place on the table is, which decides how it is drawn."""

    FREE = "free"  # a free space in Gate's columns (or a space in Canfield's piles)
    EMPTY = "empty"  # an emptied reserve, waste or stock
    FOUNDATION = "foundation"  # an empty foundation, waiting for its first card


@dataclass(frozen=True, slots=True)
class CardSpot:
    """One face-up card: where it is drawn and how much of it shows above the next card."""

    pile: str
    card: Card
    box: Box
    shown: int  # visible height in px; the card's full height when nothing covers it

    @property
    def exposed(self) -> bool:
        return self.shown >= self.box[3] - self.box[1]


@dataclass(frozen=True, slots=True)
class Slot:
    """An empty place drawn as an outlined slot (with its suit, for a foundation).

    ``note`` is the word written in it, when it is not the one its kind gives (``free``, ``empty``).
    """

    pile: str
    box: Box
    kind: SlotKind
    suit: Suit | None = None
    note: str | None = None


#: The word written in an empty place of each kind when its :class:`Slot` has no note of its own.
SLOT_NOTES = {SlotKind.FREE: N_("free"), SlotKind.EMPTY: N_("empty"), SlotKind.FOUNDATION: ""}


def slot_note(place: Slot, language: Language = ENGLISH) -> str:
    """What is written in the empty place ``place``: its own note, else its kind's word in ``language``."""
    if place.note is not None:
        return place.note
    word = SLOT_NOTES[place.kind]
    return language.gettext(word) if word else word


@dataclass(frozen=True, slots=True)
class Stack:
    """Cards lying under a pile's top (waste or stock), drawn as edges peeking out."""

    pile: str
    box: Box
    layers: int
    face_down: bool


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text: its anchor point (Pillow anchor codes), size and colour role."""

    text: str
    xy: tuple[int, int]
    size: int
    role: str  # "title", "facts", "won", "over", "caption", "badge", "count", "slot"
    anchor: str = "la"


@dataclass(frozen=True, slots=True)
class Badge:
    """A pill holding a pile's name as players type it (``L``, ``3``, ``F``)."""

    text: str
    box: Box


@dataclass(frozen=True, slots=True)
class Layout:
    """The whole board: image size and everything to draw, in drawing order per kind."""

    metrics: Metrics
    size: tuple[int, int]
    texts: tuple[Text, ...]
    badges: tuple[Badge, ...]
    slots: tuple[Slot, ...]
    stacks: tuple[Stack, ...]
    cards: tuple[CardSpot, ...]
    backs: tuple[Box, ...]  # face-down cards: the stock's top
    posts: tuple[Box, ...]  # the darker panels behind Gate's two reserves, the gateposts
    stock_count: int

    def spots(self, pile: str) -> list[CardSpot]:
        """The face-up cards of one pile, bottom to top."""
        return [spot for spot in self.cards if spot.pile == pile]


def pip_centre(spot: CardSpot, metrics: Metrics) -> tuple[int, int]:
    """The centre of the large suit pip of an exposed card: always inside the drawn shape."""
    x0, y0, x1, _ = spot.box
    return (x0 + x1) // 2, y0 + centre_pip_y(metrics)


def centre_pip_y(metrics: Metrics) -> int:
    """How far below a card's top edge its large pip is centred (below the corner index)."""
    return round(metrics.card_h * 0.6)


def corner_pip_centre(spot: CardSpot, metrics: Metrics) -> tuple[int, int]:
    """The centre of the small suit pip in a card's top-right corner, visible even when fanned."""
    _, y0, x1, _ = spot.box
    return x1 - metrics.pad - metrics.corner_pip // 2, y0 + metrics.pad + metrics.rank_font // 2 + 1


def fan_step(count: int, metrics: Metrics) -> int:
    """The offset between fanned cards: the normal step, squeezed for a very long pile."""
    if count <= LONGEST_UNSQUEEZED:
        return metrics.fan
    return metrics.fan * (LONGEST_UNSQUEEZED - 1) // (count - 1)


def card_box(x: int, y: int, m: Metrics) -> Box:
    return x, y, x + m.card_w, y + m.card_h


def badge(text: str, over: Box, top: int, m: Metrics) -> Badge:
    """A pill centred over the span ``over``'s left and right edges."""
    width = max(m.badge_h, round(font(m.badge_font, bold=True).getlength(text)) + m.badge_h * 2 // 3)
    centre = (over[0] + over[2]) // 2
    return Badge(text, (centre - width // 2, top, centre - width // 2 + width, top + m.badge_h))


def header_texts(
    game: Game, left_text: str, facts: str, m: Metrics, right_edge: int, language: Language = ENGLISH
) -> tuple[list[Text], int]:
    """``left_text`` (title and deal) at the left, ``facts`` (moves, score, the result) at the right.

    The result's words (``Won!``, ``No move left``) are in ``language``, as the caller's texts are.

    When both do not fit on one line, the facts go on a second line; a line still too wide
    (a narrow board with options) is set in a smaller size until it fits. Returns the texts
    and the height they take.
    """
    outcome = game.outcome()
    role = "facts"
    if outcome is not None:
        won = outcome.termination is Termination.WON
        facts = (language.gettext("Won!") if won else language.gettext("No move left")) + " · " + facts
        role = "won" if won else "over"

    available = right_edge - m.margin
    size = m.header_font
    spacing = m.header_font
    if font(size, bold=True).getlength(left_text) + spacing + font(size).getlength(facts) <= available:
        y = m.margin
        texts = [
            Text(left_text, (m.margin, y), size, "title"),
            Text(facts, (right_edge, y), size, role, "ra"),
        ]
        return texts, y + round(size * 1.2)
    texts = []
    y = m.margin
    for text, text_role in ((left_text, "title"), (facts, role)):
        line_size = size
        bold = text_role == "title"  # drawn in the bold weight (gatebot.render.image.draw_board)
        while line_size > 12 and font(line_size, bold=bold).getlength(text) > available:
            line_size -= 1
        texts.append(Text(shortened(text, font(line_size, bold=bold), available), (m.margin, y), line_size, text_role))
        y += round(line_size * 1.25)
    return texts, y
