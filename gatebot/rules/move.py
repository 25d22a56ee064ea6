"""The move value type and its canonical one-token notation (docs/rules.md#canonical-moves).

The grammar is one for every variant, so a stored token reads back without knowing the game:
Gate's and Canfield's tokens (docs/rules.md#canonical-moves, docs/canfield.md#5-move-notation),
and the Archway tokens of docs/archway.md#5-move-notation, which add two-letter sources (a
card's name ``7h`` for a card of the arch, ``fh`` for a suit's pair of foundations) and the
targets ``a``, ``k`` (a suit's Ace or King foundation) and ``p`` (a card's arch packet).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gatebot.messages import _
from gatebot.rules.errors import NotationError, quoted

DRAW_SOURCE = "d"
FOUNDATION = "f"

ACE_FOUNDATION = "a"
KING_FOUNDATION = "k"
ARCH_PACKET = "p"
#: The most significant digits a typed pile number or card count may have: no game has a pile
#: or a run past 999, and a longer run of digits is refused before ``int()`` reads it (Python
#: refuses to read more than 4,300 digits, and reading many is slow).
MAX_DIGITS = 3

# A source is one character (a column digit or a pile letter, never d or f) or two: a card's
# name (rank then suit, ten as t) or f and a suit. Two-character sources are followed only by
# one-character targets, so every token splits one way.
_CANONICAL = re.compile(
    r"d|([1-9]|[a-ce]|[g-z]|[a2-9tjqk][cdhs]|f[cdhs])([1-9]|[afkp])(?::([1-9][0-9]?))?"
)


@dataclass(frozen=True, slots=True)
class Move:
    """One move: a draw, or cards from ``source`` to ``target``.

    ``source`` is ``"d"`` for a draw, else a pile name (``"3"``, ``"l"``, ``"r"``, ``"w"``;
    in Archway also a card of the arch, ``"7h"``, or a suit's foundations, ``"fh"``);
    ``target`` is ``"f"`` (foundation) or a column name, in Archway also ``"a"``, ``"k"``
    (the Ace or King foundation of the card's suit) or ``"p"`` (its arch packet); empty for a
    draw. ``count`` is the run length, given only where the canonical form needs it (``XY:n``,
    docs/rules.md#canonical-moves).
    ``str()`` is the canonical token; ``repr()`` evaluates back to an equal move.
    """

    source: str
    target: str = ""
    count: int | None = None

    @classmethod
    def from_text(cls, token: str) -> Move:
        """Read one canonical token (``d``, ``3f``, ``w5``, ``35:2``, ``7ha``, ``fhk``), strictly."""
        match = _CANONICAL.fullmatch(token)
        if match is None:
            raise NotationError(_("{token} is not a move token: try d, 3f, w5 or 35:2", token=quoted(token)))
        if token == DRAW_SOURCE:
            return DRAW
        source, target, count = match.groups()
        if source == target:
            raise NotationError(_("{token} moves column {column} onto itself", token=quoted(token), column=source))
        return cls(source, target, int(count) if count else None)

    @property
    def is_draw(self) -> bool:
        return self.source == DRAW_SOURCE

    def __str__(self) -> str:
        if self.source == DRAW_SOURCE:
            return DRAW_SOURCE
        if self.count is None:
            return self.source + self.target
        return f"{self.source}{self.target}:{self.count}"

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"


DRAW = Move(DRAW_SOURCE)


def read_number(digits: str) -> int:
    """The number a typed run of ASCII digits names (a pile, a card count), leading zeros ignored.

    A run with more than :data:`MAX_DIGITS` significant digits names no pile and no count in
    any game, so it is refused as notation before it is converted.
    """
    significant = digits.lstrip("0")
    if len(significant) > MAX_DIGITS:
        raise NotationError(
            _("{digits} is too big a number for a move: piles and counts are small, like 3 or 35:2",
              digits=quoted(digits))
        )
    return int(significant or "0")
