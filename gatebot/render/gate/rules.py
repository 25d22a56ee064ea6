"""Gate's rules in a few plain paragraphs (Gate and Little Gate), with the game's options."""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.rules import GateGame


def gate_rules(game: GateGame, language: Language = ENGLISH) -> list[str]:
    """Gate's rules (docs/rules.md#gate), with this game's options and number of columns, worded in ``language``."""
    gettext = language.gettext
    if "single-moves" in game.options:
        runs = gettext("Only a column's top card moves (single-moves): runs never move together.")
    else:
        runs = gettext(
            "The top card, with the cards under it that follow that rule, moves as one run "
            "onto a column whose top card takes the run's deepest card."
        )
    if "stock-fill" in game.options:
        last_fill = gettext(
            "when the waste is empty too, the next stock card (stock-fill); with no stock "
            "either, the column stays a free space"
        )
    else:
        last_fill = gettext("when the waste is empty too, the column stays a free space")
    return [
        gettext(
            "{title}: put all 52 cards on the four foundations (F), each built up in suit, "
            "Ace to King. Cards never leave a foundation. Score: cards on the foundations."
        ).format(title=game.title),
        gettext(
            "Reserves L and R: two piles of five, face up; only the top card [in brackets] plays, "
            "to a foundation or a column. Nothing is ever played onto a reserve."
        ),
        gettext("Columns 1-{last}: build down in alternating colours, a black 7 on a red 8. {runs}").format(
            last=len(game.columns), runs=runs
        ),
        gettext(
            "Stock S: d turns one card onto the waste W, whose top card plays to a foundation or a "
            "column. One pass through the stock, no redeal."
        ),
        gettext(
            "A column that empties is filled at once with one card: from the reserve with more cards "
            "(the left when they are level); when both are empty, the top waste card; {last_fill}. "
            "A free space takes any card or run you move there, and stays free until you do: "
            "a later draw does not fill it."
        ).format(last_fill=last_fill),
        gettext("The game is over when every card is home, or when no legal move is left."),
    ]
