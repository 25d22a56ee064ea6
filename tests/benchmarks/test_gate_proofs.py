"""benchmarks/gate_proofs.py: the breakdown of a Gate search's table of positions."""

import random
import subprocess
import sys
from pathlib import Path

from gate_proofs import profile
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game
from gatebot.rules.gate import GateGame
from gatebot.solver.gate.search import Search

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "gate_proofs.py"


def head(left: int, right: int, stock: int, *found: int) -> bytes:
    return bytes((left, right, stock, *found))


def test_the_same_cards_on_the_columns_in_two_arrangements_are_one_set_rearranged() -> None:
    stock_out = head(0, 0, 0, 1, 0, 0, 0)  # the Ace of clubs up, gateposts and stock empty
    keys = [
        stock_out + bytes([5, 9]) + b"|" + bytes([10]),  # 2D 3D | 3H
        stock_out + bytes([5]) + b"|" + bytes([9, 10]),  # the same three cards, another arrangement
        stock_out + bytes([5]) + b"|" + bytes([9, 10]) + b"\xfe" + bytes([5]),  # focused: counted apart
        head(1, 0, 3, 0, 0, 0, 0) + bytes([7]),  # a gatepost card and three stock cards left
    ]
    found = profile(keys)
    assert (found.keys, found.focused) == (4, 1)
    assert (found.stock_out, found.stock_two_or_less, found.gateposts_empty) == (2, 2, 2)
    assert (found.card_sets, found.most_arrangements, found.arrangements) == (1, 2, 2.0)
    # 52 cards less one up and three on the columns: 48 in the waste.
    assert found.waste_at_stock_out == (48, 48, 48.0)
    assert found.home == (0, 1, 1.0)


def test_an_empty_table_is_all_zeros() -> None:
    found = profile([])
    assert (found.keys, found.card_sets, found.arrangements, found.waste_at_stock_out) == (0, 0, 0.0, (0, 0, 0.0))


@settings(max_examples=15, deadline=None)
@given(deal=st.integers(1, 2**32 - 1), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_the_waste_read_from_a_key_is_the_positions_waste(deal: int, seed: int, plies: int) -> None:
    """Along random play, drawing the stock out: the waste the profile infers is the one the position holds."""
    game = Game.new("gate", deal=deal)
    assert isinstance(game, GateGame)
    search = Search(game, compiled=False)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = search.moves()
        if not moves:
            break
        search.apply(*rng.choice(moves))
    while search.stock:
        search.apply(-1, 0, 0)
    found = profile([search.key()])
    assert found.stock_out == 1
    assert found.waste_at_stock_out[0] == len(search.waste)
    assert found.home[0] == sum(search.found)


def test_the_script_prints_a_line_for_each_deal_with_its_verdict() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--deals", "1,2", "--nodes", "20000"],
                         capture_output=True, text=True, timeout=120, check=True)
    lines = run.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["deal 1", "deal 2"]
    assert all(": winnable after" in line for line in lines), run.stdout
