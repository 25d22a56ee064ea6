"""The compiled Gate search (``_core.c``) against the Python search it compiles.

Along random play, under every pruning switch and rules option, the compiled moves are the Python
moves in the same order, playing any of them gives the same position and fill, and the key is the
same bytes; bad input is refused with ValueError or TypeError.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game, GateGame
from gatebot.solver.gate import search
from gatebot.solver.gate.search import DEFAULT_DOMINANCES, NO_DOMINANCES, Dominances, Search

SWITCHES = [field.name for field in dataclasses.fields(Dominances)]
OPTIONS = [(), ("single-moves",), ("stock-fill",), ("single-moves", "stock-fill")]


@pytest.fixture(scope="module")
def core() -> ModuleType:
    if not search.COMPILED:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI builds the compiled Gate search, and it didn't import: {search.NOT_COMPILED}")
        pytest.skip(f"the compiled Gate search isn't built here: {search.NOT_COMPILED}")
    from gatebot.solver.gate import _core

    return _core


def gate(variant: str, deal: int, options: tuple[str, ...] = ()) -> GateGame:
    game = Game.new(variant, deal=deal, options=options)
    assert isinstance(game, GateGame)
    return game


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["gate", "little-gate"]), options=st.sampled_from(OPTIONS),
       switches=st.lists(st.booleans(), min_size=len(SWITCHES), max_size=len(SWITCHES)),
       deal=st.integers(1, 2**32 - 1), seed=st.integers(0, 2**32 - 1))
def test_along_random_play_the_compiled_moves_plays_and_keys_are_the_python_ones(
    core: ModuleType, variant: str, options: tuple[str, ...], switches: list[bool], deal: int, seed: int
) -> None:
    rng = random.Random(seed)
    here = Search(gate(variant, deal, options), Dominances(*switches))
    everything = Search(gate(variant, deal, options), NO_DOMINANCES)
    for _ in range(80):
        position = here.position()
        assert core.moves(position, here.rules()) == here.moves(), (variant, options, switches, deal, seed)
        assert core.key(position) == here.key()
        for focus in range(here.n):
            assert core.key(position, focus) == here.key() + b"\xfe" + bytes(here.columns[focus])
        steps = _copy(here, everything).moves()  # every legal move but to a second free space
        for step in steps:
            fill = here.apply(*step)
            assert core.play(position, step, here.stock_fill) == (here.position(), fill), (deal, seed, step)
            here.revert(*step, fill)
            assert here.position() == position
        if not steps:
            break
        pruned = here.moves()
        # Mostly the search's own first choice (so games go somewhere), now and then anything legal.
        step = pruned[0] if pruned and rng.random() < 0.6 else rng.choice(steps)
        here.apply(*step)


def _copy(here: Search, unpruned: Search) -> Search:
    """``unpruned`` (a search without pruning) moved to ``here``'s position, to list every legal move."""
    unpruned.columns = [column[:] for column in here.columns]
    unpruned.reserves = [here.reserves[0][:], here.reserves[1][:]]
    unpruned.waste = here.waste[:]
    unpruned.stock = here.stock[:]
    unpruned.found = here.found[:]
    unpruned.talon = bytearray(here.talon)
    return unpruned


def test_bad_positions_steps_and_budgets_are_refused_not_searched(core: ModuleType) -> None:
    here = Search(gate("gate", 1))
    position, rules = here.position(), here.rules()
    columns, left, right, waste, stock, found = position
    bad_positions = [
        (columns, bytes([52]), right, waste, stock, found),
        (columns, left + left, right, waste, stock, found),  # the same cards twice
        ((), left, right, waste, stock, found),
        (columns * 3, left, right, waste, stock, found),  # more columns than the core holds
        (columns, left, right, waste, stock, (14, 0, 0, 0)),
        (columns, left, right, waste, stock, (0, 0, 0)),
        (columns, left, right, waste, stock, (1, 0, 0, 0)),  # the Ace of clubs up and in a pile too
        (columns, left, right, waste, "stock", found),
        (columns, left, right, waste, stock),
        [columns, left, right, waste, stock, found],
    ]
    for bad in bad_positions:
        for call in (lambda p: core.moves(p, rules), core.key, lambda p: core.play(p, (-1, 0, 0)),
                     lambda p: core.search(p, rules, set(), 100, 1.0)):
            with pytest.raises((ValueError, TypeError)):
                call(bad)
    for rules_bad in ((True,) * 9, list(rules), "rules"):
        with pytest.raises(TypeError):
            core.moves(position, rules_bad)
    for step in [(0, 0, 1), (0, 1, 2), (0, 8, 1), (0, 9, 0), (8, 0, 0), (11, 0, 1), (-1, 0, 1), (-2, 0, 0),
                 (8, 8, 0), (0, 1), "d", (0, 1, "1"), (0, 1, 2**70)]:
        with pytest.raises(ValueError):
            core.play(position, step)
    with pytest.raises(ValueError):
        core.key(position, 8)
    with pytest.raises(TypeError):
        core.search(position, rules, [1, 2], 100, 1.0)
    with pytest.raises(TypeError):
        core.search(position, rules, set(), 100, "soon")
    with pytest.raises(ValueError):
        core.search(position, rules, set(), 100, 1.0, -5)


@settings(max_examples=60, deadline=None)
@given(columns=st.lists(st.binary(max_size=14), min_size=0, max_size=18), left=st.binary(max_size=6),
       waste=st.binary(max_size=6), stock=st.binary(max_size=6),
       found=st.tuples(*[st.integers(-1, 14)] * 4), step=st.tuples(*[st.integers(-3, 20)] * 3))
def test_any_position_is_searched_or_refused_never_crashes(
    core: ModuleType, columns: list[bytes], left: bytes, waste: bytes, stock: bytes,
    found: tuple[int, int, int, int], step: tuple[int, int, int],
) -> None:
    position = (tuple(columns), left, b"", waste, stock, found)
    for call in (lambda: core.moves(position, DEFAULT_RULES), lambda: core.key(position),
                 lambda: core.play(position, step), lambda: core.search(position, DEFAULT_RULES, set(), 2_000, 5.0)):
        with contextlib.suppress(ValueError):
            call()


DEFAULT_RULES = (False, False, *dataclasses.astuple(DEFAULT_DOMINANCES))


def test_a_full_table_stops_the_search_as_a_spent_budget_does(core: ModuleType) -> None:
    here = Search(gate("little-gate", 2))
    won, line, nodes, _score, _first = core.search(here.position(), here.rules(), set(), 10**9, 60.0, 0, -1, None,
                                                   2048)
    assert (won, line) == (None, ()) and nodes < 2048


