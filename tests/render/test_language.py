"""Boards in a reader's language: the words change, the cards and pile letters don't, and widths hold.

German is the catalogue gatebot ships besides English; the drawings take it as an argument
(``language=``), so these tests draw the same position in both and compare.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.locale import translator
from gatebot.render import render_spoken, render_text
from gatebot.render.text_rows import COMPACT_WIDTH, NORMAL_WIDTH, visible_len
from gatebot.rules import Game
from tests.render.playouts import playout

GERMAN = translator("de")


def test_a_german_text_board_words_its_header_and_piles_and_keeps_the_cards() -> None:
    game = Game.new("gate", deal=5)
    german, english = render_text(game, language=GERMAN), render_text(game)
    assert german.splitlines()[0] == "Gate · Spiel 5 · 0 Züge · Punkte 0/52"
    assert english.splitlines()[0] == "Gate · deal 5 · 0 moves · score 0/52"
    assert "W   ·· leer" in german and "S   34 Karten · d zieht eine" in german
    # Every row but the header and the words is the same: cards and pile letters are notation.
    same = [line for line in english.splitlines()[1:] if line[:1] not in ("W", "S")]
    assert same and all(line in german.splitlines() for line in same)


def test_a_german_words_board_names_cards_suit_first_and_piles_in_german() -> None:
    game = Game.new("gate", deal=5)
    spoken = render_spoken(game, GERMAN)
    assert "Spalte 2: Herz-König." in spoken
    assert "Linke Reserve, L: 5 Karten, Kreuz-Fünf auf Pik-Zwei auf Kreuz-Vier auf Karo-Zwei auf Herz-Ass." in spoken
    assert "Talon, S: 34 Karten, verdeckt." in spoken
    assert "Column 2: king of hearts." in render_spoken(game)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["gate", "little-gate", "canfield", "archway"]), st.integers(0, 2**32 - 1),
       st.integers(0, 60))
def test_every_german_text_board_fits_its_width_and_shows_the_same_cards(variant: str, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    game = Game.new(variant, deal=rng.randint(1, 2**32 - 1))
    for position in playout(game, rng, moves, every=max(moves, 1)):
        for compact, width in ((True, COMPACT_WIDTH), (False, NORMAL_WIDTH)):
            german = render_text(position, compact=compact, language=GERMAN)
            assert max(map(visible_len, german.splitlines())) <= width, german
            cards = [word for word in render_text(position, compact=compact).split() if word[-1:] in "♣♦♥♠]"]
            assert [w for w in german.split() if w[-1:] in "♣♦♥♠]"] == cards
