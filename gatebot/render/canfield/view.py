"""Canfield's table as its player sees it, for the web table.

Laid out like the picture board: stock and waste at the left of the top row and the foundations
at its right; the reserve under the stock and the four piles under the foundations. Only the
reserve's top card is in the view (the cards under it are a count), the stock is a count, and
the waste shows the cards a player can see: the top three turning three, else the top one.
"""

from __future__ import annotations

from gatebot.render.canfield.text import shown_waste
from gatebot.render.text_rows import rank_word
from gatebot.render.view import Arrangement, Pile, Spot, Table, stock_places
from gatebot.rules import CanfieldGame, Suit


def view_canfield(game: CanfieldGame) -> Table:
    """Canfield's piles, their arrangement, and where each legal move goes."""
    reserve = game.reserve
    shown = shown_waste(game)
    piles = [
        Pile("s", "stock", hidden=game.stock_count),
        Pile("w", "waste", cards=shown, under=len(game.waste) - len(shown)),
        *(
            Pile("f" + suit.letter.lower(), "foundation", cards=() if top is None else (top,), target="f",
                 suit=suit.letter.lower(), note=rank_word(game.base_rank))
            for suit, top in zip(Suit, game.foundations, strict=True)
        ),
        Pile("r", "reserve", cards=reserve[-1:], hidden=max(0, len(reserve) - 1)),
        *(Pile(str(i), "column", cards=pile, target=str(i)) for i, pile in enumerate(game.piles, start=1)),
    ]
    spots = {"s": Spot(0, 0), "w": Spot(1, 0, "right"), "r": Spot(0, 1.2)}
    spots |= {f"f{suit}": Spot(2.2 + i, 0) for i, suit in enumerate("cdhs")}
    spots |= {str(i): Spot(1.2 + i, 1.2, "down") for i in range(1, 5)}
    facts = {"base": rank_word(game.base_rank), "pass": game.pass_number, "passes_left": game.passes_left,
             "draw": game.draw_count}
    places = tuple((move, *stock_places(game, move)) for move in game.legal_moves())
    return Table(tuple(piles), Arrangement(6.2, spots), facts=facts, places=places)

