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


def spoken_canfield(game: CanfieldGame, language: Language = ENGLISH, *, label: str | None = None) -> str:
    """A Canfield ``game`` as sentences, one pile a line; the face-down reserve and the stock only counted."""
    gettext = language.gettext
    base = language.pgettext("card", RANK_NAMES[game.base_rank - 1])
    reserve = game.reserve
    if reserve:
        under = len(reserve) - 1
        hidden = gettext("{cards} face down under it").format(cards=count_words(under, language=language))
        reserve_parts = [card_words(reserve[-1], language), hidden if under else ""]
    else:
        reserve_parts = [gettext("empty")]
    foundations = (foundation_words(suit, top, language=language) for suit, top in enumerate(game.foundations))
    lines = [
        header(game, gettext("base {rank}").format(rank=base), language=language, label=label),
        line(gettext("Reserve, R"), *reserve_parts),
        line(gettext("Foundations, each from {rank}").format(rank=base), ", ".join(foundations)),
    ]
    for number, pile in enumerate(game.piles, start=1):
        lines.append(line(gettext("Pile {number}").format(number=number),
                          pile_words(pile, language) if pile else gettext("space")))
    shown = shown_waste(game)
    under = len(game.waste) - len(shown)
    if len(shown) == 1:
        below = gettext("{cards} under it").format(cards=count_words(under, language=language))
    else:
        below = gettext("{cards} under them").format(cards=count_words(under, language=language))
    waste = [pile_words(shown, language), below if under else ""]
    lines.append(line(gettext("Waste, W"), *(waste if shown else [gettext("empty")])))
    parts = stock_parts(game, language=language)
    if game.stock_count:
        parts[0] = gettext("{cards}, face down").format(cards=parts[0])
    lines.append(line(gettext("Stock, S"), *parts))
    return board([*lines, *ending(game, language=language)])
