"""The words every spoken board is made of: cards named in full, piles read top first, header, ending.

A spoken board is for a screen reader: plain sentences, one pile a line, no card symbols,
regional-indicator letters or markup, so a reader speaks "queen of diamonds" where a sighted
player sees ``Q♦``. A pile is read from its top card (the one that moves) down, each card
"on" the one under it: "Column 3: queen of diamonds on king of spades." A foundation is
read as its suit and the card it has reached: "diamonds up to two". Nothing a player can't
see is named: a face-down card is only counted.

Each family's package has its spoken board (``gatebot/render/<family>/spoken.py``), because
the piles, their names and what is face down differ by family;
:func:`gatebot.render.boards.render_spoken` draws any variant through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gatebot.rules import Card, Game, Suit, Termination

RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
#: Plurals, for a rank standing for its cards (Archway's packets: "Sevens").
RANK_PLURALS = tuple("sixes" if name == "six" else f"{name}s" for name in RANK_NAMES)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def card_words(card: Card) -> str:
    """``queen of diamonds``."""
    return f"{RANK_NAMES[card.rank - 1]} of {SUIT_NAMES[card.suit]}"


def pile_words(cards: Sequence[Card]) -> str:
    """A pile given bottom to top, read top first: ``queen of diamonds on king of spades``."""
    return " on ".join(card_words(card) for card in reversed(cards))


def count_words(count: int, noun: str = "card") -> str:
    """``1 card``, ``4 cards``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def foundation_words(suit: Suit | int, top: Card | None, *, way: str = "up") -> str:
    """``clubs empty`` or ``diamonds up to two`` (``way`` is ``down`` for a foundation built down)."""
    if top is None:
        return f"{SUIT_NAMES[suit]} empty"
    return f"{SUIT_NAMES[top.suit]} {way} to {RANK_NAMES[top.rank - 1]}"


def line(label: str, *parts: str) -> str:
    """One pile as a sentence, its label then its parts: ``Column 3: queen of diamonds on king of spades.``."""
    return f"{label}: {', '.join(part for part in parts if part)}."


def header(game: Game, *facts: str, total: int = 52) -> str:
    """The first line: ``Little Gate, single-moves, deal 617. 12 moves, score 8 of 52.``."""
    title = ", ".join((game.title, *game.options))
    where = "custom position" if game.deal is None else f"deal {game.deal}"
    moves = count_words(len(game.moves), "move")
    return f"{', '.join((title, where, *facts))}. {moves}, score {game.score} of {total}."


def ending(game: Game, *, total: int = 52) -> list[str]:
    """The result once the game is over, as the board's last line; nothing while it goes on."""
    outcome = game.outcome()
    if outcome is None:
        return []
    if outcome.termination is Termination.WON:
        return [f"Won! Every card is home. Score {outcome.score} of {total}."]
    return [f"Game over: no move left. Score {outcome.score} of {total}."]


def board(lines: Iterable[str]) -> str:
    """The board's sentences, one a line."""
    return "\n".join(lines)
