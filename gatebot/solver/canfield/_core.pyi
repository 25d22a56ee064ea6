"""The compiled Canfield search (``_core.c``): the search of :mod:`gatebot.solver.canfield.search` in C."""

from collections.abc import Sequence

from gatebot.solver.canfield.search import Position, Step

def solve(
    position: Position, max_nodes: int = ..., max_seconds: float = ..., safe: bool = ..., deadlocks: bool = ...,
    seed: int = ...,
) -> tuple[str, tuple[Step, ...], int]: ...
def solve_each(
    positions: Sequence[Position], max_nodes: int = ..., max_seconds: float = ..., safe: bool = ...,
    deadlocks: bool = ...,
) -> list[tuple[str, tuple[Step, ...], int]]: ...
def moves(position: Position, safe: bool = ...) -> list[Step]: ...
def play(
    position: Position, step: Step
) -> tuple[int, bytes, tuple[int, int, int, int], tuple[bytes, ...], bytes, bytes, int, int, bool, int, bool]: ...
def key(position: Position, step: Step | None = None) -> int: ...
def deadlocked(position: Position) -> bool: ...
