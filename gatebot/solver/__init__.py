"""Search for Gate: the thoughtful solver (full positions) and the hint engine (what a player sees).

Pure like the rules core: no I/O, no Discord, no database.
"""

from gatebot.solver.gate.hint import HINT_SECONDS, Hint, Outlook, hint
from gatebot.solver.gate.search import DEFAULT_DOMINANCES, NO_DOMINANCES, Dominances
from gatebot.solver.gate.solve import DEFAULT_NODES, DEFAULT_SECONDS, Solution, Verdict, solve

__all__ = [
    "DEFAULT_DOMINANCES",
    "DEFAULT_NODES",
    "DEFAULT_SECONDS",
    "HINT_SECONDS",
    "NO_DOMINANCES",
    "Dominances",
    "Hint",
    "Outlook",
    "Solution",
    "Verdict",
    "hint",
    "solve",
]
