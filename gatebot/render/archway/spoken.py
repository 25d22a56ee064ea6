"""Archway's board in words, for a screen reader, from :mod:`gatebot.render.spoken`.

Everything in Archway is open, so every card is named: the Ace foundations' and the King
foundations' tops, the arch's thirteen packets (each a line, its cards by suit, since a
packet holds one rank: "Arch sevens: clubs, hearts."), and the columns top first. The
deal is the longest position (96 cards off the foundations), under 1,900 characters.
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, N_, Language
from gatebot.render.spoken import SUIT_NAMES, board, ending, foundation_words, header, line, pile_words
from gatebot.rules import ArchwayGame

#: Each packet's line label, Aces to Kings (a rank standing for its cards).
_PACKETS = (
    N_("Arch aces"), N_("Arch twos"), N_("Arch threes"), N_("Arch fours"), N_("Arch fives"), N_("Arch sixes"),
    N_("Arch sevens"), N_("Arch eights"), N_("Arch nines"), N_("Arch tens"), N_("Arch jacks"), N_("Arch queens"),
    N_("Arch kings"),
)


def spoken_archway(game: ArchwayGame, language: Language = ENGLISH, *, label: str | None = None) -> str:
    """An Archway ``game`` as sentences, one pile a line, all 104 cards named once each."""
    total = game.card_count
    gettext = language.gettext
    lines = [
        header(game, total=total, language=language, label=label),
        line(gettext("Ace foundations, A"),
             ", ".join(foundation_words(c.suit, c, language=language) for c in game.ace_foundations)),
        line(
            gettext("King foundations, K"),
            ", ".join(foundation_words(c.suit, c, way="down", language=language) for c in game.king_foundations),
        ),
    ]
    for rank, packet in enumerate(game.arch, start=1):
        suits = ", ".join(language.pgettext("card", SUIT_NAMES[card.suit]) for card in packet) or gettext("none")
        lines.append(line(gettext(_PACKETS[rank - 1]), suits))
    for number, column in enumerate(game.columns, start=1):
        lines.append(line(gettext("Column {number}").format(number=number),
                          pile_words(column, language) if column else gettext("space")))
    return board([*lines, *ending(game, total=total, language=language)])
