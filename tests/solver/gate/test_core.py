"""The compiled Gate search (``_core.c``) against the Python search it compiles, and without it.

Along random play, under every pruning switch and rules option, the compiled moves are the Python
moves in the same order, playing any of them gives the same position and fill, and the key is the
same bytes. The searches agree to the node on deals 1-40 of Gate and Little Gate, restarts and all,
with positions put in ``seen`` beforehand too; every compiled win replays to a win through the rules
engine; bad input is refused with ValueError or TypeError. Without the core (its import made to
fail, in a process of its own) the search answers in Python and says why.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game, GateGame
from gatebot.rules.gate import FILL_LEFT, FILL_NONE, FILL_RIGHT, FILL_STOCK, FILL_WASTE
from gatebot.solver.gate import search
from gatebot.solver.gate.hint import hint
from gatebot.solver.gate.search import DEFAULT_DOMINANCES, NO_DOMINANCES, SLICE, Dominances, OutOfBudget, Search
from gatebot.solver.gate.solve import solve, to_move
from gatebot.solver.results import Verdict
from tests.solver.cores import BAD_NODE_COUNTS, NODE_COUNTS_REFUSED, compiled_core, without_core

ROOT = Path(__file__).resolve().parents[3]
SWITCHES = [field.name for field in dataclasses.fields(Dominances)]
OPTIONS = [(), ("single-moves",), ("stock-fill",), ("single-moves", "stock-fill")]


@pytest.fixture(scope="module")
def core() -> ModuleType:
    return compiled_core(search, "Gate")


def gate(variant: str, deal: int, options: tuple[str, ...] = ()) -> GateGame:
    game = Game.new(variant, deal=deal, options=options)
    assert isinstance(game, GateGame)
    return game


def outcome(found: Search, max_nodes: int) -> tuple[object, ...]:
    """What a run leaves: its verdict (None when out of budget), line, nodes and best line, and the board."""
    try:
        won: bool | None = found.run(max_nodes, 600.0)
    except OutOfBudget:
        won = None
    return won, found.path[:], found.nodes, found.best_score, found.best_first, found.position()


def both(game: GateGame, max_nodes: int, dominances: Dominances = DEFAULT_DOMINANCES,
         seen: set[bytes] | None = None) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """The compiled and the Python run of the same search."""
    runs = []
    for compiled in (True, False):
        found = Search(game, dominances, compiled=compiled)
        found.seen.update(seen or ())
        runs.append(outcome(found, max_nodes))
    return runs[0], runs[1]


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["gate", "little-gate"]), options=st.sampled_from(OPTIONS),
       switches=st.lists(st.booleans(), min_size=len(SWITCHES), max_size=len(SWITCHES)),
       deal=st.integers(1, 2**32 - 1), seed=st.integers(0, 2**32 - 1))
def test_along_random_play_the_compiled_moves_plays_and_keys_are_the_python_ones(
    core: ModuleType, variant: str, options: tuple[str, ...], switches: list[bool], deal: int, seed: int
) -> None:
    rng = random.Random(seed)
    here = Search(gate(variant, deal, options), Dominances(*switches), compiled=False)
    everything = Search(gate(variant, deal, options), NO_DOMINANCES, compiled=False)
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


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: "+".join(options) or "-")
def test_along_winning_lines_the_compiled_moves_plays_and_keys_are_the_python_ones(
    core: ModuleType, options: tuple[str, ...]
) -> None:
    """Random play seldom gets far; a win goes all the way: gateposts and waste run dry, fills from the stock."""
    fills = set()
    for deal in range(1, 6):
        game = gate("gate", deal, options)
        won = Search(game, compiled=False)
        assert won.run(20_000, 600.0)
        here = Search(game, compiled=False)
        everything = Search(game, NO_DOMINANCES, compiled=False)
        for step in won.path:
            position = here.position()
            assert core.moves(position, here.rules()) == here.moves(), (deal, options)
            assert core.moves(position, everything.rules()) == _copy(here, everything).moves(), (deal, options)
            assert core.key(position) == here.key()
            for move in everything.moves():
                fill = here.apply(*move)
                assert core.play(position, move, here.stock_fill) == (here.position(), fill), (deal, options, move)
                here.revert(*move, fill)
                fills.add(fill)
            here.apply(*step)
    expected = {FILL_NONE, FILL_LEFT, FILL_RIGHT, FILL_WASTE} | ({FILL_STOCK} if "stock-fill" in options else set())
    assert fills >= expected


def _copy(here: Search, unpruned: Search) -> Search:
    """``unpruned`` (a search without pruning) moved to ``here``'s position, to list every legal move."""
    unpruned.columns = [column[:] for column in here.columns]
    unpruned.reserves = [here.reserves[0][:], here.reserves[1][:]]
    unpruned.waste = here.waste[:]
    unpruned.stock = here.stock[:]
    unpruned.found = here.found[:]
    unpruned.talon = bytearray(here.talon)
    return unpruned


#: Little Gate's deals are nearly all lost and slow to prove so: a budget that keeps the Python runs short.
LITTLE_NODES = 2_500


