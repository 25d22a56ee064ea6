"""The PNG encoding of every variant's board: a small palette PNG that looks like the RGB picture.

The RGB picture is what :func:`gatebot.render.image.draw_board` paints; the PNG the bot
sends must decode to the same size, stay well under the RGB encoding's size (127 KB for
Gate's deal, 243 KB for Archway's), and differ from the picture only by a little on a few
edge pixels: the felt's gradient exactly, so it shows no rings.
"""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat

from gatebot.render import layout_board, render_png
from gatebot.render.image import PHONE_SCALE, draw_board
from gatebot.render.image_geometry import Layout
from gatebot.rules import VARIANTS, Game

#: The most a deal's board may take at the default scale, in KB. The RGB PNG took 127 KB for
#: Gate, 100 KB for Little Gate, 99 KB for Canfield and 243 KB for Archway; the palette PNG
#: measured 47, 37, 36 and 84.
DEAL_KB = {"gate": 60, "little-gate": 48, "canfield": 48, "archway": 105}
#: Mean absolute difference from the RGB picture, per channel and pixel (0-255): measured 0.4-0.7.
MEAN_DIFFERENCE = 1.0
#: The same, over the pixels with something drawn on them (cards, shadows, text): measured 1.2-1.3.
DRAWN_DIFFERENCE = 3.0


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def changed(first: Image.Image, second: Image.Image) -> Image.Image:
    """A mask: 255 where the two RGB pictures differ in any channel by any amount, else 0."""
    any_channel = ImageChops.difference(first, second).point(([0] + [255] * 255) * 3)
    return any_channel.convert("L").point([0] + [255] * 255)


def bare_felt(layout: Layout) -> Image.Image:
    """The board's felt with nothing on it, drawn through the same painter."""
    empty = Layout(layout.metrics, layout.size, (), (), (), (), (), (), (), 0)
    return draw_board(empty)


def check_encoding(game: Game, scale: float = 1.0) -> Image.Image:
    """``game``'s PNG is a palette image of its layout's size that looks like the RGB picture."""
    layout = layout_board(game, scale)
    png = decode(render_png(game, scale=scale))
    assert png.mode == "P"
    assert png.size == layout.size
    picture = draw_board(layout)
    shown = png.convert("RGB")
    difference = ImageChops.difference(picture, shown)
    assert sum(ImageStat.Stat(difference).mean) / 3 < MEAN_DIFFERENCE

    # Where the felt is bare, the PNG holds its colours exactly: the gradient has no bands.
    drawn = changed(picture, bare_felt(layout))
    untouched = ImageChops.invert(drawn)
    assert ImageChops.multiply(changed(picture, shown), untouched).getbbox() is None
    # Where something is drawn, the colours are close on average.
    drawn_stat = ImageStat.Stat(difference, mask=drawn)
    assert sum(drawn_stat.mean) / 3 < DRAWN_DIFFERENCE
    return png


@pytest.mark.parametrize("variant", [variant.name for variant in VARIANTS])
def test_a_deal_is_a_small_palette_png_that_looks_like_the_picture(variant: str) -> None:
    game = Game.new(variant, deal=1)
    data = render_png(game)
    assert len(data) < DEAL_KB[variant] * 1024
    check_encoding(game)


def test_every_scale_is_a_palette_png_of_its_size() -> None:
    game = Game.new("gate", deal=3)
    for scale in (0.5, 2.0):
        png = check_encoding(game, scale)
        assert png.size == layout_board(game, scale).size


def test_the_felt_keeps_every_shade_of_its_gradient() -> None:
    # A won Gate board is bare felt but for the header, foundations and empty slots: the felt's
    # shades (more than 60 of them) all survive in the palette, none merged into a neighbour.
    won = Game.from_text("gate\nL:\nR:\nF: KC KD KH KS\n" + "".join(f"{i}:\n" for i in range(1, 9)) + "W:\nS:")
    layout = layout_board(won)
    felt = bare_felt(layout)
    felt_colours = {colour for _, colour in felt.getcolors(1 << 16) or []}
    assert len(felt_colours) > 60
    png = check_encoding(won)
    shown = {colour for _, colour in png.convert("RGB").getcolors(1 << 16) or []}
    assert felt_colours <= shown


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from([variant.name for variant in VARIANTS]), deal=st.integers(1, 2**32 - 1),
       moves=st.integers(0, 80), seed=st.integers(0, 2**16))
def test_any_position_encodes_as_a_palette_png_that_looks_like_the_picture(
    variant: str, deal: int, moves: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game.new(variant, deal=deal)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    check_encoding(game)


def forget_drawn_pieces() -> None:
    """Empty every cache the board is drawn from: sprites, shadows, badges, felt, palette, the boards kept."""
    import gatebot.render.image as image
    import gatebot.render.image_cards as cards

    image._kept.clear()
    for module in (image, cards):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def test_a_board_drawn_from_kept_pieces_is_the_board_drawn_afresh() -> None:
    """Boards drawn one after another (both layouts, both decks, two variants) from the kept sprites and palettes
    are byte for byte the boards drawn with nothing kept: no piece of an earlier board shows on a later one."""
    rng = random.Random(29)
    kept = []
    for variant in ("gate", "archway"):
        game = Game.new(variant, deal=rng.randint(1, 2**32 - 1))
        for _ in range(2):
            for phone, four_colour in ((False, False), (True, True), (False, True)):
                options = {"scale": PHONE_SCALE if phone else 1.0, "phone": phone, "four_colour": four_colour}
                kept.append((game.copy(), options, render_png(game, **options)))  # type: ignore[arg-type]
            for _ in range(20):
                legal = game.legal_moves()
                if legal:
                    game.push(rng.choice(legal))
    forget_drawn_pieces()  # then drawn again in the other order: each piece drawn afresh, for another board first
    for position, options, drawn in reversed(kept):
        assert render_png(position, **options) == drawn  # type: ignore[arg-type]


def test_every_board_of_a_scale_and_deck_has_the_same_palette() -> None:
    """The palette is fixed per scale and deck: two boards' PNGs carry the same colours, whatever their cards."""
    first, second = Game.new("gate", deal=1), Game.new("canfield", deal=2)
    for four_colour in (False, True):
        palettes = [decode(render_png(game, four_colour=four_colour)).getpalette() for game in (first, second)]
        assert palettes[0] == palettes[1]
    assert decode(render_png(first)).getpalette() != decode(render_png(first, four_colour=True)).getpalette()
