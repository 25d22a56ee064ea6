"""What a redrawn board doesn't say: which card filled an emptied column.

It is worked out from the board before a request and the service's reply, never from
a game the terminal keeps itself, so it describes what was stored. When the two don't fit
together (another terminal of the same player changed the game in between), nothing is
said rather than something wrong. The words are the variant's own (:meth:`Game.fill_note`).
"""

from __future__ import annotations

from collections.abc import Sequence

from gatebot.rules import Game, Move, RulesError


def fill_notes(before: Game, played: Sequence[str], after: Game) -> list[str]:
    """A fill note for each played move that emptied a column, replaying ``played`` on ``before``.

    Nothing is said once the game is won (the columns empty as the cards go home), nor
    when ``played`` does not lead from ``before`` to ``after``. Only a variant that fills
    columns by itself (Gate) has anything to say; another variant's board shows its own.
    """
    if after.is_won:
        return []
    shadow = before.copy()
    notes = []
    for token in played:
        previous = shadow.copy()
        try:
            move = shadow.play(Move.from_text(token))
        except RulesError:
            return []
        note = shadow.fill_note(previous, move)
        if note:
            notes.append(note)
    return notes if shadow.to_text() == after.to_text() else []
