"""The compiled Canfield search (``_core.c``) against the Python search it compiles, and without it.

Along random play the compiled moves are the Python moves, in the same order, and playing any of
them gives the same position, whose key is the one the search works out from the move; positions
share a key exactly when they share one in Python. The
searches agree to the node on deals 1-40, the verdicts agree with the ones the search gave before it
was made faster (``old_verdicts.txt``), and every compiled win replays to a win through the rules
engine. Without the core (its import made to fail, in a process of its own) ``solve`` answers in
Python and says why.
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
from itertools import combinations
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game
from gatebot.rules.canfield import CanfieldGame
from gatebot.solver.canfield import search
from gatebot.solver.canfield.search import Position, Verdict
from tests.solver.cores import compiled_core, without_core

OLD_VERDICTS = Path(__file__).with_name("old_verdicts.txt")

#: The rules switches a Position carries, as (the engine's options, what the search's position adds).
RULES = [
    ((), {}),
    (("partial-moves",), {}),
    (("draw-one",), {}),
    (("draw-one", "passes-1"), {}),
    ((), {"passes": 2}),
    ((), {"blocked": 12}),
    ((), {"blocked": "last"}),  # the foundations' last rank, Solvitaire's building
    (("partial-moves",), {"any_space": True}),
]


def rules_id(rules: tuple[tuple[str, ...], dict[str, object]]) -> str:
    return "+".join([*rules[0], *(f"{key}={value}" for key, value in rules[1].items())]) or "-"


@pytest.fixture(scope="module")
def core() -> ModuleType:
    return compiled_core(search, "Canfield")


def canfield(deal: int, *options: str) -> CanfieldGame:
    game = Game.new("canfield", deal=deal, options=options)
    assert isinstance(game, CanfieldGame)
    return game


def start(deal: int, options: tuple[str, ...] = (), extra: dict[str, object] | None = None) -> Position:
    position = search.position_of(canfield(deal, *options))
    changes = dict(extra or {})
    if changes.get("blocked") == "last":
        changes["blocked"] = (position.base - 1) % 13
    return dataclasses.replace(position, **changes)  # type: ignore[arg-type]


def compiled_play(core: ModuleType, position: Position, step: search.Step) -> Position:
    return Position(*core.play(position, step))


@settings(max_examples=30, deadline=None)
@given(deal=st.integers(1, 10**6), rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1))
def test_along_random_play_the_compiled_moves_and_plays_are_the_python_ones(
    core: ModuleType, deal: int, rules: tuple[tuple[str, ...], dict[str, object]], seed: int
) -> None:
    rng = random.Random(seed)
    here = start(deal, *rules)
    walked = [here]
    for _ in range(60):
        for safe in (True, False):
            assert core.moves(here, safe=safe) == search.moves(here, safe=safe), (deal, rules, seed)
        if not here.partial and not here.any_space:
            assert core.deadlocked(here) == search.deadlocked(here)
        found = search.moves(here, safe=False)
        # A turn of the talon, and the waste's card played as the engine's own moves write it.
        extra: list[search.Step] = [("d",)]
        if here.waste:
            extra += [("f", "w"), *(("t", "w", index) for index in range(len(here.piles)))]
        for step in extra + found:
            after = compiled_play(core, here, step)
            assert after == search.play(here, step), (deal, rules, seed, step)
            # The key the search looks a move up by, worked out from the move, is the played position's
            # (the core also checks it against the key its played position kept move by move).
            assert core.key(here, step) == core.key(after), (deal, rules, seed, step)
        if not found:
            break
        here = search.play(here, rng.choice(found))
        walked.append(here)
    # Turning the piles about never changes a key; two positions share one in C exactly when in Python.
    shuffled = dataclasses.replace(here, piles=here.piles[::-1])
    assert core.key(shuffled) == core.key(here)
    for first, second in combinations(walked, 2):
        assert (core.key(first) == core.key(second)) == (search._key(first) == search._key(second))


def test_a_talon_turned_to_the_start_of_its_pass_is_the_same_position_with_unlimited_passes(core: ModuleType) -> None:
    here = start(3)
    turned = [here]
    for _ in range(30):
        turned.append(search.play(turned[-1], ("d",)))
    for first, second in combinations(turned, 2):
        assert (core.key(first) == core.key(second)) == (search._key(first) == search._key(second))
    assert len({core.key(position) for position in turned}) < len(turned)  # the pass's starts coincide


def test_the_searches_agree_to_the_node_on_deals_1_to_40(core: ModuleType) -> None:
    """Same moves, same order, same shuffles: the same verdict, line and node count, restarts and all."""
    kinds = set()
    for deal in range(1, 41):
        position = start(deal)
        compiled = search.solve(position, max_nodes=300, max_seconds=600)
        python = search.solve(position, max_nodes=300, max_seconds=600, compiled=False)
        assert (compiled.verdict, compiled.line, compiled.nodes) == (python.verdict, python.line, python.nodes), deal
        kinds.add(compiled.verdict)
    assert kinds == {Verdict.WINNABLE, Verdict.LOST, Verdict.UNRESOLVED}


def test_a_proof_long_enough_to_grow_the_lost_set_takes_the_same_positions_in_both(core: ModuleType) -> None:
    """Deal 1 is lost after about 58,000 positions, 83,607 of them kept as lost: more than the
    compiled search's first set holds (65,536), so it doubles its set in place on the way."""
    position = start(1)
    compiled = search.solve(position, max_nodes=10_000_000, max_seconds=600)
    python = search.solve(position, max_nodes=10_000_000, max_seconds=600, compiled=False)
    assert compiled.verdict is python.verdict is Verdict.LOST
    assert compiled.nodes == python.nodes > 50_000


