"""Archway's board as a Discord message: emoji cards and markdown, as Gate's emoji board draws them.

One pile a row, each starting with the name players type for it in a code span (``A`` the Ace
foundations, ``K`` the King foundations, ``P`` the arch, ``1``-``4`` the columns), the same
rows as the text board (:mod:`gatebot.render.archway.text`). Every card is open and drawn:
the foundations' tops, the arch's 13 packets Aces to Kings — a packet's cards side by side,
the next packet after a ``·``, an empty packet as its rank tile and *none* — and the columns
bottom to top with the exposed card [in brackets]. The arch's row wraps between any two
cards, so a packet of eight fits a phone too. The deal (96 cards off the foundations, the
most there can be) takes under 1000 characters: the whole board always fits one message.
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.render.archway.text import DOWN_WORDS, EMPTY_PACKET, UP_WORDS, archway_facts
from gatebot.render.emoji_rows import (
    COMPACT_CARDS_PER_LINE,
    COMPACT_EMOJI_WIDTH,
    NORMAL_CARDS_PER_LINE,
    NORMAL_EMOJI_WIDTH,
    RANK_EMOJI,
    bold_title,
    emoji_card,
    ending_lines,
    flow,
    header_lines,
    space_words,
)
from gatebot.rules import ArchwayGame

#: Between two packets of the arch's row (the first card of each packet after the first).
PACKET_MARK = "· "


def render_archway_emoji(
    game: ArchwayGame, *, compact: bool = False, language: Language = ENGLISH, label: str | None = None
) -> str:
    """Draw an Archway ``game`` for a Discord message, within the widths of the Gate board.

    Its words (header, foundations, empty packets and columns, the ending) are in ``language``.
    """
    width = COMPACT_EMOJI_WIDTH if compact else NORMAL_EMOJI_WIDTH
    per_line = COMPACT_CARDS_PER_LINE if compact else NORMAL_CARDS_PER_LINE
    lines = [*header_lines(bold_title(game), archway_facts(game, language, label=label), width, compact=compact), ""]

    def row(label: str, cells: list[str], cards_per_line: int = per_line) -> None:
        lines.extend(flow(cells, width, cards_per_line, first=f"`{label}` "))

    row("A", [*map(emoji_card, game.ace_foundations), f"*{language.gettext(UP_WORDS)}*"])
    row("K", [*map(emoji_card, game.king_foundations), f"*{language.gettext(DOWN_WORDS)}*"])
    lines.append("")
    row("P", _arch(game, language), 0)
    lines.append("")
    for number, column in enumerate(game.columns, start=1):
        cells = [*map(emoji_card, column[:-1]), f"[{emoji_card(column[-1])}]"] if column else []
        row(str(number), cells or [space_words(language)])
    lines.extend(ending_lines(game, width, total=game.card_count, language=language))
    return "\n".join(lines)


def _arch(game: ArchwayGame, language: Language) -> list[str]:
    """The arch's cards packet by packet, each packet's first one after a mark, an empty packet as its rank."""
    cells: list[str] = []
    none = language.gettext(EMPTY_PACKET)
    for rank, packet in enumerate(game.arch, start=1):
        packet_cells = [*map(emoji_card, packet)] or [f"{RANK_EMOJI[rank - 1]} *{none}*"]
        if cells:
            packet_cells[0] = PACKET_MARK + packet_cells[0]
        cells.extend(packet_cells)
    return cells