@pytest.mark.parametrize(("variant", "max_nodes"), [("gate", 20_000), ("little-gate", LITTLE_NODES)])
def test_the_searches_agree_to_the_node_on_deals_1_to_40(core: ModuleType, variant: str, max_nodes: int) -> None:
    """Same moves, same order, same shuffles: the same verdict, line, nodes, best line and board, restarts and all."""
    verdicts = set()
    restarted = 0
    for deal in range(1, 41):
        compiled, python = both(gate(variant, deal), max_nodes)
        assert compiled == python, (variant, deal)
        verdicts.add(compiled[0])
        restarted += compiled[2] > SLICE  # type: ignore[operator]
    # Gate deal 20 is won only after restarts (2 and 6 too, without the column_chains cut); Little Gate's
    # deals take them to prove a loss or run out.
    assert restarted >= (1 if variant == "gate" else 20)
    assert verdicts == ({True} if variant == "gate" else {False, None})


@pytest.mark.parametrize("options", OPTIONS[1:], ids="+".join)
def test_the_searches_agree_to_the_node_under_each_rules_option(core: ModuleType, options: tuple[str, ...]) -> None:
    for variant, deals, max_nodes in (("gate", (1, 2, 20), 20_000), ("little-gate", (1, 6), 2_000)):
        for deal in deals:
            compiled, python = both(gate(variant, deal, options), max_nodes)
            assert compiled == python, (variant, deal, options)


@pytest.mark.parametrize("switch", SWITCHES)
def test_the_searches_agree_to_the_node_with_each_pruning_rule_off(core: ModuleType, switch: str) -> None:
    dominances = dataclasses.replace(DEFAULT_DOMINANCES, **{switch: False})
    for variant, deal, max_nodes in (("gate", 2, 20_000), ("gate", 20, 20_000), ("little-gate", 6, 2_000)):
        compiled, python = both(gate(variant, deal), max_nodes, dominances)
        assert compiled == python, (variant, deal, switch)


def test_the_searches_agree_to_the_node_without_any_pruning(core: ModuleType) -> None:
    for variant, deal in (("gate", 1), ("gate", 2), ("little-gate", 6)):
        compiled, python = both(gate(variant, deal), 3_000, NO_DOMINANCES)
        assert compiled == python, (variant, deal)


def test_the_searches_agree_with_positions_put_in_seen_beforehand(core: ModuleType) -> None:
    """As a hint puts the positions behind the game there: their keys, made in Python, are kept out in C too."""
    for variant, deal, max_nodes in (("gate", 2, 20_000), ("gate", 20, 20_000), ("little-gate", 6, 3_000)):
        game = gate(variant, deal)
        walk = Search(game, compiled=False)
        seen = set()
        for _ in range(6):  # the positions along the search's own first choices, the start's too
            seen.add(walk.key())
            walk.apply(*walk.moves()[0])
        compiled, python = both(game, max_nodes, seen=seen)
        assert compiled == python, (variant, deal)
        assert compiled[:3] != both(game, max_nodes)[0][:3], (variant, deal)  # the keys made a difference


def test_a_search_carries_on_counting_from_an_earlier_run_as_the_python_one_does(core: ModuleType) -> None:
    """A run after one that ran out starts from the nodes and the best line so far (``seen`` aside)."""
    game = gate("gate", 20)
    compiled, python = Search(game), Search(game, compiled=False)
    for found in (compiled, python):
        found.nodes, found.best_score, found.best_first = 1_234, 5, (0, 8, 1)
    assert outcome(compiled, 2_000) == outcome(python, 2_000)
    assert compiled.nodes >= 3_234  # out of budget, counted on from 1,234
    assert compiled.best_score > 5 and compiled.best_first != (0, 8, 1)


def test_every_compiled_win_replays_to_a_win_through_the_rules_engine(core: ModuleType) -> None:
    won = 0
    for variant, deals in (("gate", range(1, 21)), ("gate-options", range(1, 6))):
        for deal in deals:
            game = gate("gate", deal, ("stock-fill",) if variant == "gate-options" else ())
            found = Search(game)
            if outcome(found, 20_000)[0]:
                board = game.copy()
                for step in found.path:
                    move = to_move(board, step)
                    assert move in board.legal_moves()
                    board.play(move)
                assert board.is_won, (variant, deal)
                won += 1
    assert won >= 20


