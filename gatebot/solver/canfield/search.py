"""A thoughtful Canfield solver: whether a deal can be won with every card known, the stock's order too.

Depth-first search over positions held as bytes and tuples, with a table of positions already searched
to the end. Tableau piles are interchangeable, so a position's key lists them sorted. Cards go
to the foundations first, then reserve and waste cards onto the tableau, then whole piles
onto piles, then turning the stock, then turning the waste over for a new pass.

One pruning rule, switchable for checking: a card whose foundation move can't hurt goes up at
once and is the only move tried. A card is safe when every card that could ever be built on it
in the tableau (the two of the other colour one rank lower) is already on the foundations, and
it comes from the reserve or a tableau pile (not the waste: with three cards turned at a time,
taking a waste card changes which cards the later turns show).

This module knows the rules of Canfield as :mod:`gatebot.rules.canfield` plays them; the tests
replay every winning line through that engine.

The same search is compiled (``_core.c``, built by setup.py where there is a C compiler): :func:`solve`
uses it when it could be imported (:data:`COMPILED`) and searches in Python otherwise, with the same
moves in the same order, the same pruning and the same shuffles, so both give the same verdict, line
and node count. This module stays the reference the tests hold the compiled one to.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from gatebot.rules.canfield import CanfieldGame
from gatebot.solver.compiled import import_core
from gatebot.solver.restarts import luby
from gatebot.solver.results import Verdict

#: Why the compiled search can't be used, for the front ends to say once at start-up; None when it can.
_loaded, NOT_COMPILED = import_core("gatebot.solver.canfield._core")
if TYPE_CHECKING:
    import gatebot.solver.canfield._core as _core  # its stub types the calls; None when not compiled
else:
    _core = _loaded
#: Whether :func:`solve` searches with the compiled core rather than in Python.
COMPILED = NOT_COMPILED is None
#: The most tableau piles the compiled core holds (Canfield has four).
COMPILED_PILES = 4

RANKS = 13
#: Whether a card (index ``(rank - 1) * 4 + suit``, suits C D H S) is red.
RED = tuple(card % 4 in (1, 2) for card in range(52))
RANK = tuple(card // 4 for card in range(52))
SUIT = tuple(card % 4 for card in range(52))
UNLIMITED = -1


@dataclass(frozen=True, slots=True)
class Position:
    """A Canfield position as plain card indices (tops last), each row of cards a ``bytes``.

    Bytes keep their hash once computed, so a pile or a talon that a move leaves alone costs
    nothing to hash again in the child's key and the talon's cache; slicing and joining them
    is as cheap as for tuples.

    ``foundations`` counts the cards on each suit's foundation; ``passes`` is how many more
    times the waste may be turned over (``UNLIMITED`` for no limit).
    """

    base: int
    reserve: bytes
    foundations: tuple[int, int, int, int]
    piles: tuple[bytes, ...]
    stock: bytes  # the next card to turn is last
    waste: bytes
    draw: int = 3
    passes: int = UNLIMITED
    partial: bool = False
    #: A rank (0 Ace … 12 King) whose cards are never built on the tableau, or -1 for none.
    #: gatebot's Canfield builds every rank ("an Ace takes a King"); other programs' rules,
    #: which the benchmark compares with, keep Kings off Aces (12) or the foundations' last
    #: rank off the base rank.
    blocked: int = -1
    #: Whether a space, once the reserve is out, takes any single card (a pile's top too), not
    #: only the waste's: Solvitaire's "canfield" (its partial-moves game) plays so.
    any_space: bool = False

    @property
    def won(self) -> bool:
        return sum(self.foundations) == 52


#: A move: ("f", source) to a foundation, ("t", source, pile) onto a pile, ("p", pile, pile, count),
#: ("d",) turn the stock, ("n",) turn the waste over. Sources: "r", "w" or a pile index. The
#: search itself plays the talon by macro moves ("W", turns, target): turn the stock (or the
#: waste over) ``turns`` times, then play the waste's top card to "f" or onto a pile.
Step = tuple


class OutOfBudget(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Result:
    verdict: Verdict
    line: tuple[Step, ...]
    nodes: int
    seconds: float


#: Each card as a one-card row, to lay on a pile.
ONE = tuple(bytes((card,)) for card in range(52))


def fits_pile(card: int, top: int) -> bool:
    """Whether ``card`` builds on ``top``: one rank lower, the other colour, an Ace taking a King."""
    return RANK[card] == (RANK[top] - 1) % RANKS and RED[card] != RED[top]


#: For each card, the two cards that build on it: one rank lower, the other colour (an Ace takes a King).
BUILDS_ON = tuple(
    tuple(other for other in range(52) if RANK[other] == (RANK[card] - 1) % RANKS and RED[other] != RED[card])
    for card in range(52)
)


def fits_foundation(position: Position, card: int) -> bool:
    count = position.foundations[SUIT[card]]
    return count < RANKS and RANK[card] == (position.base + count) % RANKS


def play(position: Position, step: Step) -> Position:
    """The position after ``step`` (which must be legal), an emptied pile filled from the reserve."""
    kind = step[0]
    reserve, foundations, piles = position.reserve, position.foundations, position.piles
    stock, waste, passes = position.stock, position.waste, position.passes
    if kind == "W":  # the hot path: a talon card played after turning
        _, turns, target = step
        states = _talon(position)[1]
        stock, waste, passes = states[turns] if turns in states else turn(position, turns)
        card = waste[-1]
        waste = waste[:-1]
        if target == "f":
            foundations = _up(foundations, card)
        else:
            piles = (*piles[:target], piles[target] + ONE[card], *piles[target + 1 :])
    elif kind in ("d", "n"):
        stock, waste, passes = turn(position, 1)
    elif kind == "p":
        _, source, target, count = step
        changed = list(piles)
        changed[target] = piles[target] + piles[source][-count:]
        changed[source] = piles[source][:-count]
        emptied = not changed[source]
        piles = _filled(changed, source, reserve)
        if emptied and reserve:
            reserve = reserve[:-1]
    else:
        source = step[1]
        if source == "r":
            card, reserve = reserve[-1], reserve[:-1]
        elif source == "w":
            card, waste = waste[-1], waste[:-1]
        else:
            card = piles[source][-1]
            changed = list(piles)
            changed[source] = piles[source][:-1]
            emptied = not changed[source]
            piles = _filled(changed, source, reserve)
            if emptied and reserve:
                reserve = reserve[:-1]
        if kind == "f":
            foundations = _up(foundations, card)
        else:
            target = step[2]
            piles = (*piles[:target], piles[target] + ONE[card], *piles[target + 1 :])
    return Position(position.base, reserve, foundations, piles, stock, waste, position.draw, passes,
                    position.partial, position.blocked, position.any_space)


def _up(foundations: tuple[int, int, int, int], card: int) -> tuple[int, int, int, int]:
    suit = SUIT[card]
    return (*foundations[:suit], foundations[suit] + 1, *foundations[suit + 1 :])  # type: ignore[return-value]


def _filled(piles: list[bytes], source: int, reserve: bytes) -> tuple[bytes, ...]:
    """The piles, the emptied ``source`` filled with the reserve's top card if there is one."""
    if not piles[source] and reserve:
        piles[source] = reserve[-1:]
    return tuple(piles)


