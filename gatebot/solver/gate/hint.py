"""The hint engine: the move a strong player would make, from what the player can see.

A hint never learns the stock's order. It reads the position as the player sees it
(``S: ?n``), then imagines many orders of the unseen cards — the same ones for the same
visible position — and plays each imagined deal out with the solver. The move that wins
in the most imagined deals is the hint. When the first imagined deals are not won (nearly
always in Little Gate), every move is weighed on the same imagined deals by the cards the
solver gets home after it, and the move with the most is the hint. Once the stock is out
nothing is hidden, and the hint is exact: the solver proves the game still winnable (and
the hint is the first move of a win) or lost (and the hint is the first move of a line to
the most cards home). The strength is set in positions searched, the seconds are a cap:
a faster search gives the same hints sooner. docs/solver.md has the details and the figures.
"""

from __future__ import annotations

import dataclasses
import random
import time
import zlib
from collections.abc import Sequence

from gatebot.messages import _
from gatebot.rules import Game, GateGame
from gatebot.solver.gate.explain import explain
from gatebot.solver.gate.search import DEFAULT_DOMINANCES, OutOfBudget, Search, Step
from gatebot.solver.gate.solve import line_moves, to_move, without_returns
from gatebot.solver.results import HINT_SECONDS, Hint, Outlook

#: The pruning of a hint's searches: all of the solver's but the ``buried_waste`` and ``column_chains``
#: cuts. A hint reads the most cards a search got home (``best_score``), and a cut proves a loss
#: without playing on, so with it a lost deal would report fewer cards home than it can still get.
HINT_DOMINANCES = dataclasses.replace(DEFAULT_DOMINANCES, buried_waste=False, column_chains=False)
#: How many stock orders a hint imagines, at most.
SAMPLES = 12
#: Stop imagining once this many deals agree that one move wins them all.
AGREEING = 4
#: Node budget of the search on one imagined deal.
SAMPLE_NODES = 3_000
#: How many of the best-voted moves are tried on every imagined deal.
CANDIDATES = 3
#: Imagined deals searched from the position before giving up on a win: when none of them is
#: won, every move is weighed by the cards it gets home instead.
PROBES = 2
#: Node budget of one move on one imagined deal when the moves are weighed by cards home.
MOVE_NODES = 150
#: The most positions the weighing searches in all: its strength, whatever the machine's load
#: (the hint's seconds are a cap on top, so a faster search weighs more deals in the same time).
WEIGH_NODES = 16_000
#: Little Gate's weighing, which is nearly every hint of it: more imagined orders, each move searched
#: deeper on each, and more positions in all. How deep a move is searched counts most: on deals
#: 5001-5200 a player taking every hint got +0.93 cards a game over a greedy player with 150 positions a
#: move, +1.03 with 500, +1.16 with 1,000, +1.35 with 3,000 and +1.66 with 6,000 (docs/solver.md,
#: "Little Gate, issue 29: deeper weighing"), at most 2.4 million positions and 0.3-0.4 s of CPU a hint.
LITTLE_SAMPLES = 36
LITTLE_MOVE_NODES = 6_000
LITTLE_WEIGH_NODES = 2_400_000
#: Node budget of the exact search once the stock is out.
EXACT_NODES = 300_000
#: How many moves back a hint looks to avoid leading the player in a circle.
RECENT = 40


def hint(
    game: Game,
    *,
    seconds: float = HINT_SECONDS,
    samples: int | None = None,
    behind: Sequence[str] | None = None,
) -> Hint:
    """The best move in ``game`` as its player sees it, and why.

    Only ``game.to_text(hide_stock=True)`` is read, so the answer is the same whatever order
    the hidden stock is in. ``behind`` lists the positions (as text, stock hidden) the game
    went through since its last draw, most recent first — by default read from ``game``'s
    own moves: a move that leads back to one of them is not hinted while another way
    forward is known, so a player who follows the hints never goes round in a circle.
    """
    started = time.perf_counter()
    visible = Game.from_text(game.to_text(hide_stock=True))
    if not isinstance(visible, GateGame):
        raise TypeError(f"Hints are not available for {visible.title} yet")
    keys: set[bytes] = set()
    for text in positions_behind(game) if behind is None else behind:
        earlier = Game.from_text(text)
        if isinstance(earlier, GateGame) and earlier.stock_count == visible.stock_count:
            keys.add(_key(earlier))
    keys.discard(_key(visible))
    if samples is None:
        samples = LITTLE_SAMPLES if _little(visible) else SAMPLES
    found = _think(visible, started + seconds, samples, keys)
    return dataclasses.replace(found, seconds=time.perf_counter() - started)


