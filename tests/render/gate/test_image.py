"""The PNG board: it decodes, has the size its layout says, is deterministic, and shows each card.

The layout (a pure function) says where each card is drawn; the pixels are then checked
at those places: a red card's pips are red, a black card's are dark, a free space is felt
with an outline and no card in it. The layout itself is checked against the engine's view
of the position: every visible card exactly once, the stock's cards never.
"""

from __future__ import annotations

import io
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import pytest
from PIL import Image

from gatebot.render import layout_board, render_png
from gatebot.render.image_geometry import CardSpot, Layout, SlotKind, corner_pip_centre, pip_centre
from gatebot.rules import Card, Game, GateGame

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def played(deal: int, moves: int, variant: str = "gate", seed: int = 0) -> GateGame:
    """A game of ``deal`` after ``moves`` random moves (preferring builds to draws)."""
    rng = random.Random(seed)
    game = Game.new(variant, deal=deal)
    assert isinstance(game, GateGame)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        builds = [move for move in legal if not move.is_draw]
        game.push(rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal))
    return game


def long_columns() -> GateGame:
    """Two full King-to-Ace columns and a 30-card column, beyond anything play can build."""
    deck = [str(Card.from_index(i)) for i in range(52)]
    text = "\n".join([
        "little-gate single-moves stock-fill", "L: " + " ".join(deck[:14]), "R:", "F: - - - -",
        "1: " + " ".join(deck[14:44]), "2:", "3: " + " ".join(deck[44:50]), "4:", "W: " + " ".join(deck[50:]), "S:",
    ])
    game = Game.from_text(text)
    assert isinstance(game, GateGame)
    return game


def patch(image: Image.Image, centre: tuple[int, int], radius: int = 1) -> list[tuple[int, int, int]]:
    x, y = centre
    return [image.getpixel((x + dx, y + dy)) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)]


