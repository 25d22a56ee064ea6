"""The solver and the hint engine for every variant: one door, whatever the game.

The service and the front ends ask here, never a variant's own modules. A family's package
(``gatebot/solver/<family>``: ``gate``, ``canfield``, ``archway``) exposes ``SOLVER``, a
:class:`Solver`; :func:`solver_for` finds it by the variant's
:attr:`~gatebot.rules.game.Game.family`, so adding a variant's solver changes nothing outside
its own package. A variant may have none: then :func:`thinks_about` is False and asking
:func:`hint` or :func:`solve` raises :class:`~gatebot.solver.results.NotSolved`.

What "hidden" means differs (Gate hides its stock, Canfield its stock in the first pass and
the reserve under its top card, Archway nothing): the game says, as
:attr:`~gatebot.rules.game.Game.hidden_count`; once it is 0 the solver's verdict is the
game's true outlook.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from gatebot.rules import Game
from gatebot.solver.results import DEFAULT_NODES, DEFAULT_SECONDS, Hint, NotSolved, Solution

__all__ = ["NotSolved", "Solver", "hint", "not_compiled", "positions_behind", "solve", "solver_for", "thinks_about"]


class HintEngine(Protocol):
    """The hint for a game as its player sees it; ``behind`` as :func:`positions_behind` gives."""

    def __call__(self, game: Game, *, seconds: float, behind: Sequence[str] | None = None) -> Hint: ...


class FullSolver(Protocol):
    """Decides a game with every card known: a checked winning line, a proof of loss, or unresolved."""

    def __call__(self, game: Game, *, max_nodes: int, max_seconds: float) -> Solution: ...


@dataclass(frozen=True, slots=True)
class Solver:
    """A family's solver: the hint engine, the full solver, and the positions a hint leads away from.

    ``not_compiled``: why a solver with a compiled search core searches in Python instead (its
    core didn't import); None when it runs compiled or has no core.
    """

    hint: HintEngine
    solve: FullSolver
    positions_behind: Callable[[Game], tuple[str, ...]]
    not_compiled: str | None = None


#: The solvers found so far, by family; None for a family without one.
_SOLVERS: dict[str, Solver | None] = {}


def solver_for(variant: Game | type[Game]) -> Solver | None:
    """The solver of a variant (a game or its class), ``gatebot.solver.<family>.SOLVER``; None if it has none."""
    family = variant.family
    if family not in _SOLVERS:
        package = f"gatebot.solver.{family}"
        try:
            module = importlib.import_module(package)
        except ModuleNotFoundError as error:
            if error.name != package:
                raise
            module = None
        found = getattr(module, "SOLVER", None)
        _SOLVERS[family] = found if isinstance(found, Solver) else None
    return _SOLVERS[family]


def thinks_about(game: Game) -> bool:
    """Whether hints and the solver exist for ``game``'s variant."""
    return solver_for(game) is not None


def hint(game: Game, *, seconds: float, behind: Sequence[str] | None = None) -> Hint:
    """The hint for ``game`` as its player sees it (Gate's: :func:`gatebot.solver.gate.hint.hint`)."""
    solver = solver_for(game)
    if solver is None:
        raise NotSolved(f"Hints don't exist for {game.title} yet")
    return solver.hint(game, seconds=seconds, behind=behind)


def solve(game: Game, *, max_nodes: int = DEFAULT_NODES, max_seconds: float = DEFAULT_SECONDS) -> Solution:
    """Decide ``game`` with every card known: a checked winning line, a proof of loss, or unresolved."""
    solver = solver_for(game)
    if solver is None:
        raise NotSolved(f"The solver doesn't play {game.title} yet")
    return solver.solve(game, max_nodes=max_nodes, max_seconds=max_seconds)


def not_compiled() -> dict[str, str]:
    """The title of each variant whose solver searches in Python, its compiled core missing, and why.

    The solvers are pure and log nothing; a front end says this once at start-up (``gatebot run``).
    """
    from gatebot.rules.variants import VARIANTS

    found: dict[str, str] = {}
    for variant in VARIANTS:
        solver = solver_for(variant)
        if solver is not None and solver.not_compiled is not None:
            found[variant.title] = solver.not_compiled
    return found


def positions_behind(game: Game) -> tuple[str, ...]:
    """The positions ``game`` went through lately, as its player saw them (hints lead away from them)."""
    solver = solver_for(game)
    return () if solver is None else solver.positions_behind(game)