def positions_behind(game: Game) -> tuple[str, ...]:
    """The positions ``game`` went through since its last draw, most recent first (at most ``RECENT``).

    They are written as their player saw them (the stock hidden), so they tell a hint
    nothing the player doesn't know.
    """
    if not isinstance(game, GateGame) or not game.moves:
        return ()
    board = game.copy()
    texts = []
    for _step in range(min(RECENT, len(board.moves))):
        if board.undo().is_draw:
            break
        texts.append(board.to_text(hide_stock=True))
    return tuple(texts)


def _key(game: GateGame) -> bytes:
    """The search's key of a position, which depends on how many cards the stock holds, not their order."""
    return Search(game, stock=list(game.raw().stock)).key()


def _think(visible: GateGame, deadline: float, samples: int, behind: set[bytes]) -> Hint:
    if not visible.legal_moves():
        if visible.is_won:
            return Hint(None, _("The game is won: every card is on its foundation"), Outlook.WINNABLE)
        return Hint(None, _("No move is left: the game is over"), Outlook.LOST)
    if visible.stock_count == 0:
        return _exact(visible, deadline, behind)
    unseen = list(visible.raw().stock)
    ranked = Search(visible, stock=unseen).moves()
    if len(ranked) == 1:  # a safe foundation play, or the only move there is
        return _hint(visible, ranked[0], Outlook.OPEN)
    return _sampled(visible, ranked, unseen, deadline, samples, behind)


def _hint(visible: GateGame, step: Step, outlook: Outlook, chance: float | None = None, used: int = 0) -> Hint:
    move = to_move(visible, step)
    return Hint(move, explain(visible, move), outlook, chance, used)


def _exact(visible: GateGame, deadline: float, behind: set[bytes]) -> Hint:
    """Nothing is hidden: prove the game won or lost, and hint the first move of a win or of the most cards home.

    A win that doesn't pass through the positions ``behind`` is looked for first, so that
    following hints always moves forward; only when there is none in half the time is any
    win taken. A search that ends without a win has visited every position the game can
    still reach, and knows the most cards that can go home and the first move of a line to
    there (``best_score``, ``best_first``): that move is the hint of a lost game, so a player
    who follows the hints ends with every card home that could be. The line avoiding
    ``behind`` is taken unless going back is the only way to as many cards; following such
    hints never comes back round, since the rest of each line avoids the positions before it.
    """
    forward = Search(visible, HINT_DOMINANCES)
    forward.seen.update(behind)
    share = 0.5 if behind else 1.0
    won = _settle(forward, max(0.05, (deadline - time.perf_counter()) * share))
    if won:
        return _first_of_win(visible, forward)
    best = forward
    if behind:
        anyway = Search(visible, HINT_DOMINANCES)
        verdict = _settle(anyway, max(0.05, deadline - time.perf_counter()))
        if verdict:
            return _first_of_win(visible, anyway)
        if verdict is False:
            won = False  # no win at all, through the positions behind or not
            if anyway.best_score > forward.best_score:
                best = anyway  # only going back gets as many cards home
        elif verdict is None:
            won = None  # a win back through the positions behind was not ruled out
    if won is False:
        # Nothing can win; the most a hint can do is get the most cards home.
        if best.best_first is None:
            return Hint(None, _("No win is left from here, and no card can go up"), Outlook.LOST)
        move = to_move(visible, best.best_first)
        # The outlook's own sentence says no win is left; this says what the move is still for.
        why = _("it leads to the most cards home still possible ({most})", most=best.best_score)
        return Hint(move, explain(visible, move, why=why), Outlook.LOST)
    step = best.best_first or next(iter(Search(visible).moves()), None)
    if step is None:
        move = visible.legal_moves()[0]
        return Hint(move, explain(visible, move), Outlook.UNKNOWN)
    return _hint(visible, step, Outlook.UNKNOWN)


def _first_of_win(visible: GateGame, search: Search) -> Hint:
    """The hint of a win the search found: the first move of its line, detours cut (no position comes twice)."""
    move = without_returns(visible, line_moves(visible, search.path))[0]
    return Hint(move, explain(visible, move), Outlook.WINNABLE)


def _settle(search: Search, seconds: float) -> bool | None:
    """Run the exact search: True for a win (its line in ``path``), False when none is left, None when out of budget."""
    try:
        return search.run(EXACT_NODES, seconds)
    except OutOfBudget:
        return None


