"""Gate's board as a Discord message: emoji cards and Discord markdown, readable on any theme.

Cards are drawn as :mod:`gatebot.render.emoji_rows` describes: a rank tile and a suit glued
by a word joiner, red suits as red emoji, black suits as outlined symbols that stay visible
on Discord's dark theme.

The layout follows the text board: one pile a row, each row starting with the name players
type for the pile (``L``, ``R``, ``F``, ``1``-``8``, ``W``, ``S``) in a code span, the
reserves bottom to top with the top card in brackets, foundations, columns, the waste's top
with the count under it, and only the stock's size. Rows wrap onto indented lines within a
width measured in :func:`display_width` units; the compact board fits a phone.
:func:`gatebot.render.render_emoji` draws any variant; Gate's board (Gate and Little Gate) is here.
"""

from __future__ import annotations

from collections.abc import Sequence

from gatebot.messages import ENGLISH, Language
from gatebot.render.emoji_rows import (
    BLANK_TILE,
    COMPACT_CARDS_PER_LINE,
    COMPACT_EMOJI_WIDTH,
    JOIN,
    NORMAL_CARDS_PER_LINE,
    NORMAL_EMOJI_WIDTH,
    SUIT_EMOJI,
    bold_title,
    emoji_card,
    empty_words,
    ending_lines,
    flow,
    header_lines,
)
from gatebot.render.gate.text import stock_words
from gatebot.render.text_rows import header_facts
from gatebot.rules import Card, GateGame, Suit


def render_gate_emoji(
    game: GateGame, *, compact: bool = False, language: Language = ENGLISH, label: str | None = None
) -> str:
    """Draw a Gate ``game`` for a Discord message: header, then its piles one a row, then the result.

    Always under 2000 characters (Discord's message limit), whatever the position. Lines
    stay within :data:`NORMAL_EMOJI_WIDTH` units and ten cards, or with ``compact``
    :data:`COMPACT_EMOJI_WIDTH` units and five cards, the title on a line of its own. It
    shows reserves, foundations, columns, waste and stock, its words in ``language``.
    """
    width = COMPACT_EMOJI_WIDTH if compact else NORMAL_EMOJI_WIDTH
    per_line = COMPACT_CARDS_PER_LINE if compact else NORMAL_CARDS_PER_LINE
    left, right = game.reserves
    foundations = [_foundation(top, Suit(suit)) for suit, top in enumerate(game.foundations)]
    piles = [("L", _reserve(left, language)), ("R", _reserve(right, language)), ("F", foundations), ("", [])]
    free = f"{BLANK_TILE} " + language.gettext("{italic}free space{italic}").format(italic="*")
    for number, column in enumerate(game.columns, start=1):
        piles.append((str(number), [emoji_card(card) for card in column] or [free]))
    piles += [("", []), ("W", _waste(game.waste, language)), ("S", [_stock(game, language)])]

    lines = [*header_lines(bold_title(game), header_facts(game, language, label=label), width, compact=compact), ""]
    for label, cells in piles:
        lines.extend(flow(cells, width, per_line, first=f"`{label}` ") if label else [""])
    lines.extend(ending_lines(game, width, language=language))
    return "\n".join(lines)


def _reserve(cards: Sequence[Card], language: Language) -> list[str]:
    """A reserve bottom to top, its top card (the only one that can move) in brackets."""
    if not cards:
        return [empty_words(language)]
    return [*map(emoji_card, cards[:-1]), f"[{emoji_card(cards[-1])}]"]


def _foundation(top: Card | None, suit: Suit) -> str:
    """A foundation's top card, or a blank tile beside the suit it is waiting for."""
    return emoji_card(top) if top is not None else BLANK_TILE + JOIN + SUIT_EMOJI[suit]


def _waste(cards: Sequence[Card], language: Language) -> list[str]:
    """Only the waste's top card shows; the cards under it are counted, not listed."""
    if not cards:
        return [empty_words(language)]
    top = f"[{emoji_card(cards[-1])}]"
    return [top, language.gettext("+{n} under it").format(n=len(cards) - 1)] if len(cards) > 1 else [top]


def _stock(game: GateGame, language: Language) -> str:
    return stock_words(game, italic="*", bold="**", code="`", language=language)
