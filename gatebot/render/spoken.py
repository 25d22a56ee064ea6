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

from gatebot.messages import ENGLISH, NP_, Language
from gatebot.rules import Card, Game, Suit, Termination

RANK_NAMES = (
    NP_("card", "ace"), NP_("card", "two"), NP_("card", "three"), NP_("card", "four"), NP_("card", "five"),
    NP_("card", "six"), NP_("card", "seven"), NP_("card", "eight"), NP_("card", "nine"), NP_("card", "ten"),
    NP_("card", "jack"), NP_("card", "queen"), NP_("card", "king"),
)
#: Plurals, for a rank standing for its cards (Archway's packets: "Sevens").
RANK_PLURALS = tuple("sixes" if name == "six" else f"{name}s" for name in RANK_NAMES)
SUIT_NAMES = (NP_("card", "clubs"), NP_("card", "diamonds"), NP_("card", "hearts"), NP_("card", "spades"))


def card_words(card: Card, language: Language = ENGLISH) -> str:
    """``queen of diamonds`` (in German ``Karo-Dame``)."""
    rank = language.pgettext("card", RANK_NAMES[card.rank - 1])
    suit = language.pgettext("card", SUIT_NAMES[card.suit])
    # TRANSLATORS: a card named in full; German puts the suit first: "{suit}-{rank}" (Karo-Dame).
    return language.gettext("{rank} of {suit}").format(rank=rank, suit=suit)


def pile_words(cards: Sequence[Card], language: Language = ENGLISH) -> str:
    """A pile given bottom to top, read top first: ``queen of diamonds on king of spades``."""
    # TRANSLATORS: between two cards of a pile read top first, "queen of diamonds on king of spades".
    return language.gettext(" on ").join(card_words(card, language) for card in reversed(cards))


def count_words(count: int, noun: str = "card", language: Language = ENGLISH) -> str:
    """``1 card``, ``4 cards`` (``noun`` is ``card`` or ``move``)."""
    if noun == "move":
        return language.ngettext("{n} move", "{n} moves", count).format(n=count)
    return language.ngettext("{n} card", "{n} cards", count).format(n=count)


def foundation_words(suit: Suit | int, top: Card | None, *, way: str = "up", language: Language = ENGLISH) -> str:
    """``clubs empty`` or ``diamonds up to two`` (``way`` is ``down`` for a foundation built down)."""
    if top is None:
        return language.gettext("{suit} empty").format(suit=language.pgettext("card", SUIT_NAMES[suit]))
    template = language.gettext("{suit} up to {rank}") if way == "up" else language.gettext("{suit} down to {rank}")
    return template.format(
        suit=language.pgettext("card", SUIT_NAMES[top.suit]), rank=language.pgettext("card", RANK_NAMES[top.rank - 1])
    )


def line(label: str, *parts: str) -> str:
    """One pile as a sentence, its label then its parts: ``Column 3: queen of diamonds on king of spades.``."""
    return f"{label}: {', '.join(part for part in parts if part)}."


def header(
    game: Game, *facts: str, total: int = 52, language: Language = ENGLISH, label: str | None = None
) -> str:
    """The first line: ``Little Gate, single-moves, deal 617. 12 moves, score 8 of 52.``.

    ``label``, when given, names the game in the deal's place (a challenge whose deal is still a secret).
    """
    title = ", ".join((game.title, *game.options))
    if label is not None:
        where = label
    elif game.deal is None:
        where = language.gettext("custom position")
    else:
        where = language.gettext("deal {deal}").format(deal=game.deal)
    moves = count_words(len(game.moves), "move", language)
    score = language.gettext("score {score} of {total}").format(score=game.score, total=total)
    return f"{', '.join((title, where, *facts))}. {moves}, {score}."


def ending(game: Game, *, total: int = 52, language: Language = ENGLISH) -> list[str]:
    """The result once the game is over, as the board's last line; nothing while it goes on."""
    outcome = game.outcome()
    if outcome is None:
        return []
    if outcome.termination is Termination.WON:
        text = language.gettext("Won! Every card is home. Score {score} of {total}.")
    else:
        text = language.gettext("Game over: no move left. Score {score} of {total}.")
    return [text.format(score=outcome.score, total=total)]


def board(lines: Iterable[str]) -> str:
    """The board's sentences, one a line."""
    return "\n".join(lines)