#: The two suits of the other colour, by suit (C D H S).
OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))


def _safe(position: Position, card: int) -> bool:
    """Whether putting ``card`` up can't hurt.

    Always when both cards that could build on it (one rank lower, the other colour) are up
    already. When the foundations' last rank is never built on the tableau, two more cases: a
    base card (nothing builds on it), and Solvitaire's rule for red-black games that can't take
    cards back from the foundations — the other colour at most two ranks behind it and the
    other suit of its colour at most three: every card that could be built on it, and on
    those, can then go up itself instead. When the last rank can be built, that chain would
    reach it, and it can't go up early, so the rule is off.

    In a game whose piles move only whole, a card lying on another card in a pile counts as up
    here too (:func:`_never_laid`): it can never be laid on anything.
    """
    rank = (RANK[card] - position.base) % RANKS  # 0 for the base card
    counts = position.foundations
    first, second = OTHER_COLOUR[card & 3]
    others = counts[first] if counts[first] < counts[second] else counts[second]
    if position.blocked != (position.base - 1) % RANKS:
        if others >= (rank or RANKS):  # the cards that build on it are up
            return True
        return _never_laid(position, card)
    if others >= rank:
        return True
    same = counts[3 - (card & 3)]  # clubs and spades, diamonds and hearts
    return (others >= rank - 1 and same >= rank - 2) or _never_laid(position, card)


