"""The rules of a game in a few plain paragraphs, for any front end (``rules`` in the terminal, ``/gate rules``)."""

from __future__ import annotations

import textwrap

from gatebot.rules import GateGame


def rules_text(game: GateGame, width: int = 78) -> str:
    """A short, exact summary of the rules this game is played by, options included."""
    if "single-moves" in game.options:
        runs = "Only a column's top card moves (single-moves): runs never move together."
    else:
        runs = (
            "The top card, with the cards under it that follow that rule, moves as one run "
            "onto a column whose top card takes the run's deepest card."
        )
    if "stock-fill" in game.options:
        last_fill = (
            "when the waste is empty too, the next stock card (stock-fill); with no stock "
            "either, the column stays a free space"
        )
    else:
        last_fill = "when the waste is empty too, the column stays a free space"
    paragraphs = [
        f"{game.title}: put all 52 cards on the four foundations (F), each built up in suit, "
        "Ace to King. Cards never leave a foundation. Score: cards on the foundations.",
        "Reserves L and R: two piles of five, face up; only the top card [in brackets] plays, "
        "to a foundation or a column. Nothing is ever played onto a reserve.",
        f"Columns 1-{len(game.columns)}: build down in alternating colours, a black 7 on a red 8. {runs}",
        "Stock S: d turns one card onto the waste W, whose top card plays to a foundation or a "
        "column. One pass through the stock, no redeal.",
        "A column that empties is filled at once with one card: from the reserve with more cards "
        f"(the left when they are level); when both are empty, the top waste card; {last_fill}. "
        "A free space takes any card or run you move there, and stays free until you do: "
        "a later draw does not fill it.",
        "The game is over when every card is home, or when no legal move is left.",
    ]
    return "\n".join(textwrap.fill(text, width, subsequent_indent="  ") for text in paragraphs)