def siblings(deal: int, options: tuple[str, ...] = ()) -> list[Position]:
    """The positions after each of the search's moves at ``deal``'s start but those that win at once."""
    here = start(deal, options)
    return [after for step in search.moves(here, safe=False) if not (after := search.play(here, step)).won]


def test_searches_sharing_what_they_prove_lost_agree_to_the_node_in_both(core: ModuleType) -> None:
    """``solve_each``, a hint's weighing of every move on one deal, compiled and in Python alike."""
    weighed = 0
    for deal in range(1, 13):
        for options in ((), ("partial-moves",)):
            starts = siblings(deal, options)
            compiled = search.solve_each(starts, max_nodes=600, max_seconds=600)
            python = search.solve_each(starts, max_nodes=600, max_seconds=600, compiled=False)
            assert [(found.verdict, found.line, found.nodes) for found in compiled] == [
                (found.verdict, found.line, found.nodes) for found in python], (deal, options)
            weighed += len(starts)
    assert weighed > 40
    assert search.solve_each([], max_nodes=600) == []


def test_searches_sharing_what_they_prove_lost_decide_alike_in_fewer_positions(core: ModuleType) -> None:
    """Within one slice of restarts (2,000 positions) a search that shares the positions proved lost
    skips only lost subtrees: whatever the search alone decides it decides the same way, in as many
    positions or fewer, and the first start, with nothing shared yet, is searched exactly as alone."""
    alone_nodes = shared_nodes = decided_more = 0
    for deal in range(1, 41):
        starts = siblings(deal)
        shared = search.solve_each(starts, max_nodes=search.SLICE, max_seconds=600)
        alone = [search.solve(position, max_nodes=search.SLICE, max_seconds=600) for position in starts]
        assert not starts or (shared[0].verdict, shared[0].line, shared[0].nodes) == (
            alone[0].verdict, alone[0].line, alone[0].nodes)
        for by_itself, with_others in zip(alone, shared, strict=True):
            if by_itself.verdict is not Verdict.UNRESOLVED:
                assert with_others.verdict is by_itself.verdict, deal
                assert with_others.nodes <= by_itself.nodes, deal
            decided_more += by_itself.verdict is Verdict.UNRESOLVED and with_others.verdict is not Verdict.UNRESOLVED
            alone_nodes += by_itself.nodes
            shared_nodes += with_others.nodes
    assert shared_nodes < 0.95 * alone_nodes
    assert decided_more > 0


def test_a_bad_position_among_those_to_decide_is_refused(core: ModuleType) -> None:
    starts = siblings(2)
    with pytest.raises(ValueError, match="Canfield"):
        core.solve_each([*starts, dataclasses.replace(starts[0], reserve=bytes([52]))], 600, 600.0)
    with pytest.raises(TypeError):
        core.solve_each(7, 600, 600.0)


@pytest.mark.parametrize("rules", RULES[1:], ids=rules_id)
def test_the_searches_agree_to_the_node_under_every_rules_switch(
    core: ModuleType, rules: tuple[tuple[str, ...], dict[str, object]]
) -> None:
    for deal in (1, 2, 4, 11):
        position = start(deal, *rules)
        for switches in ({}, {"safe": False}, {"deadlocks": False}):
            compiled = search.solve(position, max_nodes=300, max_seconds=600, **switches)  # type: ignore[arg-type]
            python = search.solve(position, max_nodes=300, max_seconds=600, compiled=False, **switches)  # type: ignore[arg-type]
            assert (compiled.verdict, compiled.line, compiled.nodes) == (
                python.verdict, python.line, python.nodes), (deal, switches)


def test_the_compiled_verdicts_of_deals_1_to_40_keep_the_old_search_s(core: ModuleType) -> None:
    """Each deal the old search decided within 1,500 nodes, or within 20,000, is decided the same way."""
    rows = [line.split() for line in OLD_VERDICTS.read_text().splitlines() if not line.startswith("#")]
    assert len(rows) == 40
    for deal, small, large in rows:
        position = start(int(deal))
        for budget, old in ((1_500, small), (20_000, large)):
            found = core.solve(position, budget, 600.0, True, True, 0)[0]
            if old != "unresolved":
                assert found == old, (deal, budget)