def _never_laid(position: Position, card: int) -> bool:
    """Whether neither card that could be built on ``card`` can ever be laid on it, in a whole-pile game.

    Each of the two is up, of a rank never built, or lies on another card in a pile. A card
    lying on another leaves its pile only to its foundation, or with the whole pile, the card
    under it still under it: it is never again a pile's bottom card, nor a single card, the only
    cards laid on a pile's top. (With partial moves, or a pile's top card into a space, it can be.)
    """
    if position.partial or position.any_space:
        return False
    counts, base = position.foundations, position.base
    for builder in BUILDS_ON[card]:
        if counts[builder & 3] > (RANK[builder] - base) % RANKS or RANK[builder] == position.blocked:
            continue
        if not any(builder in pile[1:] for pile in position.piles):
            return False
    return True


def turn(position: Position, turns: int) -> tuple[bytes, bytes, int]:
    """The stock, waste and passes left after turning the talon ``turns`` times.

    A turn takes cards from the stock or, once it is out, turns the waste over.
    """
    stock, waste, passes = position.stock, position.waste, position.passes
    for _ in range(turns):
        if stock:
            taken = min(position.draw, len(stock))
            stock, waste = stock[:-taken], waste + stock[-taken:][::-1]  # turned one by one
        else:
            stock, waste = waste[::-1], b""
            passes = passes - 1 if passes != UNLIMITED else UNLIMITED
    return stock, waste, passes


def talon_tops(position: Position) -> list[tuple[int, int]]:
    """Each waste top the talon can show by turning, as (turns needed, card), nearest first.

    Turning goes on through the stock and, when it is out, over the waste again (while passes
    remain) until it comes back to a state it has shown: with unlimited passes that is a cycle.
    """
    return _talon(position)[0]


#: What each talon shows as it turns, by (stock, waste, passes, draw): many positions share a talon.
_TALONS: dict[tuple, tuple[list[tuple[int, int]], dict[int, tuple[bytes, bytes, int]]]] = {}
_TALONS_KEPT = 50_000


def _talon(
    position: Position,
) -> tuple[list[tuple[int, int]], dict[int, tuple[bytes, bytes, int]]]:
    """The talon's tops (see :func:`talon_tops`) and, for each, the stock, waste and passes it leaves."""
    key = (position.stock, position.waste, position.passes, position.draw)
    known = _TALONS.get(key)
    if known is not None:
        return known
    shown: list[tuple[int, int]] = []
    states: dict[int, tuple[bytes, bytes, int]] = {}
    seen: set[tuple[int, int]] = set()
    stock, waste, passes = position.stock, position.waste, position.passes
    turns = 0
    while (len(stock), len(waste)) not in seen:
        seen.add((len(stock), len(waste)))
        if waste:
            shown.append((turns, waste[-1]))
            states[turns] = (stock, waste, passes)
        if stock:
            taken = min(position.draw, len(stock))
            stock, waste = stock[:-taken], waste + stock[-taken:][::-1]  # turned one by one
        elif waste and passes != 0:
            stock, waste = waste[::-1], b""
            passes = passes - 1 if passes != UNLIMITED else UNLIMITED
        else:
            break
        turns += 1
    if len(_TALONS) >= _TALONS_KEPT:
        _TALONS.clear()
    _TALONS[key] = (shown, states)
    return shown, states


