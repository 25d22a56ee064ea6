"""The compiled Gate search (``_core.c``): the search of :class:`gatebot.solver.gate.search.Search` in C."""

from collections.abc import Iterable

from gatebot.solver.gate.search import Step

#: (columns, left reserve, right reserve, waste, stock with its next card last, foundation counts C D H S).
Position = tuple[tuple[bytes, ...], bytes, bytes, bytes, bytes, tuple[int, int, int, int]]
#: (single_moves, stock_fill, then the ten Dominances switches in their order).
Rules = tuple[bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool]

def search(
    position: Position, rules: Rules, seen: Iterable[bytes], max_nodes: int, max_seconds: float, nodes: int = ...,
    best_score: int = ..., best_first: Step | None = ..., table_limit: int = ...,
) -> tuple[bool | None, tuple[Step, ...], int, int, Step | None]: ...
def moves(position: Position, rules: Rules) -> list[Step]: ...
def play(position: Position, step: Step, stock_fill: bool = ...) -> tuple[Position, int]: ...
def key(position: Position, focus: int = ...) -> bytes: ...
