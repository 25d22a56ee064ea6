"""Gate's table as its player sees it (Gate and Little Gate): the piles and where they sit, for the web table.

Wide, like the picture board: stock and waste at the left of the top row, the foundations at its
right, and the two gateposts at the sides of the columns. Narrow (a phone held upright, when the
main row has more than six columns), the gateposts stand in a row of their own above the columns,
each fanned towards its side, so eight columns span the screen. The stock is a count: its cards
and their order are never in the view.
"""

from __future__ import annotations

from gatebot.render.view import Arrangement, Pile, Spot, Table, stock_places
from gatebot.rules import GateGame, Suit

#: Below this many columns the wide arrangement fits a phone as it is.
NARROW_FROM = 7
#: How far a gatepost's cards overlap in the narrow arrangement, in cells.
POST_STEP = 0.55


def view_gate(game: GateGame) -> Table:
    """Gate's piles, their arrangements, and where each legal move goes."""
    columns = len(game.columns)
    left, right = game.reserves
    waste = game.waste
    piles = [
        Pile("s", "stock", hidden=game.stock_count),
        Pile("w", "waste", cards=waste[-1:], under=max(0, len(waste) - 1)),
        *(
            Pile("f" + suit.letter.lower(), "foundation", cards=() if top is None else (top,), target="f",
                 suit=suit.letter.lower())
            for suit, top in zip(Suit, game.foundations, strict=True)
        ),
        Pile("l", "gatepost", cards=left),
        *(Pile(str(i), "column", cards=column, target=str(i)) for i, column in enumerate(game.columns, start=1)),
        Pile("r", "gatepost", cards=right),
    ]
    width = columns + 2
    wide = {"s": Spot(0, 0), "w": Spot(1, 0)}
    wide |= {f"f{suit}": Spot(width - 4 + i, 0) for i, suit in enumerate("cdhs")}
    wide |= {"l": Spot(0, 1.2, "down"), "r": Spot(width - 1, 1.2, "down")}
    wide |= {str(i): Spot(i, 1.2, "down") for i in range(1, columns + 1)}
    narrow = None
    if columns >= NARROW_FROM:
        spots = {"s": Spot(0, 0), "w": Spot(1, 0)}
        spots |= {f"f{suit}": Spot(columns - 4 + i, 0) for i, suit in enumerate("cdhs")}
        post = 1 + 4 * POST_STEP
        spots |= {"l": Spot(0, 1.1, "right"), "r": Spot(columns - post, 1.1, "right")}
        spots |= {str(i): Spot(i - 1, 2.2, "down") for i in range(1, columns + 1)}
        narrow = Arrangement(columns, spots)
    places = tuple((move, *stock_places(game, move)) for move in game.legal_moves())
    return Table(tuple(piles), Arrangement(width, wide), narrow, places=places)

