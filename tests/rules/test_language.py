"""Archway's and Canfield's sentences, and the move language's own, said in German.

The rules only mark their sentences; a front end says them with the reader's translator.
These tests say what a refusal raised with, the way the front ends do
(``translator(locale).say(message_of(error))``), and check that no English is left in it:
an unmarked sentence, or a marked one built from an unmarked part, keeps English words.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.locale import translator
from gatebot.messages import message_of
from gatebot.rules import Game, Move, describe_move
from gatebot.rules.cards import parse_card
from gatebot.rules.errors import IllegalMove, NotationError
from tests.rules.builders import position

GERMAN = translator("de")
#: Words only an English sentence has: none of them is a pile letter, a card or a move token.
ENGLISH = re.compile(r"(?<![\w-])(the|is|isn't|can't|has|from|onto|column|foundations?|arch|stock|waste|reserve|pile|"
                     r"under|already|only|moves?|card|cards)(?![\w-])")
ARCHWAY_NAMES = ["1", "2", "3", "4", "5", "9", "a", "k", "p", "f", "fh", "fc", "7h", "kd", "ac", "qs", "th",
                 "l", "r", "w", "x", ""]
CANFIELD_NAMES = ["1", "2", "3", "4", "7", "r", "w", "f", "l", "x", ""]


def german(error: Exception) -> str:
    said = GERMAN.say(message_of(error))
    assert "{" not in said and said != str(error), (str(error), said)
    assert not ENGLISH.search(said), (str(error), said)
    return said


def _refusal(game: Game, token: str) -> Exception | None:
    try:
        game.validate(Move.from_text(token))
    except (IllegalMove, NotationError) as refused:
        return refused
    return None


def test_archways_refusals_name_its_piles_and_cards_in_german() -> None:
    game = Game.new("archway", deal=3)
    cases = {
        "d": "Archway hat keinen Talon: Jede Karte wird zu Beginn offen ausgeteilt, also gibt es nichts zu ziehen",
        "9a": "Spalte 9 gibt es nicht: Archway hat die Spalten 1–4",
        "1p": "Karten kommen nur mit der Option kit in den Bogen zurück",
        # 5♣ is column 3's exposed card; the clubs foundations are at A♣ and K♣.
        "3a": "Kreuz-Fünf kann nicht auf den Kreuz-Ass-Ablagestapel: Er ist bei Kreuz-Ass und nimmt als "
              "Nächstes Kreuz-Zwei",
        "fhk": "Die Herz-Ablagestapel haben sich noch nicht getroffen: Zum Umlegen muss die oberste Karte des "
               "Ass-Ablagestapels genau einen Rang unter der des König-Ablagestapels liegen "
               "(jetzt Herz-Ass und Herz-König)",
    }
    for token, expected in cases.items():
        refused = _refusal(game, token)
        assert refused is not None, token
        assert german(refused) == expected
    assert str(_refusal(game, "9a")) == "Column 9 doesn't exist: Archway has columns 1–4"  # English as before


def test_where_a_card_is_in_archway_and_canfield_is_said_in_german() -> None:
    archway = Game.new("archway", deal=3)
    # Two 2♣ are in column 1, one at its bottom under 11 cards, one under 4.
    assert GERMAN.say(archway.whereabouts(1 * 4 + 0)) == (
        "Kreuz-Zwei liegt in Spalte 1 unter 4 Karten, die andere in Spalte 1 unter 11 Karten"
    )
    assert GERMAN.say(archway.why_buried_card_stays(4 * 4 + 0)).endswith(
        ": Nur die freiliegende Karte einer Spalte kann ziehen"
    )
    canfield = Game.new("canfield", deal=4)
    hidden = next(card for card in range(52) if canfield.locate(card) is None)
    said = GERMAN.say(canfield.whereabouts(hidden))
    assert said.endswith("ist noch nicht im Spiel, sondern liegt verdeckt in der Reserve oder im Talon"), said
    assert str(canfield.whereabouts(hidden)).endswith("isn't in play yet: it is face down in the reserve or the stock")


def test_the_move_languages_own_errors_are_german() -> None:
    with pytest.raises(NotationError) as caught:
        Move.from_text("3x")
    assert str(caught.value) == "'3x' is not a move token: try d, 3f, w5 or 35:2"
    assert german(caught.value) == "'3x' ist kein Zug: Versuch d, 3f, w5 oder 35:2"
    with pytest.raises(NotationError) as caught:
        Move.from_text("33")
    assert german(caught.value) == "'33' zieht Spalte 3 auf sich selbst"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ARCHWAY_NAMES), st.sampled_from(ARCHWAY_NAMES), st.sampled_from(["", ":1", ":2", ":0"]),
       st.integers(0, 6))
def test_every_archway_refusal_is_all_german(source: str, target: str, count: str, played: int) -> None:
    game = Game.new("archway", deal=3, options=("kit",) if played % 2 else ())
    for move in game.legal_moves()[:played]:
        game.play(move)
    refused = _refusal(game, source + target + count)
    if refused is not None:
        german(refused)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CANFIELD_NAMES), st.sampled_from(CANFIELD_NAMES), st.sampled_from(["", ":1", ":2"]),
       st.integers(0, 4))
def test_every_canfield_refusal_is_all_german(source: str, target: str, count: str, played: int) -> None:
    game = Game.new("canfield", deal=4)
    for move in game.legal_moves()[:played]:
        game.play(move)
    refused = _refusal(game, source + target + count)
    if refused is not None:
        german(refused)


def test_a_canfield_move_in_words_is_german_and_its_english_is_the_move_languages() -> None:
    game = Game.new("canfield", deal=5)
    move = Move.from_text("1f")
    assert describe_move(game, move) == "3♣ from pile 1 to the foundation"
    assert GERMAN.say(describe_move(game, move)) == "Kreuz-Drei aus Stapel 1 auf den Ablagestapel"
    for move in game.legal_moves():
        said = GERMAN.say(describe_move(game, move))
        assert not ENGLISH.search(said), said


def test_a_card_named_alone_that_fits_two_places_asks_which_in_german() -> None:
    """A black 7 typed alone with both red 8s open: the refusal lists both moves in words, with their tokens."""
    game = position(columns={1: "8H", 2: "8D", 3: "7C", 4: "KS"})
    refused = game.play_line("7c").error
    assert refused is not None
    assert str(refused) == ("'7c' could be 7♣ from column 3 onto 8♥ in column 1 (31) or 7♣ from column 3 onto 8♦ "
                            "in column 2 (32): say which")
    assert german(refused) == ("'7c' kann Kreuz-Sieben von Spalte 3 auf Herz-Acht in Spalte 1 (31) oder "
                               "Kreuz-Sieben von Spalte 3 auf Karo-Acht in Spalte 2 (32) heißen: Sag, welcher Zug "
                               "gemeint ist")


def test_a_word_that_is_no_card_is_refused_in_german() -> None:
    with pytest.raises(NotationError) as caught:
        parse_card("zz")
    assert str(caught.value) == "'zz' is not a card: write a rank and a suit, like 7H or 10♦"
    assert german(caught.value) == "'zz' ist keine Karte: Schreib einen Rang und eine Farbe, etwa 7H oder 10♦"
