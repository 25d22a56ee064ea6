"""Archway's compact text board on a phone: every line within 36 characters, every card once.

The board is read back with the parser of ``test_boards.py`` (written from the layout contract,
not from the renderer): every packet of the arch Aces to Kings, every column, every card off
the foundations as often as the engine has it, for any position a random game reaches.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.render import render_text
from gatebot.rules import ArchwayGame, Game
from tests.render.archway.test_boards import check_text, text_rows
from tests.render.playouts import playout
from tests.rules.builders import archway

# A 380 px phone leaves about 280 px inside a code block, at about 7.8 px a character.
PHONE_COLUMNS = 36


@settings(max_examples=12, deadline=None)
@given(kit=st.booleans(), deal=st.integers(1, 2**32 - 1), seed=st.integers(0, 2**16))
def test_every_reachable_compact_board_fits_a_phone_line(kit: bool, deal: int, seed: int) -> None:
    game = Game.new("archway", deal=deal, options=("kit",) if kit else ())
    for position in playout(game, random.Random(seed), 300, every=4):
        assert isinstance(position, ArchwayGame)
        board = check_text(position, compact=True)
        assert max(len(line) for line in board.splitlines()) <= PHONE_COLUMNS, board


def test_a_packet_of_eight_tens_breaks_once_under_its_cards() -> None:
    # Every copy not on a foundation in the arch: the 10s' packet holds all eight, 37 characters.
    game = archway(options="kit")
    assert isinstance(game, ArchwayGame)
    board = check_text(game, compact=True)
    lines = board.splitlines()
    assert all(len(line) <= PHONE_COLUMNS for line in lines), board
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("10:"))
    assert lines[first + 1].startswith(" " * (lines[first].index("10:") + 4) + "10")
    assert text_rows(render_text(game))["P"].count("10♠") == 2  # the normal board keeps it on one line
