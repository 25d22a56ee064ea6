"""Archway's board as monospace text, and the words every Archway board shares.

The rows follow Gate's board (:mod:`gatebot.render.gate.text`): each starts with the name players
type for the pile — ``A`` the Ace foundations, ``K`` the King foundations, ``P`` the arch (its
packets, the pile a card goes back to with ``kit``), ``1``-``4`` the columns.

Everything in Archway is open, so every card is drawn: each foundation's top card (the base
is always there, so a foundation is never empty), the 13 packets of the arch Aces to Kings,
each as its rank and its cards (``7: 7♣ 7♥ 7♥``, an empty one ``7: none``), and the columns
bottom to top, the exposed card — the only one of a column that moves — [in brackets].
The deal, the longest position (96 cards off the foundations), takes under 700 characters.
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
    rank_word,
    title_words,
    visible_len,
)
from gatebot.rules import ArchwayGame, Card

SPACE_WORDS = N_("·· space")
#: Where a row's continuation lines start (:meth:`Cells.row`).
_INDENT = "  "
EMPTY_PACKET = N_("none")


def render_archway_text(
    game: ArchwayGame, *, compact: bool = False, colour: bool = False, language: Language = ENGLISH,
    label: str | None = None,
) -> str:
    """Draw an Archway ``game``: header, foundations, arch, columns, result.

    Widths and colour as :func:`gatebot.render.render_text` (36 columns compact, else 72).
    """
    width = COMPACT_WIDTH if compact else NORMAL_WIDTH
    cells = Cells(colour=colour, language=language)
    lines = [
        *header_lines(title_words(game), archway_facts(game, language, label=label), width, compact=compact),
        "",
        *cells.row("A", [*map(cells.card, game.ace_foundations), cells.words(language.gettext(UP_WORDS))], width),
        *cells.row("K", [*map(cells.card, game.king_foundations), cells.words(language.gettext(DOWN_WORDS))], width),
        "",
        *cells.row("P", [cell for rank, packet in enumerate(game.arch, start=1)
                         for cell in _packet(cells, rank, packet, width)], width),
        "",
    ]
    for number, column in enumerate(game.columns, start=1):
        row = [cells.card(card, top=i == len(column) - 1) for i, card in enumerate(column)]
        lines.extend(cells.row(str(number), row or cells.note(language.gettext(SPACE_WORDS)), width))
    lines.extend(ending_lines(game, width, total=game.card_count, language=language))
    return "\n".join(lines)


def _packet(cells: Cells, rank: int, packet: tuple[Card, ...], width: int) -> list[str]:
    """One packet of the arch as one cell, so a row never breaks inside it: ``2: 2♣ 2♦``.

    A packet too long for a line of its own (eight 10s on a phone's 36 columns) is the one
    exception: it breaks once, its second part a cell of its own indented under its cards.
    """
    label = f"  {packet_label(rank)} "
    shown = [cells.paint(card.pretty, card.is_red) for card in packet] or [cells.language.gettext(EMPTY_PACKET)]
    room = width - len(_INDENT)
    if visible_len(label + " ".join(shown)) <= room:
        return [label + " ".join(shown)]
    first = 1
    while visible_len(label + " ".join(shown[: first + 1])) <= room:
        first += 1
    under = " " * len(label)
    return [label + " ".join(shown[:first]), under + " ".join(shown[first:])]


# -- the words every Archway board shares (text, emoji) ----------------------------------------

#: What the foundation rows say after their tops.
UP_WORDS = N_("up to K")
DOWN_WORDS = N_("down to A")


def packet_label(rank: int) -> str:
    """The label of the arch's packet of ``rank``: ``A:``, ``10:``."""
    return f"{rank_word(rank)}:"


def archway_facts(game: ArchwayGame, language: Language = ENGLISH, *, label: str | None = None) -> list[str]:
    """The header's facts: the deal, the moves played and the score out of 104 (words in ``language``)."""
    return header_facts(game, language, total=game.card_count, label=label)
