"""Deciding a full position: can it still be won, and how (the public face of the search)."""

from __future__ import annotations

import time
from collections.abc import Sequence

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
    return Solution(Verdict.WINNABLE, without_returns(game, line_moves(game, search.path)), search.nodes, seconds)


def line_moves(game: GateGame, path: list[Step]) -> tuple[Move, ...]:
    """The search's moves as canonical moves, each checked by playing it on a copy of ``game``."""
    board = game.copy()
    moves = [board.play(to_move(board, step)) for step in path]
    if not board.is_won:
        raise AssertionError(f"The solver's line does not win {game.to_text()!r}")
    return tuple(moves)


def without_returns(game: GateGame, line: Sequence[Move]) -> tuple[Move, ...]:
    """``line`` with every stretch that comes back to a position it already passed cut out.

    The search can wander before it finds the way on (a run moved from one column to another
    and back, or a longer circle), and a player shown such a line would see moves that achieve
    nothing. Positions are compared by their text (columns in place, so every move after a cut
    is played on exactly the position it was played on before); from each position the line
    jumps to the last time it stands there and goes on with the move played then, so no
    position is visited twice and the cost is one replay and one dictionary. The shortened
    line is replayed through the rules once more and must still win from ``game``.
    """
    board = game.copy()
    texts = [board.to_text()]
    for move in line:
        board.play(move)
        texts.append(board.to_text())
    last = {text: index for index, text in enumerate(texts)}
    kept: list[Move] = []
    index = last[texts[0]]
    while index < len(line):
        kept.append(line[index])
        index = last[texts[index + 1]]
    if len(kept) < len(line):
        board = game.copy()
        for move in kept:
            board.play(move)
        if not board.is_won:
            raise AssertionError(f"The shortened line does not win {game.to_text()!r}")
    elif not board.is_won:
        raise AssertionError(f"The line does not win {game.to_text()!r}")
    return tuple(kept)


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
