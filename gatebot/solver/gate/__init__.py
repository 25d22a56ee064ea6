"""Gate's solver and hint engine, as one :class:`~gatebot.solver.registry.Solver`.

They serve every variant whose ``family`` is ``gate`` (Gate and Little Gate, whatever the
number of columns): :func:`gatebot.solver.registry.solver_for` finds :data:`SOLVER` here.
The search is :mod:`gatebot.solver.gate.search`, the full solver
:mod:`gatebot.solver.gate.solve`, the hints :mod:`gatebot.solver.gate.hint` with their
reasons from :mod:`gatebot.solver.gate.explain`.
"""

from __future__ import annotations

from gatebot.rules import Game, GateGame
from gatebot.solver.gate.hint import hint, positions_behind
from gatebot.solver.gate.search import NOT_COMPILED
from gatebot.solver.gate.solve import solve
from gatebot.solver.registry import Solver
from gatebot.solver.results import Solution


def _solve(game: Game, *, max_nodes: int, max_seconds: float) -> Solution:
    """Gate's full solver, for a game of the family."""
    if not isinstance(game, GateGame):
        raise TypeError(f"{game.title} is not played like Gate")
    return solve(game, max_nodes=max_nodes, max_seconds=max_seconds)


SOLVER = Solver(hint=hint, solve=_solve, positions_behind=positions_behind, not_compiled=NOT_COMPILED)
