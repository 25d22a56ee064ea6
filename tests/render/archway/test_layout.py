"""Archway's PNG board drawn as an arch: each packet with its rank, apart from the rest, in the rules text's order.

The packets are read back from the layout's own pieces, not from its places: a packet is the
boxes of its cards (the ``P`` spots, in the engine's packet order) or its empty slot, plus its
rank label as the font sets it. The checks are the picture's: every packet and label inside the
image, no two packets touching each other, the columns or the foundations, every card's suit
pip uncovered, the packets rising from the Aces to the Sevens and falling to the Kings, and the
board within 900 px of height.
"""

from __future__ import annotations

from itertools import combinations, pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.render import layout_board, render_png
from gatebot.render.image_geometry import Box, Layout, corner_pip_centre, font
from gatebot.rules import ArchwayGame
from tests.render.archway.test_boards import RANK_WORDS, built, deal, playout
from tests.render.gate.test_image import decode, is_dark, is_red, patch

HEIGHT_BOUND = 900


def union(boxes: list[Box]) -> Box:
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(box: Box, layout: Layout) -> bool:
    width, height = layout.size
    return 0 <= box[0] < box[2] <= width and 0 <= box[1] < box[3] <= height


def label_boxes(layout: Layout) -> dict[str, Box]:
    """Each rank label's inked box, where the font draws it."""
    found: dict[str, Box] = {}
    for text in layout.texts:
        if text.role == "caption" and text.text in RANK_WORDS:
            assert text.text not in found, f"two labels {text.text}"
            x0, y0, x1, y1 = font(text.size).getbbox(text.text, anchor=text.anchor)
            found[text.text] = (text.xy[0] + round(x0), text.xy[1] + round(y0), text.xy[0] + round(x1),
                                text.xy[1] + round(y1))
    return found


def packets(game: ArchwayGame, layout: Layout) -> list[tuple[Box, list[Box]]]:
    """Each packet, Aces first: the box of its cards or its empty slot, and the boxes of its cards."""
    spots = iter(layout.spots("P"))
    empty = {slot.note: slot.box for slot in layout.slots if slot.pile == "P"}
    found = []
    for rank, packet in enumerate(game.arch):
        boxes = [next(spots).box for _ in packet]
        found.append((union(boxes) if boxes else empty[RANK_WORDS[rank]], boxes))
    assert next(spots, None) is None
    return found


def check_arch(game: ArchwayGame) -> Layout:
    layout = layout_board(game)
    labels = label_boxes(layout)
    assert set(labels) == set(RANK_WORDS)
    placed = packets(game, layout)
    # A packet is its cards (or slot) with its label: each inside the picture, none touching another.
    wholes = [union([box, labels[RANK_WORDS[rank]]]) for rank, (box, _) in enumerate(placed)]
    assert all(inside(whole, layout) for whole in wholes)
    for (i, a), (j, b) in combinations(enumerate(wholes), 2):
        assert not overlap(a, b), (RANK_WORDS[i], a, RANK_WORDS[j], b)
    others = [spot.box for spot in layout.cards if spot.pile != "P"]
    others += [slot.box for slot in layout.slots if slot.pile != "P"] + [badge.box for badge in layout.badges]
    for rank, whole in enumerate(wholes):
        touching = [box for box in others if overlap(whole, box)]
        assert not touching, (RANK_WORDS[rank], whole, touching)
    # Every card's suit pip is uncovered: no card drawn after it lies over its corner.
    m = layout.metrics
    overlong = {str(number) for number, column in enumerate(game.columns, start=1) if len(column) > 12}
    for i, spot in enumerate(layout.cards):
        assert inside(spot.box, layout)
        if spot.pile in overlong:  # a pasted column longer than any in play is squeezed into the room
            continue
        cx, cy = corner_pip_centre(spot, m)
        half = m.corner_pip // 2
        pip = (cx - half, cy - half, cx + half, cy + half)
        assert all(not overlap(pip, later.box) for later in layout.cards[i + 1:]), spot
    return layout


def tops(game: ArchwayGame, layout: Layout) -> list[Box]:
    return [box for box, _ in packets(game, layout)]


def test_the_deal_is_an_arch_from_the_aces_over_the_sevens_to_the_kings() -> None:
    game = deal()
    layout = check_arch(game)
    labels = label_boxes(layout)
    boxes = [union([box, labels[RANK_WORDS[rank]]]) for rank, box in enumerate(tops(game, layout))]
    aces, sevens, kings = boxes[0], boxes[6], boxes[12]
    label_xs = [box[0] + box[2] for box in labels.values()]  # twice each label's centre
    # Outermost, to a pixel: each glyph's ink sits a little differently in its advance.
    assert labels["A"][0] + labels["A"][2] <= min(label_xs) + 2 and labels["K"][0] + labels["K"][2] >= max(label_xs) - 2
    middle = layout.size[0]
    assert all(box[0] + box[2] < middle for box in boxes[:6]) and all(box[0] + box[2] > middle for box in boxes[7:])
    assert sevens[0] < middle / 2 < sevens[2]
    assert aces[1] == kings[1] == max(box[1] for box in boxes)  # both feet lowest
    assert all(sevens[1] < box[1] for i, box in enumerate(boxes) if i != 6)  # the apex highest
    assert all(a[1] > b[1] for a, b in pairwise(boxes[:7]))  # rising from the Aces to the Sevens
    assert all(a[1] < b[1] for a, b in pairwise(boxes[6:]))  # falling to the Kings
    left_leg = max(box[2] for box in boxes[:5])
    right_leg = min(box[0] for box in boxes[8:])
    columns = [spot.box for spot in layout.cards if spot.pile in "1234"]
    assert all(left_leg < box[0] and box[2] < right_leg and box[1] > sevens[3] for box in columns)  # inside


def test_full_and_empty_packets_keep_apart_and_the_board_keeps_its_size() -> None:
    threes_fours = " ".join(rank + suit for rank in "34" for suit in "CCDDHHSS")
    crowded = built(options="kit", columns={1: "7H"})
    games = [deal(), crowded, built(columns={1: "7H", 3: threes_fours}), *playout(3)[::25]]
    assert max(map(len, crowded.arch)) == 8 and sum(map(len, crowded.arch)) == 95
    assert any(not packet for game in games for packet in game.arch)
    sizes = {check_arch(game).size for game in games}
    assert len(sizes) == 1
    (width, height), = sizes
    assert height <= HEIGHT_BOUND and width <= 1000


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**16), moves=st.integers(0, 160))
def test_any_position_of_a_played_out_game_is_drawn_as_the_arch(seed: int, moves: int) -> None:
    game = playout(seed, moves)[-1]
    layout = check_arch(game)
    assert layout.size[1] <= HEIGHT_BOUND


def test_every_packed_card_shows_its_suit_colour_and_every_label_its_ink_in_the_picture() -> None:
    game = built(options="kit", columns={1: "7H"})
    layout = layout_board(game)
    image = decode(render_png(game))
    assert image.size == layout.size
    labels = label_boxes(layout)
    assert set(labels) == set(RANK_WORDS)
    for word, (x0, y0, x1, y1) in labels.items():
        ink = [image.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]
        assert any(min(pixel) > 200 for pixel in ink), word  # light letters on the felt
    for spot in layout.spots("P"):
        want = is_red if spot.card.is_red else is_dark
        corner = patch(image, corner_pip_centre(spot, layout.metrics))
        assert all(map(want, corner)), spot