def moves(position: Position, *, safe: bool = True) -> list[Step]:
    """The legal moves, most promising first (only the safe one, when there is one and ``safe``).

    The hot loop of the search: each card's foundation fit is one look-up in the four cards
    the foundations want next, and each card's places on the tableau one look-up in ``takers``.
    """
    base, counts, piles, reserve = position.base, position.foundations, position.piles, position.reserve
    #: The card each suit's foundation takes next (-1 once it is full), by suit.
    wanted = [((base + count) % RANKS) * 4 + suit if count < RANKS else -1 for suit, count in enumerate(counts)]
    result: list[Step] = []
    if reserve:
        card = reserve[-1]
        if wanted[card & 3] == card:
            if safe and _safe(position, card):
                return [("f", "r")]
            result.append(("f", "r"))
    for index, pile in enumerate(piles):
        if pile:
            card = pile[-1]
            if wanted[card & 3] == card:
                if safe and _safe(position, card):
                    return [("f", index)]
                result.append(("f", index))
    talon = talon_tops(position)
    blocked = position.blocked
    #: The pile each card would build on: the two cards one rank lower in the other colour.
    takers: dict[int, list[int]] = {}
    for index, pile in enumerate(piles):
        if pile:
            for card in BUILDS_ON[pile[-1]]:
                if RANK[card] != blocked:
                    if card in takers:
                        takers[card].append(index)
                    else:
                        takers[card] = [index]
    spaces = [index for index, pile in enumerate(piles) if not pile] if not reserve else []
    for turns, card in talon:
        if wanted[card & 3] == card:
            result.append(("W", turns, "f"))
    for source, pile in enumerate(piles):  # moving a pile brings out a reserve card
        if not pile:
            continue
        if position.partial:
            for count in range(len(pile), 0, -1):
                for target in takers.get(pile[-count], ()):
                    if target != source:
                        result.append(("p", source, target, count))
        else:
            targets = takers.get(pile[0])
            if targets:
                count = len(pile)
                for target in targets:
                    if target != source:
                        result.append(("p", source, target, count))
    if reserve:
        for index in takers.get(reserve[-1], ()):
            result.append(("t", "r", index))
    for turns, card in talon:
        targets = takers.get(card)
        if targets:
            for index in targets:
                result.append(("W", turns, index))
        for index in spaces:
            result.append(("W", turns, index))
    if spaces and position.any_space:
        for source, pile in enumerate(piles):
            if len(pile) > 1:
                result.append(("p", source, spaces[0], 1))
    return result


def _key(position: Position) -> int:
    """What makes two positions the same to the search.

    Piles are interchangeable, so they are sorted. With unlimited passes every talon state
    that the start of a pass leads back to is as good as that start (turning costs nothing),
    so all of them share the key of the talon's card order.
    """
    stock, waste = position.stock, position.waste
    talon: tuple[object, ...]
    if position.passes == UNLIMITED and (not stock or len(waste) % position.draw == 0):
        talon = ("cycle", waste + stock[::-1])
    else:
        talon = (stock, waste, position.passes)
    return _hashed(position, talon)


def _hashed(position: Position, talon: tuple) -> int:
    """The key of ``position`` with its talon written as ``talon``.

    Kept as its hash: millions of keys fit in memory, and a clash (odds about n²/2⁶⁴) is negligible.
    """
    return hash((len(position.reserve), position.foundations, tuple(sorted(position.piles)), talon))


def _cycle_key(position: Position) -> int | None:
    """The key of the same position with its talon turned to the start of a pass, if that differs.

    With unlimited passes a talon anywhere in a pass can be turned to the pass's start, so
    the position there offers a subset of this one's moves: if this one is lost, so is it.
    """
    stock, waste = position.stock, position.waste
    if position.passes != UNLIMITED or not stock or len(waste) % position.draw == 0:
        return None
    return _hashed(position, ("cycle", waste + stock[::-1]))


