"""No answer tells a player what they can't see.

Two games that differ only in the cards their player can't see (Gate's stock, Canfield's
face-down reserve and its stock in the first pass; Archway hides nothing) look the same to
that player, so every answer must be the same too: the legal moves, each move's words, and
what becomes of any input — the move played, or the refusal's kind and sentence.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.rules import Game, RulesError, describe_move
from gatebot.rules.cards import CARD_TEXT
from tests.rules.builders import games_in_play, hidden_places, with_hidden_cards

CARDS = [text.lower() for text in CARD_TEXT]
PILES = [*"123456789", "l", "r", "w", "f", "a", "k", "p"]


def inputs(game: Game) -> list[str]:
    """A broad set of typed input: every card and pile, legal and illegal tokens, cards onto cards."""
    texts = [*CARDS, *PILES, "d", "draw", "", "arch", "waste"]
    texts += [str(move) for move in game.legal_moves()]
    sources = [*PILES, *(f"f{suit}" for suit in "cdhs")]
    texts += [source + target for source in sources for target in PILES if source != target]
    texts += [f"{source}{target}:2" for source in "1234" for target in PILES if source != target]
    texts += [card + target for card in CARDS for target in "afk1p"]
    texts += [f"{card} {target}" for card in CARDS for target in ("f", "1", "r")]
    texts += [f"{source} {card}" for card in CARDS for source in ("1", "w")]
    texts += [f"{card} {CARDS[(i + step) % 52]}" for i, card in enumerate(CARDS) for step in (1, 13)]
    return texts


def answer(game: Game, text: str) -> tuple[object, ...]:
    """What ``game.play(text)`` does, as data: the move played (then taken back), or the refusal."""
    try:
        move = game.play(text)
    except RulesError as error:
        return type(error).__name__, str(error), getattr(error, "choices", None)
    game.undo()
    return "played", str(move)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games_in_play(steps=40), data=st.data(), extra=st.lists(st.text(max_size=12), max_size=5))
def test_games_that_differ_only_in_hidden_cards_answer_alike(game: Game, data: st.DataObject, extra: list[str]) -> None:
    places = hidden_places(game)
    order = data.draw(st.permutations(range(len(places))), label="order")
    twin = with_hidden_cards(game, order)
    assert twin.to_text(hide_stock=True) == game.to_text(hide_stock=True)
    assert twin.legal_moves() == game.legal_moves()
    for move in game.legal_moves():
        assert describe_move(twin, move) == describe_move(game, move)
    for text in [*inputs(game), *extra]:
        assert answer(twin, text) == answer(game, text), text
