"""Build Gate positions for tests from just the piles a test cares about.

Every card a test does not place goes to the end of the stock (or, with ``rest="waste"``,
under the waste), so the position always holds the 52 cards exactly once, as the position
text requires.
"""

from __future__ import annotations

from gatebot.rules import Game

RANKS = "A23456789TJQK"
ALL_CARDS = [rank + suit for rank in RANKS for suit in "CDHS"]


def position(
    *,
    variant: str = "gate",
    left: str = "",
    right: str = "",
    foundations: str = "- - - -",
    columns: dict[int, str] | None = None,
    waste: str = "",
    stock: str = "",
    rest: str = "stock",
    hidden_stock: bool = False,
) -> Game:
    """A game in the given position; ``stock`` is the first cards to draw, unnamed cards follow."""
    count = 4 if variant.startswith("little-gate") else 8
    columns = columns or {}
    used: set[str] = set()
    for pile in (left, right, waste, stock, *columns.values()):
        used.update(pile.split())
    for suit, top in zip("CDHS", foundations.split(), strict=True):
        if top != "-":
            used.update(rank + suit for rank in RANKS[: RANKS.index(top[0]) + 1])
    leftover = " ".join(card for card in ALL_CARDS if card not in used)
    if rest == "stock":
        stock = f"{stock} {leftover}"
    else:
        waste = f"{leftover} {waste}"
    lines = [
        variant,
        f"L: {left}".rstrip(),
        f"R: {right}".rstrip(),
        f"F: {foundations}",
        *(f"{i}: {columns.get(i, '')}".rstrip() for i in range(1, count + 1)),
        f"W: {waste}".rstrip(),
    ]
    if hidden_stock:
        lines.append(f"S: ?{len(stock.split())}" if stock.split() else "S:")
    else:
        lines.append(f"S: {stock}".rstrip())
    return Game.from_text("\n".join(lines))


def moves(game: Game) -> set[str]:
    return {str(move) for move in game.legal_moves()}
