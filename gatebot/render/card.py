"""A finished game as a spoiler-free result card, the way daily word games share a result.

The card shows the *shape* of a game and none of its cards: a header (the variant, the
challenge or deal, the result out of the variant's cards), a grid with one row of thirteen
squares per foundation, from the foundation's first card to its last, each square coloured
by the third of the game in which that card went up (white for a card that lay there from
the deal, black for one that never went up), the grid's legend in one line, and a line of
counts. Gate and Canfield have
four rows, one per suit; Archway's two decks have eight, two per suit (its Ace foundation
building up, then its King foundation building down), 104 squares for 104 cards. No rank or
suit is written anywhere, so a card shared in a channel spoils nothing for someone who has
yet to play the same deal. Plain text, so Discord and the terminal print the same card.
"""

from __future__ import annotations

from dataclasses import dataclass

from gatebot.messages import ENGLISH, N_, Language

#: Squares by the third of the game a card went up in, then the square of a card never up.
THIRDS = ("🟩", "🟨", "🟧")
NEVER = "⬛"
#: The square of a card on its foundation from the deal (Canfield's first card, Archway's bases).
DEALT_SQUARE = "⬜"
RANKS = 13
SUITS = 4
DECK = RANKS * SUITS
#: What the squares mean, for the legend under the grid (white and black only when shown).
MEANINGS = dict(zip(THIRDS, (N_("early"), N_("mid-game"), N_("late")), strict=True))
DEALT_MEANING = N_("from the deal")
NEVER_MEANING = N_("never home")
#: The step of a card on its foundation from the deal, before any move.
DEALT = -1

#: When each foundation card last went up: per foundation (Gate: C D H S), its first card to
#: its last, the index of the step (an entry of the game's log) that put it there, ``DEALT``
#: for a card there from the deal, or None if it never stayed up.
Ascents = tuple[tuple[int | None, ...], ...]


@dataclass(frozen=True, slots=True)
class ResultCard:
    """What a result card says about one finished game (the service fills it from a stored game)."""

    title: str  # the variant, as players read it: "Gate", "Little Gate", "Archway"
    deal: int
    won: bool
    score: int  # cards on the foundations at the end
    #: The moves kept (undone ones don't count), as the board's header and win sentence said.
    moves: int
    hints: int
    undos: int
    #: From the deal to the end, or None when the time is unknown.
    seconds: float | None
    ascents: Ascents
    #: How many steps the game's log has: the scale the thirds are cut from.
    steps: int
    options: tuple[str, ...] = ()
    #: The challenge the game was an attempt at: named instead of the deal, which it would give away.
    challenge: str | None = None
    #: The cards the variant plays with, which a won game has home: 52, or 104 in Archway.
    total: int = DECK


def render_card(card: ResultCard, language: Language = ENGLISH) -> str:
    """The card as text: header, a row of squares per foundation, the legend, counts; a few hundred characters at most.

    Its words are in ``language`` (German: ``Gate · Spiel 617 · gewonnen 52/52``); the squares are the same in all.

    >>> print(render_card(card))  # doctest: +SKIP
    Gate · deal 617 · won 52/52
    🟩🟩🟩🟨🟨🟨🟨🟧🟧🟧🟧🟧🟧
    🟩🟩🟨🟨🟨🟨🟧🟧🟧🟧🟧🟧🟧
    🟩🟩🟩🟩🟨🟨🟨🟨🟧🟧🟧🟧🟧
    🟩🟨🟨🟨🟨🟧🟧🟧🟧🟧🟧🟧🟧
    🟩 early · 🟨 mid-game · 🟧 late
    113 moves · no hints · no undos · 6:12
    """
    rows = grid_rows(card)
    return "\n".join((header(card, language), *rows, legend(rows, language), counts_line(card, language)))


def describe_card(card: ResultCard, language: Language = ENGLISH) -> str:
    """The card's picture in words, for its alt text: header, counts, and how many squares of each colour.

    ``Gate · deal 617 · won 52/52. 113 moves · no hints · no undos · 6:12. Cards by when they
    went home: 21 early, 18 mid-game, 13 late.`` Like the card, it names no card. In ``language``.
    """
    shown = "".join(grid_rows(card))
    meanings = {**MEANINGS, DEALT_SQUARE: DEALT_MEANING, NEVER: NEVER_MEANING}
    tally = ", ".join(
        f"{shown.count(square)} {language.gettext(meaning)}" for square, meaning in meanings.items() if square in shown
    )
    return language.gettext("{header}. {counts}. Cards by when they went home: {tally}.").format(
        header=header(card, language), counts=counts_line(card, language), tally=tally
    )


def header(card: ResultCard, language: Language = ENGLISH) -> str:
    """``Gate · deal 617 · won 52/52``, ``Little Gate, single-moves · Friday Cup · 31/52``.

    The result is out of the variant's cards (:attr:`ResultCard.total`): ``Archway · deal 3 · 60/104``.
    """
    title = ", ".join((card.title, *card.options))
    where = card.challenge if card.challenge is not None else language.gettext("deal {deal}").format(deal=card.deal)
    if card.won:
        result = language.gettext("won {total}/{total}").format(total=card.total)
    else:
        result = f"{card.score}/{card.total}"
    return f"{title} · {where} · {result}"


def grid_rows(card: ResultCard) -> tuple[str, ...]:
    """One row of thirteen squares per foundation, its first card first."""
    return tuple("".join(_square(step, card.steps) for step in row) for row in card.ascents)


def legend(rows: tuple[str, ...], language: Language = ENGLISH) -> str:
    """What the squares say, in one line: ``🟩 early · 🟨 mid-game · 🟧 late`` (in the game a card went up).

    A white or a black square is explained only when the grid has one, to keep the line short.
    The meanings are in ``language``.
    """
    shown = "".join(rows)
    say = language.gettext
    parts = [f"{square} {say(meaning)}" for square, meaning in MEANINGS.items()]
    if DEALT_SQUARE in shown:
        parts.append(f"{DEALT_SQUARE} {say(DEALT_MEANING)}")
    if NEVER in shown:
        parts.append(f"{NEVER} {say(NEVER_MEANING)}")
    return " · ".join(parts)


def counts_line(card: ResultCard, language: Language = ENGLISH) -> str:
    """``113 moves · 2 hints · 1 undo · 6:12`` (the time left out when unknown), in ``language``."""
    parts = [
        language.gettext("no moves") if card.moves == 0
        else language.ngettext("{n} move", "{n} moves", card.moves).format(n=card.moves),
        language.gettext("no hints") if card.hints == 0
        else language.ngettext("{n} hint", "{n} hints", card.hints).format(n=card.hints),
        language.gettext("no undos") if card.undos == 0
        else language.ngettext("{n} undo", "{n} undos", card.undos).format(n=card.undos),
    ]
    if card.seconds is not None:
        parts.append(duration(card.seconds))
    return " · ".join(parts)


def duration(seconds: float) -> str:
    """``0:42``, ``6:12``, ``1:02:03``: minutes and seconds, with hours once there are any.

    Only digits and colons, read the same in every language, so it takes none.
    """
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _square(step: int | None, steps: int) -> str:
    if step == DEALT:
        return DEALT_SQUARE
    if step is None or steps <= 0:
        return NEVER
    return THIRDS[min(len(THIRDS) - 1, len(THIRDS) * step // steps)]
