"""Archway's rules in a few plain paragraphs, with the kit option when it is on."""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.rules import ArchwayGame


def archway_rules(game: ArchwayGame, language: Language = ENGLISH) -> list[str]:
    """Archway's rules (docs/archway.md), with the kit option when it is on, worded in ``language``."""
    gettext = language.gettext
    if "kit" in game.options:
        where = gettext(
            "to a foundation, into a space, or (kit) a column's exposed card back to the arch "
            "packet of its rank. Nothing is ever built on a column."
        )
    else:
        where = gettext("to a foundation or into a space; nothing is ever built on a column or put back into the arch.")
    return [
        gettext(
            "{title}: two decks. Put all 104 cards on the eight foundations: the Ace foundations (A) "
            "build up in suit from Ace to King, the King foundations (K) down in suit from King to Ace, "
            "one of each per suit. Score: cards on the foundations, the eight bases included."
        ).format(title=game.title),
        gettext(
            "Every card is face up. Available: the exposed card [in brackets] of each column 1-4 (when it "
            "moves, the card under it is exposed) and every card of the arch P, 13 packets by rank. "
            "Cards go {where}"
        ).format(where=where),
        gettext(
            "A column emptied completely is a space: it takes one available card, from a column or the "
            "arch, which is then that column's exposed card. A space holds one card at most."
        ),
        gettext(
            "Reversing: when a suit's Ace foundation reaches the card just below its King foundation's top "
            "(9 and 10 of hearts), the top card of either may move onto the other, one card a move "
            "(fhk, fha), as long as the order holds. The Ace and King bases never move."
        ),
        gettext("No stock, no redeal. Won when all eight foundations hold 13 cards; over when no legal move is left."),
    ]
