"""The compiled Archway search (``_core.c``) against the Python search it compiles, and without it.

Along random play from deals and from random positions (meeting suits, spaces), in Archway and with
kit, pruned and bare, the compiled moves are the Python moves in the same order, playing any of them
gives the same position, and the key and the value are the same ints. The searches agree on deals
1-40 to the node: verdict, line, best line, the positions proved lost and where the search leaves the
board, with positions put in ``seen`` beforehand too and over two runs as a hint makes them; the look-ahead
(when the exact search can't decide) gives the same answer over the same positions. Hints are
the same move with the core and without; bad input is refused with ValueError or TypeError; without the
core (its import made to fail, in a process of its own) hints still answer, in Python.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game
from gatebot.rules.archway import ArchwayGame
from gatebot.solver.archway import search
from gatebot.solver.archway.search import ACE, ARCH, BACK, KING, MEET, PAIR, OutOfBudget, Search, Step, line_moves
from gatebot.solver.results import Verdict
from tests.solver.archway.test_search import random_position
from tests.solver.cores import BAD_NODE_COUNTS, NODE_COUNTS_REFUSED, compiled_core, without_core

ROOT = Path(__file__).resolve().parents[3]
VARIANTS = [(), ("kit",)]


@pytest.fixture(scope="module")
def core() -> ModuleType:
    return compiled_core(search, "Archway")


def archway(deal: int, options: tuple[str, ...] = ()) -> ArchwayGame:
    game = Game.new("archway", deal=deal, options=options)
    assert isinstance(game, ArchwayGame)
    return game


def outcome(found: Search, max_nodes: int) -> tuple[object, ...]:
    """What a run leaves: its verdict (None when out of budget), line, nodes, best line, lost positions and board."""
    try:
        won: bool | None = found.run(max_nodes, 10**9)
    except OutOfBudget:
        won = None
    return won, found.path[:], found.nodes, found.best_score, found.best_first, set(found.lost), found.position()


def both(game: ArchwayGame, max_nodes: int, *, prune: bool = True,
         seen: set[int] | None = None) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """The compiled and the Python run of the same search."""
    runs = []
    for compiled in (True, False):
        found = Search(game.raw(), prune=prune, compiled=compiled)
        assert found.compiled is compiled
        found.seen.update(seen or ())
        runs.append(outcome(found, max_nodes))
    return runs[0], runs[1]


def legal_steps(here: Search) -> list[Step]:
    """Every step :meth:`Search.apply` may be given here: the bare rules' moves, and the pruned search's meets."""
    here.prune = False
    steps = here.moves()
    here.prune = True
    return steps + [step for step in here.moves() if step not in steps]


def walk(core: ModuleType, here: Search, rng: random.Random, moves: int) -> set[int]:
    """Play ``moves`` steps, checking the core against ``here`` at every position; the kinds of step seen."""
    kinds = set()
    for _ in range(moves):
        position = here.position()
        for prune in (True, False):
            rules = (prune, here.kit)
            here.prune = prune
            assert core.moves(position, rules) == here.moves(), (position, rules)
            assert core.key(position, rules) == here.key(), (position, rules)
        here.prune = True
        assert core.value(position) == here.value()
        steps = legal_steps(here)
        for step in steps:
            record = here.apply(step)
            assert core.play(position, step) == here.position(), (position, step)
            here.undo(record)
            assert here.position() == position
            kinds.add(step[1] if step[0] < PAIR else PAIR)
        if not steps:
            break
        pruned = here.moves()
        # Mostly the search's own first choice (so games go somewhere), now and then anything legal.
        here.apply(pruned[0] if pruned and rng.random() < 0.6 else rng.choice(steps))
    return kinds


@settings(max_examples=40, deadline=None)
@given(options=st.sampled_from(VARIANTS), deal=st.integers(1, 2**32 - 1), seed=st.integers(0, 2**32 - 1))
def test_along_random_play_from_deals_the_compiled_moves_plays_keys_and_values_are_the_python_ones(
    core: ModuleType, options: tuple[str, ...], deal: int, seed: int
) -> None:
    walk(core, Search(archway(deal, options).raw(), compiled=False), random.Random(seed), 60)


def test_along_random_play_from_random_positions_every_kind_of_step_is_checked(core: ModuleType) -> None:
    """Late positions: suits meeting (reversing, meeting plays), spaces, cards going back to the arch with kit."""
    rng = random.Random(29)
    kinds = set()
    for _ in range(150):
        game = random_position(rng, rng.randint(4, 40), kit=rng.random() < 0.3)
        assert isinstance(game, ArchwayGame)
        kinds |= walk(core, Search(game.raw(), compiled=False), rng, 25)
    assert kinds == {0, 1, 2, 3, ACE, KING, MEET, BACK, PAIR}


@pytest.mark.parametrize("options", VARIANTS, ids=lambda options: "+".join(options) or "-")
def test_the_searches_agree_to_the_node_on_deals_1_to_40(core: ModuleType, options: tuple[str, ...]) -> None:
    """Same moves, same order: the same verdict, line, nodes, best line, lost positions and board."""
    verdicts = set()
    for deal in range(1, 41):
        compiled, python = both(archway(deal, options), 20_000)
        assert compiled == python, (options, deal)
        verdicts.add(compiled[0])
    # Plain Archway's deals are mostly lost, some beyond the budget; with kit every deal is won.
    assert verdicts == ({False, None} if not options else {True})


@pytest.mark.parametrize("options", VARIANTS, ids=lambda options: "+".join(options) or "-")
def test_the_searches_agree_to_the_node_without_pruning(core: ModuleType, options: tuple[str, ...]) -> None:
    """The bare rules have cycles: the positions skipped as seen taint their lines alike in both."""
    for deal in range(1, 11):
        compiled, python = both(archway(deal, options), 3_000, prune=False)
        assert compiled == python, (options, deal)


def test_the_searches_agree_on_random_positions_pruned_and_bare(core: ModuleType) -> None:
    rng = random.Random(5)
    verdicts = set()
    for _ in range(60):
        game = random_position(rng, rng.randint(6, 60), kit=rng.random() < 0.2)
        assert isinstance(game, ArchwayGame)
        for prune in (True, False):
            compiled, python = both(game, 1_000, prune=prune)
            assert compiled == python, (game.to_text(), prune)
            verdicts.add(compiled[0])
    assert verdicts == {True, False, None}


def test_the_searches_agree_with_positions_put_in_seen_beforehand(core: ModuleType) -> None:
    """As a hint puts the positions behind the game there: their keys, made in Python, are kept out in C too."""
    changed = 0
    for options, deal in (((), 4), ((), 9), ((), 13), (("kit",), 1), (("kit",), 5)):
        game = archway(deal, options)
        walker = Search(game.raw(), compiled=False)
        seen = set()
        for _ in range(6):  # the positions along the search's own first choices, not the start
            walker.apply(walker.moves()[0])
            seen.add(walker.key())
        compiled, python = both(game, 20_000, seen=seen)
        assert compiled == python, (options, deal)
        changed += compiled[:3] != both(game, 20_000)[0][:3]
    assert changed >= 4  # the keys made a difference


def test_a_second_run_takes_the_first_ones_lost_positions_as_a_hint_does(core: ModuleType) -> None:
    """A run with positions to avoid, then one without, the first's lost table kept: both searches alike."""
    for options, deal in (((), 4), ((), 9), (("kit",), 5)):
        game = archway(deal, options)
        walker = Search(game.raw(), compiled=False)
        avoid = set()
        for _ in range(3):
            walker.apply(walker.moves()[0])
            avoid.add(walker.key())
        runs = []
        for compiled in (True, False):
            found = Search(game.raw(), compiled=compiled)
            found.seen.update(avoid)
            first = outcome(found, 20_000)
            found.seen.clear()
            runs.append((first, outcome(found, 20_000)))
        assert runs[0] == runs[1], (options, deal)


