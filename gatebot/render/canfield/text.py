"""Canfield's board as monospace text, and the words every Canfield board shares.

The rows follow Gate's board (:mod:`gatebot.render.gate.text`): each starts with the name players
type for the pile — ``R`` the reserve, ``F`` the foundations, ``1``-``4`` the tableau piles,
``W`` the waste, ``S`` the stock — and wraps onto indented lines within the width.

Only what a player sees is drawn. The reserve shows its top card [in brackets] and how many
cards lie face down under it; the stock only its size, never its cards (not even from the
second pass on, when they are the turned-over waste). The waste shows its top three cards
when turning three (the top one in brackets), its top card when turning one, and counts
the rest. An empty foundation shows the suit it waits for; the row says the base rank it
starts from.
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, N_, Language
from gatebot.render.text_rows import (
    COMPACT_WIDTH,
    EMPTY_PILE,
    NORMAL_WIDTH,
    Cells,
    ending_lines,
    header_facts,
    header_lines,
    rank_word,
    title_words,
)
from gatebot.rules import CanfieldGame, Card

_SPACE = N_("·· space")


def render_canfield_text(
    game: CanfieldGame, *, compact: bool = False, colour: bool = False, language: Language = ENGLISH,
    label: str | None = None,
) -> str:
    """Draw a Canfield ``game``: header, reserve, foundations, piles, waste, stock, result.

    Widths and colour as :func:`gatebot.render.render_text` (36 columns compact, else 72).
    """
    width = COMPACT_WIDTH if compact else NORMAL_WIDTH
    cells = Cells(colour=colour, language=language)
    reserve = game.reserve
    foundations = [cells.foundation(top, suit) for suit, top in enumerate(game.foundations)]
    if None in game.foundations:
        foundations.append(cells.words(foundation_note(game, compact=compact, language=language)))
    lines = [
        *header_lines(title_words(game), canfield_facts(game, language, label=label), width, compact=compact),
        "",
        *cells.row("R", _reserve(cells, reserve), width),
        *cells.row("F", foundations, width),
        "",
    ]
    for number, pile in enumerate(game.piles, start=1):
        lines.extend(cells.row(str(number), [cells.card(card) for card in pile] or cells.note(language.gettext(_SPACE)),
                               width))
    lines.append("")
    lines.extend(cells.row("W", _waste(cells, game), width))
    first, *rest = stock_parts(game, language=language)
    lines.extend(cells.row("S", [*cells.note(first), *(cells.words(f"· {part}") for part in rest)], width))
    lines.extend(ending_lines(game, width, language=language))
    return "\n".join(lines)


def _reserve(cells: Cells, reserve: tuple[Card, ...]) -> list[str]:
    if not reserve:
        return cells.note(cells.language.gettext(EMPTY_PILE))
    top = cells.card(reserve[-1], top=True)
    return [top, cells.words(face_down_words(len(reserve) - 1, cells.language))] if len(reserve) > 1 else [top]


def _waste(cells: Cells, game: CanfieldGame) -> list[str]:
    shown = shown_waste(game)
    if not shown:
        return cells.note(cells.language.gettext(EMPTY_PILE))
    row = [cells.card(card, top=i == len(shown) - 1) for i, card in enumerate(shown)]
    under = len(game.waste) - len(shown)
    return [*row, cells.words(under_words(under, len(shown), cells.language))] if under else row


# -- the words and choices every Canfield board shares (text, emoji, image) -------------------


def canfield_facts(game: CanfieldGame, language: Language = ENGLISH, *, label: str | None = None) -> list[str]:
    """The header's facts: the deal, the base rank, the moves played and the score (words in ``language``)."""
    deal, *rest = header_facts(game, language, label=label)
    return [deal, language.gettext("base {rank}").format(rank=rank_word(game.base_rank)), *rest]


def foundation_note(game: CanfieldGame, *, compact: bool = False, language: Language = ENGLISH) -> str:
    """What an empty foundation waits for: ``(each starts at Q)``, on a phone ``(from Q)``."""
    if compact:
        return language.gettext("(from {rank})").format(rank=rank_word(game.base_rank))
    return language.gettext("(each starts at {rank})").format(rank=rank_word(game.base_rank))


def face_down_words(count: int, language: Language = ENGLISH) -> str:
    """The reserve's cards under its top: counted, never shown."""
    return language.gettext("+{n} face down").format(n=count)


def shown_waste(game: CanfieldGame) -> tuple[Card, ...]:
    """The waste cards a player sees, bottom to top: the top three turning three, else the top one."""
    return game.waste[-game.draw_count:] if game.waste else ()


def under_words(under: int, shown: int, language: Language = ENGLISH) -> str:
    """The waste's cards under the shown ones: ``+5 under it``, ``+5 under them``."""
    if shown == 1:
        return language.gettext("+{n} under it").format(n=under)
    return language.gettext("+{n} under them").format(n=under)


def pass_words(game: CanfieldGame, language: Language = ENGLISH) -> str:
    """Which pass through the stock this is: ``pass 2``, or ``pass 1 of 3`` when they are limited."""
    if game.passes_left is None:
        return language.gettext("pass {n}").format(n=game.pass_number)
    return language.gettext("pass {n} of {total}").format(n=game.pass_number,
                                                          total=game.pass_number + game.passes_left)


def stock_parts(
    game: CanfieldGame, *, italic: str = "", bold: str = "", code: str = "", language: Language = ENGLISH
) -> list[str]:
    """The stock's row: how many cards (never which), the pass, and what ``d`` does now.

    ``[28 cards, pass 1 of 3, d turns one]``; with the stock out ``[empty, pass 2, d turns
    the waste over]``, or why it can't be turned over. Markup is optional.
    """
    count = game.stock_count
    gettext = language.gettext
    if count:
        cards = language.ngettext("{bold}{n}{bold} card", "{bold}{n}{bold} cards", count).format(bold=bold, n=count)
        if not game.stock_known:
            return [gettext("{cards}, order unknown").format(cards=cards), pass_words(game, language)]
        if game.draw_count == 1:
            turns = gettext("{code}d{code} turns one").format(code=code)
        else:
            turns = gettext("{code}d{code} turns three").format(code=code)
        return [cards, pass_words(game, language), turns]
    parts = [gettext("{italic}empty{italic}").format(italic=italic), pass_words(game, language)]
    if not game.waste:
        return parts
    if game.passes_left == 0:
        return [*parts, gettext("no pass left") if game.pass_number > 1 else gettext("one pass only")]
    if game.pass_idle:
        return [*parts, gettext("no card could move this pass")]
    return [*parts, gettext("{code}d{code} turns the waste over").format(code=code)]
