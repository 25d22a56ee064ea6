"""Canfield's solver and hint engine, as one :class:`~gatebot.solver.registry.Solver`.

The search over full positions is :mod:`gatebot.solver.canfield.search`; the hints and the
verdicts the service asks for, from what a player sees, :mod:`gatebot.solver.canfield.advice`.
"""

from __future__ import annotations

from gatebot.solver.canfield.advice import hint, positions_behind, solve
from gatebot.solver.canfield.search import NOT_COMPILED
from gatebot.solver.registry import Solver

SOLVER = Solver(hint=hint, solve=solve, positions_behind=positions_behind, not_compiled=NOT_COMPILED)
