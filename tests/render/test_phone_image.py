"""The phone board: read on a phone 320 px wide, and small enough to load quickly.

A phone shows a board about 320 px wide. Each rank is measured in the drawn picture: the ink
of a card's corner index (red or dark pixels in the left part of the strip of the card that
shows), its height scaled by 320 / the picture's width, must be at least 12 px. The layout says
where each card is; the glyph's height comes from the pixels, so it holds whatever font draws it.
"""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from gatebot.render import layout_board
from gatebot.render.image import PHONE_BYTES, PHONE_SCALE, render_png
from gatebot.render.image_geometry import CardSpot, Layout
from gatebot.rules import Game
from tests.render.playouts import playout

PHONE_WIDTH = 320
SMALLEST_RANK = 12
VARIANTS = ("gate", "little-gate", "canfield", "archway")


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as picture:
        return picture.convert("RGB")


def is_ink(pixel: tuple[int, int, int]) -> bool:
    """A pixel of a rank's ink (two-colour deck): red, or near-black and not green.

    Not the card's face, not a shadow on it, not the felt showing past a card's rounded corner
    (a green, however dark).
    """
    red, green, blue = pixel
    felt = green > red + 15 and green > blue + 10
    return (max(pixel) < 100 and not felt) or (red > 150 and green < 110 and blue < 120)


def rank_height(image: Image.Image, spot: CardSpot) -> int:
    """The height in pixels of the ink in the left part of the strip of ``spot`` that shows above the next card.

    Only a card covered by the next one is measured (its strip holds its index and corner pip
    alone) and only a number card from 2 to 10 (the top of a court card's panel or of an
    Ace's large pip can show in its strip). The rank lies in the left two thirds, the corner
    pip at the right; the top left corner is left out, where the card's rounded edge blends
    into the felt.
    """
    x0, y0, x1, _ = spot.box
    corner = (x1 - x0) // 8  # the card's rounded corner lies within this, blending into the felt
    inked = [
        any(is_ink(image.getpixel((x, y)))  # type: ignore[arg-type]
            for x in range(x0 + (corner if y < y0 + corner else 1), x0 + (x1 - x0) * 2 // 3))
        for y in range(y0, y0 + spot.shown)
    ]
    if True not in inked:
        return 0
    first = inked.index(True)
    # The rank is the first band of inked rows: a row with no ink ends it (below it could be the
    # tip of a large pip, were one to show).
    last = inked.index(False, first) if False in inked[first:] else len(inked)
    return last - first


def corner(spot: CardSpot) -> tuple[int, int, int, int]:
    """The part of ``spot`` measured: the left two thirds of the strip that shows."""
    x0, y0, x1, _ = spot.box
    return x0, y0, x0 + (x1 - x0) * 2 // 3, y0 + spot.shown


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def measured(layout: Layout, image: Image.Image) -> list[tuple[CardSpot, float]]:
    """Each covered number card's rank height as a phone 320 px wide shows it.

    Only cards whose measured corner no later card lies on: a pile fanned downwards; not the
    cards under an Archway packet's top, fanned sideways, which show their suit pip alone.
    """
    cards = layout.cards
    return [
        (spot, rank_height(image, spot) * PHONE_WIDTH / image.width)
        for i, spot in enumerate(cards)
        if not spot.exposed and 2 <= spot.card.rank <= 10
        and not any(overlaps(corner(spot), later.box) for later in cards[i + 1 :])
    ]


def positions(variant: str, seed: int, moves: int) -> list[Game]:
    """A random deal of ``variant`` and the position ``moves`` random moves on."""
    rng = random.Random(seed)
    game = Game.new(variant, deal=rng.randint(1, 2**32 - 1))
    return playout(game, rng, moves, every=max(1, moves))


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_rank_is_at_least_12_px_tall_on_a_phone(variant: str) -> None:
    looked = []
    for game in positions(variant, seed=7, moves=40):
        layout = layout_board(game, PHONE_SCALE, phone=True)
        image = decode(render_png(game, scale=PHONE_SCALE, phone=True))
        assert image.size == layout.size
        looked += measured(layout, image)
    assert len(looked) >= 3, "too few covered number cards to measure"
    for spot, height in looked:
        assert SMALLEST_RANK <= height < 40, (variant, spot.card, height)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_wide_board_is_what_the_phone_board_mends(variant: str) -> None:
    """The measure tells the two apart: the wide Gate and Archway boards' ranks are under 12 px on a phone."""
    game = positions(variant, seed=7, moves=40)[-1]
    heights = [height for _, height in measured(layout_board(game), decode(render_png(game)))]
    phone = [height for _, height in measured(layout_board(game, PHONE_SCALE, phone=True),
                                              decode(render_png(game, scale=PHONE_SCALE, phone=True)))]
    assert heights and phone
    assert min(phone) > max(heights)
    if variant in ("gate", "archway"):
        assert max(heights) < SMALLEST_RANK


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 120))
def test_a_phone_board_is_at_most_60_kb(variant: str, seed: int, moves: int) -> None:
    game = positions(variant, seed, moves)[-1]
    png = render_png(game, scale=PHONE_SCALE, phone=True, four_colour=seed % 2 == 1)
    assert len(png) <= PHONE_BYTES


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_phone_board_is_at_most_eight_cards_across(variant: str) -> None:
    """The phone board is no wider than eight cards with their gaps (and one wider gap), for every variant."""
    game = Game.new(variant, deal=3)
    layout = layout_board(game, phone=True)
    m = layout.metrics
    assert layout.size[0] <= 2 * m.margin + 8 * m.card_w + 7 * m.gap + m.post_gap


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 150))
def test_a_phone_boards_piles_keep_apart_within_the_picture(variant: str, seed: int, moves: int) -> None:
    """Every card and empty place lies inside the picture, and no two piles' cards lie on each other."""
    game = positions(variant, seed, moves)[-1]
    layout = layout_board(game, PHONE_SCALE, phone=True)
    width, height = layout.size
    for place in (*layout.cards, *layout.slots, *layout.badges):
        assert place.box[0] >= 0 and place.box[2] <= width and place.box[1] >= 0 and place.box[3] <= height
    for text in layout.texts:
        assert 0 <= text.xy[0] <= width and 0 <= text.xy[1] <= height, text
    cards = layout.cards
    for i, one in enumerate(cards):
        for other in cards[i + 1 :]:
            if one.pile != other.pile:
                assert not overlaps(one.box, other.box), (one, other)