def test_a_search_carries_on_counting_from_an_earlier_run_as_the_python_one_does(core: ModuleType) -> None:
    game = archway(1)
    compiled, python = Search(game.raw()), Search(game.raw(), compiled=False)
    for found in (compiled, python):
        found.nodes, found.best_score, found.best_first = 1_234, 9, (0, ACE)
    assert outcome(compiled, 2_000) == outcome(python, 2_000)
    assert compiled.nodes == 3_234  # out of budget, counted on from 1,234
    assert compiled.best_score > 9 and compiled.best_first != (0, ACE)


def test_a_deadline_passed_stops_both_searches_at_the_same_node(core: ModuleType) -> None:
    """The clock is read every 1,024 positions in both: a deadline already passed stops each at the 1,024th."""
    runs = []
    for compiled in (True, False):
        found = Search(archway(1).raw(), compiled=compiled)
        with pytest.raises(OutOfBudget):
            found.run(10**9, time.perf_counter() - 1)
        runs.append((found.nodes, found.best_score, found.best_first, found.path, set(found.lost), found.position()))
    assert runs[0] == runs[1]
    assert runs[0][0] == 1024


def test_every_compiled_win_replays_to_a_win_through_the_rules_engine(core: ModuleType) -> None:
    for deal in range(1, 21):
        game = archway(deal, ("kit",))
        found = Search(game.raw())
        assert found.run(20_000, 10**9), deal
        assert found.position() == Search(replayed(game, found.path).raw()).position()
        line_moves(game, found.path)  # raises unless the line wins through the rules engine


