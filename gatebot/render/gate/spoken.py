"""Gate's board in words, for a screen reader (Gate and Little Gate), from :mod:`gatebot.render.spoken`.

The reserves, the foundations, the columns, the waste's top card and the stock's size, in
the order of the text board; the waste's other cards and the stock's are counted, never named.
"""

from __future__ import annotations

from collections.abc import Sequence

from gatebot.messages import ENGLISH, Language
from gatebot.render.spoken import board, card_words, count_words, ending, foundation_words, header, line, pile_words
from gatebot.rules import Card, GateGame


def spoken_gate(game: GateGame, language: Language = ENGLISH, *, label: str | None = None) -> str:
    """A Gate ``game`` as sentences, one pile a line, each card named in full and none hidden named."""
    left, right = game.reserves
    foundations = (foundation_words(suit, top, language=language) for suit, top in enumerate(game.foundations))
    lines = [
        header(game, language=language, label=label),
        line(language.gettext("Left reserve, L"), *_reserve(left, language)),
        line(language.gettext("Right reserve, R"), *_reserve(right, language)),
        line(language.gettext("Foundations"), ", ".join(foundations)),
    ]
    for number, column in enumerate(game.columns, start=1):
        lines.append(line(language.gettext("Column {number}").format(number=number),
                          pile_words(column, language) if column else language.gettext("free")))
    lines.append(line(language.gettext("Waste, W"), *_waste(game.waste, language)))
    count = game.stock_count
    if count:
        stock = language.gettext("{cards}, face down").format(cards=count_words(count, language=language))
    else:
        stock = language.gettext("empty, no redeal")
    lines.append(line(language.gettext("Stock, S"), stock))
    return board([*lines, *ending(game, language=language)])


def _reserve(cards: Sequence[Card], language: Language) -> list[str]:
    if not cards:
        return [language.gettext("empty")]
    return [count_words(len(cards), language=language), pile_words(cards, language)]


def _waste(cards: Sequence[Card], language: Language) -> list[str]:
    if not cards:
        return [language.gettext("empty")]
    under = len(cards) - 1
    shown = language.gettext("{cards} under it").format(cards=count_words(under, language=language))
    return [card_words(cards[-1], language), shown if under else ""]
