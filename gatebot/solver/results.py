"""What every variant's solver and hint engine answer with, and the budgets they are given.

No variant owns these: Gate's, Canfield's and Archway's solvers (``gatebot/solver/<family>``)
all return a :class:`Solution` with a :class:`Verdict` and a :class:`Hint` with an
:class:`Outlook`, so the service reads one kind of answer whatever the game.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gatebot.rules import Move

#: What ``gatebot solve`` and ``gatebot analyse`` search by default: 10 s, with a node budget past what
#: the compiled searches reach in that time (Gate's 6-8 million positions, Canfield's 2-3 million),
#: so the time is the budget; the nodes only bound a longer search's memory (about 1 GiB).
DEFAULT_NODES = 20_000_000
DEFAULT_SECONDS = 10.0
#: How long a hint may think; Discord needs an answer within 3 s, and players want it at once.
HINT_SECONDS = 0.6


class NotSolved(Exception):
    """The variant has no solver (the message names it, for a player)."""


class Verdict(enum.Enum):
    """What the solver found: a win, a proof there is none, or no answer within the budget."""

    WINNABLE = "winnable"
    LOST = "lost"
    UNRESOLVED = "unresolved"


@dataclass(frozen=True, slots=True)
class Solution:
    """A verdict with the winning line (when there is one) and what the search cost."""

    verdict: Verdict
    line: tuple[Move, ...]
    nodes: int
    seconds: float

    @property
    def decided(self) -> bool:
        return self.verdict is not Verdict.UNRESOLVED


class Outlook(enum.Enum):
    """How the game looks after the hinted move."""

    WINNABLE = "winnable"  # proved: nothing is hidden and a win remains
    LOST = "lost"  # proved: no win remains
    OPEN = "open"  # cards are still hidden; ``win_chance`` estimates the odds
    UNKNOWN = "unknown"  # nothing is hidden, but the search ran out of time


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move (None when no move is left) with its reason and the outlook."""

    move: Move | None
    reason: str
    outlook: Outlook
    #: Share of the imagined deals of the unseen cards won after the move (OPEN outlook only).
    win_chance: float | None = None
    samples: int = 0
    seconds: float = 0.0
