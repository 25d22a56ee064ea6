"""What the terminal says when asked: the move language (``help``) and the rules (``rules``).

Both are written for the player, from docs/rules.md (Gate's rules and options, move notation) and what
:mod:`gatebot.rules.notation` accepts; a test reads every example in the help with the
real parser, so an example that stops working fails the suite instead of misleading a
player.
"""

from __future__ import annotations

from gatebot.messages import N_
from gatebot.render import rules_text

#: Said in the terminal's language; the moves and commands themselves are the same in every language.
HELP_TEXT = N_("""\
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
Canfield: piles 1-4, r its reserve, w the waste: r3, w2, 4f, 12; d turns the stock.
Archway (docs/archway.md): 2ca (2♣ of the arch to its Ace foundation), 3k (column 3
  to its King foundation), 7h2 (7♥ into the space in column 2), fhk fha (reversing
  hearts), 2p (kit: column 2 back to the arch). rules tells each variant's piles.
Commands: undo (u), undo 3, moves (the legal moves), board, rules, help, quit (q),
  hint (a good move and how the game looks after it; nothing is played),
  auto (every card that can safely go up; once the stock is out, finishes a game
  the solver can win), resign (end this game now; end when no win is left),
  new (a new deal; new 617 for deal 617; new winnable for one proved winnable;
  another variant with its options first: new canfield draw-one, new archway kit),
  stats (your wins, streaks and best times), card (a spoiler-free card of your
  last finished game, to share)
Your game is saved after every move: quit, and gatebot play resumes it.""")

__all__ = ["HELP_TEXT", "rules_text"]
