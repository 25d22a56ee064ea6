"""The hint engine: the move a strong player would make, from what the player can see.

A hint never learns the stock's order. It reads the position as the player sees it
(``S: ?n``), then imagines many orders of the unseen cards — the same ones for the same
visible position, so a hint never changes when asked twice — and plays each imagined deal
out with the solver. The move that wins in the most imagined deals is the hint. Once the
stock is out nothing is hidden, and the hint is exact: the solver proves the game still
winnable (and the hint is the first move of a win) or lost.
"""

from __future__ import annotations

import enum
import random
import time
import zlib
from dataclasses import dataclass

from gatebot.rules import Game, GateGame, Move
from gatebot.solver.explain import explain
from gatebot.solver.search import DRAW_CODE, OutOfBudget, Search
from gatebot.solver.solve import Verdict, line_moves, solve

#: How long a hint may think; Discord needs an answer within 3 s, and players want it at once.
HINT_SECONDS = 0.6
#: How many stock orders a hint imagines.
SAMPLES = 16
#: Node budget of the exact search once the stock is out.
EXACT_NODES = 300_000


class Outlook(enum.Enum):
    """How the game looks after the hinted move."""

    WINNABLE = "winnable"  # proved: nothing is hidden and a win remains
    LOST = "lost"  # proved: no win remains
    OPEN = "open"  # the stock still hides cards; ``win_chance`` estimates the odds
    UNKNOWN = "unknown"  # nothing is hidden, but the search ran out of time


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move (None when no move is left) with its reason and the outlook."""

    move: Move | None
    reason: str
    outlook: Outlook
    #: Share of the imagined stock orders won after the move (OPEN outlook only).
    win_chance: float | None = None
    samples: int = 0
    seconds: float = 0.0


def hint(game: Game, *, seconds: float = HINT_SECONDS, samples: int = SAMPLES) -> Hint:
    """The best move in ``game`` as its player sees it, and why.

    Only ``game.to_text(hide_stock=True)`` is read, so the answer is the same whatever order
    the hidden stock is in.
    """
    started = time.perf_counter()
    visible = Game.from_text(game.to_text(hide_stock=True))
    if not isinstance(visible, GateGame):
        raise TypeError(f"Hints are not available for {visible.title} yet")
    result = _think(visible, started + seconds, samples)
    return _with_time(result, time.perf_counter() - started)


def _with_time(found: Hint, seconds: float) -> Hint:
    return Hint(found.move, found.reason, found.outlook, found.win_chance, found.samples, seconds)


def _think(visible: GateGame, deadline: float, samples: int) -> Hint:
    moves = visible.legal_moves()
    if not moves:
        if visible.is_won:
            return Hint(None, "The game is won: every card is on its foundation", Outlook.WINNABLE)
        return Hint(None, "No move is left: the game is over", Outlook.LOST)
    if visible.stock_count == 0:
        return _exact(visible, deadline)
    root = Search(visible, stock=list(visible.raw().stock))
    forced = root.moves()
    if len(forced) == 1:
        move = line_moves_prefix(visible, forced)
        return Hint(move, explain(visible, move), Outlook.OPEN)
    return _sampled(visible, deadline, samples)


def line_moves_prefix(game: GateGame, path: list[tuple[int, int, int]]) -> Move:
    """The first of the search's moves as a canonical move of ``game``."""
    source, target, count = path[0]
    if source == DRAW_CODE:
        return game.validate(Move("d")) if game.stock_known else Move("d")
    return _canonical(game, path[0])


def _canonical(game: GateGame, step: tuple[int, int, int]) -> Move:
    from gatebot.rules.errors import AmbiguousMove

    source, target, count = step
    if source == DRAW_CODE:
        return Move("d")
    n = game.column_count
    names = [*(str(i + 1) for i in range(n)), "l", "r", "w"]
    to = "f" if target == n else str(target + 1)
    try:
        return game.validate(Move(names[source], to))
    except AmbiguousMove:
        return game.validate(Move(names[source], to, count))


def _exact(visible: GateGame, deadline: float) -> Hint:
    """Nothing is hidden: prove the game won or lost, and hint the first move of a win."""
    budget = max(0.05, deadline - time.perf_counter())
    found = solve(visible, max_nodes=EXACT_NODES, max_seconds=budget)
    if found.verdict is Verdict.WINNABLE:
        move = found.line[0]
        return Hint(move, explain(visible, move), Outlook.WINNABLE)
    first = visible.legal_moves()[0]
    if found.verdict is Verdict.LOST:
        return Hint(first, explain(visible, first), Outlook.LOST)
    return Hint(first, explain(visible, first), Outlook.UNKNOWN)


def _sampled(visible: GateGame, deadline: float, samples: int) -> Hint:
    """Judge the moves by playing many imagined stock orders out with the solver."""
    unseen = list(visible.raw().stock)
    rng = random.Random(zlib.crc32(visible.to_text().encode()))
    orders = []
    for _ in range(samples):
        order = unseen[:]
        rng.shuffle(order)
        orders.append(order)
    root = Search(visible, stock=orders[0])
    ranked = root.moves()
    rank = {step: i for i, step in enumerate(ranked)}
    wins: dict[tuple[int, int, int], set[int]] = {}
    tried: dict[tuple[int, int, int], set[int]] = {}
    used = 0
    for index, order in enumerate(orders):
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            break
        used += 1
        search = Search(visible, stock=order)
        per_sample = remaining / (len(orders) - index)
        try:
            won = search.run(20_000, per_sample)
        except OutOfBudget:
            continue
        if won and search.path:
            step = search.path[0]
            wins.setdefault(step, set()).add(index)
            tried.setdefault(step, set()).add(index)
    candidates = sorted(wins, key=lambda step: (-len(wins[step]), rank.get(step, len(rank))))[:3]
    if len(candidates) > 1:
        for step in candidates:
            for index in range(used):
                if index in tried.setdefault(step, set()):
                    continue
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    break
                tried[step].add(index)
                search = Search(visible, stock=orders[index])
                fill = search.apply(*step)
                search.path.append(step)
                try:
                    if search.run(5_000, remaining / 4):
                        wins[step].add(index)
                except OutOfBudget:
                    pass
                search.revert(*step, fill)
        candidates.sort(key=lambda step: (-len(wins[step]) / max(1, len(tried[step])), rank.get(step, len(rank))))
    if not candidates:
        move = _canonical(visible, ranked[0])
        return Hint(move, explain(visible, move), Outlook.OPEN, 0.0, used)
    best = candidates[0]
    move = _canonical(visible, best)
    chance = len(wins[best]) / max(1, len(tried[best]))
    return Hint(move, explain(visible, move), Outlook.OPEN, chance, used)


__all__ = ["HINT_SECONDS", "Hint", "Outlook", "hint", "line_moves"]
