"""A picture's description (its alt text): within Discord's 1024 characters, in the reader's language.

And like every drawing it names nothing hidden: not a card of the stock, not an open challenge's deal.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.locale import translator
from gatebot.render import describe_board
from gatebot.render.card import ResultCard, describe_card
from gatebot.render.spoken import card_words
from gatebot.rules import Card, Game, GateGame
from tests.render.playouts import variant_playout

VARIANTS = ("gate", "little-gate", "canfield", "archway")
LANGUAGES = (translator("en"), translator("de"))


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 150),
       german=st.booleans())
def test_a_description_fits_discord_and_names_no_hidden_card(variant: str, seed: int, moves: int, german: bool) -> None:
    game = variant_playout(variant, (), seed, moves)[-1]
    language = LANGUAGES[german]
    text = describe_board(game, language)
    assert 0 < len(text) <= 1024 and "\n" not in text
    assert text.startswith(game.title)
    assert not any(symbol in text for symbol in "♣♦♥♠")
    for card in stock_cards(game):  # one deck: a card in the stock is named nowhere
        assert card_words(card, language) not in text


def stock_cards(game: Game) -> list[Card]:
    """The cards face down in a Gate game's stock, read from its position text (``S:`` line)."""
    if not isinstance(game, GateGame):
        return []
    line = next(line for line in game.to_text().splitlines() if line.startswith("S:"))
    return [Card.from_text(token) for token in line.split()[1:]]


def test_the_deals_stock_is_named_nowhere() -> None:
    game = Game.new("gate", deal=1)
    text = describe_board(game)
    assert len(stock_cards(game)) == 34 and "Stock, S: 34 cards, face down." in text
    assert not any(card_words(card) in text for card in stock_cards(game))


def test_an_open_challenge_is_named_and_its_deal_kept_secret() -> None:
    game = Game.new("archway", deal=80_417)
    text = describe_board(game, label="Friday Arch")
    assert text.startswith("Archway, Friday Arch.") and "80417" not in text and "80,417" not in text


def test_a_long_board_names_each_piles_top_card() -> None:
    game = Game.new("archway", deal=1)
    text = describe_board(game, translator("de"))
    assert len(text) <= 1024
    for number, column in enumerate(game.columns, start=1):
        assert f"Spalte {number}: {card_words(column[-1], translator('de'))} …" in text


def test_a_result_cards_description_counts_its_squares_in_the_readers_language() -> None:
    ascents = ((-1, 3, 9, None), (4, 5, None, None))  # of 12 steps: 3 early; 4, 5 mid-game; 9 late
    card = ResultCard("Canfield", 7, False, 5, 12, 1, 0, 75.0, ascents, 12)
    assert describe_card(card) == (
        "Canfield · deal 7 · 5/52. 12 moves · 1 hint · no undos · 1:15. "
        "Cards by when they went home: 1 early, 2 mid-game, 1 late, 1 from the deal, 3 never home."
    )
    german = describe_card(card, translator("de"))
    assert german.startswith("Canfield · Spiel 7 · 5/52. 12 Züge") and "3 nie abgelegt" in german
