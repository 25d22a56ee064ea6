"""Deciding a full position: can it still be won, and how (the public face of the search)."""

from __future__ import annotations

import time

from gatebot.rules import DRAW, GateGame, Move
from gatebot.rules.errors import AmbiguousMove
from gatebot.solver.gate.search import DEFAULT_DOMINANCES, DRAW_CODE, Dominances, OutOfBudget, Search, Step
from gatebot.solver.results import DEFAULT_NODES, DEFAULT_SECONDS, Solution, Verdict


def solve(
    game: GateGame,
    *,
    max_nodes: int = DEFAULT_NODES,
    max_seconds: float = DEFAULT_SECONDS,
    dominances: Dominances = DEFAULT_DOMINANCES,
) -> Solution:
    """Decide whether ``game`` can be won from here, with the whole stock order known.

    A position whose stock is hidden (``S: ?n``) can only be solved once the stock is out;
    otherwise ``ValueError`` is raised. The winning line is checked by replaying it through
    the rules engine before it is returned.
    """
    search = Search(game, dominances)
    started = time.perf_counter()
    try:
        won = search.run(max_nodes, max_seconds)
    except OutOfBudget:
        return Solution(Verdict.UNRESOLVED, (), search.nodes, time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if not won:
        return Solution(Verdict.LOST, (), search.nodes, seconds)
    return Solution(Verdict.WINNABLE, line_moves(game, search.path), search.nodes, seconds)


def line_moves(game: GateGame, path: list[Step]) -> tuple[Move, ...]:
    """The search's moves as canonical moves, each checked by playing it on a copy of ``game``."""
    board = game.copy()
    moves = [board.play(to_move(board, step)) for step in path]
    if not board.is_won:
        raise AssertionError(f"The solver's line does not win {game.to_text()!r}")
    return tuple(moves)


def to_move(game: GateGame, step: Step) -> Move:
    """One of the search's moves as the canonical move of ``game``."""
    source, target, count = step
    if source == DRAW_CODE:
        return DRAW
    n = game.column_count
    names = [*(str(i + 1) for i in range(n)), "l", "r", "w"]
    to = "f" if target == n else str(target + 1)
    try:
        return game.validate(Move(names[source], to))
    except AmbiguousMove:
        return game.validate(Move(names[source], to, count))
