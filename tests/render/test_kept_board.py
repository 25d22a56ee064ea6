"""A board painted over the last one kept is the board drawn afresh, and every board stays small.

``render_png`` keeps each game's last board and paints again only what a move changed. Along
random games (moves and take-backs, every variant, wide and phone, four colours, German) each
picture is compared byte for byte with the same position drawn whole by ``draw_board`` and
encoded whole by ``encode``, a path that keeps nothing. Then every variant's board, wide and
phone, along random games of many deals, is within ``BOARD_BYTES`` (60 KB) without the last,
slowest compression level; and the PNG's rows, compressed in bands, are one valid zlib stream.
"""

from __future__ import annotations

import io
import random
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from gatebot.locale import translator
from gatebot.messages import ENGLISH
from gatebot.render import layout_board
from gatebot.render.image import (
    BOARD_BYTES,
    COMPRESS_LEVELS,
    PHONE_SCALE,
    _Kept,
    _KeptBoards,
    changed_areas,
    draw_board,
    encode,
    render_png,
)
from gatebot.render.png_rows import adler32_combine, compressed_bands, png_bytes
from gatebot.rules import VARIANTS, Game
from tests.render.test_image import forget_drawn_pieces

NAMES = [variant.name for variant in VARIANTS]


def options(choice: int) -> dict[str, object]:
    """A player's picture settings: wide, phone, wide in four colours, phone in German."""
    return [
        {},
        {"scale": PHONE_SCALE, "phone": True},
        {"four_colour": True},
        {"scale": PHONE_SCALE, "phone": True, "language": translator("de")},
    ][choice]


def afresh(game: Game, chosen: dict[str, object]) -> bytes:
    """``game``'s picture drawn whole and encoded whole, nothing kept from an earlier board."""
    scale = float(chosen.get("scale", 1.0))  # type: ignore[arg-type]
    language = chosen.get("language", ENGLISH)
    layout = layout_board(game, scale, language, phone=bool(chosen.get("phone")))  # type: ignore[arg-type]
    four_colour = bool(chosen.get("four_colour"))
    image = draw_board(layout, four_colour=four_colour, language=language)  # type: ignore[arg-type]
    return encode(image, layout.metrics, four_colour=four_colour)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(NAMES), deal=st.integers(1, 2**32 - 1), choice=st.integers(0, 3),
       seed=st.integers(0, 2**16))
def test_a_board_painted_over_the_kept_one_is_the_board_drawn_afresh(
    variant: str, deal: int, choice: int, seed: int
) -> None:
    forget_drawn_pieces()
    rng = random.Random(seed)
    game = Game.new(variant, deal=deal)
    chosen = options(choice)
    for _ in range(8):
        assert render_png(game, **chosen) == afresh(game, chosen)  # type: ignore[arg-type]
        if rng.random() < 0.2:  # the same board again (a board sent anew): nothing to paint
            assert render_png(game, **chosen) == afresh(game, chosen)  # type: ignore[arg-type]
        legal = game.legal_moves()
        if game.moves and (not legal or rng.random() < 0.2):
            game.undo()
        elif legal:
            game.push(rng.choice(legal))


def test_a_move_paints_only_the_places_it_changed() -> None:
    """Gate's draw repaints the stock, the waste and the header, not the columns under them."""
    game = Game.new("gate", deal=5)
    before = layout_board(game)
    game.push(next(move for move in game.legal_moves() if move.is_draw))
    after = layout_board(game)
    areas = changed_areas(before, after)
    assert areas
    columns = min(spot.box[1] for spot in after.cards if spot.pile.isdigit())
    assert all(area[3] <= columns for area in areas)
    painted = sum((area[2] - area[0]) * (area[3] - area[1]) for area in areas)
    assert painted < after.size[0] * after.size[1] // 3
    assert changed_areas(after, after) == []


def test_every_board_stays_within_its_bytes_without_the_slowest_level() -> None:
    rng = random.Random(29)
    for variant in NAMES:
        for _ in range(3):
            game = Game.new(variant, deal=rng.randint(1, 2**32 - 1))
            for number in range(61):
                if number % 30 == 0:
                    for chosen in (options(0), options(1)):
                        png = render_png(game, **chosen)  # type: ignore[arg-type]
                        assert len(png) <= BOARD_BYTES, (variant, game.deal, number, chosen, len(png))
                        assert fits_below_the_last_level(png), (variant, game.deal, number, chosen)
                legal = game.legal_moves()
                if not legal:
                    break
                builds = [move for move in legal if not move.is_draw]
                game.push(rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal))


def fits_below_the_last_level(png: bytes) -> bool:
    """Whether ``png``'s picture fits ``BOARD_BYTES`` at the level before the last, the slowest (zlib's 9)."""
    picture = Image.open(io.BytesIO(png))
    picture.load()
    return len(png_bytes(picture, compressed_bands(picture, COMPRESS_LEVELS[-2]))) <= BOARD_BYTES


def test_the_boards_kept_stay_within_their_bytes_the_least_recently_drawn_forgotten_first() -> None:
    boards = _KeptBoards(3 * 100 * 100 + 10)
    kept = [_Kept(layout_board(Game.new("gate", deal=1)), [], Image.new("P", (100, 100))) for _ in range(4)]
    for number in range(3):
        boards.put(number, kept[number])
    assert boards.get(0) is kept[0]  # drawn again: now the most recent
    boards.put(0, kept[0])
    boards.put(3, kept[3])
    assert boards.get(1) is None
    assert [boards.get(number) for number in (0, 2, 3)] == [kept[0], kept[2], kept[3]]


def test_the_bands_of_rows_are_one_zlib_stream_of_the_picture() -> None:
    """The image data decompresses (its Adler-32 checked by zlib) to every row, each with filter type 0."""
    game = Game.new("gate", deal=3)
    render_png(game)
    game.push(game.legal_moves()[0])
    png = render_png(game)  # painted over the board before, some of its bands kept
    start = png.index(b"IDAT")
    length = int.from_bytes(png[start - 4:start], "big")
    rows = zlib.decompress(png[start + 4:start + 4 + length])
    picture = Image.open(io.BytesIO(png))
    width, height = picture.size
    assert rows == b"".join(b"\0" + picture.tobytes()[y * width:(y + 1) * width] for y in range(height))
    assert png == afresh(game, {})


def test_adler32_combine_is_zlibs() -> None:
    rng = random.Random(5)
    for _ in range(50):
        first, second = rng.randbytes(rng.randint(0, 3000)), rng.randbytes(rng.randint(0, 70000))
        assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)
