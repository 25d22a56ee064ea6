"""How moves are written in Archway, example by example, the kit's move when it is on."""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.rules import ArchwayGame


def archway_notation(game: ArchwayGame, language: Language = ENGLISH) -> list[tuple[str, str]]:
    """Each way to write a move (as typed, then what it does) in ``language``.

    Columns 1-4, the arch's cards by name, and a and k for the Ace and King foundations.
    """
    gettext = language.gettext
    entries = [
        ("3a 7hk", gettext("several moves in one line, played in turn")),
        ("3a 3k", gettext("the exposed card of column 3 to its Ace foundation, or to its King foundation")),
        ("2ca", gettext("2♣ of the arch to its Ace foundation")),
        ("7hk", gettext("7♥, from the arch or a column, to its King foundation")),
        ("7h2", gettext("7♥ into the space in column 2")),
        ("2>4", gettext("column 2's exposed card into the space in column 4")),
        ("fhk fha", gettext("reversing: the top card of the hearts' Ace foundation onto their King foundation, "
                            "or back")),
    ]
    if "kit" in game.options:
        entries.append(("2p", gettext("kit: column 2's exposed card back to the arch")))
    entries.append(("7h", gettext("7♥ to the one place it can go; if there are several, I list them")))
    return entries
