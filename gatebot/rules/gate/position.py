"""Gate's position text, for Gate and Little Gate: reading it line by line, and writing it.

The format is docs/rules.md#position-text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.messages import _
from gatebot.rules.cards import CARD_TEXT
from gatebot.rules.errors import PositionError
from gatebot.rules.gate.checks import SUIT_NAMES
from gatebot.rules.position import CardClaims, check_line_count, parse_pile_line

if TYPE_CHECKING:
    from gatebot.rules.gate import GateGame


def read_position(game: GateGame, lines: list[str]) -> None:
    """Set up ``game``, just made with its options, from the position's lines after the first.

    Each refusal is a :class:`PositionError` naming the line to fix.
    """
    labels = ["L", "R", "F", *(str(i + 1) for i in range(game.column_count)), "W", "S"]
    check_line_count(game.title, labels, lines)
    claim = CardClaims()
    seen = claim.seen

    parsed = [parse_pile_line(line, label, number + 2) for number, (line, label) in
              enumerate(zip(lines, labels, strict=True))]
    game._reserves = [claim(parsed[0].cards, "L"), claim(parsed[1].cards, "R")]
    foundation = parsed[2]
    if foundation.hidden is not None or len(foundation.slots) != 4:
        raise PositionError(_("Line F: give four foundation tops in suit order C D H S, - for empty"))
    for suit, top in enumerate(foundation.slots):
        if top is None:
            continue
        if top & 3 != suit:
            raise PositionError(_("Line {label}: {card} is in the {suit} place; foundations are listed in the order "
                                  "C D H S", label="F", card=CARD_TEXT[top], suit=SUIT_NAMES[suit]))
        claim(list(range(suit, top + 1, 4)), "F")
        game._foundations[suit] = (top >> 2) + 1
    for i in range(game.column_count):
        game._columns[i] = claim(parsed[3 + i].cards, str(i + 1))
    game._waste = claim(parsed[-2].cards, "W")
    stock = parsed[-1]
    if stock.hidden is None:
        game._stock = claim(stock.cards, "S")[::-1]
    else:
        missing = sorted(set(range(52)).difference(seen))
        if len(missing) != stock.hidden:
            raise PositionError(_("Line S: the stock is said to hold {hidden} unseen cards, but {missing} cards are "
                                  "missing from the other lines", hidden=stock.hidden, missing=len(missing)))
        game._stock = claim(missing, "S")
        game._stock_hidden = True
    if len(seen) != 52:
        missing_text = " ".join(CARD_TEXT[c] for c in range(52) if c not in seen)
        raise PositionError(_("The position is missing {count} cards ({cards}): each card appears once, and cards "
                              "not on the table belong on the S: line", count=52 - len(seen), cards=missing_text))


def write_position(game: GateGame, *, hide_stock: bool = False) -> str:
    """The position text of ``game``; ``hide_stock`` writes the stock as ``S: ?n``, as a player sees it."""
    def pile(label: str, cards: list[int]) -> str:
        return f"{label}:" + "".join(" " + CARD_TEXT[c] for c in cards)

    foundation_tops = [
        CARD_TEXT[(count - 1) * 4 + suit] if count else "-"
        for suit, count in enumerate(game._foundations)
    ]
    lines = [
        " ".join((game.name, *game.options)),
        pile("L", game._reserves[0]),
        pile("R", game._reserves[1]),
        "F: " + " ".join(foundation_tops),
        *(pile(str(i + 1), column) for i, column in enumerate(game._columns)),
        pile("W", game._waste),
    ]
    if hide_stock or game._stock_hidden:
        lines.append(f"S: ?{len(game._stock)}" if game._stock else "S:")
    else:
        lines.append(pile("S", game._stock[::-1]))
    return "\n".join(lines)
