"""The thoughtful solver: depth-first search over full Gate positions (stock order known).

The search keeps its own copy of the position in plain lists of card numbers and plays its
own moves on it, because it visits tens of thousands of positions a second; every winning
line it returns is replayed through the rules engine by :func:`gatebot.solver.gate.solve.solve`, so a
disagreement could never reach a player. Positions already searched are remembered by a
compact key in which the columns are sorted (Gate's rules never depend on which column is
which), so a transposition by moving runs in another order, or into another column, is
searched once. docs/solver.md explains the move order, the pruning rules and the restarts.

The same search is compiled (``_core.c``, built by setup.py where there is a C compiler):
:meth:`Search.run` uses it when it could be imported (:data:`COMPILED`) and searches in Python
otherwise, or when asked to (``compiled=False``), with the same moves in the same order, the same
pruning and the same shuffles, so both give the same verdict, line, node count and best line. This
module stays the reference the tests hold the compiled one to.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gatebot.rules.gate import ACCEPTS, FILL_NONE, FILL_WASTE, KEY, GateGame, fill_column
from gatebot.solver.compiled import import_core
from gatebot.solver.restarts import luby

#: Why the compiled search can't be used, for the front ends to say once at start-up; None when it can.
_loaded, NOT_COMPILED = import_core("gatebot.solver.gate._core")
if TYPE_CHECKING:
    import gatebot.solver.gate._core as _core  # its stub types the calls; None when not compiled
else:
    _core = _loaded
#: Whether :meth:`Search.run` searches with the compiled core rather than in Python.
COMPILED = NOT_COMPILED is None
#: The most columns the compiled core holds (Gate has eight).
COMPILED_COLUMNS = 16
#: The most slots of the compiled search's table of positions seen (16 bytes each: 512 MiB), past
#: which it stops as if out of budget; a search of 2,000,000 nodes, the default, needs 4,194,304.
TABLE_LIMIT = 1 << 25

#: The most columns a board may have for the ``buried_waste`` cut to be tried: on Little Gate's
#: four it shortens proofs of loss about four times, while on Gate's eight it never fired in
#: 600,000 positions of the hardest deals and made each position 4-17% dearer. (With the
#: ``column_chains`` cut on, which fires wherever it does, it is never tried.)
BURIED_WASTE_COLUMNS = 4

#: Source code of a draw (the other sources are columns 0..n-1, left n, right n+1, waste n+2).
DRAW_CODE = -1

_OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))
#: ``_SAFE_NEED[c]``: the foundation count both other-colour suits need for ``c`` to go up safely
#: (the cards one rank lower up; an Ace or a Two needs nothing — an Ace never needs a parent).
_SAFE_NEED = tuple(c >> 2 if c >= 8 else 0 for c in range(52))

#: A move as the search plays it: (source code, target code, run length or foundation suit).
Step = tuple[int, int, int]
#: Nodes searched before the first restart; later attempts get this times the Luby sequence
#: (1 1 2 1 1 2 4 1 1 2 …), the restart schedule that wastes least when nothing is known.
SLICE = 1_000


class OutOfBudget(Exception):
    """The search ran out of nodes or time before deciding."""


@dataclass(frozen=True, slots=True)
class Dominances:
    """Pruning rules the search may use; each was checked to keep every verdict (docs/solver.md).

    A card is *safe* when nothing could still be built on it: an Ace or a Two, or a card whose
    two other-colour cards one rank lower are both on their foundations.

    ``safe_column``: a safe foundation play from a column of two or more cards is the only
    move searched. ``safe_waste``, ``safe_reserve``, ``safe_lone``: the same for a safe card on
    top of the waste, of a gatepost, or alone in its column (where the play causes a fill).
    ``safe_stays_off``: a safe card that can go up is never moved onto a column instead.
    ``swap_then_use``: a run moved off the card it was built on (onto that card's twin, or
    into a free space) must be followed at once by a move that uses the uncovered card.
    ``stuck_draw``: the draw is the only move searched when, short of drawing, nothing could
    ever leave the waste or be filled from it (see ``_draw_is_forced``).
    ``nearly_safe_column``: a card of rank r that can go up from a column of two or more,
    with both other-colour suits up to r−2 and its twin suit (same colour) up to r−3, goes
    up as the only move searched. Whatever
    could still be built on it could go up instead, and so could whatever could be built on
    that, so putting it up now leaves every win (the argument is at ``_nearly_safe``).
    ``buried_waste``: a position is lost, and searched no further, when some bottom part of the
    waste can never come out because the cards above it and in the gateposts that could leave
    only as fills need more columns than there are (see ``_waste_is_buried``).
    ``column_chains``: a position is lost, and searched no further, when some gatepost or waste card
    can never leave its pile because the cards it waits on wait, in a chain or a circle, on it or
    on each other: a card stays on the card under it, or at its column's bottom, for good when it
    can't go up and no parent of it can ever show, and a column never empties while its bottom card
    stays (see ``_columns_are_chained``). It fires wherever ``buried_waste`` does, which is then
    switched off.
    """

    safe_column: bool = True
    safe_waste: bool = True
    safe_reserve: bool = True
    safe_lone: bool = True
    swap_then_use: bool = True
    safe_stays_off: bool = True
    nearly_safe_column: bool = True
    stuck_draw: bool = True
    buried_waste: bool = True
    column_chains: bool = True


DEFAULT_DOMINANCES = Dominances()
NO_DOMINANCES = Dominances(False, False, False, False, False, False, False, False, False, False)


def _stuck(card: int, found: list[int], talon: bytearray) -> bool:
    """Whether ``card`` can neither go up nor be built onto a card while the stock and the waste stay as they are.

    It can't go up while a card of its suit below it (and not up yet) is in the stock or the
    waste, and it can't be built onto a card while each of its two parents is either up
    already or in the stock or the waste. A King has no parents. (A card is never its own
    obstacle, so ``card`` itself may be in the waste.) ``talon[c]`` is 1 for the cards in
    the stock and the waste.
    """
    rank = card >> 2
    suit = card & 3
    for lower in range(found[suit] * 4 + suit, card, 4):
        if talon[lower]:
            break
    else:
        return False
    if rank < 12:
        parents = (rank + 1) * 4
        for other in _OTHER_COLOUR[suit]:
            parent = parents + other
            if found[other] <= rank + 1 and not talon[parent]:
                return False
    return True


def _nearly_safe(card: int, found: list[int]) -> bool:
    """Whether ``card``, next on its foundation, can go up without losing a win when it lies on a column of two or more.

    Let r be the card's rank. The cards that could still be built on it are the other
    colour's r−1s; with both other-colour suits at r−2 or beyond, each could go straight up
    instead, from wherever it is, leaving its pile exactly as the build would. What could be
    built on one of those is this colour's r−2s, and with this card's suit at r−1 and its
    twin suit at r−3 or beyond they could go up instead too; and so on down, each lower rank
    with its suit's card below it already up. So any line of play that keeps the card on the
    column can be followed with the card up: each card that line puts onto the card (or onto
    one put there) goes up instead, each move of such cards only is skipped, and every other
    move is played as it is — its source loses the same cards (so the same fills come, or a
    free space that the line's fill from the waste can be copied into by hand: a free space
    means both gateposts are empty for good), its target is the same pile without those cards
    on top. The column is two cards or more, so putting the card up causes no fill now.
    """
    rank = card >> 2
    suit = card & 3
    a, b = _OTHER_COLOUR[suit]
    return found[a] >= rank - 1 and found[b] >= rank - 1 and found[3 - suit] >= rank - 2


class Search:
    """One position being searched; ``run`` decides it within a node and time budget."""

    def __init__(
        self,
        game: GateGame,
        dominances: Dominances = DEFAULT_DOMINANCES,
        *,
        stock: list[int] | None = None,
        compiled: bool = True,
    ) -> None:
        """Copy ``game``'s position; ``stock`` (next card last) stands in for a hidden stock.

        ``compiled=False`` makes :meth:`run` search in Python, the reference, even where the
        compiled core is available.
        """
        if stock is None and not game.stock_known and game.stock_count:
            raise ValueError("The solver needs the stock's order; a hint works from a hidden stock")
        raw = game.raw()
        self.n = game.column_count
        self.columns = [list(c) for c in raw.columns]
        self.reserves = [list(raw.reserves[0]), list(raw.reserves[1])]
        self.waste = list(raw.waste)
        self.stock = list(raw.stock if stock is None else stock)  # next card last
        self.found = list(raw.foundations)
        #: ``talon[card]``: 1 while the card is in the stock or the waste (kept by apply and revert).
        self.talon = bytearray(52)
        for card in (*self.stock, *self.waste):
            self.talon[card] = 1
        self.single = game.options.count("single-moves") > 0
        self.stock_fill = game.options.count("stock-fill") > 0
        if self.single:
            # Delaying a move off a parent relies on whatever was built on the moved run
            # moving with it, which single moves forbid.
            dominances = dataclasses.replace(dominances, swap_then_use=False)
        if self.n > BURIED_WASTE_COLUMNS or dominances.column_chains:
            # With many columns one can nearly always still empty, and the cut costs every position;
            # and wherever it fires, ``column_chains`` fires too (see ``_columns_are_chained``).
            dominances = dataclasses.replace(dominances, buried_waste=False)
        self.dominances = dominances
        #: Whether :meth:`run` uses the compiled core (asked for, imported, and the board fits it).
        self.compiled = compiled and COMPILED and 1 <= self.n <= COMPILED_COLUMNS
        #: The keys of the positions not to search again: searched to the end, or (put here by a
        #: caller) ones a line must not pass through. A compiled run reads it and leaves it as it was.
        self.seen: set[bytes] = set()
        self.nodes = 0
        self.path: list[Step] = []
        #: The most cards on the foundations seen so far, and the first move of the line there
        #: (None: the position searched from), for advice when nothing wins.
        self.best_score = -1
        self.best_first: Step | None = None
        self._root_length = 0
        self._node_limit = 0
        self._deadline = 0.0
        self._trail: list[bytes] = []  # the keys of the positions on the current line
        self._shuffle: Callable[[list[Step]], None] | None = None

    # -- playing on the search's own copy -------------------------------------------------

    def key(self) -> bytes:
        """What identifies the position for the search: reserve depths, stock left, foundations, columns."""
        left, right = self.reserves
        head = bytes((len(left), len(right), len(self.stock), *self.found))
        return head + b"|".join(sorted(map(bytes, self.columns)))

    def apply(self, source: int, target: int, count: int) -> int:
        """Play a legal move; return the fill it caused, for :meth:`revert`."""
        n = self.n
        if source < 0:
            self.waste.append(self.stock.pop())
            return FILL_NONE
        if source < n:
            column = self.columns[source]
            if target == n:
                self.found[column.pop() & 3] += 1
            else:
                self.columns[target].extend(column[-count:])
                del column[-count:]
            if column:
                return FILL_NONE
            fill = fill_column(column, self.reserves, self.waste, self.stock, stock_fill=self.stock_fill)
            if fill >= FILL_WASTE:
                self.talon[column[0]] = 0
            return fill
        pile = self.reserves[source - n] if source < n + 2 else self.waste
        card = pile.pop()
        if source == n + 2:
            self.talon[card] = 0
        if target == n:
            self.found[card & 3] += 1
        else:
            self.columns[target].append(card)
        return FILL_NONE

    def revert(self, source: int, target: int, count: int, fill: int) -> None:
        """Take back a move played by :meth:`apply`."""
        n = self.n
        if source < 0:
            self.stock.append(self.waste.pop())
            return
        if source < n:
            column = self.columns[source]
            if fill != FILL_NONE:
                card = column.pop()
                (self.reserves[0], self.reserves[1], self.waste, self.stock)[fill].append(card)
                if fill >= FILL_WASTE:
                    self.talon[card] = 1
            if target == n:
                column.append(self._pop_foundation(count))
            else:
                destination = self.columns[target]
                column.extend(destination[-count:])
                del destination[-count:]
            return
        pile = self.reserves[source - n] if source < n + 2 else self.waste
        card = self._pop_foundation(count) if target == n else self.columns[target].pop()
        pile.append(card)
        if source == n + 2:
            self.talon[card] = 1

    def _pop_foundation(self, suit: int) -> int:
        """Take the top card off foundation ``suit`` (foundation moves carry their suit as count)."""
        self.found[suit] -= 1
        return self.found[suit] * 4 + suit

    # -- moves ---------------------------------------------------------------------------

    def moves(self) -> list[Step]:
        """The legal moves, most promising first; a single move when a dominance forces it.

        Foundation plays come first, then plays that take a card off a gatepost or the
        waste or empty a column, then other builds and the draw, and last the moves that
        only shift a run between equivalent places (twin parents, free spaces).
        """
        n = self.n
        columns = self.columns
        found = self.found
        dom = self.dominances
        if dom.stuck_draw and self.stock and self.waste and self._draw_is_forced():
            return [(DRAW_CODE, 0, 0)]
        accepts = ACCEPTS
        keys = KEY
        accepting: dict[int, list[int]] = {}
        free = -1
        for j, column in enumerate(columns):
            if column:
                wanted = accepts[column[-1]]
                if wanted >= 0:
                    targets = accepting.get(wanted)
                    if targets is None:
                        accepting[wanted] = [j]
                    else:
                        targets.append(j)
            elif free < 0:
                free = j
        up: list[Step] = []
        good: list[Step] = []
        fair: list[Step] = []
        late: list[Step] = []
        single = self.single
        split_rule = dom.swap_then_use
        # A safe card (nothing could still be built on it) that can go up is never better off
        # on another column; some safe plays force themselves (see Dominances).
        for i, column in enumerate(columns):
            if not column:
                continue
            card = column[-1]
            suit = card & 3
            height = len(column)
            depth = 1
            if found[suit] == card >> 2:
                a, b = _OTHER_COLOUR[suit]
                need = _SAFE_NEED[card]
                if found[a] >= need and found[b] >= need:
                    if dom.safe_column if height > 1 else dom.safe_lone:
                        return [(i, n, suit)]
                    up.append((i, n, suit))
                    if dom.safe_stays_off:
                        if height == 1 or single:
                            continue
                        depth = 2
                        card = column[-2]
                        if accepts[card] != keys[column[-1]]:
                            continue
                elif dom.nearly_safe_column and height > 1 and _nearly_safe(card, found):
                    return [(i, n, suit)]
                else:
                    up.append((i, n, suit))
            while True:
                targets = accepting.get(keys[card])
                if depth == height:
                    if targets:
                        good.extend([(i, j, depth) for j in targets])  # empties the column: a fill
                    break
                below = column[-depth - 1]
                if accepts[below] == keys[card]:
                    if (targets or free >= 0) and (
                        not split_rule or self._parent_has_use(column, depth, accepting, free)
                    ):
                        if targets:
                            late.extend([(i, j, depth) for j in targets])  # off its parent onto the twin
                        if free >= 0:
                            late.append((i, free, depth))
                    if single:
                        break
                    card = below
                    depth += 1
                    continue
                if targets:
                    fair.extend([(i, j, depth) for j in targets])
                if free >= 0:
                    late.append((i, free, depth))
                break
        for source, pile in ((n, self.reserves[0]), (n + 1, self.reserves[1]), (n + 2, self.waste)):
            if not pile:
                continue
            card = pile[-1]
            suit = card & 3
            if found[suit] == card >> 2:
                a, b = _OTHER_COLOUR[suit]
                need = _SAFE_NEED[card]
                if found[a] >= need and found[b] >= need:
                    if dom.safe_waste if source == n + 2 else dom.safe_reserve:
                        return [(source, n, suit)]
                    up.append((source, n, suit))
                    if dom.safe_stays_off:
                        continue
                else:
                    up.append((source, n, suit))
            targets = accepting.get(keys[card])
            if targets:
                good.extend([(source, j, 1) for j in targets])
            if free >= 0:
                late.append((source, free, 1))
        if self.stock:
            fair.append((DRAW_CODE, 0, 0))
        up += good
        up += fair
        up += late
        return up

    def _draw_is_forced(self) -> bool:
        """Whether the draw can be played first in every line that wins from here.

        Call a card *stuck* when it can neither go up nor be built onto a card while the stock
        and the waste stay as they are (``_stuck``). The draw goes first when the waste's top
        card is stuck, there is no free space, and the stuck cards in the gateposts and at the
        bottoms of columns number at least the columns. Then, short of drawing, the waste can
        never change: its top card could leave only by a fill from the waste, which needs both
        gateposts empty and then a column emptying. A column whose bottom card is stuck never
        empties, and a stuck gatepost card leaves only as a fill, becoming such a bottom card
        for good; so emptying the gateposts would use up every column, and none would be left
        to empty afterwards (nor to make a free space). None of this can change first: the
        first move to change it would have to move a stuck card, or the waste's. So every move
        a winning line plays before its next draw leaves the stock and the waste alone, and the
        draw can be played before them all instead, reaching the same position; a win needs
        the stock out, so there is a next draw. Nothing but the draw need be searched.
        """
        found = self.found
        talon = self.talon
        if not _stuck(self.waste[-1], found, talon):
            return False
        columns = self.columns
        if not all(columns):
            return False
        left, right = self.reserves
        wanted = self.n  # stuck cards still to find
        spare = len(left) + len(right)  # candidates that may fail to be stuck
        for card in (*[column[0] for column in columns], *left, *right):
            if _stuck(card, found, talon):
                wanted -= 1
                if not wanted:
                    return True
            else:
                spare -= 1
                if spare < 0:
                    return False
        return False

    def _waste_is_buried(self) -> bool:
        """Whether some bottom part of the waste can never come out, so the position is lost.

        Take a bottom part F of the waste (its lowest j cards, 1 <= j < its length). Call a card
        *buried under F* when, while F stays in the waste, it can neither go up (a card of its
        suit below it, not up, lies in F) nor be built onto a card (each of its two parents is up
        or lies in F: no column will show it; a King has no parents). While F stays, both hold
        for good: F's cards don't go up and foundations never give a card back. Let C be the
        buried cards among the column bottoms, the gatepost cards and the waste cards above F,
        and W those of the waste. The rule fires when there is no free space, W is not empty
        and C outnumbers the columns.

        Then no card of F ever leaves the waste. Suppose one does, and look at the moves before
        the first that does. The waste holds F all along, so every column that empties is filled
        at once (from a gatepost, or else from the waste; the stock never fills while the waste
        holds a card), and with no free space now there is never one: no card can be moved by
        hand into an empty column. So a card of C can leave its place only as a fill: it can't go
        up, nor onto a card, nor into a free space, and a column's bottom card moves only with
        the whole column above it, onto a card or into a free space. A card of C at a column's
        bottom therefore stays there for good, and its column never empties again; a card of C
        that fills a column becomes such a bottom card. The cards of W lie above F, so all of
        them leave before F's first card can, each as a fill from the waste, which needs both
        gateposts empty; nothing is ever put on a gatepost, so every gatepost card leaves before
        the first card of W, those of C as fills too. That is one fill of a card of C for each
        card of C not at a column's bottom, each into a column no card of C has reached: more
        fills than the columns not already held by one, which is impossible. A win puts F's
        cards up, so there is none. The stock is no exception: a draw only puts a card on the
        waste's top, above F, which has to leave too before F can. Nothing here depends on
        single moves or the stock fill, which fills only when the waste is empty.

        ``since[card]`` is the least j for which a card not up is buried under the waste's lowest
        j cards (the waste's length or more when there is none): as F grows the buried cards only
        grow, and a waste card counts for the j up to its own place.
        """
        waste = self.waste
        size = len(waste)
        if size < 2:
            return False
        columns = self.columns
        if not all(columns):
            return False
        found = self.found
        where = [size] * 52  # a card's place in the waste; the waste's length when it isn't there
        for place, card in enumerate(waste):
            where[card] = place
        since = [0] * 52
        for suit in range(4):
            lowest = size  # the lowest place in the waste of a card of the suit below, not up
            a, b = _OTHER_COLOUR[suit]
            for card in range(found[suit] * 4 + suit, 52, 4):
                first = lowest + 1
                rank = card >> 2
                if rank < 12:
                    parents = (rank + 1) * 4
                    if found[a] <= rank + 1 and where[parents + a] >= first:
                        first = where[parents + a] + 1
                    if found[b] <= rank + 1 and where[parents + b] >= first:
                        first = where[parents + b] + 1
                since[card] = first
                if where[card] < lowest:
                    lowest = where[card]
        above = [0] * (size + 1)  # waste cards buried from j on, less those that stop counting at j
        for place, card in enumerate(waste):
            j = since[card]
            if j <= place:
                above[j] += 1
                above[place + 1] -= 1
        if not any(above):
            return False
        fixed = [0] * (size + 1)  # column bottoms and gatepost cards buried from j on
        left, right = self.reserves
        for card in (*[column[0] for column in columns], *left, *right):
            if since[card] < size:
                fixed[since[card]] += 1
        held = 0
        buried = 0
        for j in range(1, size):
            held += fixed[j]
            buried += above[j]
            if buried and held + buried > self.n:
                return True
        return False

    def _columns_are_chained(self) -> bool:
        """Whether some cards can never leave their places, each waiting on another, so the position is lost.

        Every column is one run, built down from its bottom card (cards are only ever put onto a
        parent, or into an empty column). Call these the *places*: for each column card, staying on
        the card under it (or at its column's bottom, for a bottom card), and for each gatepost or
        waste card, staying in its pile. Take a set S of places and suppose none of them is ever
        given up; look at the first move that gives one up. Until then every place of S holds. The
        rule fires when, for a set S that holds a gatepost or waste card, no place of S could be
        given up by that first move: then none ever is, and that pile card never goes up.

        While a gatepost or waste card of S stays, every column that empties is filled at once, so
        with no free space now there is none then. A card is *pinned* when it can't go up before
        that move: it holds a place of S (a gatepost or waste card of S, too), or a card holding its
        place in S lies on it (a column card moved in a run started below it keeps its place on the
        card under it). A parent P of
        a card (the other colour, one rank higher) *can be reached* when it is not up and no card
        holds its place of S on top of it, and it is not a gatepost or waste card of S: only then
        can it be a column's top. A card *can go up* when no lower card of its suit is pinned. Let
        k be the columns whose bottom card doesn't hold its place in S (no other can empty). The
        place given up is one of these:

        - a column card's place on the card under it, or at the bottom: it goes up (it can go up,
          and no card holds its place of S on it), or it starts a run onto a parent that can be
          reached (with single moves, again only when no card holds its place of S on it);
        - a gatepost or waste card's place, as it goes up, onto a parent, or as a fill. It has to
          be its pile's top, so no card of S lies above it, and the cards above it must have left.
          Those that can only leave as fills (they can't go up, no parent can be reached) each went
          into a column that emptied, one of the k, and stay at its bottom for good for the same
          reasons, keeping that column from emptying again. A fill from the waste needs both
          gateposts empty, so when the waste cards above it include such a card, the gateposts'
          such cards count too (and a gatepost card in S makes it impossible). So those cards must
          number at most k for the card to go up or onto a parent, and fewer than k for it to be a
          fill itself, which needs one more column to empty (from the waste: counting every such
          gatepost card, none of them in S).

        The rule starts with every place in S and takes out, again and again, each place that one
        of those could give up, until none can be taken out; what is left is the largest S for
        which none could (each test only gets harder as S grows, so the order of the takings-out
        changes nothing). It fires when that S still holds a gatepost or waste card; it answers no
        at once when none is left, or when there is a free space now. Cards in the stock have no
        place in S: a draw only puts a card on top of the waste, which must leave before the cards
        under it, and the first move above may come before any draw. Nothing here depends on the
        stock fill, which fills only when the waste is empty.

        Wherever ``_waste_is_buried`` fires, this does too: the places of its bottom part F of the
        waste and of its buried bottom cards form such a set (a buried bottom card can't go up, a
        lower card of its suit lying in F, and its parents are up or in F; F's top card has above it
        the buried waste cards, each fill-only, and with the buried gatepost cards they outnumber
        the columns whose bottom card isn't buried), so the largest set holds them.
        """
        columns = self.columns
        if not all(columns):
            return False
        left, right = self.reserves
        waste = self.waste
        if not (left or right or waste):
            return False
        n = self.n
        found = self.found
        single = self.single
        piles = (left, right, waste)
        where = [255] * 52  # column index, n + pile index, or 255: in the stock or up
        place = [0] * 52
        held = bytearray(52)  # a column card's place (on the card under it, or at the bottom) in S
        for j, column in enumerate(columns):
            for i, card in enumerate(column):
                where[card] = j
                place[card] = i
                held[card] = 1
        for p, pile in enumerate(piles):
            for i, card in enumerate(pile):
                where[card] = n + p
                place[card] = i
        pile_top = [len(pile) - 1 for pile in piles]  # the cards of S in a pile: its lowest pile_top + 1

        def covered(card: int) -> bool:  # a card holding its place of S lies on this column card
            column = columns[where[card]]
            i = place[card] + 1
            return i < len(column) and held[column[i]] == 1

        def pinned(card: int) -> bool:
            j = where[card]
            if j < n:
                return held[card] == 1 or covered(card)
            if j < n + 3:
                return place[card] <= pile_top[j - n]
            return False

        def blocked(card: int) -> bool:  # can't go up: a lower card of its suit is pinned
            suit = card & 3
            return any(pinned(lower) for lower in range(found[suit] * 4 + suit, card, 4))

        def reachable(card: int) -> bool:  # a parent of the card can be reached
            rank = card >> 2
            if rank == 12:
                return False
            for other in _OTHER_COLOUR[card & 3]:
                parent = (rank + 1) * 4 + other
                if found[other] > rank + 1:
                    continue
                j = where[parent]
                if j < n:
                    if not covered(parent):
                        return True
                elif j < n + 3:
                    if place[parent] > pile_top[j - n]:
                        return True
                else:
                    return True
            return False

        def fill_only(cards: list[int]) -> int:
            return sum(1 for card in cards if blocked(card) and not reachable(card))

        while True:
            changed = False
            for column in columns:
                for card in reversed(column):
                    if held[card] and (
                        (not covered(card) and not blocked(card))
                        or ((not single or not covered(card)) and reachable(card))
                    ):
                        held[card] = 0
                        changed = True
            empties = sum(1 for column in columns if not held[column[0]])
            for p, pile in enumerate(piles):
                i = pile_top[p]
                if i < 0:
                    continue
                # The fill-only cards above, counted afresh each round and then kept up as cards
                # leave: a count that a card leaving has made too high only delays a taking-out,
                # and the last round, which takes nothing out, counts everything afresh.
                above = fill_only(pile[i + 1:])
                also = -1  # the gateposts' fill-only cards, for the waste
                while i >= 0:
                    card = pile[i]
                    free = not blocked(card) or reachable(card)  # not fill-only
                    if p < 2:
                        leaves = (above <= empties and free) or above < empties
                    elif pile_top[0] >= 0 or pile_top[1] >= 0:
                        leaves = not above and free
                    else:
                        if also < 0:
                            also = fill_only(left) + fill_only(right)
                        leaves = (above + (also if above else 0) <= empties and free) or above + also < empties
                    if not leaves:
                        break
                    above += not free
                    i -= 1
                    pile_top[p] = i
                    changed = True
            if pile_top[0] < 0 and pile_top[1] < 0 and pile_top[2] < 0:
                return False
            if not changed:
                return True

    def _parent_has_use(self, column: list[int], depth: int, accepting: dict[int, list[int]], free: int) -> bool:
        """Whether the card under the top ``depth`` cards of ``column`` has a use next move.

        A use is going up, taking the moved card's twin, or moving on with its run. It may
        answer yes when there is no such move (that only costs the search a dead end), never
        no when there is one.
        """
        parent = column[-depth - 1]
        if self.found[parent & 3] == parent >> 2 or free >= 0:
            return True
        moved = column[-depth]
        twin = (moved & ~3) | (3 - (moved & 3))
        left, right = self.reserves
        if (left and left[-1] == twin) or (right and right[-1] == twin) or (self.waste and self.waste[-1] == twin):
            return True
        if any(twin in other for other in self.columns if other is not column):
            return True
        # The parent, with the run it sits on, moving onto another column.
        height = len(column)
        k = depth + 1
        card = parent
        while True:
            if accepting.get(KEY[card]):
                return True
            if k == height or ACCEPTS[column[-k - 1]] != KEY[card]:
                return False
            k += 1
            card = column[-k]

    # -- the search ------------------------------------------------------------------------

    def run(self, max_nodes: int, max_seconds: float) -> bool:
        """True when the position can be won (the line is in ``path``), False when it can't.

        The search restarts now and then with the moves in a random order (a position with
        a foundation play keeps the usual order), so that one bad early choice can't keep it
        in a lost corner of the game for the whole budget. A restart keeps every position
        already searched to the end: those are lost whatever the order, so proving a loss
        costs hardly more than without restarts.
        Raises :class:`OutOfBudget` when the budget runs out first.

        A compiled run (:attr:`compiled`) fills ``path``, ``nodes``, ``best_score`` and
        ``best_first`` and leaves the position as the Python run would, but leaves ``seen`` as it
        found it: nothing reads the positions a run searched afterwards, and a run after an
        interrupted one only searches them again. It also raises :class:`OutOfBudget` when its
        table of positions reaches :data:`TABLE_LIMIT` slots.
        """
        if self.compiled:
            return self._run_compiled(max_nodes, max_seconds)
        limit = self.nodes + max_nodes
        self._deadline = time.perf_counter() + max_seconds
        root = self._snapshot()
        self._root_length = len(self.path)
        attempt = 0
        while True:
            self._node_limit = min(limit, self.nodes + SLICE * luby(attempt + 1))
            self._shuffle = random.Random(attempt).shuffle if attempt else None
            try:
                return self._dfs(-1)
            except OutOfBudget:
                self.seen.difference_update(self._trail)
                self._trail.clear()
                self._restore(root)
                if self.nodes >= limit or time.perf_counter() > self._deadline:
                    raise
            attempt += 1

    def _run_compiled(self, max_nodes: int, max_seconds: float) -> bool:
        """:meth:`run` in C: the same search, move for move, with the same restarts."""
        won, line, self.nodes, self.best_score, self.best_first = _core.search(
            self.position(), self.rules(), self.seen, max_nodes, max_seconds, self.nodes, self.best_score,
            self.best_first, TABLE_LIMIT)
        if won is None:
            raise OutOfBudget
        for step in line:  # where the Python search stops: on the won position, its line in ``path``
            self.apply(*step)
            self.path.append(step)
        return won

    def position(self) -> tuple[tuple[bytes, ...], bytes, bytes, bytes, bytes, tuple[int, int, int, int]]:
        """The position as the compiled core reads it: columns, gateposts, waste, stock, foundation counts."""
        found = self.found
        return (tuple(map(bytes, self.columns)), bytes(self.reserves[0]), bytes(self.reserves[1]),
                bytes(self.waste), bytes(self.stock), (found[0], found[1], found[2], found[3]))

    def rules(self) -> tuple[bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool]:
        """The options and pruning rules as the compiled core reads them (single moves, stock fill, Dominances)."""
        d = self.dominances
        return (self.single, self.stock_fill, d.safe_column, d.safe_waste, d.safe_reserve, d.safe_lone,
                d.swap_then_use, d.safe_stays_off, d.nearly_safe_column, d.stuck_draw, d.buried_waste,
                d.column_chains)

    def _snapshot(self) -> tuple[list[list[int]], list[list[int]], list[int], list[int], list[int], int]:
        return (
            [c[:] for c in self.columns],
            [r[:] for r in self.reserves],
            self.waste[:],
            self.stock[:],
            self.found[:],
            len(self.path),
        )

    def _restore(self, snapshot: tuple[list[list[int]], list[list[int]], list[int], list[int], list[int], int]) -> None:
        columns, reserves, waste, stock, found, length = snapshot
        self.columns[:] = [c[:] for c in columns]
        self.reserves[:] = [r[:] for r in reserves]
        self.waste[:] = waste
        self.stock[:] = stock
        self.found[:] = found
        del self.path[length:]
        self.talon[:] = bytes(52)
        for card in (*stock, *waste):
            self.talon[card] = 1

    def _dfs(self, focus: int) -> bool:
        found = self.found
        score = found[0] + found[1] + found[2] + found[3]
        if score == 52:
            return True
        if score > self.best_score:
            self.best_score = score
            self.best_first = self.path[self._root_length] if len(self.path) > self._root_length else None
        # self.key(), written out: this runs for every move searched.
        columns = self.columns
        left, right = self.reserves
        key = bytes((len(left), len(right), len(self.stock), *found)) + b"|".join(sorted(map(bytes, columns)))
        seen = self.seen
        if key in seen:
            # Searched (or being searched) with every move: a focused search of the same
            # position tries only some of those moves, so it can't do better.
            return False
        if focus >= 0:
            key += b"\xfe" + bytes(columns[focus])
            if key in seen:
                return False
        seen.add(key)
        trail = self._trail
        trail.append(key)
        self.nodes += 1
        if self.nodes >= self._node_limit or (not self.nodes & 1023 and time.perf_counter() > self._deadline):
            raise OutOfBudget
        path = self.path
        if self.dominances.buried_waste and self._waste_is_buried():
            trail.pop()  # lost: a node searched to the end, with no move to try
            return False
        if self.dominances.column_chains and self._columns_are_chained():
            trail.pop()
            return False
        moves = self.moves()
        if focus >= 0:
            moves = [m for m in moves if m[0] == focus or m[1] == focus]
        elif self._shuffle is not None and len(moves) > 2:
            first = moves[0]
            if first[1] != self.n:  # keep foundation plays first
                self._shuffle(moves)
        n = self.n
        swaps = self.dominances.swap_then_use
        apply = self.apply
        revert = self.revert
        dfs = self._dfs
        for move in moves:
            source, target, count = move
            fill = apply(source, target, count)
            path.append(move)
            follow = -1
            if swaps and 0 <= source < n and target < n and fill == FILL_NONE:
                # A run moved off its parent (onto the parent's twin, or into a free space) is
                # only worth it if the uncovered parent is used by the very next move
                # (docs/solver.md); moving it straight back is the position before.
                rest = columns[source]
                moved = columns[target]
                if rest and ACCEPTS[rest[-1]] == KEY[moved[-count]]:
                    if target == focus:
                        path.pop()
                        revert(source, target, count, fill)
                        continue
                    follow = source
            if dfs(follow):
                return True
            path.pop()
            revert(source, target, count, fill)
        trail.pop()
        return False
