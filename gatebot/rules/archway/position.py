"""Archway's position text (docs/archway.md §6): reading it line by line, and writing it.

Each card appears twice, once per deck; a foundation line gives its tops, the cards under
them being implied, and the arch is written packet by packet in suit order, so equal
positions have equal text.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from gatebot.messages import _
from gatebot.rules.archway.checks import COLUMNS, SUIT_NAMES
from gatebot.rules.cards import CARD_TEXT
from gatebot.rules.errors import PositionError
from gatebot.rules.position import check_line_count, parse_pile_line

if TYPE_CHECKING:
    from gatebot.rules.archway import ArchwayGame


def read_position(game: ArchwayGame, lines: list[str]) -> None:
    """Set up ``game``, just made with its options, from the position's lines after the first.

    Each refusal is a :class:`PositionError` naming the line to fix.
    """
    labels = ["A", "K", "P", *COLUMNS]
    check_line_count(game.title, labels, lines)
    seen: Counter[int] = Counter()
    where: dict[int, list[str]] = {}

    def claim(cards: list[int], label: str) -> list[int]:
        for card in cards:
            if seen[card] == 2:
                raise PositionError(_("Line {label}: {card} is a third copy (the others are on lines {first} and "
                                      "{second}): each card appears twice", label=label, card=CARD_TEXT[card],
                                      first=where[card][0], second=where[card][1]))
            seen[card] += 1
            where.setdefault(card, []).append(label)
        return cards

    for number, (line, label) in enumerate(zip(lines, labels, strict=True), 2):
        if label in ("A", "K") and "-" in line.partition(":")[2].split():
            raise PositionError(
                _("Line {label}: a foundation always holds its base card, so give its top card, not -", label=label)
            )
        parsed = parse_pile_line(line, label, number)
        if label in ("A", "K"):
            _read_foundations(game, parsed.cards, label, claim)
        elif label == "P":
            for card in claim(parsed.cards, label):
                insort(game._arch[card >> 2], card)
        else:
            game._columns[int(label) - 1] = claim(parsed.cards, label)
    missing = [card for card in range(52) for _ in range(2 - seen[card])]
    if missing:
        missing_text = " ".join(CARD_TEXT[c] for c in missing)
        raise PositionError(_("The position is missing {count} cards ({cards}): each card appears twice, on the "
                              "foundations, in the arch or in a column", count=len(missing), cards=missing_text))


def _read_foundations(
    game: ArchwayGame, tops: list[int], label: str, claim: Callable[[list[int], str], list[int]]
) -> None:
    """Read the ``A:`` or ``K:`` line: four tops in suit order; the base and the cards between are implied."""
    if len(tops) != 4:
        if label == "A":
            raise PositionError(_("Line A: give the top card of each Ace foundation, four in suit order C D H S"))
        raise PositionError(_("Line K: give the top card of each King foundation, four in suit order C D H S"))
    for suit, top in enumerate(tops):
        if top & 3 != suit:
            raise PositionError(_("Line {label}: {card} is in the {suit} place; foundations are listed in the order "
                                  "C D H S", label=label, card=CARD_TEXT[top], suit=SUIT_NAMES[suit]))
        rank = top >> 2
        if label == "A":
            game._up[suit] = rank + 1
            claim(list(range(suit, top + 1, 4)), label)
        else:
            game._down[suit] = 13 - rank
            claim(list(range(top, 52, 4)), label)


def write_position(game: ArchwayGame, *, hide_stock: bool = False) -> str:
    """The position text (docs/archway.md §6); nothing is hidden in Archway, so ``hide_stock`` changes nothing."""

    def pile(label: str, cards: list[int]) -> str:
        return f"{label}:" + "".join(" " + CARD_TEXT[c] for c in cards)

    return "\n".join([
        " ".join((game.name, *game.options)),
        pile("A", [game._up_top(suit) for suit in range(4)]),
        pile("K", [game._down_top(suit) for suit in range(4)]),
        pile("P", [card for packet in game._arch for card in packet]),
        *(pile(name, column) for name, column in zip(COLUMNS, game._columns, strict=True)),
    ])
