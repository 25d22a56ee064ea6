"""The compiled Archway search (``_core.c``): the search of :class:`gatebot.solver.archway.search.Search` in C."""

from collections.abc import Iterable, Sequence

from gatebot.solver.archway.search import Step

#: (columns, origin: which columns are still bottom parts of their starting ones, 52 arch counts,
#: Ace foundation sizes C D H S, King foundation sizes C D H S).
Position = tuple[tuple[bytes, ...], tuple[bool, ...], bytes, tuple[int, ...], tuple[int, ...]]
#: (prune, kit).
Rules = tuple[bool, bool]

def search(
    position: Position, rules: Rules, lost: Iterable[int], seen: Iterable[int], max_nodes: int, max_seconds: float,
    nodes: int = ..., best_score: int = ..., best_first: Step | None = ..., packed: Sequence[bytes] = ...,
) -> tuple[bool | None, tuple[Step, ...], int, int, Step | None, bytes]: ...
def moves(position: Position, rules: Rules) -> list[Step]: ...
def play(position: Position, step: Step) -> Position: ...
def key(position: Position, rules: Rules) -> int: ...
def value(position: Position) -> int: ...
def keys(packed: bytes) -> list[int]: ...
def look_ahead(
    position: Position, rules: Rules, look_nodes: int, beam_width: int, buried_weight: float, space_weight: float,
    max_seconds: float,
) -> tuple[Step | None, int, list[tuple[int, float]]]: ...