def replayed(game: ArchwayGame, path: list[Step]) -> ArchwayGame:
    board = game.copy()
    for step in path:
        for move in search.to_moves(board, step):
            board.play(move)
    assert board.is_won
    return board


def mid_game(options: tuple[str, ...], deal: int, moves: int) -> ArchwayGame:
    """``deal`` after ``moves`` seeded moves (a foundation play when there is one), its positions behind kept."""
    game = archway(deal, options)
    rng = random.Random(deal)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        home = [move for move in legal if move.target in ("a", "k")]
        game.play(home[0] if home else rng.choice(legal))
    return game


def test_hints_are_the_same_move_with_the_core_and_without(core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals 1-30 of Archway and with kit, and positions 5 and 25 moves in (with the positions behind them)."""
    games = [archway(deal, options) for options in VARIANTS for deal in range(1, 31)]
    games += [mid_game(options, deal, moves) for options in VARIANTS for deal in range(1, 16) for moves in (5, 25)]
    hints = []
    for compiled in (True, False):
        monkeypatch.setattr(search, "COMPILED", compiled)
        hints.append([search.hint(game, seconds=600) for game in games])
    outlooks = set()
    for game, with_core, without in zip(games, *hints, strict=True):
        assert (with_core.move, with_core.reason, with_core.outlook) == (without.move, without.reason,
                                                                         without.outlook), game.to_text()
        outlooks.add(with_core.outlook)
    assert len(outlooks) == 3  # winnable, lost and unknown (the look-ahead's) all compared


def test_the_look_ahead_is_the_same_with_the_core_and_without(core: ModuleType) -> None:
    """Where the exact search can't decide: the same answer, positions looked at and each first move's best.

    Deals 1-40 of both games at the deal and 5, 25 and 60 moves in, and random late positions: the
    beams rate positions with floats, so a tie broken otherwise would show as a different best.
    """
    games: list[Game] = [mid_game(options, deal, moves) for options in VARIANTS for deal in range(1, 41)
                         for moves in (0, 5, 25, 60)]
    rng = random.Random(11)
    games += [random_position(rng, rng.randint(4, 70), kit=rng.random() < 0.3) for _ in range(200)]
    choices = full = 0
    for game in games:
        assert isinstance(game, ArchwayGame)
        found = []
        for compiled in (True, False):
            here = Search(game.raw(), compiled=compiled)
            before = here.position()
            found.append(search._beam(here, 10**9))
            assert here.position() == before
        assert found[0] == found[1], game.to_text()
        choices += len(found[0][2]) > 1
        full += found[0][1] >= search.LOOK_NODES
    assert choices >= 50 and full >= 20, (choices, full)


def test_solve_and_hints_search_with_the_compiled_core(core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return core.search(*args, **kwargs)

    monkeypatch.setattr(search, "_core", type("Core", (), {"search": staticmethod(counted), "keys": core.keys,
                                                           "look_ahead": core.look_ahead}))
    game = archway(3)
    found = search.solve(game, max_nodes=50_000, max_seconds=60)
    assert found.verdict is Verdict.LOST and len(calls) == 1
    python = Search(game.raw(), compiled=False)
    assert not python.run(50_000, 10**9) and found.nodes == python.nodes
    search.hint(archway(4), seconds=60)
    assert len(calls) > 1


def test_bad_positions_steps_and_budgets_are_refused_not_searched(core: ModuleType) -> None:
    here = Search(archway(1).raw(), compiled=False)
    position, rules = here.position(), here.rules()
    columns, origin, arch, up, down = position
    twice = bytearray(arch)
    twice[columns[0][-1]] = 2  # the top card of column 1 twice in the arch too: three copies
    bad_positions = [
        (columns[:3], origin, arch, up, down),
        ((*columns[:3], bytes([52])), origin, arch, up, down),
        ((*columns[:3], "4"), origin, arch, up, down),
        (columns, origin[:3], arch, up, down),
        (columns, origin, arch[:51], up, down),
        (columns, origin, bytes(twice), up, down),
        (columns, origin, list(arch), up, down),
        (columns, origin, arch, (14, 1, 1, 1), down),
        (columns, origin, arch, up, (1, 1, 1, -1)),
        (columns, origin, arch, up, (1, 1, 1)),
        (columns, origin, arch, (13, 1, 1, 1), down),  # the clubs on their Ace foundation and in the piles too
        (columns, origin, arch, up),
        [columns, origin, arch, up, down],
    ]
    for bad in bad_positions:
        for call in (lambda p: core.moves(p, rules), lambda p: core.key(p, rules), core.value,
                     lambda p: core.play(p, (0, ARCH)), lambda p: core.search(p, rules, set(), set(), 100, 1.0)):
            with pytest.raises((ValueError, TypeError)):
                call(bad)
    for rules_bad in ((True,), [True, False], "rules"):
        with pytest.raises(TypeError):
            core.moves(position, rules_bad)
    missing = next(card for card in range(52) if not arch[card])
    present = next(card for card in range(52) if arch[card])
    assert all(columns) and up == down == (1, 1, 1, 1)  # four columns of cards, no suit meeting
    for step in [(0, 1), (ARCH + missing, ACE), (0, 9), (-1, ACE), (PAIR, ACE), (PAIR + 4, ACE), (60, 0),
                 (ARCH + present, BACK), (ARCH + present, 0), (0,), "0a", (0, "1"), (0, 2**70)]:
        with pytest.raises(ValueError):
            core.play(position, step)
    with pytest.raises(TypeError):
        core.search(position, rules, [b"1"], set(), 100, 1.0)
    with pytest.raises(ValueError):
        core.search(position, rules, {2**80}, set(), 100, 1.0)
    with pytest.raises(ValueError):
        core.search(position, rules, set(), {-1}, 100, 1.0)
    with pytest.raises(TypeError):
        core.search(position, rules, set(), set(), 100, "soon")
    for budget, nodes in BAD_NODE_COUNTS:
        with pytest.raises(ValueError, match=NODE_COUNTS_REFUSED):
            core.search(position, rules, set(), set(), budget, 1.0, nodes)
    with pytest.raises(ValueError):
        core.search(position, rules, set(), set(), 100, 1.0, 0, 0, (0, 99))
    with pytest.raises(TypeError):
        core.search(position, rules, set(), set(), 100, 1.0, 0, 0, None, [b"12345"])
    with pytest.raises(TypeError):
        core.keys(b"12345")
    for bad_look in ((-1, 6, 0.3, 0.5, 1.0), (100, 0, 0.3, 0.5, 1.0), (100, 6, float("nan"), 0.5, 1.0),
                     (100, 6, 0.3, 0.5, float("nan"))):
        with pytest.raises(ValueError):
            core.look_ahead(position, rules, *bad_look)
    with pytest.raises((ValueError, TypeError)):
        core.look_ahead(bad_positions[0], rules, 100, 6, 0.3, 0.5, 1.0)


@settings(max_examples=80, deadline=None)
@given(columns=st.lists(st.binary(max_size=14), min_size=4, max_size=4), origin=st.lists(st.booleans(), min_size=4,
       max_size=4), arch=st.binary(min_size=52, max_size=52), up=st.tuples(*[st.integers(-1, 14)] * 4),
       down=st.tuples(*[st.integers(-1, 14)] * 4), step=st.tuples(st.integers(-3, 64), st.integers(-3, 10)),
       rules=st.tuples(st.booleans(), st.booleans()))
def test_any_position_is_searched_or_refused_never_crashes(
    core: ModuleType, columns: list[bytes], origin: list[bool], arch: bytes, up: tuple[int, int, int, int],
    down: tuple[int, int, int, int], step: tuple[int, int], rules: tuple[bool, bool],
) -> None:
    position = (tuple(columns), tuple(origin), arch, up, down)
    for call in (lambda: core.moves(position, rules), lambda: core.key(position, rules), lambda: core.value(position),
                 lambda: core.play(position, step), lambda: core.search(position, rules, set(), set(), 2_000, 5.0),
                 lambda: core.look_ahead(position, rules, 500, 6, 0.3, 0.5, 5.0)):
        with contextlib.suppress(ValueError):
            call()


def _without_the_core(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python whose import of the compiled core fails, as on a machine without one."""
    return without_core("gatebot.solver.archway._core", code, timeout=120)


def test_without_the_core_the_search_and_hints_answer_in_python_and_say_why() -> None:
    done = _without_the_core(
        "from gatebot.rules import Game\n"
        "from gatebot.solver import registry\n"
        "from gatebot.solver.archway import search\n"
        "game = Game.new('archway', deal=4)\n"
        "found = search.Search(game.raw())\n"
        "print(search.COMPILED, found.compiled, found.run(50_000, 10**9), found.nodes)\n"
        "print(search.hint(game, seconds=60).move)\n"
        "print(registry.not_compiled()['Archway'])\n"
    )
    assert done.returncode == 0, done.stderr
    answer, move, why = done.stdout.splitlines()
    python = Search(archway(4).raw(), compiled=False)
    assert not python.run(50_000, 10**9)
    assert answer == f"False False False {python.nodes}"
    assert move == str(search.hint(archway(4), seconds=60).move)
    assert "gatebot.solver.archway._core" in why


def test_ctrl_c_stops_a_compiled_search(core: ModuleType) -> None:
    """The core runs without the GIL, and still lets a signal's handler raise (here an alarm's, 0.2 s in).

    Archway deal 2 takes the compiled search over a million positions, seconds, to prove lost.
    """
    done = subprocess.run([sys.executable, "-c", (
        "import signal, time\n"
        "from gatebot.rules import Game\n"
        "from gatebot.solver.archway.search import Search\n"
        "def stop(*_): raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGALRM, stop)\n"
        "found = Search(Game.new('archway', deal=2).raw())\n"
        "signal.setitimer(signal.ITIMER_REAL, 0.2)\n"
        "began = time.perf_counter()\n"
        "try:\n"
        "    found.run(10**9, time.perf_counter() + 60)\n"
        "except KeyboardInterrupt:\n"
        "    print(f'stopped {time.perf_counter() - began:.1f} {found.nodes}')\n"
    )], capture_output=True, text=True, timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    word, seconds, nodes = done.stdout.split()
    assert word == "stopped" and float(seconds) < 1.5 and nodes == "0"
