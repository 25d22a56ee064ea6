"""How moves are written in Canfield, example by example."""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.rules import CanfieldGame


def canfield_notation(game: CanfieldGame, language: Language = ENGLISH) -> list[tuple[str, str]]:
    """Each way to write a move (as typed, then what it does) in ``language``: piles 1-4, r the reserve, w the waste."""
    gettext = language.gettext
    if game.draw_count == 1:
        draw = gettext("turn the next stock card onto the waste; with the stock out, the waste over for another pass")
    else:
        draw = gettext("turn three stock cards onto the waste; with the stock out, the waste over for another pass")
    return [
        ("d r3 w2", gettext("several moves in one line, played in turn")),
        ("d", draw),
        ("r3", gettext("the reserve's top card onto pile 3")),
        ("w2", gettext("the waste's top card onto pile 2")),
        ("4f rf wf", gettext("the top card of pile 4, the reserve or the waste to its foundation")),
        ("12", gettext("pile 1 onto pile 2")),
        ("7h", gettext("7♥ to the one place it can go; if there are several, I list them")),
    ]
