"""Canfield's board in words, for a screen reader, from :mod:`gatebot.render.spoken`.

The reserve's top card and how many lie face down under it, the foundations and the base
rank they start from, the tableau piles, the waste's shown cards (three turning three, one
turning one) and the stock's size and pass; the rest is counted, never named.
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.render.canfield.text import shown_waste, stock_parts
from gatebot.render.spoken import (
    RANK_NAMES,
    board,
    card_words,
    count_words,
    ending,
    foundation_words,
    header,
    line,
    pile_words,
)
from gatebot.rules import CanfieldGame


def spoken_canfield(game: CanfieldGame, language: Language = ENGLISH) -> str:
    """A Canfield ``game`` as sentences, one pile a line; the face-down reserve and the stock only counted."""
    base = RANK_NAMES[game.base_rank - 1]
    reserve = game.reserve
    if reserve:
        under = len(reserve) - 1
        reserve_parts = [card_words(reserve[-1]), f"{count_words(under)} face down under it" if under else ""]
    else:
        reserve_parts = ["empty"]
    lines = [
        header(game, f"base {base}", language=language),
        line("Reserve, R", *reserve_parts),
        line(
            f"Foundations, each from {base}",
            ", ".join(foundation_words(suit, top) for suit, top in enumerate(game.foundations)),
        ),
    ]
    for number, pile in enumerate(game.piles, start=1):
        lines.append(line(f"Pile {number}", pile_words(pile) if pile else "space"))
    shown = shown_waste(game)
    under = len(game.waste) - len(shown)
    waste = [pile_words(shown), f"{count_words(under)} under {'it' if len(shown) == 1 else 'them'}" if under else ""]
    lines.append(line("Waste, W", *(waste if shown else ["empty"])))
    parts = stock_parts(game)
    if game.stock_count:
        parts[0] += ", face down"
    lines.append(line("Stock, S", *parts))
    return board([*lines, *ending(game, language=language)])