#: Deadlock verdicts by (base, sorted piles): many positions share their piles. The
#: foundations are not in the key: the graph's cards are all off them, and its edges are the
#: piles' and the suits' order alone.
_DEADLOCKS: dict[tuple, bool] = {}
_DEADLOCKS_KEPT = 200_000


def deadlocked(position: Position) -> bool:
    """Whether some card can never go up, in a game whose piles move only whole.

    There a card lying on another in a pile goes up before it: it leaves only to its
    foundation, or with the whole pile, which keeps their order. Each suit goes up in order.
    When "goes up before" runs in a circle (2♣ on 3♥, 3♥ after 2♥ in its suit, 2♥ under a
    card that needs 2♣ up first …) none of the cards in the circle can ever go up, and the
    position is lost. Not for partial moves or any card to a space, which break a pile's order.
    """
    key = (position.base, tuple(sorted(position.piles)))
    known = _DEADLOCKS.get(key)
    if known is not None:
        return known
    last = (position.base - 1) % RANKS
    under: dict[int, int] = {}
    for pile in position.piles:
        for lower, upper in pairwise(pile):
            under[upper] = lower
    state: dict[int, int] = {}  # 1 on the current path, 2 done

    def after(card: int) -> list[int]:
        found = [under[card]] if card in under else []
        if RANK[card] != last:
            found.append(((RANK[card] + 1) % RANKS) * 4 + SUIT[card])  # the next card of its suit
        return found

    circle = False
    for first in under:
        if circle:
            break
        if first in state:
            continue
        state[first] = 1
        stack = [(first, iter(after(first)))]
        while stack:
            card, rest = stack[-1]
            following = next(rest, None)
            if following is None:
                state[card] = 2
                stack.pop()
                continue
            seen = state.get(following)
            if seen == 1:
                circle = True
                break
            if seen is None:
                state[following] = 1
                stack.append((following, iter(after(following))))
    if len(_DEADLOCKS) >= _DEADLOCKS_KEPT:
        _DEADLOCKS.clear()
    _DEADLOCKS[key] = circle
    return circle


#: The four cards of each rank, for a base of that rank.
BASE_CARDS = tuple(frozenset(rank * 4 + suit for suit in range(4)) for rank in range(RANKS))


def laid(before: Position, step: Step, after: Position) -> tuple[int, int] | None:
    """The card ``step`` laid on another pile's top card, and that card, as (upper, lower); else None.

    Only such a move gives the deadlock graph a new edge: every other move takes cards away
    (to a foundation, or a whole pile off its place) or puts a lone card into a space.
    """
    kind = step[0]
    if kind == "p" or kind == "t" or (kind == "W" and step[2] != "f"):
        target = step[2]
        below = before.piles[target]
        if below:
            return after.piles[target][len(below)], below[-1]
    return None


def closes_circle(position: Position, upper: int, lower: int) -> bool:
    """Whether ``upper``, just laid on ``lower``, closes a circle of :func:`deadlocked`'s graph.

    When the position before the move had no circle, any circle now runs through the new edge
    (``upper`` goes up after ``lower``), so it is enough to look for a way from ``lower`` back to
    ``upper`` — a walk of at most 52 cards, where :func:`deadlocked` builds and walks the graph
    of every pile.

    Every edge of the graph leads to a card one rank further from the base (the next card of a
    suit; the card a card lies on), but for a card of the last rank lying on a base card. So a
    circle needs such a pair somewhere, and the usual position, which has none, is answered
    without a walk.
    """
    base = position.base
    last = (base - 1) % RANKS
    if RANK[lower] != base:  # the new edge doesn't wrap round: look for a pair that does
        bases = BASE_CARDS[base]
        if all(len(pile) < 2 or bases.isdisjoint(pile[:-1]) for pile in position.piles):
            return False
    under: dict[int, int] = {}
    for pile in position.piles:
        for below, above in pairwise(pile):
            under[above] = below
    seen = {lower}
    stack = [lower]
    while stack:
        card = stack.pop()
        if card == upper:
            return True
        beneath = under.get(card)
        if beneath is not None and beneath not in seen:
            seen.add(beneath)
            stack.append(beneath)
        if RANK[card] != last:
            following = card + 4 if RANK[card] != RANKS - 1 else SUIT[card]  # the next card of its suit
            if following not in seen:
                seen.add(following)
                stack.append(following)
    return False