def is_red(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return r > 150 and g < 90 and b < 90


def is_dark(pixel: tuple[int, int, int]) -> bool:
    return max(pixel) < 80


def visible_cards(game: GateGame) -> Counter[Card]:
    left, right = game.reserves
    seen = [*left, *right, *(top for top in game.foundations if top is not None)]
    seen += [card for column in game.columns for card in column]
    seen += game.waste[-1:]
    return Counter(seen)


def check_pixels(game: GateGame, layout: Layout, image: Image.Image) -> None:
    """Every card's suit colour shows where the layout puts its pips; free spaces hold no card."""
    m = layout.metrics
    assert image.size == layout.size
    for spot in layout.cards:
        want = is_red if spot.card.is_red else is_dark
        corner_x, corner_y = corner_pip_centre(spot, m)
        if corner_y + m.corner_pip // 2 < spot.box[1] + spot.shown:  # not in a squeezed, overlong pile
            corner = patch(image, (corner_x, corner_y))
            assert all(map(want, corner)), (spot, corner)
        if spot.exposed:
            centre = patch(image, pip_centre(spot, m), radius=2)
            assert all(map(want, centre)), (spot, centre)
    for place in layout.slots:
        x0, y0, x1, y1 = place.box
        inside = image.getpixel(((x0 + x1) // 2, y0 + (y1 - y0) // 5))
        assert max(inside) < 160 and inside[1] > inside[0], (place, inside)  # felt shows through


def check_layout(game: GateGame, layout: Layout) -> None:
    """The layout holds exactly the visible cards, inside the image, each pile labelled."""
    assert Counter(spot.card for spot in layout.cards) == visible_cards(game)
    width, height = layout.size
    for spot in layout.cards:
        x0, y0, x1, y1 = spot.box
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, spot
    labels = {badge.text for badge in layout.badges}
    assert labels == {"S", "W", "F", "L", "R", *map(str, range(1, len(game.columns) + 1))}
    left, right = game.reserves
    for label, pile in (("L", left), ("R", right), *((str(i), c) for i, c in enumerate(game.columns, start=1))):
        spots = layout.spots(label)
        assert [spot.card for spot in spots] == list(pile)
        assert [spot.exposed for spot in spots] == [i == len(pile) - 1 for i in range(len(pile))]
        assert all(a.box[1] < b.box[1] for a, b in pairwise(spots))  # fanned downwards
    free = {place.pile for place in layout.slots if place.kind is SlotKind.FREE}
    assert free == {str(i) for i, column in enumerate(game.columns, start=1) if not column}


def test_deal_1_decodes_at_the_size_of_its_layout() -> None:
    game = Game.new("gate", deal=1)
    assert isinstance(game, GateGame)
    layout = layout_board(game)
    image = decode(render_png(game))
    assert image.size == layout.size
    assert 1000 <= image.width <= 1200 and image.height < image.width  # fits Discord's preview
    check_layout(game, layout)
    check_pixels(game, layout, image)
    assert [spot.card for spot in layout.spots("L")] == [Card.from_text(c) for c in "JD 9H 5D 7C KD".split()]


def test_output_is_deterministic_and_changes_with_a_move() -> None:
    game = Game.new("gate", deal=617)
    assert isinstance(game, GateGame)
    first = render_png(game)
    render_png(played(5, 40))  # other boards in between leave no trace
    assert render_png(game) == first
    game.play(str(game.legal_moves()[0]))
    assert render_png(game) != first


def test_played_positions_show_each_card_where_the_layout_says() -> None:
    rng = random.Random("image")
    saw_waste = saw_foundation = 0
    for i in range(12):
        variant = ("gate", "little-gate")[i % 2]
        game = played(rng.randint(1, 2**32 - 1), rng.randint(0, 220), variant, seed=i)
        layout = layout_board(game)
        check_layout(game, layout)
        check_pixels(game, layout, decode(render_png(game)))
        saw_waste += len(game.waste) > 1
        saw_foundation += game.score > 0
    assert saw_waste and saw_foundation


def test_free_spaces_are_empty_outlined_slots() -> None:
    home = [Card(rank, suit) for suit in range(4) for rank in range(1, 6)]
    columns = {1: "KS QH JC", 3: "9D", 6: "TH 9C", 7: "6C"}
    placed = {Card.from_text(c) for cards in columns.values() for c in cards.split()}
    stock = [Card.from_index(i) for i in range(52) if Card.from_index(i) not in {*home, *placed}]
    text = "gate\nL:\nR:\nF: 5C 5D 5H 5S\n" + "".join(f"{i}: {columns.get(i, '')}\n" for i in range(1, 9))
    game = Game.from_text(text + "W:\nS: " + " ".join(map(str, stock)))
    assert isinstance(game, GateGame)
    layout = layout_board(game)
    assert {place.pile for place in layout.slots if place.kind is SlotKind.FREE} == {"2", "4", "5", "8"}
    check_layout(game, layout)
    check_pixels(game, layout, decode(render_png(game)))


def test_long_columns_still_fit_inside_the_image() -> None:
    game = long_columns()
    layout = layout_board(game)
    image = decode(render_png(game))
    check_layout(game, layout)
    check_pixels(game, layout, image)
    column = layout.spots("1")
    assert len(column) == 30 and column[-1].box[3] <= image.height - layout.metrics.margin
    fresh = layout_board(Game.new("little-gate", deal=1))  # type: ignore[arg-type]
    assert image.height < 2 * fresh.size[1]  # squeezed, not stretched


def test_full_king_to_ace_columns_keep_every_corner_readable() -> None:
    columns = [[Card(rank, suit) for rank in range(13, 0, -1)] for suit in range(4)]
    text = "gate\nL:\nR:\nF: - - - -\n" + "".join(
        f"{i}: {' '.join(map(str, columns[i - 1]))}\n" if i <= 4 else f"{i}:\n" for i in range(1, 9)
    ) + "W:\nS:"
    game = Game.from_text(text)
    assert isinstance(game, GateGame)
    layout = layout_board(game)
    steps = {b.box[1] - a.box[1] for a, b in pairwise(layout.spots("1"))}
    assert steps == {layout.metrics.fan}  # thirteen cards fan at the normal step
    check_pixels(game, layout, decode(render_png(game)))


def test_won_board_and_stock_back() -> None:
    won = Game.from_text("gate\nL:\nR:\nF: KC KD KH KS\n" + "".join(f"{i}:\n" for i in range(1, 9)) + "W:\nS:")
    assert isinstance(won, GateGame)
    layout = layout_board(won)
    assert any(text.role == "won" and "Won" in text.text for text in layout.texts)
    assert not layout.backs and {place.pile for place in layout.slots} >= {"S", "W", "L", "R"}
    check_pixels(won, layout, decode(render_png(won)))

    fresh = Game.new("gate", deal=1)
    assert isinstance(fresh, GateGame)
    layout = layout_board(fresh)
    assert len(layout.backs) == 1 and layout.stock_count == 34
    header = " ".join(text.text for text in layout.texts)
    assert "Gate" in header and "deal 1" in header and "0 moves" in header and "score 0/52" in header


def test_scale_shrinks_the_board() -> None:
    game = Game.new("gate", deal=1)
    assert isinstance(game, GateGame)
    full, half = layout_board(game), layout_board(game, scale=0.5)
    image = decode(render_png(game, scale=0.5))
    assert image.size == half.size
    assert abs(half.size[0] - full.size[0] / 2) <= 8
    check_pixels(game, half, image)


def test_spot_exposed_means_nothing_covers_it() -> None:
    spot = CardSpot("1", Card.from_text("7H"), (0, 0, 10, 20), 20)
    assert spot.exposed and not CardSpot("1", Card.from_text("7H"), (0, 0, 10, 20), 5).exposed


def test_scale_outside_the_readable_range_is_refused() -> None:
    game = Game.new("gate", deal=1)
    assert isinstance(game, GateGame)
    for scale in (0, 0.1, 5):
        with pytest.raises(ValueError, match="scale"):
            render_png(game, scale=scale)


def test_worker_threads_draw_the_same_bytes() -> None:
    # The bot draws boards in worker threads (asyncio.to_thread), several at once.
    games = [played(deal, 30) for deal in (1, 2, 3, 4)]
    alone = [render_png(game) for game in games]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(render_png, games * 2))
    assert together == alone * 2
