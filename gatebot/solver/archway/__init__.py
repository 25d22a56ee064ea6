"""Archway's solver and hint engine (:mod:`gatebot.solver.archway.search`), as one registered Solver."""

from __future__ import annotations

from gatebot.solver.archway.search import NOT_COMPILED, hint, positions_behind, solve
from gatebot.solver.registry import Solver

SOLVER = Solver(hint=hint, solve=solve, positions_behind=positions_behind, not_compiled=NOT_COMPILED)