def _sampled(
    visible: GateGame, ranked: list[Step], unseen: list[int], deadline: float, samples: int, behind: set[bytes]
) -> Hint:
    """Judge the moves by playing imagined stock orders out with the solver.

    Each imagined deal is first solved from the current position; the first move of each win
    gets a vote. The best-voted moves are then tried on the imagined deals won some other
    way, and the move that wins the most of them is the hint. Deals the solver proves lost
    count against every move; deals it can't decide in time count for none. When none of
    the first ``PROBES`` deals is won, the moves are weighed by cards home instead
    (:func:`_most_home`).
    """
    rng = random.Random(zlib.crc32(visible.to_text().encode()))
    orders = []
    for _sample in range(samples):
        order = unseen[:]
        rng.shuffle(order)
        orders.append(order)
    rank = {step: i for i, step in enumerate(ranked)}
    wins: dict[Step, set[int]] = {}
    decided: list[int] = []
    for index, order in enumerate(orders):
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            break
        search = Search(visible, HINT_DOMINANCES, stock=order)
        search.seen.update(behind)  # wins that go back where the game has been don't count
        try:
            won = search.run(SAMPLE_NODES, remaining)
        except OutOfBudget:
            won = False
        else:
            decided.append(index)
        if won:
            wins.setdefault(search.path[0], set()).add(index)
        if len(decided) >= AGREEING and len(wins) == 1 and len(next(iter(wins.values()))) == len(decided):
            break  # every imagined deal so far is won by the same move: no need for more
        if not wins and index + 1 >= PROBES:
            break
    if not wins:
        return _most_home(visible, ranked, orders, deadline, behind)
    candidates = sorted(wins, key=lambda step: (-len(wins[step]), rank.get(step, len(rank))))[:CANDIDATES]
    if len(candidates) > 1:
        won_somehow = set().union(*wins.values())
        for step in candidates:
            for index in sorted(won_somehow - wins[step]):
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    break
                search = Search(visible, HINT_DOMINANCES, stock=orders[index])
                search.seen.update(behind)
                search.apply(*step)
                try:
                    if search.run(SAMPLE_NODES // 2, remaining):
                        wins[step].add(index)
                except OutOfBudget:
                    pass
        candidates.sort(key=lambda step: (-len(wins[step]), rank.get(step, len(rank))))
    best = candidates[0]
    return _hint(visible, best, Outlook.OPEN, len(wins[best]) / max(1, len(decided)), len(decided))


def _most_home(
    visible: GateGame, ranked: list[Step], orders: list[list[int]], deadline: float, behind: set[bytes]
) -> Hint:
    """No imagined deal was won from here: weigh every move by the cards it gets home, on the same imagined deals.

    Perfect-information Monte Carlo: on each imagined stock order every move is played and
    the solver searches on from it with ``MOVE_NODES`` (``LITTLE_MOVE_NODES`` in Little Gate);
    the most cards it gets home in that search (all 52 for a win) is the move's score on that
    deal. Every move is scored on the same deals, so the luck of a deal counts alike for all of
    them, and the move with the most wins and then the most cards home over the deals is the
    hint. The deals are weighed one by one until ``WEIGH_NODES`` (``LITTLE_WEIGH_NODES``)
    positions are searched or the seconds run out; a deal not finished for every move is left
    out. A move back to a position behind the game is weighed only when every move leads back.
    """
    steps = [step for step in ranked if _after(visible, step) not in behind] or ranked
    cards = dict.fromkeys(steps, 0)
    won = dict.fromkeys(steps, 0)
    weighed = nodes = 0
    budget, depth = (LITTLE_WEIGH_NODES, LITTLE_MOVE_NODES) if _little(visible) else (WEIGH_NODES, MOVE_NODES)
    for order in orders:
        if nodes >= budget:
            break
        here: dict[Step, int] = {}
        for step in steps:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            search = Search(visible, HINT_DOMINANCES, stock=order[:])
            search.seen.update(behind)
            search.apply(*step)
            try:
                here[step] = 52 if search.run(depth, remaining) else search.best_score
            except OutOfBudget:
                if time.perf_counter() >= deadline:
                    break  # cut by the clock, not by its budget: the deal is left out
                here[step] = search.best_score
            nodes += search.nodes
        if len(here) < len(steps):
            break
        weighed += 1
        for step, score in here.items():
            cards[step] += score
            won[step] += score == 52
    if not weighed:
        return _hint(visible, steps[0], Outlook.OPEN)
    rank = {step: i for i, step in enumerate(ranked)}
    best = max(steps, key=lambda step: (won[step], cards[step], -rank[step]))
    return _hint(visible, best, Outlook.OPEN, won[best] / weighed, weighed)


def _little(visible: GateGame) -> bool:
    """Whether the game is Little Gate (four columns), whose hints weigh more (``LITTLE_SAMPLES``)."""
    return visible.column_count == 4


def _after(visible: GateGame, step: Step) -> bytes:
    """The search's key of the position ``step`` leads to (the stock's order plays no part in it)."""
    search = Search(visible, HINT_DOMINANCES, stock=list(visible.raw().stock))
    search.apply(*step)
    return search.key()
