"""Gate's board as monospace text, for a terminal or a chat code block (Gate and Little Gate).

Every pile is one row that starts with the name players type for it (``L``, ``R``, ``F``,
``1``-``8``, ``W``, ``S``), so reading the board teaches the move language. Cards are
written rank then suit symbol (``10♦``, ``7♣``). Rows too long for the width wrap onto
indented continuation lines, so nothing but a pile's first line starts at the margin.
The stock's cards are never shown, only how many there are: the board is what a player
may see.

:func:`gatebot.render.render_text` draws any variant; Gate's board is drawn here from the
pieces in :mod:`gatebot.render.text_rows`, which every family's text board shares.
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, N_, Language
from gatebot.render.text_rows import (
    COMPACT_WIDTH,
    NORMAL_WIDTH,
    Cells,
    ending_lines,
    header_facts,
    header_lines,
    title_words,
)
from gatebot.rules import GateGame

_FREE = N_("·· free")


def render_gate_text(
    game: GateGame, *, compact: bool = False, colour: bool = False, language: Language = ENGLISH,
    label: str | None = None,
) -> str:
    """Draw a Gate ``game`` as text: header, then its piles one a row, then the result once it is over.

    ``compact`` keeps every line within 36 characters (what a phone shows of a code block,
    :mod:`gatebot.render.phone`), otherwise 72 and the cards sit in a grid so ranks line up
    row under row. ``colour`` paints red cards with
    ANSI codes for terminals; widths ignore the codes. It shows reserves, foundations,
    columns, waste and stock, its words in ``language``.
    """
    width = COMPACT_WIDTH if compact else NORMAL_WIDTH
    cells = Cells(colour=colour, language=language)
    left, right = game.reserves
    lines = [
        *header_lines(title_words(game), header_facts(game, language, label=label), width, compact=compact),
        "",
        *cells.row("L", cells.reserve(left), width),
        *cells.row("R", cells.reserve(right), width),
        *cells.row("F", [cells.foundation(top, suit) for suit, top in enumerate(game.foundations)], width),
        "",
    ]
    for number, column in enumerate(game.columns, start=1):
        cards = [cells.card(card) for card in column] or cells.note(language.gettext(_FREE))
        lines.extend(cells.row(str(number), cards, width))
    lines.append("")
    lines.extend(cells.row("W", cells.waste(game.waste), width))
    lines.extend(cells.row("S", cells.note(stock_words(game, language=language)), width))
    lines.extend(ending_lines(game, width, language=language))
    return "\n".join(lines)


def stock_words(
    game: GateGame, *, italic: str = "", bold: str = "", code: str = "", language: Language = ENGLISH
) -> str:
    """How many cards are left to draw, never which (the stock is face down), with optional markup."""
    count = game.stock_count
    if count == 0:
        # TRANSLATORS: the stock's row once it is out; the compact board gives it 32 characters (a phone's 36).
        return language.gettext("{italic}empty{italic} (one pass, no redeal)").format(italic=italic)
    cards = language.ngettext("{bold}{n}{bold} card", "{bold}{n}{bold} cards", count).format(bold=bold, n=count)
    if game.stock_known:
        return language.gettext("{cards} · {code}d{code} draws one").format(cards=cards, code=code)
    return language.gettext("{cards}, order unknown").format(cards=cards)

