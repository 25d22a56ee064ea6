"""Bounds on what one request may ask, checked before any parsing or database work.

A line of moves has no business being long: the longest useful one is a whole winning line
pasted at once (Gate deal 1's is 113 moves in 310 characters). Refusing early keeps a 10 MB
message from costing seconds of parsing, keeps every later load (which replays the log)
cheap, and keeps refusals short — a refusal quotes at most :data:`EXCERPT` characters of what
was typed, so no answer can outgrow Discord's limits.
"""

from __future__ import annotations

from gatebot.messages import Number, _

#: Characters in one line of typed moves.
MAX_LINE = 1000
#: Moves one request plays at most; the rest of a longer line is left for the next message.
MAX_MOVES = 300
#: The longest word a move is written with ("queen-of-diamonds" is 17).
MAX_WORD = 24
#: Characters of the player's input a message may quote.
EXCERPT = 20


def excerpt(text: str, size: int = EXCERPT) -> str:
    """``text`` on one line, cut to ``size`` characters with "…" when longer (for quoting input back)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= size else flat[: size - 1].rstrip() + "…"


def line_refusal(text: str) -> str | None:
    """Why a line of moves is refused before it is read, in one sentence; None when it may be read."""
    if len(text) > MAX_LINE:
        length = Number(len(text))  # grouped as the reader's language groups thousands: 1,200 or 1.200
        return _(
            "That line is too long to be moves ({length} characters): "
            "send at most {limit} characters, a few moves at a time.",
            length=length, limit=MAX_LINE,
        )
    for word in text.split():
        if len(word) > MAX_WORD:
            return _("“{word}” is too long to be a move: moves are short, like 3f, w5 or d.", word=excerpt(word))
    return None


def too_many_moves() -> str:
    """The sentence that says a line was cut at :data:`MAX_MOVES` moves."""
    return _("I played the first {n} moves of that line: send the rest in another message.", n=MAX_MOVES)
