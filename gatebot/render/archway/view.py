"""Archway's table as its player sees it, for the web table: the arch over the four columns.

The thirteen packets stand as an arch, Aces to Fours up its left leg, Fives to Tens across its
top and Jacks to Kings down its right leg; the four columns hang inside it, and the Ace and King
foundations lie in a row below. Nothing in Archway is hidden, but the view is built the same
way as every other's.
"""

from __future__ import annotations

from gatebot.render.view import Arrangement, Pile, Spot, Table, card_of, suit_key
from gatebot.rules import ArchwayGame, Move, Suit
from gatebot.rules.cards import RANK_LETTERS

#: Where each packet of the arch sits, Aces first: up the left leg, across the top, down the right.
ARCH_SPOTS = (
    *((0.0, float(y)) for y in (3.6, 2.4, 1.2, 0.0)),
    *((float(x), 0.0) for x in range(1, 7)),
    *((7.0, y) for y in (1.2, 2.4, 3.6)),
)


def view_archway(game: ArchwayGame) -> Table:
    """Archway's piles, their arrangement, and where each legal move goes."""
    packets = [
        Pile(_packet(rank), "packet", cards=packet, target="p" if "kit" in game.options else None)
        for rank, packet in enumerate(game.arch, start=1)
    ]
    piles = [
        *packets,
        *(Pile(str(i), "column", cards=column, target=str(i)) for i, column in enumerate(game.columns, start=1)),
        *(Pile("a" + suit.letter.lower(), "foundation", cards=(top,), target="a", suit=suit.letter.lower())
          for suit, top in zip(Suit, game.ace_foundations, strict=True)),
        *(Pile("k" + suit.letter.lower(), "foundation", cards=(top,), target="k", suit=suit.letter.lower())
          for suit, top in zip(Suit, game.king_foundations, strict=True)),
    ]
    spots = {_packet(rank): Spot(x, y, "right") for rank, (x, y) in enumerate(ARCH_SPOTS, start=1)}
    spots |= {str(i): Spot(1.5 + i, 1.2, "down") for i in range(1, 5)}
    spots |= {f"a{suit}": Spot(float(i), 5.4) for i, suit in enumerate("cdhs")}
    spots |= {f"k{suit}": Spot(4.0 + i, 5.4) for i, suit in enumerate("cdhs")}
    places = tuple((move, *_places(game, move)) for move in game.legal_moves())
    return Table(tuple(piles), Arrangement(8, spots), places=places)


def _packet(rank: int) -> str:
    """The key of the arch's packet of ``rank`` (1 for Aces): ``pa``, ``p7``, ``pk``."""
    return "p" + RANK_LETTERS[rank - 1].lower()


def _places(game: ArchwayGame, move: Move) -> tuple[str | None, str | None]:
    """The keys of the piles a legal move leaves and reaches (a card of the arch leaves its packet)."""
    card = card_of(game.moved_card(move))
    source = move.source
    if source.startswith("f") and len(source) == 2:  # a suit's pair: the card leaves the other foundation
        source = ("k" if move.target == "a" else "a") + source[1]
    elif len(source) == 2:
        source = _packet(card.rank)
    target = move.target
    if target in ("a", "k"):
        target += suit_key(card)
    elif target == "p":
        target = _packet(card.rank)
    return source, target
