"""Canfield's compact text board on a phone: every line within 36 characters, every visible card once.

The board is read back with the parser of ``test_boards.py`` (written from the layout contract,
not from the renderer) for any position a random game reaches, with any of the options.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import CanfieldGame, Game
from tests.render.canfield.test_boards import OPTION_SETS, check_text
from tests.render.playouts import playout

# A 380 px phone leaves about 280 px inside a code block, at about 7.8 px a character.
PHONE_COLUMNS = 36


@settings(max_examples=20, deadline=None)
@given(options=st.sampled_from(OPTION_SETS), deal=st.integers(1, 2**32 - 1), seed=st.integers(0, 2**16))
def test_every_reachable_compact_board_fits_a_phone_line(options: tuple[str, ...], deal: int, seed: int) -> None:
    game = Game.new("canfield", deal=deal, options=options)
    for position in playout(game, random.Random(seed), 400, every=3):
        assert isinstance(position, CanfieldGame)
        board = check_text(position, compact=True)  # every visible card once, no face-down one
        assert max(map(len, board.splitlines())) <= PHONE_COLUMNS, board


def test_the_longest_title_and_stock_words_wrap_within_a_phone_line() -> None:
    game = Game.new("canfield", deal=4_294_967_295, options=("draw-one", "passes-2", "partial-moves"))
    board = check_text(game, compact=True)
    assert all(len(line) <= PHONE_COLUMNS for line in board.splitlines()), board
    assert "partial-moves" in board and "pass 1 of 2" in board.replace("\n  ", " ")
