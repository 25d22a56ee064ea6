"""The solver and the hint engine for every variant: one door, whatever the game.

The service and the front ends ask here, never a variant's own module, so adding a
variant's solver changes nothing outside ``gatebot/solver``. Each variant's module answers
with the same :class:`~gatebot.solver.hint.Hint` and :class:`~gatebot.solver.solve.Solution`.

What "hidden" means differs: Gate hides its stock, Canfield its stock in the first pass and
the reserve under its top card, Archway nothing. :func:`hidden` counts the cards a player
can't see; once it is 0 the solver's verdict is the game's true outlook.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

from gatebot.rules import Game, GateGame
from gatebot.solver.gate.hint import Hint
from gatebot.solver.gate.hint import hint as _gate_hint
from gatebot.solver.gate.hint import positions_behind as _gate_behind
from gatebot.solver.gate.solve import DEFAULT_NODES, DEFAULT_SECONDS, Solution
from gatebot.solver.gate.solve import solve as _gate_solve

#: The variants other than Gate with a solver: their names and the modules that play them.
#: Each module offers ``hidden``, ``hint``, ``solve`` and ``positions_behind`` with the
#: signatures of the functions below (Gate's own are :mod:`gatebot.solver.hint` and
#: :mod:`gatebot.solver.solve`).
_MODULES: dict[str, str] = {
    "archway": "gatebot.solver.archway.search",
    "canfield": "gatebot.solver.canfield.advice",
}


class NotSolved(Exception):
    """The variant has no solver (the message names it, for a player)."""


def _module(game: Game) -> ModuleType | None:
    name = _MODULES.get(game.name)
    return None if name is None else importlib.import_module(name)


def thinks_about(game: Game) -> bool:
    """Whether hints and the solver exist for ``game``'s variant."""
    return isinstance(game, GateGame) or game.name in _MODULES


def hidden(game: Game) -> int:
    """How many cards of ``game`` its player can't see (0: the solver's verdict is exact)."""
    if isinstance(game, GateGame):
        return game.stock_count
    module = _module(game)
    return game.stock_count if module is None else module.hidden(game)


def hint(game: Game, *, seconds: float, behind: Sequence[str] | None = None) -> Hint:
    """The hint for ``game`` as its player sees it (see :func:`gatebot.solver.hint.hint`)."""
    if isinstance(game, GateGame):
        return _gate_hint(game, seconds=seconds, behind=behind)
    module = _module(game)
    if module is None:
        raise NotSolved(f"Hints don't exist for {game.title} yet")
    return module.hint(game, seconds=seconds, behind=behind)


def solve(game: Game, *, max_nodes: int = DEFAULT_NODES, max_seconds: float = DEFAULT_SECONDS) -> Solution:
    """Decide ``game`` with every card known: a checked winning line, a proof of loss, or unresolved."""
    if isinstance(game, GateGame):
        return _gate_solve(game, max_nodes=max_nodes, max_seconds=max_seconds)
    module = _module(game)
    if module is None:
        raise NotSolved(f"The solver doesn't play {game.title} yet")
    return module.solve(game, max_nodes=max_nodes, max_seconds=max_seconds)


def positions_behind(game: Game) -> tuple[str, ...]:
    """The positions ``game`` went through lately, as its player saw them (hints lead away from them)."""
    if isinstance(game, GateGame):
        return _gate_behind(game)
    module = _module(game)
    return () if module is None else module.positions_behind(game)
