"""The four-colour deck: clubs green and diamonds blue on the PNG cards and the emoji board."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gatebot.render import layout_board, render_emoji, render_png
from gatebot.render.emoji_rows import display_width
from gatebot.render.image_geometry import pip_centre
from gatebot.rules import Game, Suit
from tests.render.gate.test_image import decode, is_dark, is_red, patch
from tests.render.test_spoken import visible_cards

Pixel = tuple[int, int, int]


def is_green(pixel: Pixel) -> bool:
    r, g, b = pixel
    return g > 90 and g > r + 50 and g > b + 30


def is_blue(pixel: Pixel) -> bool:
    r, g, b = pixel
    return b > 150 and b > r + 90 and b > g + 60


FOUR: dict[Suit, Callable[[Pixel], bool]] = {Suit(0): is_green, Suit(1): is_blue, Suit(2): is_red, Suit(3): is_dark}
TWO: dict[Suit, Callable[[Pixel], bool]] = {Suit(0): is_dark, Suit(1): is_red, Suit(2): is_red, Suit(3): is_dark}


@pytest.mark.parametrize("variant", ["gate", "canfield", "archway"])
@pytest.mark.parametrize(("four_colour", "inks"), [(True, FOUR), (False, TWO)])
def test_each_exposed_cards_big_pip_is_painted_in_its_suits_ink(
    variant: str, four_colour: bool, inks: dict[Suit, Callable[[Pixel], bool]]
) -> None:
    game = Game.new(variant, deal=617)
    layout = layout_board(game)
    image = decode(render_png(game, four_colour=four_colour))
    seen: set[Suit] = set()
    for spot in layout.cards:
        if not spot.exposed:
            continue
        pixels = patch(image, pip_centre(spot, layout.metrics), radius=2)
        assert all(map(inks[spot.card.suit], pixels)), (spot.card, pixels)
        seen.add(spot.card.suit)
    assert seen == set(Suit)  # every suit was sampled at least once


def test_the_four_colour_emoji_board_has_green_clubs_and_blue_diamonds() -> None:
    game = Game.new("gate", deal=617)
    plain, four = render_emoji(game), render_emoji(game, four_colour=True)
    clubs = sum(1 for card in visible_cards(game) if card.suit == Suit(0))
    diamonds = sum(1 for card in visible_cards(game) if card.suit == Suit(1))
    # An empty foundation shows the suit it waits for too.
    clubs += game.foundations[Suit(0)] is None
    diamonds += game.foundations[Suit(1)] is None
    assert four.count("\u2618\ufe0f") == clubs and four.count("\U0001f537") == diamonds
    assert "♧" not in four and "♦" not in four
    assert four.count("♥\ufe0f") == plain.count("♥\ufe0f") and four.count("♤") == plain.count("♤")
    assert "♧" in plain and "\u2618" not in plain
    assert display_width("\u2618\ufe0f") == display_width("\U0001f537") == display_width("♥\ufe0f")
