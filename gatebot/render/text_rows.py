"""The pieces every text board is made of: card cells, rows that wrap within a width, header, ending.

A board is a list of rows, one pile a row, each starting with the name players type for the
pile. :class:`Cells` turns cards and words into cells aligned on a grid, the normal board's
and the narrow (compact) one's alike, and lays a row out; :func:`flow` wraps; :func:`header_lines` and
:func:`ending_lines` are the first and last lines of any variant's board.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from gatebot.messages import ENGLISH, N_, Language
from gatebot.render.phone import PHONE_COLUMNS
from gatebot.rules import Card, Game, Suit, Termination

_RED = "\x1b[31m"
_RESET = "\x1b[0m"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
EMPTY_PILE = N_("·· empty")
_RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: Widest line of the normal board and of the compact (phone) board, in visible characters:
#: the compact one is what a phone shows of a code block's line (:mod:`gatebot.render.phone`).
NORMAL_WIDTH = 72
COMPACT_WIDTH = PHONE_COLUMNS


def visible_len(text: str) -> int:
    """The width ``text`` takes on screen: its length without ANSI colour codes."""
    return len(_ANSI.sub("", text))


class Cells:
    """Turns piles into rows of text cells: cards (red ones painted when colour is on) and notes.

    Cells carry their own leading space and right-align the rank in three places, so every
    card takes four characters and its suit falls on a fixed grid, ``10♦`` as ``9♠``: rows
    line up under each other on a narrow board too, where bare cards would be pushed along
    by every two-character rank.
    """

    def __init__(self, *, colour: bool, language: Language = ENGLISH) -> None:
        self.colour = colour
        #: The words on the board (``·· empty``, ``+3 under it``) are in its reader's language.
        self.language = language

    def paint(self, text: str, red: bool) -> str:
        return f"{_RED}{text}{_RESET}" if self.colour and red else text

    def place(self, text: str, visible: int) -> str:
        """Right-align a cell of ``visible`` width in its four-place grid slot."""
        return " " * max(4 - visible, 1) + text

    def card(self, card: Card, *, top: bool = False) -> str:
        text = self.paint(card.pretty, card.is_red)
        if top:
            return self.place(f"[{text}]", len(card.pretty) + 1)
        return self.place(text, len(card.pretty))

    def note(self, text: str) -> list[str]:
        """Words in place of cards (``·· free``), starting where a card's rank would."""
        return [self.place(text, 2)]

    def words(self, text: str) -> str:
        """Words after the cards of a row (``+3 under it``), one space from the last card."""
        return " " + text

    def reserve(self, cards: Sequence[Card]) -> list[str]:
        """A reserve bottom to top, its top card (the only one that can move) in brackets."""
        if not cards:
            return self.note(self.language.gettext(EMPTY_PILE))
        return [self.card(card, top=i == len(cards) - 1) for i, card in enumerate(cards)]

    def foundation(self, top: Card | None, suit: int) -> str:
        """A foundation's top card, or ``-`` and the suit it is waiting for."""
        if top is not None:
            return self.card(top)
        return self.place(self.paint("-" + Suit(suit).symbol, Suit(suit).is_red), 2)

    def waste(self, cards: Sequence[Card]) -> list[str]:
        """Only the waste's top card shows; the cards under it are counted, not listed."""
        if not cards:
            return self.note(self.language.gettext(EMPTY_PILE))
        under = len(cards) - 1
        if not under:
            return [self.card(cards[-1], top=True)]
        return [self.card(cards[-1], top=True), self.words(self.language.gettext("+{n} under it").format(n=under))]

    def row(self, label: str, cells: list[str], width: int) -> list[str]:
        """One pile: its label, then its cells, wrapped onto indented lines within ``width``."""
        return flow(cells, "", width, first=label.ljust(2), indent="  ")


def rank_word(rank: int) -> str:
    """A rank as players write it: ``A``, ``10``, ``Q``."""
    return _RANK_WORDS[rank - 1]


def title_words(game: Game) -> str:
    """The variant as players read it, with its options: ``Little Gate (single-moves)``."""
    return game.title + (f" ({', '.join(game.options)})" if game.options else "")


def header_facts(
    game: Game, language: Language = ENGLISH, *, total: int = 52, label: str | None = None
) -> list[str]:
    """What the board's header says besides the title: the deal, the moves played, the score.

    ``label``, when given, names the game in the deal's place (a challenge whose deal is still a secret).
    """
    count = len(game.moves)
    return [
        label if label is not None else where_words(game, language),
        language.ngettext("{n} move", "{n} moves", count).format(n=count),
        language.gettext("score {score}/{total}").format(score=game.score, total=total),
    ]


def where_words(game: Game, language: Language = ENGLISH) -> str:
    """Which game this is, as a header says it: ``deal 617``, or ``custom position`` for a pasted one."""
    if game.deal is None:
        return language.gettext("custom position")
    return language.gettext("deal {deal}").format(deal=game.deal)


def header_lines(title: str, facts: list[str], width: int, *, compact: bool) -> list[str]:
    """Title and facts joined by ``·``: one line, or in compact the title over the rest.

    A title too long for the line (Canfield with all its options, on a phone) wraps between words.
    """
    one_line = flow([title, *facts], " · ", width)
    if compact and len(one_line) > 1:
        words = [title] if visible_len(title) <= width else title.split(" ")
        return [*flow(words, " ", width), *flow(facts, " · ", width)]
    return one_line


def ending_lines(game: Game, width: int, *, total: int = 52, language: Language = ENGLISH) -> list[str]:
    """The result once the game is over, after a blank line: won, or no move left (score out of ``total``)."""
    outcome = game.outcome()
    if outcome is None:
        return []
    if outcome.termination is Termination.WON:
        text = language.gettext("Won! Every card is home. Score {score}/{total}.")
    else:
        text = language.gettext("Game over: no move left. Score {score}/{total}.")
    text = text.format(score=outcome.score, total=total)
    return ["", *textwrap.wrap(text, width, subsequent_indent="  ")]


def flow(parts: list[str], sep: str, width: int, *, first: str = "", indent: str = "  ") -> list[str]:
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
