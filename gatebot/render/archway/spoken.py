"""Archway's board in words, for a screen reader, from :mod:`gatebot.render.spoken`.

Everything in Archway is open, so every card is named: the Ace foundations' and the King
foundations' tops, the arch's thirteen packets (each a line, its cards by suit, since a
packet holds one rank: "Arch sevens: clubs, hearts."), and the columns top first. The
deal is the longest position (96 cards off the foundations), under 1,900 characters.
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.render.spoken import RANK_PLURALS, SUIT_NAMES, board, ending, foundation_words, header, line, pile_words
from gatebot.rules import ArchwayGame


def spoken_archway(game: ArchwayGame, language: Language = ENGLISH) -> str:
    """An Archway ``game`` as sentences, one pile a line, all 104 cards named once each."""
    total = game.card_count
    lines = [
        header(game, total=total, language=language),
        line("Ace foundations, A", ", ".join(foundation_words(c.suit, c) for c in game.ace_foundations)),
        line(
            "King foundations, K",
            ", ".join(foundation_words(c.suit, c, way="down") for c in game.king_foundations),
        ),
    ]
    for rank, packet in enumerate(game.arch, start=1):
        suits = ", ".join(SUIT_NAMES[card.suit] for card in packet) or "none"
        lines.append(line(f"Arch {RANK_PLURALS[rank - 1]}", suits))
    for number, column in enumerate(game.columns, start=1):
        lines.append(line(f"Column {number}", pile_words(column) if column else "space"))
    return board([*lines, *ending(game, total=total, language=language)])
