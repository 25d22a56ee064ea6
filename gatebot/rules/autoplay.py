"""Safe automatic play to the foundations: the Auto button and end-of-game tidying.

A card may go up *safely* when no card could still want to be built on it: it is an Ace or
a Two, or both cards one rank lower of the other colour are already on their foundations.
Playing such a card never costs a win, so it needs no search and no peeking at the stock.
That is Gate's rule (:func:`is_safe_up`); each variant answers through ``Game.is_safe_up``.
"""

from __future__ import annotations

from gatebot.rules.game import Game
from gatebot.rules.move import Move

_OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))  # suits of the other colour, for C D H S


def is_safe_up(card: int, foundation_counts: list[int]) -> bool:
    """Whether card index ``card`` can go to its foundation without ever being missed below."""
    rank = (card >> 2) + 1
    if rank <= 2:
        return True
    first, second = _OTHER_COLOUR[card & 3]
    return foundation_counts[first] >= rank - 1 and foundation_counts[second] >= rank - 1


def safe_move(game: Game) -> Move | None:
    """One legal foundation move that is safe now (the game's :meth:`Game.is_safe_up` says), or None."""
    for move in game.legal_moves():
        if game.is_foundation(move.target) and game.is_safe_up(move):
            return move
    return None


def autoplay(game: Game) -> list[Move]:
    """Play every safe foundation move, one after another, until none is left; return them."""
    played = []
    while (move := safe_move(game)) is not None:
        game.push(move)
        played.append(move)
    return played

