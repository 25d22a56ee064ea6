"""Search for every variant: the thoughtful solver (full positions) and the hint engine (what a player sees).

:mod:`gatebot.solver.registry` finds a variant's solver by its family (``gatebot/solver/gate``,
``canfield``, ``archway``); :func:`hint` and :func:`solve` here ask it, whatever the game.
The answers and budgets every solver shares are in :mod:`gatebot.solver.results`.

Pure like the rules core: no I/O, no Discord, no database.
"""

from gatebot.solver.registry import NotSolved, hint, positions_behind, solve, solver_for, thinks_about
from gatebot.solver.results import DEFAULT_NODES, DEFAULT_SECONDS, HINT_SECONDS, Hint, Outlook, Solution, Verdict

__all__ = [
    "DEFAULT_NODES",
    "DEFAULT_SECONDS",
    "HINT_SECONDS",
    "Hint",
    "NotSolved",
    "Outlook",
    "Solution",
    "Verdict",
    "hint",
    "positions_behind",
    "solve",
    "solver_for",
    "thinks_about",
]
