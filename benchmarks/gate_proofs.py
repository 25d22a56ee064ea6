"""What a Gate search spends its positions on: the keys it searched, counted by what they hold.

For each deal, runs the Python search (``Search(..., compiled=False)``, whose table of positions
can be read afterwards) for ``--nodes`` nodes and breaks its table down: how many keys are focused
ones (a position searched again with only the moves that use a column a run just left), how many
positions have the stock out or nearly out, both gateposts empty, how many cards are up, how long
the waste is once the stock is out, and how many arrangements the search went through of the same
cards on the columns (the same gateposts, stock, foundations and so waste, the same set of cards
on the columns, different columns). With ``--seconds`` it also runs the compiled search for that
long (its verdict, nodes and best score; the compiled table can't be read back):

    taskset -c 1 .venv/bin/python benchmarks/gate_proofs.py --deals 388,830 --nodes 300000 --seconds 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from gatebot.analyse import parse_deals
from gatebot.rules import Game
from gatebot.rules.gate import GateGame
from gatebot.solver.gate.search import OutOfBudget, Search

#: The byte that starts a focused key's focus column (``Search._dfs``).
FOCUS = 0xFE
#: A key's head: left and right gatepost depths, stock length, four foundation counts.
HEAD = 7


@dataclass(frozen=True)
class Profile:
    """The breakdown of a search's table of positions (keys as ``Search.key`` builds them)."""

    keys: int
    focused: int
    stock_out: int
    stock_two_or_less: int
    gateposts_empty: int
    home: tuple[int, int, float]  # least, most, median cards up over the unfocused keys
    waste_at_stock_out: tuple[int, int, float]  # the same for the waste's length, stock out
    card_sets: int  # distinct (head, cards on the columns) among the stock-out keys
    most_arrangements: int  # the most stock-out keys with one head and one set of cards

    @property
    def arrangements(self) -> float:
        """Stock-out positions per set of cards on the columns: how often the same cards were rearranged."""
        return self.stock_out / self.card_sets if self.card_sets else 0.0


def _spread(values: list[int]) -> tuple[int, int, float]:
    return (min(values), max(values), float(statistics.median(values))) if values else (0, 0, 0.0)


def profile(keys: Iterable[bytes]) -> Profile:
    """Count what the positions behind ``keys`` hold; a focused key counts only as focused.

    The waste's length is what the key leaves out: 52 less the cards up, in the gateposts, in
    the stock and on the columns.
    """
    total = focused = 0
    plain: list[bytes] = []
    for key in keys:
        total += 1
        if FOCUS in key[HEAD:]:
            focused += 1
        else:
            plain.append(key)
    home = [sum(key[3:HEAD]) for key in plain]
    stock_out = [key for key in plain if key[2] == 0]
    wastes: list[int] = []
    sets: Counter[tuple[bytes, frozenset[int]]] = Counter()
    for key in stock_out:
        body = key[HEAD:]
        cards = frozenset(body.replace(b"|", b""))
        wastes.append(52 - sum(key[3:HEAD]) - key[0] - key[1] - len(cards))
        sets[key[:HEAD], cards] += 1
    return Profile(
        keys=total,
        focused=focused,
        stock_out=len(stock_out),
        stock_two_or_less=sum(key[2] <= 2 for key in plain),
        gateposts_empty=sum(key[0] + key[1] == 0 for key in plain),
        home=_spread(home),
        waste_at_stock_out=_spread(wastes),
        card_sets=len(sets),
        most_arrangements=max(sets.values(), default=0),
    )


def describe(deal: int, searched: Search, result: str, found: Profile) -> str:
    """One line of figures for a deal."""
    plain = found.keys - found.focused or 1
    low, high, middle = found.home
    w_low, w_high, w_middle = found.waste_at_stock_out
    return (
        f"deal {deal}: {result} after {searched.nodes:,} nodes, best {searched.best_score} up; "
        f"{found.keys:,} keys, {found.focused / max(found.keys, 1):.0%} focused; of the rest "
        f"{found.stock_out / plain:.0%} stock out, {found.stock_two_or_less / plain:.0%} stock <= 2, "
        f"{found.gateposts_empty / plain:.0%} gateposts empty, {low}-{high} up (median {middle:g}); "
        f"stock out: waste {w_low}-{w_high} (median {w_middle:g}), {found.card_sets:,} sets of column cards, "
        f"{found.arrangements:.1f} arrangements each (most {found.most_arrangements:,})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="gate", choices=["gate", "little-gate"])
    parser.add_argument("--deals", default="388,421,634,733,830,906,912,989")
    parser.add_argument("--nodes", type=int, default=300_000, help="the Python search's budget")
    parser.add_argument("--seconds", type=float, default=0.0, help="also run the compiled search this long")
    args = parser.parse_args()
    for deal in parse_deals(args.deals):
        game = Game.new(args.variant, deal=deal)
        assert isinstance(game, GateGame)
        search = Search(game, compiled=False)
        try:
            result = "winnable" if search.run(args.nodes, 1e9) else "lost"
        except OutOfBudget:
            result = "undecided"
        print(describe(deal, search, result, profile(search.seen)), flush=True)
        if args.seconds:
            compiled = Search(game)
            started = time.perf_counter()
            try:
                verdict = "winnable" if compiled.run(10**10, args.seconds) else "lost"
            except OutOfBudget:
                verdict = "undecided"
            print(f"deal {deal}: compiled search {verdict} after {compiled.nodes:,} nodes in "
                  f"{time.perf_counter() - started:.2f} s, best {compiled.best_score} up", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
