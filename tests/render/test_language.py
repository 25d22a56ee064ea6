"""Boards in a reader's language: the words change, the cards and pile letters don't, and widths hold.

German is the catalogue gatebot ships besides English; the drawings take it as an argument
(``language=``), so these tests draw the same position in both and compare.
"""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.locale import translator
from gatebot.render import render_spoken, render_text
from gatebot.render.text_rows import COMPACT_WIDTH, NORMAL_WIDTH, visible_len
from gatebot.rules import Game
from tests.render.playouts import playout, variant_playout

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


#: Words only the English of a Canfield or Archway board has (card symbols and pile letters are in both).
BOARD_ENGLISH = re.compile(r"(?<![\w-])(space|empty|none|pass|passes|turns|face down|under|up to|down to|base|"
                           r"each|from|of|Arch|Pile|Column|Foundations|foundations|Stock|Waste|cards?|order|"
                           r"unknown|left|only|could)(?![\w-])")


def test_canfields_german_boards_word_its_reserve_piles_waste_and_stock() -> None:
    game = Game.new("canfield", deal=4)
    text = render_text(game, language=GERMAN)
    assert "Canfield · Spiel 4 · Basis 9 · 0 Züge · Punkte 1/52" in text
    assert "R  [A♥] +12 verdeckt" in text and "(jeder beginnt bei 9)" in text
    assert "S   34 Karten · Durchgang 1 · d deckt drei auf" in text
    spoken = render_spoken(game, GERMAN)
    assert "Reserve, R: Herz-Ass, 12 Karten verdeckt darunter." in spoken
    assert "Ablagestapel, jeder ab Neun: Kreuz leer, Karo bis Neun, Herz leer, Pik leer." in spoken
    assert "Stapel 4: Pik-Zehn." in spoken
    assert "Talon, S: 34 Karten, verdeckt, Durchgang 1, d deckt drei auf." in spoken
    for board in (text, spoken):
        assert not BOARD_ENGLISH.search(board), board
    assert "S   34 cards · pass 1 · d turns three" in render_text(game)  # the English as before


def test_archways_german_boards_word_its_foundations_arch_and_columns() -> None:
    game = Game.new("archway", deal=4)
    text = render_text(game, language=GERMAN)
    assert "A   A♣  A♦  A♥  A♠ aufwärts bis K" in text and "K   K♣  K♦  K♥  K♠ abwärts bis A" in text
    spoken = render_spoken(game, GERMAN)
    assert "Ass-Ablagestapel, A: Kreuz bis Ass, Karo bis Ass, Herz bis Ass, Pik bis Ass." in spoken
    assert "Könige im Bogen: Karo, Herz, Pik." in spoken
    assert "Spalte 1: Pik-Sechs auf Pik-Drei" in spoken
    for board in (text, spoken):
        assert not BOARD_ENGLISH.search(board), board
    assert "Arch kings: diamonds, hearts, spades." in render_spoken(game)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["canfield", "archway"]), st.sampled_from([(), ("kit",), ("draw-one",)]),
       st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_no_english_is_left_on_a_german_canfield_or_archway_board(
    variant: str, options: tuple[str, ...], seed: int, moves: int
) -> None:
    for position in variant_playout(variant, options, seed, moves):
        for board in (render_text(position, language=GERMAN), render_text(position, compact=True, language=GERMAN),
                      render_spoken(position, GERMAN)):
            assert not BOARD_ENGLISH.search(board), board
