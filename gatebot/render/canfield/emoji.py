"""Canfield's board as a Discord message: emoji cards and markdown, as Gate's emoji board draws them.

One pile a row, each starting with the name players type for it in a code span (``R`` the
reserve, ``F`` the foundations, ``1``-``4`` the tableau piles, ``W`` the waste, ``S`` the
stock). Only what a player sees is drawn: the reserve's top card [in brackets] with the
number of cards face down under it, the foundations' tops (a blank tile beside the suit of
an empty one, and the base rank it starts at), every card of the piles bottom to top, the
waste's top three when turning three (its top one when turning one) with the rest counted,
and the stock's size and the pass, never the stock's cards.
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.render.canfield.text import (
    canfield_facts,
    face_down_words,
    foundation_note,
    shown_waste,
    stock_parts,
    under_words,
)
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
    space_words,
)
from gatebot.rules import CanfieldGame


def render_canfield_emoji(
    game: CanfieldGame, *, compact: bool = False, language: Language = ENGLISH, label: str | None = None
) -> str:
    """Draw a Canfield ``game`` for a Discord message, within the widths of the Gate board.

    Under 2000 characters whatever the position (all 52 cards in the tableau take under 1000);
    its words in ``language``.
    """
    width = COMPACT_EMOJI_WIDTH if compact else NORMAL_EMOJI_WIDTH
    per_line = COMPACT_CARDS_PER_LINE if compact else NORMAL_CARDS_PER_LINE
    lines = [*header_lines(bold_title(game), canfield_facts(game, language, label=label), width, compact=compact), ""]

    def row(label: str, cells: list[str], sep: str = "\u2002") -> None:
        lines.extend(flow(cells, width, per_line, first=f"`{label}` ", sep=sep))

    row("R", _reserve(game, language))
    row("F", _foundations(game, compact=compact, language=language))
    lines.append("")
    space = space_words(language)
    for number, pile in enumerate(game.piles, start=1):
        row(str(number), [emoji_card(card) for card in pile] or [space])
    lines.append("")
    row("W", _waste(game, language))
    first, *rest = stock_parts(game, italic="*", bold="**", code="`", language=language)
    row("S", [first, *(f"· {part}" for part in rest)], sep=" ")
    lines.extend(ending_lines(game, width, language=language))
    return "\n".join(lines)


def _reserve(game: CanfieldGame, language: Language) -> list[str]:
    """The reserve's top card in brackets, and how many cards lie face down under it."""
    if not game.reserve:
        return [empty_words(language)]
    top = f"[{emoji_card(game.reserve[-1])}]"
    under = len(game.reserve) - 1
    return [top, face_down_words(under, language)] if under else [top]


def _foundations(game: CanfieldGame, *, compact: bool, language: Language) -> list[str]:
    """Each foundation's top card, or a blank tile beside its suit; then the base rank, if one is empty."""
    cells = [
        emoji_card(top) if top is not None else BLANK_TILE + JOIN + SUIT_EMOJI[suit]
        for suit, top in enumerate(game.foundations)
    ]
    if None not in game.foundations:
        return cells
    return [*cells, f"*{foundation_note(game, compact=compact, language=language)}*"]


def _waste(game: CanfieldGame, language: Language) -> list[str]:
    """The waste's shown cards bottom to top, the top one in brackets, and the rest counted."""
    shown = shown_waste(game)
    if not shown:
        return [empty_words(language)]
    cells = [*map(emoji_card, shown[:-1]), f"[{emoji_card(shown[-1])}]"]
    under = len(game.waste) - len(shown)
    return [*cells, under_words(under, len(shown), language)] if under else cells
