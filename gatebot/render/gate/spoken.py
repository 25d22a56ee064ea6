"""Gate's board in words, for a screen reader (Gate and Little Gate), from :mod:`gatebot.render.spoken`.

The reserves, the foundations, the columns, the waste's top card and the stock's size, in
the order of the text board; the waste's other cards and the stock's are counted, never named.
"""

from __future__ import annotations

from collections.abc import Sequence

from gatebot.render.spoken import board, card_words, count_words, ending, foundation_words, header, line, pile_words
from gatebot.rules import Card, GateGame


def spoken_gate(game: GateGame) -> str:
    """A Gate ``game`` as sentences, one pile a line, each card named in full and none hidden named."""
    left, right = game.reserves
    lines = [
        header(game),
        line("Left reserve, L", *_reserve(left)),
        line("Right reserve, R", *_reserve(right)),
        line("Foundations", ", ".join(foundation_words(suit, top) for suit, top in enumerate(game.foundations))),
    ]
    for number, column in enumerate(game.columns, start=1):
        lines.append(line(f"Column {number}", pile_words(column) if column else "free"))
    lines.append(line("Waste, W", *_waste(game.waste)))
    count = game.stock_count
    lines.append(line("Stock, S", f"{count_words(count)}, face down" if count else "empty, no redeal"))
    return board([*lines, *ending(game)])


def _reserve(cards: Sequence[Card]) -> list[str]:
    return [count_words(len(cards)), pile_words(cards)] if cards else ["empty"]


def _waste(cards: Sequence[Card]) -> list[str]:
    if not cards:
        return ["empty"]
    under = len(cards) - 1
    return [card_words(cards[-1]), f"{count_words(under)} under it" if under else ""]