#: Restarts follow the Luby sequence in units of this many nodes, each with a new move order.
SLICE = 2_000


class Search:
    """Depth-first search with restarts; ``line`` holds the winning moves once won.

    Each restart searches with a budget from the Luby sequence and its own shuffle of each
    position's moves after the first (the best-ordered move always comes first). Positions
    searched to the end without a win are kept across restarts: they are lost.
    """

    def __init__(
        self, *, max_nodes: int, max_seconds: float, safe: bool = True, deadlocks: bool = True, seed: int = 0,
        lost: set[int] | None = None,
    ) -> None:
        self.max_nodes, self.max_seconds, self.safe = max_nodes, max_seconds, safe
        self.deadlocks = deadlocks
        self.nodes = 0
        self.line: list[Step] = []
        #: The keys of positions searched to the end without a win; ``lost`` shares a set between searches.
        self._lost: set[int] = set() if lost is None else lost
        self._random = random.Random(seed)

    def run(self, start: Position) -> bool:
        deadline = time.perf_counter() + self.max_seconds
        attempt = 0
        while True:
            attempt += 1
            budget = min(self.max_nodes - self.nodes, luby(attempt) * SLICE)
            shuffle = attempt > 1
            try:
                return self._search(start, self.nodes + budget, deadline, shuffle)
            except _SliceSpent:
                if self.nodes >= self.max_nodes or time.perf_counter() > deadline:
                    raise OutOfBudget from None

    def _moves(
        self, position: Position, shuffle: bool, before: Position | None = None, step: Step | None = None
    ) -> list[Step]:
        """The moves to search from ``position``, none when it is deadlocked.

        A position reached by ``step`` from ``before`` (which had no circle) is checked only if
        the step laid a card on another, and only for a circle through that card.
        """
        if self.deadlocks and not position.partial and not position.any_space:
            if before is None or step is None:
                if deadlocked(position):
                    return []  # lost: searched to the end at once
            elif (pair := laid(before, step, position)) is not None and closes_circle(position, *pair):
                return []
        found = moves(position, safe=self.safe)
        if shuffle and len(found) > 2:
            rest = found[1:]
            self._random.shuffle(rest)
            found[1:] = rest
        return found

    def _search(self, start: Position, limit: int, deadline: float, shuffle: bool) -> bool:
        seen = {_key(start)}
        stack: list[tuple[Position, int, Iterator[Step]]] = [(start, _key(start), iter(self._moves(start, shuffle)))]
        path: list[Step] = []
        while stack:
            position, key, options = stack[-1]
            step = next(options, None)
            if step is None:
                stack.pop()
                self._lost.add(key)
                dominated = _cycle_key(position)
                if dominated is not None:
                    self._lost.add(dominated)
                if path:
                    path.pop()
                continue
            after = play(position, step)
            after_key = _key(after)
            if after_key in seen or after_key in self._lost:
                continue
            seen.add(after_key)
            self.nodes += 1
            if self.nodes & 255 == 0 and (self.nodes >= limit or time.perf_counter() > deadline):
                raise _SliceSpent
            path.append(step)
            if after.won:
                self.line = path
                return True
            stack.append((after, after_key, iter(self._moves(after, shuffle, position, step))))
        return False


class _SliceSpent(Exception):
    pass


