"""What the terminal says when asked: the move language (``help``) and the rules (``rules``).

Both are written for the player, from RULES.md sections 3-5 and what
:mod:`gatebot.rules.notation` accepts; a test reads every example in the help with the
real parser, so an example that stops working fails the suite instead of misleading a
player.
"""

from __future__ import annotations

import textwrap

from gatebot.rules import GateGame

HELP_TEXT = """\
Moves — type one, or several in a line: d 3f w5
  d            draw: turn the next stock card onto the waste (draw)
  3f           top card of column 3 to its foundation (3 f, 3 up, 3 home)
  lf rf wf     top of the left reserve, right reserve or waste to its foundation
  37           column 3 onto column 7 (3 7, 3>7, 3-7, 3 to 7, 3 onto 7)
               the run that fits moves: the top card with the built cards under it
  l5 r5 w5     top of a reserve or the waste onto column 5 (W5, waste 5, left to 5)
  35:2         the top 2 cards of column 3 onto the free space 5 (3 5:2); onto a
               free space say how many cards, when more than one could go
Cards by name — rank then suit: 7h, 7♥, 10d (or td), QS; either case
  7h 8s        7♥ onto 8♠ (7h>8s, 7h on 8s)
  7h f         7♥ to its foundation (7h up, 7h home)
  7h           7♥ to the one place it can go; if there are several, I list them
  3            column 3's top card or run, when it has one place to go (l, r, w too)
Words: left right waste = l r w; foundation home up = f; draw = d;
  move, play, put, column, the are ignored, so "move 7h onto 8s" works.
Commands: undo (u), undo 3, moves (the legal moves), board, rules, help, quit (q),
  resign (end this game now), new (a new deal; new 617 for deal 617)
Your game is saved after every move: quit, and gatebot play resumes it."""


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