#: The rules whose wins the engine can replay: its own, and building restricted (which only takes moves away).
REPLAYED = [RULES[0], RULES[1], RULES[2], RULES[5], RULES[6]]


@pytest.mark.parametrize("rules", REPLAYED, ids=rules_id)
def test_every_compiled_win_replays_to_a_win_through_the_rules_engine(
    core: ModuleType, rules: tuple[tuple[str, ...], dict[str, object]]
) -> None:
    """(Nobody wins draw-one with one pass in deals 1-200, so it isn't here: the random walks have it.)"""
    options, extra = rules
    won = 0
    for deal in range(1, 21):
        position = start(deal, options, extra)
        game = canfield(deal, *options)
        result = search.solve(position, max_nodes=10_000, max_seconds=600)
        if result.verdict is Verdict.WINNABLE:
            for token in search.tokens(result.line):
                game.play(token)
            assert game.is_won, deal
            won += 1
    assert won >= 2  # the test has wins to replay


def test_bad_positions_and_steps_are_refused_not_played(core: ModuleType) -> None:
    here = start(1)
    for bad in ({"reserve": bytes([52])}, {"piles": ()}, {"piles": here.piles * 2}, {"stock": here.stock * 2},
                {"draw": 0}, {"foundations": (14, 0, 0, 0)}):
        with pytest.raises(ValueError, match="Canfield"):
            core.moves(dataclasses.replace(here, **bad))  # type: ignore[arg-type]
    emptied = dataclasses.replace(here, reserve=b"", waste=b"", piles=(b"", *here.piles[1:]))
    for step in [("f", "r"), ("f", "w"), ("f", 0), ("t", "r", 1), ("p", 0, 1, 1), ("p", 1, 1, 1), ("p", 1, 2, 5),
                 ("W", 0, "f"), ("W", 0, 9), ("x",), ("f",), "d", ("W", -1, "f")]:
        with pytest.raises(ValueError):
            core.play(emptied, step)
        with pytest.raises(ValueError):  # nor keyed as if it had been
            core.key(emptied, step)


def _without_the_core(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python whose import of the compiled core fails, as on a machine without one."""
    return without_core("gatebot.solver.canfield._core", code, *args, env=env)


def test_without_the_core_solve_answers_in_python_and_says_why() -> None:
    done = _without_the_core(
        "from gatebot.rules import Game\n"
        "from gatebot.solver.canfield import search\n"
        "result = search.solve(search.position_of(Game.new('canfield', deal=11)), max_nodes=5000)\n"
        "print(search.COMPILED, result.verdict.value, result.nodes)\n"
        "print(search.NOT_COMPILED)\n"
    )
    assert done.returncode == 0, done.stderr
    answer, why = done.stdout.splitlines()
    python = search.solve(start(11), max_nodes=5000, compiled=False)
    assert answer == f"False winnable {python.nodes}"
    assert "gatebot.solver.canfield._core" in why


def test_a_card_no_card_can_ever_be_laid_on_goes_up_at_once_in_both_searches(core: ModuleType) -> None:
    from tests.solver.canfield.test_search import never_laid_position

    position = never_laid_position()
    assert core.moves(position) == search.moves(position) == [("f", 0)]
    partial = dataclasses.replace(position, partial=True)
    assert core.moves(partial) == search.moves(partial) != [("f", 0)]


def card(name: str) -> int:
    """A card's number as the searches hold it (rank - 1) * 4 + suit, from a name like ``"KH"``."""
    return "A23456789TJQK".index(name[0]) * 4 + "CDHS".index(name[1])


def test_a_circle_through_a_pile_that_is_not_a_run_is_found_by_both_searches(core: ModuleType) -> None:
    # Every pile a move builds is a run, and the compiled search reads where a pile's base card lies
    # off its first card; a position handed in whose pile isn't one (here the Ace of clubs lies on the
    # Five of diamonds, with the King of hearts on it) must still be walked card by card. Laying the
    # Two of clubs on the Three of hearts closes the circle 3H, 4H ... KH, AC, 2C: that position is
    # lost at once, where a search that missed the circle would turn the talon onto the spaces after it.
    piles = (bytes(map(card, ("5D", "AC", "KH"))), bytes(map(card, ("4S", "3H"))), bytes([card("2C")]), b"")
    position = Position(base=0, reserve=b"", foundations=(0, 0, 0, 0), piles=piles,
                        stock=bytes(map(card, ("9D", "9S", "8C"))), waste=b"", draw=1)
    assert core.moves(position) == search.moves(position)
    after = compiled_play(core, position, ("p", 2, 1, 1))
    assert search.closes_circle(after, card("2C"), card("3H"))
    compiled = search.solve(position, max_nodes=10_000, max_seconds=600)
    python = search.solve(position, max_nodes=10_000, max_seconds=600, compiled=False)
    assert (compiled.verdict, compiled.nodes) == (python.verdict, python.nodes)
    unpruned = search.solve(position, max_nodes=10_000, max_seconds=600, deadlocks=False)
    assert compiled.nodes < unpruned.nodes  # the circle cut the search short
