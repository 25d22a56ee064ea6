"""What the bot says when asked for help or the rules (ephemeral, within Discord's limits)."""

from __future__ import annotations

from gatebot.messages import N_
from gatebot.render import rules_text
from gatebot.rules import DEFAULT_VARIANT, Game

#: Said in the asker's language (its German names the commands as a German client shows them).
HELP = N_("""\
**Playing Gate with gatebot**
`/gate new` deals a game (a random deal, `deal:` a number everyone can replay, or `winnable:` one I proved \
can be won). `variant:` Gate, Little Gate, Canfield or Archway, and `options:` its rules \
(start typing to see them: `draw-one passes-2` for Canfield, `kit` for Archway); `/gate rules` explains \
the game you play.
Play with the buttons and the move menu under your board, with `/gate move`, or by typing moves:
in a DM, by mentioning me (`@Gate 3f w5`), or by replying to your board.
**Stuck?** `/gate hint`, the Hint button or `@Gate hint` suggests a move (nothing is played). Once no card is \
hidden (Gate's stock is out), Auto finishes a game I can prove won, and I offer End game when no win is left \
(for each variant my solver plays; I say so when it doesn't yet).
**Moves:** `d` draw · `3f` column 3 to its foundation · `w5` waste onto column 5 · `37` column 3 onto 7 \
· `35:2` two cards onto a free space · `l2`/`r2` a reserve's top · `7h` a card by name · `7h 8s` 7♥ onto 8♠ \
· several at once: `d 3f w5`. Canfield: `r3` its reserve onto pile 3. Archway: `2ca` 2♣ from the arch to its \
Ace foundation · `3k` column 3 to its King foundation · `7h2` 7♥ into the space in column 2 · `fhk` reversing.
`/gate undo`, `/gate auto` (safe cards to the foundations), `/gate board`, `/gate resign`, `/gate rules`, \
`/gate settings` (text, emoji or image boards, or words for screen readers; compact for phones; \
four_colour for green clubs and blue diamonds).
**Challenges:** everyone in the server plays the same deal, once: `/challenge play` (or the Play button), \
`/challenge leaderboard`, `/challenge list`. Members with Manage Server make them (`/challenge-admin create`) or \
switch on a daily one (`/challenge-admin daily on`).
**You:** `/gate stats` (yours or a member's), `/gate share` or a finished board's Share button \
(a spoiler-free card of your game), `/gate replay` (watch a finished game again), \
`/gate forget-me` (deletes everything stored about you).""")


def rules_for(game: Game | None) -> str:
    """The rules of the player's game (its variant and options), or of plain Gate."""
    shown = game if game is not None else Game.new(DEFAULT_VARIANT, deal=1)
    return f"```\n{rules_text(shown, width=60)}\n```"
