"""What a redrawn board doesn't say: which card filled an emptied column.

It is worked out from the board before a request and the service's reply, never from
a game the terminal keeps itself, so it describes what was stored. When the two don't fit
together (another terminal of the same player changed the game in between), nothing is
said rather than something wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from gatebot.rules import Game, GateGame, Move, RulesError


def fill_note(before: GateGame, after: GateGame, move: Move) -> str | None:
    """Say what happened to the column ``move`` emptied, if it emptied one (RULES.md §3 fill).

    The fill is automatic and easy to miss on a redrawn board, so the player is told which
    card came from where, or that the column is now a free space.
    """
    if not move.source.isdigit():
        return None
    index = int(move.source) - 1
    was, now = before.columns[index], after.columns[index]
    if now and now == was[: len(now)]:
        return None
    if not now:
        return f"Column {move.source} is a free space now: any card or run may go there."
    card = now[0]
    left, right = before.reserves
    if left and card == left[-1]:
        origin = "the left reserve"
    elif right and card == right[-1]:
        origin = "the right reserve"
    elif before.waste and card == before.waste[-1]:
        origin = "the waste"
    else:
        origin = "the stock"
    return f"{card.pretty} from {origin} fills column {move.source}."


def fill_notes(before: Game, played: Sequence[str], after: Game) -> list[str]:
    """A fill note for each played move that emptied a column, replaying ``played`` on ``before``.

    Nothing is said once the game is won (the columns empty as the cards go home), nor
    when ``played`` does not lead from ``before`` to ``after``. Only Gate's fills are told
    (another variant's board shows its own).
    """
    if after.is_won or not isinstance(before, GateGame):
        return []
    shadow = before.copy()
    notes = []
    for token in played:
        previous = shadow.copy()
        try:
            move = shadow.play(Move.from_text(token))
        except RulesError:
            return []
        note = fill_note(previous, shadow, move)
        if note:
            notes.append(note)
    return notes if shadow.to_text() == after.to_text() else []

