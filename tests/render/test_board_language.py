"""The emoji and image boards in a reader's language: German words, the same cards, and no English left.

The text and words boards are checked in ``tests/render/test_language.py``; these are the
other two styles. The emoji board is checked as the message it is, the image board through
its layout: every text it draws (header, captions) and the word in every empty place
(:func:`~gatebot.render.image_geometry.slot_note`), which is all the words a PNG shows.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.locale import translator
from gatebot.render import layout_board, render_emoji
from gatebot.render.emoji_rows import COMPACT_EMOJI_WIDTH, NORMAL_EMOJI_WIDTH, display_width
from gatebot.render.image_geometry import Layout, slot_note
from gatebot.rules import Game
from tests.lines import LOST_DEAL_10, WIN_DEAL_1
from tests.render.playouts import variant_playout

GERMAN = translator("de")
VARIANTS = ["gate", "little-gate", "canfield", "archway"]

#: Words only the English of an emoji or image board has (card symbols and pile letters are in both).
ENGLISH = re.compile(
    r"(?<![\w-])(free|space|empty|none|under|it|them|face down|up to|down to|deal|custom|position|moves?|"
    r"score|base|each|starts|from|pass|of|cards?|order|unknown|draws|turns|one|three|the|waste|over|"
    r"left|only|no|could|Won|Game|Every|home|Score|Little)(?![\w-])"
)


def layout_words(layout: Layout) -> list[str]:
    """Everything a PNG board writes besides pile badges: its texts and its empty places' notes."""
    return [*(text.text for text in layout.texts), *(slot_note(place, GERMAN) for place in layout.slots)]


def words_of(board: str) -> str:
    """A board without what is notation in every language: the variant's title and the cards' glyphs."""
    return re.sub(r"\*\*[^*]+\*\*( \([^)]*\))?", "", board.splitlines()[0]) + "\n" + "\n".join(board.splitlines()[1:])


def test_a_german_emoji_board_words_its_header_piles_and_stock() -> None:
    game = Game.new("gate", deal=5)
    german, english = render_emoji(game, language=GERMAN), render_emoji(game)
    assert german.splitlines()[0] == "**Gate** · Spiel 5 · 0 Züge · Punkte 0/52"
    assert english.splitlines()[0] == "**Gate** · deal 5 · 0 moves · score 0/52"
    assert "`W` *leer*" in german and "`S` **34** Karten · `d` zieht eine" in german
    assert "`W` *empty*" in english and "`S` **34** cards · `d` draws one" in english
    # Every pile's row but the waste's and the stock's is the same: cards and pile letters are notation.
    same = [line for line in english.splitlines()[1:] if not line.startswith(("`W`", "`S`"))]
    assert same and all(line in german.splitlines() for line in same)


def test_a_german_emoji_board_words_the_canfield_reserve_and_archways_foundations() -> None:
    canfield = render_emoji(Game.new("canfield", deal=4), language=GERMAN)
    assert "Canfield** · Spiel 4 · Basis 9 · 0 Züge · Punkte 1/52" in canfield
    assert "+12 verdeckt" in canfield and "*(jeder beginnt bei 9)*" in canfield
    archway = render_emoji(Game.new("archway", deal=4), language=GERMAN)
    assert "*aufwärts bis K*" in archway and "*abwärts bis A*" in archway
    for board in (canfield, archway):
        assert not ENGLISH.search(words_of(board)), board


def test_the_ending_of_a_german_emoji_and_image_board() -> None:
    won = Game.new("gate", deal=1)
    for step in WIN_DEAL_1:
        won.play(step)
    lost = Game.new("gate", deal=10)
    for step in LOST_DEAL_10:
        lost.play(step)
    assert render_emoji(won, language=GERMAN).endswith("🏆 **Gewonnen!** Jede Karte ist abgelegt. Punkte 52/52.")
    assert render_emoji(won).endswith("🏆 **Won!** Every card is home. Score 52/52.")
    assert "**Spiel vorbei:** kein Zug mehr möglich. Punkte" in render_emoji(lost, language=GERMAN)
    assert layout_board(won, language=GERMAN).texts[1].text.startswith("Gewonnen! · ")
    assert layout_board(lost, language=GERMAN).texts[1].text.startswith("Kein Zug mehr möglich · ")
    assert layout_board(lost).texts[1].text.startswith("No move left · ")


def test_a_german_image_board_words_its_header_captions_and_empty_places() -> None:
    game = Game.new("gate", deal=5)
    game.play("d")
    game.play("d")
    german = layout_words(layout_board(game, language=GERMAN))
    assert "Gate · Spiel 5" in german and "2 Züge · Punkte 0/52" in german and "+1 darunter" in german
    english = layout_board(game)
    assert [text.text for text in english.texts][:2] == ["Gate · deal 5", "2 moves · score 0/52"]
    assert "+1 under" in [text.text for text in english.texts]
    canfield = layout_words(layout_board(Game.new("canfield", deal=4), language=GERMAN))
    assert "+12 darunter" in canfield and "Canfield · Spiel 4 · Basis 9" in canfield
    archway = layout_words(layout_board(Game.new("archway", deal=4), language=GERMAN))
    assert "aufwärts bis K" in archway and "abwärts bis A" in archway


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(VARIANTS), st.sampled_from([(), ("kit",), ("draw-one",)]), st.integers(0, 2**32 - 1),
       st.integers(0, 150))
def test_no_english_is_left_on_a_german_emoji_or_image_board(
    variant: str, options: tuple[str, ...], seed: int, moves: int
) -> None:
    for position in variant_playout(variant, options, seed, moves):
        for compact, width in ((False, NORMAL_EMOJI_WIDTH), (True, COMPACT_EMOJI_WIDTH)):
            board = render_emoji(position, compact=compact, language=GERMAN)
            assert not ENGLISH.search(words_of(board)), board
            assert max(map(display_width, board.splitlines())) <= width, board
            assert len(board) < 2000
            cards = re.findall(r"\S+\u2060\S+", render_emoji(position, compact=compact))
            assert re.findall(r"\S+\u2060\S+", board) == cards  # the same cards, in the same places
            if any(not pile for pile in getattr(position, "columns", getattr(position, "piles", ()))):
                assert "*frei*" in board  # an empty column or pile, in German
        layout = layout_board(position, language=GERMAN)
        # The same cards on the same piles (a longer German header may push the table down).
        assert [(s.pile, s.card) for s in layout.cards] == [(s.pile, s.card) for s in layout_board(position).cards]
        words = [word for text in layout_words(layout) for word in [text.replace(position.title, "")]]
        assert not any(ENGLISH.search(word) for word in words), words