def solve(
    start: Position, *, max_nodes: int = 2_000_000, max_seconds: float = 10.0, safe: bool = True,
    deadlocks: bool = True, compiled: bool = True,
) -> Result:
    """Decide ``start``: a winning line, a proof of loss, or unresolved within the budget.

    ``safe`` and ``deadlocks`` switch the pruning rules off, for checking. The compiled search runs
    when there is one and it holds ``start`` (every rules switch a Position carries, up to
    :data:`COMPILED_PILES` piles); ``compiled=False`` asks for the Python search, the reference.
    """
    if compiled and COMPILED and 1 <= len(start.piles) <= COMPILED_PILES:
        began = time.perf_counter()
        said, line, nodes = _core.solve(start, max_nodes, max_seconds, safe, deadlocks, 0)
        return Result(Verdict(said), line, nodes, time.perf_counter() - began)
    (found,) = solve_each([start], max_nodes=max_nodes, max_seconds=max_seconds, safe=safe, deadlocks=deadlocks,
                          compiled=False)
    return found


def solve_each(
    starts: Sequence[Position], *, max_nodes: int = 2_000_000, max_seconds: float = 10.0, safe: bool = True,
    deadlocks: bool = True, compiled: bool = True,
) -> list[Result]:
    """Decide each of ``starts`` in turn as :func:`solve` would, sharing the positions proved lost.

    Each start has ``max_nodes`` of its own; ``max_seconds`` is for them all, and each result's
    ``seconds`` is the whole call's. A position one search proved lost is lost from any start,
    so the next search doesn't search it again: the hint weighs every move on one imagined deal
    this way, and the moves' searches overlap (so a start can be decided here that :func:`solve`
    leaves unresolved within the same budget).
    """
    if compiled and COMPILED and all(1 <= len(start.piles) <= COMPILED_PILES for start in starts):
        began = time.perf_counter()
        said = _core.solve_each(starts, max_nodes, max_seconds, safe, deadlocks)
        seconds = time.perf_counter() - began
        return [Result(Verdict(verdict), line, nodes, seconds) for verdict, line, nodes in said]
    lost: set[int] = set()
    began = time.perf_counter()
    deadline = began + max_seconds
    found: list[tuple[Verdict, tuple[Step, ...], int]] = []
    collecting = gc.isenabled()
    gc.disable()  # the search makes only acyclic tuples; scanning millions of them costs more than it frees
    try:
        for start in starts:
            search = Search(max_nodes=max_nodes, max_seconds=deadline - time.perf_counter(), safe=safe,
                            deadlocks=deadlocks, lost=lost)
            try:
                verdict = Verdict.WINNABLE if search.run(start) else Verdict.LOST
            except OutOfBudget:
                verdict = Verdict.UNRESOLVED
            found.append((verdict, tuple(search.line) if verdict is Verdict.WINNABLE else (), search.nodes))
    finally:
        if collecting:
            gc.enable()
    seconds = time.perf_counter() - began
    return [Result(verdict, line, nodes, seconds) for verdict, line, nodes in found]


def position_of(game: CanfieldGame) -> Position:
    """The search's position for a Canfield game whose stock is known."""
    raw = game.raw()
    passes = UNLIMITED if raw.passes_left is None else raw.passes_left
    foundations = (raw.foundations[0], raw.foundations[1], raw.foundations[2], raw.foundations[3])
    return Position(raw.base, bytes(raw.reserve), foundations, tuple(bytes(pile) for pile in raw.piles),
                    bytes(raw.stock), bytes(raw.waste), raw.draw, passes, raw.partial_moves)


def tokens(line: tuple[Step, ...]) -> list[str]:
    """The search's moves in Canfield's move notation (a talon move becomes its turns, then the play)."""
    names = "1234"
    out: list[str] = []
    for step in line:
        kind = step[0]
        if kind == "W":
            _, turns, target = step
            out.extend(["d"] * turns)
            out.append("wf" if target == "f" else f"w{names[target]}")
        elif kind in ("d", "n"):
            out.append("d")
        elif kind == "f":
            source = step[1]
            out.append(f"{source if isinstance(source, str) else names[source]}f")
        elif kind == "t":
            out.append(f"{step[1]}{names[step[2]]}")
        else:
            _, source, target, _count = step  # one run length fits but for runs of 27 cards or more
            out.append(f"{names[source]}{names[target]}")
    return out
