"""The board as monospace text, for a terminal or a chat code block.

Every pile is one row that starts with the name players type for it (``L``, ``R``, ``F``,
``1``-``8``, ``W``, ``S``), so reading the board teaches the move language. Cards are
written rank then suit symbol (``10♦``, ``7♣``). Rows too long for the width wrap onto
indented continuation lines, so nothing but a pile's first line starts at the margin.
The stock's cards are never shown, only how many there are: the board is what a player
may see.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from gatebot.rules import Card, GateGame, Suit, Termination

#: Widest line of the normal board and of the compact (phone) board, in visible characters.
NORMAL_WIDTH = 72
COMPACT_WIDTH = 40

_RED = "\x1b[31m"
_RESET = "\x1b[0m"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_EMPTY_PILE = "·· empty"
_FREE = "·· free"


def visible_len(text: str) -> int:
    """The width ``text`` takes on screen: its length without ANSI colour codes."""
    return len(_ANSI.sub("", text))


def render_text(game: GateGame, *, compact: bool = False, colour: bool = False) -> str:
    """Draw ``game`` as text: header, reserves, foundations, columns, waste, stock, result.

    ``compact`` keeps every line within 40 characters (for phones), otherwise 72 and the
    cards sit in a grid so ranks line up row under row. ``colour`` paints red cards with
    ANSI codes for terminals; widths ignore the codes.
    """
    width = COMPACT_WIDTH if compact else NORMAL_WIDTH
    cells = _Cells(colour=colour, aligned=not compact)
    left, right = game.reserves
    lines = [
        *_header(game, width, compact=compact),
        "",
        *cells.row("L", cells.reserve(left), width),
        *cells.row("R", cells.reserve(right), width),
        *cells.row("F", [cells.foundation(top, suit) for suit, top in enumerate(game.foundations)], width),
        "",
    ]
    for number, column in enumerate(game.columns, start=1):
        cards = [cells.card(card) for card in column] or cells.note(_FREE)
        lines.extend(cells.row(str(number), cards, width))
    lines.append("")
    lines.extend(cells.row("W", cells.waste(game.waste), width))
    lines.extend(cells.row("S", cells.note(_stock(game)), width))
    lines.extend(_ending(game, width))
    return "\n".join(lines)


class _Cells:
    """Turns piles into rows of text cells: cards (red ones painted when colour is on) and notes.

    Aligned cells carry their own leading space and right-align the rank in three places,
    so every card's suit falls on a fixed grid; unaligned cells are bare and joined by a
    space, to fit as many cards as possible on a narrow screen.
    """

    def __init__(self, *, colour: bool, aligned: bool) -> None:
        self.colour = colour
        self.aligned = aligned

    def _paint(self, text: str, red: bool) -> str:
        return f"{_RED}{text}{_RESET}" if self.colour and red else text

    def _place(self, text: str, visible: int) -> str:
        """Right-align a cell of ``visible`` width in its four-place grid slot."""
        return " " * max(4 - visible, 1) + text if self.aligned else text

    def card(self, card: Card, *, top: bool = False) -> str:
        text = self._paint(card.pretty, card.is_red)
        if top:
            return self._place(f"[{text}]", len(card.pretty) + 1)
        return self._place(text, len(card.pretty))

    def note(self, text: str) -> list[str]:
        """Words in place of cards (``·· free``), starting where a card's rank would."""
        return [self._place(text, 2)]

    def reserve(self, cards: Sequence[Card]) -> list[str]:
        """A reserve bottom to top, its top card (the only one that can move) in brackets."""
        if not cards:
            return self.note(_EMPTY_PILE)
        return [self.card(card, top=i == len(cards) - 1) for i, card in enumerate(cards)]

    def foundation(self, top: Card | None, suit: int) -> str:
        """A foundation's top card, or ``-`` and the suit it is waiting for."""
        if top is not None:
            return self.card(top)
        return self._place(self._paint("-" + Suit(suit).symbol, Suit(suit).is_red), 2)

    def waste(self, cards: Sequence[Card]) -> list[str]:
        """Only the waste's top card shows; the cards under it are counted, not listed."""
        if not cards:
            return self.note(_EMPTY_PILE)
        under = len(cards) - 1
        if not under:
            return [self.card(cards[-1], top=True)]
        return [self.card(cards[-1], top=True), (" " if self.aligned else "") + f"+{under} under it"]

    def row(self, label: str, cells: list[str], width: int) -> list[str]:
        """One pile: its label, then its cells, wrapped onto indented lines within ``width``."""
        if self.aligned:
            return _flow(cells, "", width, first=label.ljust(2), indent="  ")
        return _flow(cells, " ", width, first=label.ljust(3), indent="   ")


def _stock(game: GateGame) -> str:
    return stock_words(game)


def stock_words(game: GateGame, *, italic: str = "", bold: str = "", code: str = "") -> str:
    """How many cards are left to draw, never which (the stock is face down), with optional markup."""
    count = game.stock_count
    if count == 0:
        return f"{italic}empty{italic} (one pass, no redeal)"
    cards = f"{bold}{count}{bold} card{'s' if count != 1 else ''}"
    return f"{cards} · {code}d{code} draws one" if game.stock_known else f"{cards}, order unknown"


def header_facts(game: GateGame) -> list[str]:
    """What the board's header says besides the title: the deal, the moves played, the score."""
    count = len(game.moves)
    return [
        "custom position" if game.deal is None else f"deal {game.deal}",
        f"{count} move{'s' if count != 1 else ''}",
        f"score {game.score}/52",
    ]


def _header(game: GateGame, width: int, *, compact: bool) -> list[str]:
    """Variant and options, deal, moves played and score: one line, or in compact the title over the rest."""
    title = game.title + (f" ({', '.join(game.options)})" if game.options else "")
    facts = header_facts(game)
    one_line = _flow([title, *facts], " · ", width)
    if compact and len(one_line) > 1:
        return [*_flow([title], " · ", width), *_flow(facts, " · ", width)]
    return one_line


def _ending(game: GateGame, width: int) -> list[str]:
    outcome = game.outcome()
    if outcome is None:
        return []
    if outcome.termination is Termination.WON:
        text = f"Won! Every card is home. Score {outcome.score}/52."
    else:
        text = f"Game over: no move left. Score {outcome.score}/52."
    return ["", *textwrap.wrap(text, width, subsequent_indent="  ")]


def _flow(parts: list[str], sep: str, width: int, *, first: str = "", indent: str = "  ") -> list[str]:
    """Lay ``parts`` out left to right, starting a new indented line when one would pass ``width``."""
    lines: list[str] = []
    line, used = first, len(first)
    fresh = True
    for part in parts:
        size = visible_len(part)
        if not fresh and used + len(sep) + size > width:
            lines.append(line)
            line, used, fresh = indent, len(indent), True
        if not fresh:
            line += sep
            used += len(sep)
        line += part
        used += size
        fresh = False
    lines.append(line)
    return lines