def count_height(image: Image.Image, under: tuple[int, int, int, int]) -> int:
    """The height of the light ink (the count's words) in the felt under the card box ``under``.

    The first band of rows with a light pixel below the card's shadow: a row with none ends it
    (below it could be the next row's badges and cards).
    """
    x0, _, x1, y1 = under
    reach = x1 - x0
    lit = [
        any(min(image.getpixel((x, y))) > 180 for x in range(max(0, x0 - reach // 2), x1 + reach // 2))  # type: ignore[arg-type, operator]
        for y in range(y1 + 1, min(image.height, y1 + reach))
    ]
    if True not in lit:
        return 0
    first = lit.index(True)
    return (lit.index(False, first) if False in lit[first:] else len(lit)) - first


def test_the_wastes_count_reads_on_a_phone() -> None:
    """``+11 under`` under Gate's waste: at least 10 px tall at 320 px wide (the wide board's is under 5)."""
    game = Game.new("gate", deal=1)
    for _ in range(12):
        game.play_line("d")
    heights = {}
    for phone in (False, True):
        scale = PHONE_SCALE if phone else 1.0
        layout = layout_board(game, scale, phone=phone)
        image = decode(render_png(game, scale=scale, phone=phone))
        [waste] = layout.spots("W")
        heights[phone] = count_height(image, waste.box) * PHONE_WIDTH / image.width
    assert heights[True] >= 10 > 6 > heights[False] > 0, heights