def test_solve_and_hints_search_with_the_compiled_core(core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return core.search(*args, **kwargs)

    monkeypatch.setattr(search, "_core", type("Core", (), {"search": staticmethod(counted)}))
    game = gate("gate", 2)
    found = solve(game, max_nodes=20_000, max_seconds=60)
    assert found.verdict is Verdict.WINNABLE and len(calls) == 1
    python = Search(game, compiled=False)
    assert python.run(20_000, 60) and found.nodes == python.nodes
    hint(game, seconds=5)
    assert len(calls) > 1


def test_bad_positions_steps_and_budgets_are_refused_not_searched(core: ModuleType) -> None:
    here = Search(gate("gate", 1), compiled=False)
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
    for budget, nodes in BAD_NODE_COUNTS:
        with pytest.raises(ValueError, match=NODE_COUNTS_REFUSED):
            core.search(position, rules, set(), budget, 1.0, nodes)


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
    here = Search(gate("little-gate", 2), compiled=False)
    won, line, nodes, _score, _first = core.search(here.position(), here.rules(), set(), 10**9, 60.0, 0, -1, None,
                                                   2048)
    assert (won, line) == (None, ()) and nodes < 2048


def test_a_full_table_still_takes_back_the_keys_a_restart_took_out(core: ModuleType) -> None:
    """24 keys and the first attempt's 1,000 positions fill a 2,048-slot table to its half, its limit.

    The second attempt starts where the first did, on the line the restart took out of the set: those
    keys go back into their old slots (no new one needed), and the search stops at its first new position.
    """
    here = Search(gate("little-gate", 2), compiled=False)
    filler = {bytes([k]) for k in range(24)}
    won, _line, nodes, _score, _first = core.search(here.position(), here.rules(), filler, 10**9, 60.0, 0, -1, None,
                                                    2048)
    assert won is None and nodes > SLICE


def _without_the_core(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python whose import of the compiled core fails, as on a machine without one."""
    return without_core("gatebot.solver.gate._core", code)


def test_without_the_core_the_search_answers_in_python_and_says_why() -> None:
    done = _without_the_core(
        "from gatebot.rules import Game\n"
        "from gatebot.solver.gate import search\n"
        "found = search.Search(Game.new('gate', deal=2))\n"
        "print(search.COMPILED, found.compiled, found.run(20_000, 60.0), found.nodes)\n"
        "print(search.NOT_COMPILED)\n"
    )
    assert done.returncode == 0, done.stderr
    answer, why = done.stdout.splitlines()
    python = Search(gate("gate", 2), compiled=False)
    assert python.run(20_000, 60.0)
    assert answer == f"False False True {python.nodes}"
    assert "gatebot.solver.gate._core" in why


def test_ctrl_c_stops_a_compiled_search(core: ModuleType) -> None:
    """The core runs without the GIL, and still lets a signal's handler raise (here an alarm's, 0.2 s in).

    Gate deal 388 keeps the compiled search busy for well over a minute; it stops at the alarm.
    """
    done = subprocess.run([sys.executable, "-c", (
        "import signal, time\n"
        "from gatebot.rules import Game\n"
        "from gatebot.solver.gate.search import Search\n"
        "def stop(*_): raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGALRM, stop)\n"
        "found = Search(Game.new('gate', deal=388))\n"  # undecided after a minute
        "signal.setitimer(signal.ITIMER_REAL, 0.2)\n"
        "began = time.perf_counter()\n"
        "try:\n"
        "    found.run(10**9, 60.0)\n"
        "except KeyboardInterrupt:\n"
        "    print(f'stopped {time.perf_counter() - began:.1f}')\n"
    )], capture_output=True, text=True, timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    word, seconds = done.stdout.split()
    assert word == "stopped" and float(seconds) < 10


def test_the_searches_agree_to_the_node_on_little_gate_deals_1_to_40_with_the_buried_waste_cut_off(
        core: ModuleType) -> None:
    """The cut on and off: both searches alike either way, and the cut changes the searches.

    On means with the ``column_chains`` cut off, which would switch it off.
    """
    without_chains = dataclasses.replace(DEFAULT_DOMINANCES, column_chains=False)
    off = dataclasses.replace(without_chains, buried_waste=False)
    changed = 0
    proved = []
    for deal in range(1, 41):
        game = gate("little-gate", deal)
        compiled, python = both(game, LITTLE_NODES, off)
        assert compiled == python, deal
        on = outcome(Search(game, without_chains), LITTLE_NODES)
        changed += on[2] != compiled[2]
        if on[0] is False and compiled[0] is None:
            proved.append(deal)
    assert changed >= 10, changed
    assert len(proved) >= 3, proved  # lost within the budget only with the cut


def test_the_searches_agree_to_the_node_where_the_column_chains_cut_fires(core: ModuleType) -> None:
    """Gate deal 388's search, where the cut proves a quarter of its positions lost, and end games under each option.

    The compiled cut finds its set of places another way (it tests a card again only when what its
    test reads has changed), so this holds the two to the same answers where they are put to work.
    """
    from tests.solver.gate.test_solve import end_game

    compiled, python = both(gate("gate", 388), 20_000)
    assert compiled == python
    off = dataclasses.replace(DEFAULT_DOMINANCES, column_chains=False)
    rng = random.Random("column-chains-core")
    changed = 0
    for index in range(48):
        variant = ("gate", "little-gate")[index % 2]
        options = OPTIONS[index // 2 % 4]
        game = end_game(rng, variant, options, rng.randint(14, 26), stop=rng.randint(0, 4))
        for dominances in (DEFAULT_DOMINANCES, off):
            compiled, python = both(game, 5_000, dominances)
            assert compiled == python, (game.to_text(), dominances)
        changed += compiled[2] != outcome(Search(game), 5_000)[2]
    assert changed >= 5, changed
