"""The pieces every emoji board is made of: emoji cards, their drawn width, wrapping rows, header, ending.

A card is two glyphs glued by a word joiner (so Discord never wraps a card in half): a rank
tile (``🇰``, ``🔟``, ``7️⃣`` — Discord draws all of them as equal blue squares, so every
rank takes the same width and stands out on the dark and the light theme alike) and a suit.
Red suits are the red emoji ``♥️ ♦️``. Black suits are the outlined text symbols ``♤ ♧``,
not the emoji ``♠️ ♣️``: Discord draws those near-black, which all but vanishes on its dark
theme (players have reported clubs and spades they could not tell apart there), while a
text symbol takes the theme's text colour — white on dark, black on light.

A four-colour deck (:func:`four_colour_suits`) draws clubs as the green shamrock ``☘️`` and
diamonds as the large blue diamond ``🔷``: Discord has no coloured club or diamond suit, and
these two are Unicode emoji Discord shows in colour on every theme; hearts stay ``♥️`` and
spades the theme-coloured ``♤``.

Rows wrap onto indented lines within a width measured in :func:`display_width` units.
"""

from __future__ import annotations

import functools
import re

from gatebot.messages import ENGLISH, Language
from gatebot.rules import Card, Game, Termination

#: Widest line of the normal (desktop) and compact (phone) board, in :func:`display_width` units.
NORMAL_EMOJI_WIDTH = 80
COMPACT_EMOJI_WIDTH = 40
#: At most this many cards on one line, so a long pile wraps into even rows.
NORMAL_CARDS_PER_LINE = 10
COMPACT_CARDS_PER_LINE = 5

#: Rank tiles, ace to king: regional-indicator letters and keycap digits.
RANK_EMOJI: tuple[str, ...] = (
    "🇦", *(f"{digit}\ufe0f\u20e3" for digit in "23456789"), "🔟", "🇯", "🇶", "🇰",
)
#: Suit glyphs in suit order C D H S: red emoji for red suits, theme-coloured symbols for black.
SUIT_EMOJI: tuple[str, ...] = ("♧", "♦\ufe0f", "♥\ufe0f", "♤")
#: The four-colour deck's suit glyphs, C D H S: clubs green, diamonds blue, hearts red, spades as before.
FOUR_COLOUR_SUIT_EMOJI: tuple[str, ...] = ("\u2618\ufe0f", "\U0001f537", SUIT_EMOJI[2], SUIT_EMOJI[3])
#: The tile standing in for a missing card (an empty foundation, a free space).
BLANK_TILE = "🟦"

JOIN = "\u2060"  # word joiner: no line break between a card's rank and suit
GAP = "\u2002"  # en space between cards: wider than the gap inside a card, and a break point
INDENT = "\u2003\u2002"  # continuation lines start under the first card, past the label
_ZERO_WIDTH = re.compile("[\ufe0f\u20e3\u2060*`_]")
_EMOJI = re.compile("[\U0001F000-\U0001FFFF\u2618\u2665\u2666]")  # drawn about three characters wide
_SYMBOLS = re.compile("[\u2664\u2667\u2003]")  # ♤ ♧ and the em space: about two


def emoji_card(card: Card) -> str:
    """One card as its rank tile and suit glyph, joined so they never wrap apart."""
    return RANK_EMOJI[card.rank - 1] + JOIN + SUIT_EMOJI[card.suit]


def four_colour_suits(board: str) -> str:
    """An emoji board with its clubs and diamonds in the four-colour deck's glyphs.

    The suit glyphs appear nowhere else on a board, so swapping them repaints every card and
    empty foundation; a shamrock is drawn a unit wider than ``♧``, which a row of clubs
    carries within the line's slack.
    """
    return board.replace(SUIT_EMOJI[0], FOUR_COLOUR_SUIT_EMOJI[0]).replace(SUIT_EMOJI[1], FOUR_COLOUR_SUIT_EMOJI[1])


@functools.lru_cache(maxsize=4096)
def display_width(text: str) -> int:
    """Roughly how wide ``text`` is drawn in a Discord message, in average-character units.

    An emoji (rank tile, red suit, blank tile) counts 3, a black suit symbol 2, an en space
    1 and an em space 2; markdown markers, variation selectors, keycap marks and the word
    joiner count nothing. Forty units is about a phone's line.

    Remembered by text: a board measures the same few dozen cards, labels and gaps over and
    over as it wraps its rows (four regular-expression passes each), and every board after
    it measures them again.
    """
    plain = len(_ZERO_WIDTH.sub("", text))
    # A keycap's digit is plain ASCII (1 so far) and becomes a whole emoji with its mark.
    return plain + 2 * len(_EMOJI.findall(text)) + len(_SYMBOLS.findall(text)) + 2 * text.count("\u20e3")


def header_lines(title: str, facts: list[str], width: int, *, compact: bool) -> list[str]:
    """Title (bold, with options) and facts: one line, or the title over the rest."""
    one_line = f"{title} · {' · '.join(facts)}"
    if not compact and display_width(one_line) <= width:
        return [one_line]
    return [*flow(title.split(" "), width, sep=" ", indent=""), *flow(facts, width, sep=" · ", indent="")]


def bold_title(game: Game) -> str:
    """``**Little Gate** (single-moves)``: the variant in bold, then its options."""
    return f"**{game.title}**" + (f" ({', '.join(game.options)})" if game.options else "")


def empty_words(language: Language = ENGLISH) -> str:
    """An emptied pile's word, in italics: ``*empty*``."""
    return language.gettext("{italic}empty{italic}").format(italic="*")


def space_words(language: Language = ENGLISH) -> str:
    """An empty column of Canfield or Archway: a blank tile and ``*space*``."""
    return f"{BLANK_TILE} " + language.gettext("{italic}space{italic}").format(italic="*")


def ending_lines(game: Game, width: int, *, total: int = 52, language: Language = ENGLISH) -> list[str]:
    """The result once the game is over: won, or stuck with no move left (score out of ``total``), in ``language``."""
    outcome = game.outcome()
    if outcome is None:
        return []
    if outcome.termination is Termination.WON:
        text = "🏆 " + language.gettext("{bold}Won!{bold} Every card is home. Score {score}/{total}.")
    else:
        text = language.gettext("{bold}Game over:{bold} no move left. Score {score}/{total}.")
    text = text.format(bold="**", score=outcome.score, total=total)
    return ["", *flow(text.split(" "), width, sep=" ", indent="")]


def flow(
    cells: list[str], width: int, per_line: int = 0, *, first: str = "", sep: str = GAP, indent: str = INDENT
) -> list[str]:
    """Lay ``cells`` out after ``first`` (a pile's label) left to right, wrapping as needed.

    A new line, starting with ``indent``, begins when the next cell would pass ``width``
    units or ``per_line`` cells.
    """
    lines: list[str] = []
    line = first
    used = display_width(first) + (1 if first else 0)  # a code span is padded on both sides
    on_line = 0
    for cell in cells:
        size = display_width(cell)
        if on_line and (used + display_width(sep) + size > width or on_line == per_line):
            lines.append(line)
            line, used, on_line = indent, display_width(indent), 0
        if on_line:
            line += sep
            used += display_width(sep)
        line += cell
        used += size
        on_line += 1
    lines.append(line)
    return lines
