"""The move value type and its canonical one-token notation (RULES.md section 5)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gatebot.rules.errors import NotationError

DRAW_SOURCE = "d"
FOUNDATION = "f"

_CANONICAL = re.compile(r"d|([1-9]|[a-ce]|[g-z])([1-9]|f)(?::([1-9][0-9]?))?")


@dataclass(frozen=True, slots=True)
class Move:
    """One move: a draw, or cards from ``source`` to ``target``.

    ``source`` is ``"d"`` for a draw, else a pile name (``"3"``, ``"l"``, ``"r"``, ``"w"``);
    ``target`` is ``"f"`` (foundation) or a column name, empty for a draw. ``count`` is the
    run length, given only where the canonical form needs it (``XY:n``, RULES.md §5).
    ``str()`` is the canonical token; ``repr()`` evaluates back to an equal move.
    """

    source: str
    target: str = ""
    count: int | None = None

    @classmethod
    def from_text(cls, token: str) -> Move:
        """Read one canonical token (``d``, ``3f``, ``w5``, ``35:2``), strictly."""
        match = _CANONICAL.fullmatch(token)
        if match is None:
            raise NotationError(f"{token!r} is not a move token: try d, 3f, w5 or 35:2")
        if token == DRAW_SOURCE:
            return DRAW
        source, target, count = match.groups()
        if source == target:
            raise NotationError(f"{token!r} moves column {source} onto itself")
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
