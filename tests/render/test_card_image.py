"""The result card as a picture: the text card's squares in their colours, its lines, nothing more, in a few KB."""

from __future__ import annotations

import colorsys
import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from gatebot.locale import translator
from gatebot.render.card import DEALT, ResultCard, render_card
from gatebot.render.card_image import CardLayout, card_layout, render_card_png
from gatebot.render.image_geometry import font
from gatebot.service.stats import ascents
from tests.lines import LOST_DEAL_10, WIN_DEAL_1

#: What each emoji square looks like, as a person names its colour.
NAMED = {"🟩": "green", "🟨": "yellow", "🟧": "orange", "⬜": "white", "⬛": "black"}
PAPER_LIGHTNESS = 235


def colour_name(rgb: tuple[int, int, int]) -> str:
    """The colour's everyday name, from its hue and lightness (not from the drawing's palette)."""
    hue, lightness, saturation = colorsys.rgb_to_hls(*(v / 255 for v in rgb))
    if saturation < 0.15 or lightness > 0.9 or lightness < 0.25:
        return "white" if lightness > 0.7 else "black" if lightness < 0.3 else "grey"
    degrees = hue * 360
    for name, low, high in (("orange", 15, 40), ("yellow", 40, 70), ("green", 75, 165)):
        if low <= degrees < high:
            return name
    return f"hue {degrees:.0f}"


def picture(card: ResultCard) -> Image.Image:
    image = Image.open(io.BytesIO(render_card_png(card)))
    assert image.format == "PNG"
    return image.convert("RGB")


def centre(box: tuple[int, int, int, int]) -> tuple[int, int]:
    return ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)


@st.composite
def cards(draw: st.DrawFn) -> ResultCard:
    """Any result card: four rows (Gate, Canfield) or eight (Archway), any mix of squares and words."""
    steps = draw(st.integers(0, 400))
    ascent = st.one_of(st.none(), st.just(DEALT), *([st.integers(0, steps - 1)] if steps else []))
    rows = draw(st.sampled_from((4, 8)))
    total = 13 * rows
    return ResultCard(
        title=draw(st.sampled_from(("Gate", "Little Gate", "Canfield", "Archway"))),
        deal=draw(st.integers(1, 10**9)), won=draw(st.booleans()), score=draw(st.integers(0, total)),
        moves=draw(st.integers(0, 999)), hints=draw(st.integers(0, 50)), undos=draw(st.integers(0, 50)),
        seconds=draw(st.one_of(st.none(), st.floats(0, 10_000))),
        ascents=tuple(tuple(draw(ascent) for _ in range(13)) for _ in range(rows)), steps=steps,
        options=tuple(draw(st.lists(st.sampled_from(("single-moves", "draw-three")), max_size=2, unique=True))),
        challenge=draw(st.one_of(st.none(), st.text("abcdefgh XYZ'", min_size=1, max_size=24))),
        total=total,
    )


@settings(max_examples=12, deadline=None)
@given(cards())
def test_every_square_of_the_picture_is_coloured_as_the_text_cards_square(card: ResultCard) -> None:
    lines = render_card(card).splitlines()
    rows, legend_line = lines[1:-2], lines[-2]
    layout = card_layout(card)
    image = picture(card)
    assert image.size == layout.size
    assert [len(row) for row in layout.grid] == [len(row) for row in rows]
    drawn = [[colour_name(image.getpixel(centre(s.box))) for s in row] for row in layout.grid]
    assert drawn == [[NAMED[square] for square in row] for row in rows]
    # The grid reads as the text does: each row left to right, rows top to bottom.
    for row in layout.grid:
        assert len({s.box[1] for s in row}) == 1 and [s.box[0] for s in row] == sorted(s.box[0] for s in row)
    assert [row[0].box[1] for row in layout.grid] == sorted(row[0].box[1] for row in layout.grid)
    legend_squares = [entry.split(" ", 1)[0] for entry in legend_line.split(" · ")]
    assert [colour_name(image.getpixel(centre(s.box))) for s in layout.legend] == [NAMED[s] for s in legend_squares]


def text_boxes(layout: CardLayout) -> list[tuple[int, int, int, int]]:
    return [font(t.size).getbbox(t.text, anchor="lt") for t in layout.texts]


@settings(max_examples=8, deadline=None)
@given(cards())
def test_the_picture_writes_the_text_cards_lines_and_draws_nothing_else(card: ResultCard) -> None:
    lines = render_card(card).splitlines()
    layout = card_layout(card)
    words = [t.text for t in layout.texts]
    meanings = [entry.split(" ", 1)[1] for entry in lines[-2].split(" · ")]
    assert words == [lines[0], lines[-1], *meanings]
    image = picture(card).convert("L")
    shapes = [s.box for row in layout.grid for s in row] + [s.box for s in layout.legend]
    for text, (left, top, right, bottom) in zip(layout.texts, text_boxes(layout), strict=True):
        x, y = text.xy
        box = (x + left, y + top, x + right, y + bottom)
        assert image.crop(box).getextrema()[0] < 100, f"{text.text!r} has ink"
        shapes.append(box)
    # Paint every square and every line's box white: what is left is bare paper.
    blank = image.copy()
    for box in shapes:
        blank.paste(255, box)
    assert blank.getextrema()[0] >= PAPER_LIGHTNESS, "nothing is drawn outside the lines and squares"


def game_card(title: str, deal: int, steps: list[str], *, won: bool) -> ResultCard:
    return ResultCard(title=title, deal=deal, won=won, score=52 if won else 30, moves=len(steps), hints=2, undos=1,
                      seconds=372, ascents=ascents("gate", deal, (), steps), steps=len(steps))


def test_a_typical_card_is_a_palette_png_well_under_ten_kilobytes_the_same_bytes_each_time() -> None:
    archway = ResultCard(title="Archway", deal=3, won=False, score=60, moves=180, hints=0, undos=4, seconds=1500,
                         ascents=tuple(tuple([DEALT, *range(i, i + 9), None, None, None]) for i in range(8)),
                         steps=200, challenge="Friday Cup", total=104)
    for card in (game_card("Gate", 1, WIN_DEAL_1, won=True), game_card("Gate", 10, LOST_DEAL_10, won=False), archway):
        data = render_card_png(card)
        image = Image.open(io.BytesIO(data))
        assert (image.format, image.mode) == ("PNG", "P")
        assert len(data) < 8_000, (card.title, len(data))
        assert render_card_png(card) == data
        assert 300 <= image.width <= 800 and 150 <= image.height <= 500, image.size


def test_a_german_picture_writes_the_german_cards_lines() -> None:
    german = translator("de")
    card = game_card("Gate", 1, WIN_DEAL_1, won=True)
    lines = render_card(card, german).splitlines()
    words = [t.text for t in card_layout(card, german).texts]
    assert words == [lines[0], lines[-1], "früh", "Spielmitte", "spät"]
    assert words[0] == "Gate · Spiel 1 · gewonnen 52/52" and words[1].endswith("2 Tipps · 1 Rücknahme · 6:12")
    assert render_card_png(card, german) != render_card_png(card)
