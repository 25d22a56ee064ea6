"""The Archway solver and hint engine: every card is open, so the search decides perfect play.

Pure code, no I/O. :func:`solve` runs a depth-first search over a compact copy of the position
(four column lists, 52 arch counts, the foundation sizes) with moves applied and taken back in
place, a transposition table of positions searched to the end without a win, and a few
pruning rules. :func:`hint` asks the same search, within a budget of positions, for the first
move of a win, or of a line to the most cards home when it proves no win is left; when the
budget can't decide, a look-ahead (:func:`_look_ahead`) picks the move.

**The most cards home.** A search that ends without a win has been through every position
the pruning rules keep, and the rules keep the most cards home too, with one exception: rule
3 below puts a meeting suit's arch card up only once all the suit's cards lie in the arch,
while a lost game may still put up a run of consecutive ranks from the arch. A position's
:meth:`Search.value` adds that run, and the hint plays it when nothing else gets further.

**The position key.** Cards only leave a column from its top and enter only an empty column
(which then holds one card), so a column is either a bottom part of its column at the start of
the search (coded by that column and its length) or a space holding at most one card (coded
by the card). The four codes are sorted — columns are interchangeable — and packed with the
foundation sizes into one int. The arch is implied: every card not on a foundation or in a
column is in it. Two positions with the same key are the same position up to the order of the
columns (a column's lone card may get two codes; that only loses a transposition).

**Reversing is folded into the plays** (soundness: reversing changes nothing but the meeting
point, and every meeting point can be reached from every other). While a suit's foundations
meet (Ace foundation + King foundation = 13 cards) the cards off the foundations are exactly
one copy of each rank, and reversing can set the meeting point anywhere; playing the rank-``r``
card then leaves the same position whichever foundation takes it: the Ace foundation A..r and
the King foundation K..r. So the key writes every meeting suit the same way, and the search
has one move per card of a meeting suit ("play it, reversing first as needed"), which
:func:`solve` spells out as the reversing moves and the play. Without reversing, a suit's
foundations only grow, in a fixed order.

**Pruning rules** (``prune=True``; :func:`solve_position` with ``prune=False`` plays the bare
rules — every reversing move, every move into a space — for checking). Each is a dominance:
the position it keeps can do everything the ones it drops can.

1. *Lifting.* Position P1 dominates P2 if their foundations are equal and P1 is P2 with some
   column top cards (or cards lying in spaces) put into the arch: every move of P2 is matched
   in P1 by the same move or by no move, keeping the relation (a card in the arch goes
   anywhere that card could go from a column, and nothing is stuck under it). Hence:
   (a) a card of the arch never goes into a space; (b) a column's only card never moves into
   another space (that just swaps two columns); (c) with ``kit``, a column's card goes back to
   the arch rather than into a space; (d) the empty columns are interchangeable, so a card
   goes only into the first one.
2. *Safe plays* (the only move tried when one exists):
   (a) a suit whose foundations have passed each other (sum ≥ 14) has one copy of each card
   left, each with one place in a fixed order: playing the next one only frees what it lay
   on or the space it lay in (the argument behind ``ArchwayGame.is_safe_up``);
   (b) before the foundations meet (sum ≤ 12) the next card of either foundation has both
   copies off the foundations. If both lie in the arch, play one; if one lies in the arch and
   the other is a column's exposed card (or in a space), play the column's. Proof: in any win,
   the first copy of that rank to go up goes onto that foundation (or, when both foundations
   want it, onto either, which meets and is the same position); until then nothing touches
   that foundation or reverses. Playing the column copy first gives, at the moment the win
   plays its copy, the win's position with the column copy lifted into the arch (the copies
   are the same card), which dominates by rule 1.
   (c) a suit whose cards off the foundations all lie in the arch: put its next card up. Those
   cards can only go up (or, uselessly by rule 1, into a space) and hold nothing down, so any
   win with the suit's plays taken out and played at the end still wins.
   No other foundation play is assumed safe: with the other copy buried, which copy goes up
   first decides what is uncovered, and at a meeting point the card played first splits the
   suit into an ascending and a descending chain.
3. *Meeting suits split on a column card.* At a meeting point a card of the arch goes up only
   by rule 2c. Proof: take a win whose first card of the suit (the split) comes from the arch;
   its plays of the suit go on from the arch, growing an interval of ranks around the split,
   until the first card of the suit from a column or a space, ``x``, just outside the interval.
   Leave the interval's arch cards where they are until then, split on ``x`` instead, and play
   the interval back from the arch along ``x``'s other chain: the same position results, and
   meanwhile the arch cards held nothing down. If no card of the suit ever comes from a column,
   play the whole suit at the end instead, once all its cards are in the arch.

**Cycles and the lost table.** With the rules above the search graph has no cycles: without
``kit`` every move puts a card up or moves a column's exposed card (with cards under it) into a
space, so (cards up, −cards under column tops) grows; with ``kit`` every move puts a card up or
a column card into the arch. With ``prune=False`` (reversing, space to space) it does have
cycles, and the search guards against them: a set of positions seen in this search (the path
and everything entered) is kept apart from the lost table, a position already seen is not
entered again, and a position goes into the lost table only when every move from it led to
a position in the lost table or to one searched to the end *cleanly*; a move skipped because
its position was seen (a cycle, or a position ``behind`` a hint) taints its position and every
ancestor, which then stay out of the lost table. So the lost table holds only positions from
which no win exists, and within one search the seen set makes the search complete: if a win
is reachable, the depth-first search finds it.

**With kit every position is winnable**: put every column's cards back into the arch one by
one, then every card is available, and each suit completes (up one foundation until they meet,
then the two chains). The search still finds a real line (it never needs to backtrack).

**Compiled, optionally.** The same search is compiled (``_core.c``, built by setup.py where there
is a C compiler): :meth:`Search.run` uses it when it could be imported (:data:`COMPILED`) and
searches in Python otherwise, or when asked to (``compiled=False``), with the same moves in the
same order, the same keys and the same lost table (taints and positions put in ``seen`` alike), so
both give the same verdict, line, node count, best line and lost positions; :func:`_look_ahead`
is compiled too (the same beam over the same positions, rated with the same floats), so a hint
is the same move. This module stays the reference the tests hold the compiled one to.
"""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Iterable, Sequence
from itertools import product
from typing import TYPE_CHECKING

from gatebot.messages import Text, _
from gatebot.rules import Game, Move
from gatebot.rules.archway import ArchwayGame, RawArchway
from gatebot.rules.cards import CARD_TEXT, CARD_WORDS
from gatebot.solver.compiled import import_core
from gatebot.solver.results import DEFAULT_NODES, DEFAULT_SECONDS, Hint, Outlook, Solution, Verdict

#: Why the compiled search can't be used, for the front ends to say once at start-up; None when it can.
_loaded, NOT_COMPILED = import_core("gatebot.solver.archway._core")
if TYPE_CHECKING:
    import gatebot.solver.archway._core as _core  # its stub types the calls; None when not compiled
else:
    _core = _loaded
#: Whether :meth:`Search.run` searches with the compiled core rather than in Python.
COMPILED = NOT_COMPILED is None

#: How long a hint may think by default (a cap for a busy machine), and the exact search's node budget:
#: enough to decide most positions after the first few moves, within about 50 ms of CPU.
HINT_SECONDS = 0.6
HINT_NODES = 5_000
#: The look-ahead when the exact search can't decide: positions its lines may take (the plain lines
#: after each move and each reply first, then the beam), and the lines the beam keeps.
LOOK_NODES = 2_000
BEAM_WIDTH = 6
#: The look-ahead's rating: a card home is worth 1, each card over a wanted card this much, a space this much.
BURIED_WEIGHT = 0.3
SPACE_WEIGHT = 0.5
#: The look-ahead's own time cap past the hint's seconds, so that a hint always gets one.
GUESS_SECONDS = 0.05
#: How many positions back :func:`positions_behind` looks.
RECENT = 40
#: Positions behind games kept parsed (about 3 KB each): the last :data:`RECENT` of a dozen games.
BEHIND_KEPT = 512

# Step codes: a step is (source, target). Sources: 0..3 a column, ARCH + card an arch card,
# PAIR + suit a suit's foundations (reversing, bare rules only). Targets: 0..3 a space, then:
ARCH = 4
PAIR = 56
ACE, KING, MEET, BACK = 4, 5, 6, 7
Step = tuple[int, int]

_EMPTY = 52  # the code of an empty column
_ORIGIN = 64  # codes of a column that is a bottom part of its starting column: _ORIGIN + 97 * i + length
_SUITS = "cdhs"
#: A suit's foundation sizes in a key, by ``up * 14 + down``: as they are, or with meeting suits alike.
_SIZES = tuple((u - 1 | (d - 1) << 4) if u and d else 0 for u in range(14) for d in range(14))
_FOLDED = tuple(
    176 if u + d == 13 else code for code, (u, d) in zip(_SIZES, product(range(14), range(14)), strict=True)
)
_SUIT_NAMES = (_("clubs"), _("diamonds"), _("hearts"), _("spades"))
_NAMES = tuple(text.lower() for text in CARD_TEXT)


class OutOfBudget(Exception):
    """The search used up its nodes or its time."""


class Search:
    """Depth-first search over one Archway position; ``path`` holds the winning steps once won.

    ``lost`` survives between :meth:`run` calls (it holds only proved losses); ``seen`` is the
    current search's set of entered positions and may be seeded with positions to avoid.
    """

    def __init__(self, raw: RawArchway, *, prune: bool = True, compiled: bool = True) -> None:
        """Copy ``raw``; ``compiled=False`` makes :meth:`run` search in Python, the reference, even with the core."""
        self.prune = prune
        #: Whether :meth:`run` uses the compiled core (asked for, and imported).
        self.compiled = compiled and COMPILED
        self.kit = raw.kit
        self.start = tuple(tuple(column) for column in raw.columns)
        self.cols = [list(column) for column in raw.columns]
        self.origin = [bool(column) for column in raw.columns]
        self.arch = [0] * 52
        for packet in raw.arch:
            for card in packet:
                self.arch[card] += 1
        self.up = list(raw.up)
        self.down = list(raw.down)
        #: How many cards of each suit lie in the arch.
        self.in_arch = [sum(self.arch[suit:52:4]) for suit in range(4)]
        self.score = sum(self.up) + sum(self.down)
        self.nodes = 0
        self.path: list[Step] = []
        self._lost: set[int] = set()
        #: The keys compiled runs proved lost, as the core packed them: made ints only if :attr:`lost` is read.
        self._proved: list[bytes] = []
        self.seen: set[int] = set()
        #: The most cards home any searched position leads to (:meth:`value`), and the first step towards it.
        self.best_score = self.value()
        self.best_first: Step | None = None

    @property
    def lost(self) -> set[int]:
        """The keys of the positions proved lost (searched to the end, cleanly, without a win)."""
        if self._proved:
            for packed in self._proved:
                self._lost.update(_core.keys(packed))
            self._proved.clear()
        return self._lost

    # -- the position ---------------------------------------------------------------------

    def value(self) -> int:
        """The cards home here plus the cards of meeting suits the arch can still put up (:meth:`stranded`)."""
        up, down = self.up, self.down
        if 13 in (up[0] + down[0], up[1] + down[1], up[2] + down[2], up[3] + down[3]):
            return self.score + sum(self.stranded(suit) for suit in range(4))
        return self.score

    def stranded(self, suit: int) -> int:
        """How many cards of ``suit`` the arch alone can still put up while its foundations meet (0 otherwise).

        While a suit's foundations meet, one copy of each rank is off them, and the pruned moves
        put one of its arch cards up only once all of them lie in the arch (rule 3). That keeps
        every win, but a lost game may still get a run of consecutive ranks of the arch home: split
        on any card of the run, then the rest follow on the two chains. The longest such run is
        what the arch alone still gives.
        """
        if self.up[suit] + self.down[suit] != 13:
            return 0
        arch = self.arch
        longest = run = 0
        for card in range(suit, 52, 4):
            run = run + 1 if arch[card] else 0
            longest = max(longest, run)
        return longest

    def stranded_step(self) -> Step | None:
        """The first card of the longest stranded run of a meeting suit (:meth:`stranded`), as a step; None if none."""
        best, found = 0, None
        for suit in range(4):
            length = self.stranded(suit)
            if length > best:
                run = 0
                for card in range(suit, 52, 4):
                    run = run + 1 if self.arch[card] else 0
                    if run == length:
                        best, found = length, (ARCH + card - 4 * (length - 1), MEET)
                        break
        return found

    def snapshot(self) -> tuple:
        """The position as a value :meth:`restore` puts back (for a look-ahead that keeps many positions)."""
        return (
            tuple(tuple(column) for column in self.cols), tuple(self.origin), tuple(self.arch),
            tuple(self.up), tuple(self.down), self.score,
        )

    def restore(self, state: tuple) -> None:
        """Make the position the one :meth:`snapshot` took."""
        cols, origin, arch, up, down, self.score = state
        self.cols = [list(column) for column in cols]
        self.origin = list(origin)
        self.arch = list(arch)
        self.in_arch = [sum(self.arch[suit:52:4]) for suit in range(4)]
        self.up = list(up)
        self.down = list(down)

    def buried(self) -> int:
        """How many cards lie on the cards the foundations want next, counted for the nearest copy of each.

        A wanted card in the arch or on a column's top costs nothing; one under ``n`` cards costs
        ``n``, and one with no copy left to play (its copy went on the other foundation) costs a
        full column. Meeting suits count nothing: any of their cards can be the next.
        """
        depth = [13] * 52
        for card in range(52):
            if self.arch[card]:
                depth[card] = 0
        for column in self.cols:
            height = len(column)
            for index, card in enumerate(column):
                above = height - 1 - index
                if above < depth[card]:
                    depth[card] = above
        cost = 0
        for suit in range(4):
            u, d = self.up[suit], self.down[suit]
            if u + d in (13, 26):
                continue
            if u < 13:
                cost += depth[u * 4 + suit]
            if d < 13 and 12 - d != u:
                cost += depth[(12 - d) * 4 + suit]
        return cost

    def key(self) -> int:
        """The transposition key: sorted column codes and the foundation sizes (meeting suits alike).

        The same int as :meth:`_pack` gives, written out: it is computed at every position searched.
        """
        origin = self.origin
        codes = [
            (_ORIGIN + 97 * i + len(column)) if origin[i] else (column[0] if column else _EMPTY)
            for i, column in enumerate(self.cols)
        ]
        codes.sort()
        up, down = self.up, self.down
        sizes = _FOLDED if self.prune else _SIZES
        return (
            codes[0] | codes[1] << 10 | codes[2] << 20 | codes[3] << 30
            | sizes[up[0] * 14 + down[0]] << 40 | sizes[up[1] * 14 + down[1]] << 48
            | sizes[up[2] * 14 + down[2]] << 56 | sizes[up[3] * 14 + down[3]] << 64
        )

    def _pack(self, codes: Sequence[int], up: Sequence[int], down: Sequence[int]) -> int:
        key = codes[0] | codes[1] << 10 | codes[2] << 20 | codes[3] << 30
        shift = 40
        for u, d in zip(up, down, strict=True):
            if self.prune and u + d == 13:
                u, d = 1, 12
            key |= (u - 1 | (d - 1) << 4) << shift
            shift += 8
        return key

    def keys_of(self, game: ArchwayGame) -> set[int]:
        """Every key this search could give ``game``'s position (empty if it can't reach it)."""
        raw = game.raw()
        choices: list[list[int]] = []
        for column in raw.columns:
            codes = []
            if not column:
                codes.append(_EMPTY)
            elif len(column) == 1:
                codes.append(column[0])
            for i, start in enumerate(self.start):
                if column and start[: len(column)] == column:
                    codes.append(_ORIGIN + 97 * i + len(column))
            if not codes:
                return set()
            choices.append(codes)
        return {self._pack(sorted(codes), raw.up, raw.down) for codes in product(*choices)}

    def apply(self, step: Step) -> tuple[Step, int, int, int, bool]:
        """Play ``step`` in place; return what :meth:`undo` needs."""
        source, target = step
        cols, up, down = self.cols, self.up, self.down
        was_origin = False
        if source < ARCH:
            column = cols[source]
            card = column.pop()
            was_origin = self.origin[source]
            if not column:
                self.origin[source] = False
        elif source < PAIR:
            card = source - ARCH
            self.arch[card] -= 1
            self.in_arch[card & 3] -= 1
        else:
            card = -1
        suit = source - PAIR if card < 0 else card & 3
        old_up, old_down = up[suit], down[suit]
        if card < 0:  # reversing
            if target == ACE:
                down[suit] -= 1
                up[suit] += 1
            else:
                up[suit] -= 1
                down[suit] += 1
        elif target < ARCH:
            cols[target].append(card)
        elif target == ACE:
            up[suit] += 1
            self.score += 1
        elif target == KING:
            down[suit] += 1
            self.score += 1
        elif target == MEET:
            rank = card >> 2
            up[suit], down[suit] = rank + 1, 13 - rank
            self.score += 1
        else:
            self.arch[card] += 1
            self.in_arch[suit] += 1
        return step, card, old_up, old_down, was_origin

    def undo(self, record: tuple[Step, int, int, int, bool]) -> None:
        """Take back a step played by :meth:`apply`."""
        (source, target), card, old_up, old_down, was_origin = record
        if card < 0:
            suit = source - PAIR
        else:
            suit = card & 3
            if target < ARCH:
                self.cols[target].pop()
            elif target == BACK:
                self.arch[card] -= 1
                self.in_arch[suit] -= 1
            else:
                self.score -= 1
            if source < ARCH:
                self.cols[source].append(card)
                self.origin[source] = was_origin
            else:
                self.arch[card] += 1
                self.in_arch[suit] += 1
        self.up[suit], self.down[suit] = old_up, old_down

    # -- the moves ------------------------------------------------------------------------

    def moves(self) -> list[Step]:
        """The moves to try, most promising first (only the safe one, when pruning finds one)."""
        return self._pruned_moves() if self.prune else self._bare_moves()

    def _pruned_moves(self) -> list[Step]:
        cols, arch, up, down = self.cols, self.arch, self.up, self.down
        tops = [(i, column[-1]) for i, column in enumerate(cols) if column]
        top_cards = [top for _i, top in tops]
        column_ups: list[Step] = []
        arch_ups: list[Step] = []
        meets: list[tuple[int, int, int, Step]] = []
        for suit in range(4):
            u, d = up[suit], down[suit]
            total = u + d
            if total == 26:
                continue
            if self.in_arch[suit] == 26 - total:  # all in the arch: safe (rule 2c)
                if total == 13:
                    rank = min(range(13), key=lambda rank: abs(max(rank, 1) - u))
                    return [(ARCH + rank * 4 + suit, MEET)]
                card = u * 4 + suit
                if u < 13 and arch[card]:
                    return [(ARCH + card, ACE)]
                return [(ARCH + (12 - d) * 4 + suit, KING)]
            if total == 13:  # meeting: a card of the suit from a column goes up, reversing first (rule 3)
                for i, top in tops:
                    if top & 3 == suit:
                        rank = top >> 2
                        meets.append((abs(max(rank, 1) - u), rank, i, (i, MEET)))  # reversing moves first
                continue
            ace = u * 4 + suit if u < 13 else -1
            # When both foundations want one rank, the Ace one does.
            king = (12 - d) * 4 + suit if d < 13 and not (total < 13 and 12 - d == u) else -1
            for card, target in ((ace, ACE), (king, KING)):
                if card < 0:
                    continue
                count = arch[card]
                # Safe (rule 2): past meeting, or both copies free (two in the arch, or one there and one on top).
                if card in top_cards:
                    sources = [i for i, top in tops if top == card]
                    if total >= 14 or count:
                        return [(sources[0], target)]
                    column_ups.extend((i, target) for i in sources)
                elif count:
                    if total >= 14 or count == 2:
                        return [(ARCH + card, target)]
                    arch_ups.append((ARCH + card, target))
        meets.sort()
        found = column_ups + arch_ups + [meet[3] for meet in meets]
        if self.kit:
            found.extend((i, BACK) for i, _ in sorted(tops, key=lambda top: len(cols[top[0]])))
        else:
            spaces = [i for i, column in enumerate(cols) if not column]
            if spaces:
                found.extend((i, spaces[0]) for i in sorted(range(4), key=lambda i: len(cols[i])) if len(cols[i]) > 1)
        return found

    def _bare_moves(self) -> list[Step]:
        """Every legal move, as the rules give them (for checking the pruned search)."""
        cols, arch, up, down = self.cols, self.arch, self.up, self.down
        sources = [(i, column[-1]) for i, column in enumerate(cols) if column]
        sources.extend((ARCH + card, card) for card in range(52) if arch[card])
        spaces = [i for i, column in enumerate(cols) if not column]
        found: list[Step] = []
        for source, card in sources:
            rank, suit = card >> 2, card & 3
            if rank == up[suit]:
                found.append((source, ACE))
            if rank == 12 - down[suit]:
                found.append((source, KING))
        for suit in range(4):
            if up[suit] + down[suit] == 13:
                if up[suit] > 1:
                    found.append((PAIR + suit, KING))
                if down[suit] > 1:
                    found.append((PAIR + suit, ACE))
        found.extend((source, space) for source, _ in sources for space in spaces if source != space)
        if self.kit:
            found.extend((i, BACK) for i, column in enumerate(cols) if column)
        return found

    # -- the search -----------------------------------------------------------------------

    def run(self, max_nodes: int, deadline: float) -> bool:
        """Search from the current position; True with ``path`` set when a win is found.

        Raises :class:`OutOfBudget` when ``max_nodes`` more nodes are used or ``deadline``
        (a ``time.perf_counter()`` value) passes; ``lost`` keeps what was proved.

        A compiled run (:attr:`compiled`) fills ``path``, ``nodes``, ``lost``, ``best_score`` and
        ``best_first`` and leaves the position as the Python run would (the won one, or the start),
        but leaves ``seen`` as it found it: nothing reads it afterwards (a hint clears it before its
        second run).
        """
        if self.compiled:
            return self._run_compiled(max_nodes, deadline)
        self.path = []
        if self.score == 104:
            return True
        limit = self.nodes + max_nodes
        lost, seen, path = self.lost, self.seen, self.path
        root = self.key()
        if root in lost:
            return False
        seen.add(root)
        # Frames: [key, moves, next index, clean]
        stack: list[list] = [[root, self.moves(), 0, True]]
        undos: list[tuple[Step, int, int, int, bool]] = []
        while stack:
            frame = stack[-1]
            moves = frame[1]
            index = frame[2]
            if index == len(moves):
                stack.pop()
                if frame[3]:
                    seen.discard(frame[0])
                    lost.add(frame[0])
                elif stack:
                    stack[-1][3] = False
                if undos:
                    self.undo(undos.pop())
                    path.pop()
                continue
            frame[2] = index + 1
            step = moves[index]
            record = self.apply(step)
            if self.score == 104:
                path.append(step)
                return True
            key = self.key()
            if key in lost:
                self.undo(record)
                continue
            if key in seen:
                frame[3] = False
                self.undo(record)
                continue
            self.nodes += 1
            if self.nodes >= limit or (self.nodes & 1023 == 0 and time.perf_counter() > deadline):
                self.undo(record)
                for earlier in reversed(undos):
                    self.undo(earlier)
                raise OutOfBudget
            value = self.value()
            if value > self.best_score:
                self.best_score = value
                self.best_first = path[0] if path else step
            seen.add(key)
            path.append(step)
            undos.append(record)
            stack.append([key, self.moves(), 0, True])
        return False

    def _run_compiled(self, max_nodes: int, deadline: float) -> bool:
        """:meth:`run` in C: the same search, move for move."""
        won, line, self.nodes, self.best_score, self.best_first, proved = _core.search(
            self.position(), self.rules(), self._lost, self.seen, max_nodes, deadline - time.perf_counter(),
            self.nodes, self.best_score, self.best_first, self._proved)
        self._proved.append(proved)  # thousands of keys a hint seldom reads: made ints only when it does
        if won is None:
            self.path = list(line)  # the line searched when the budget ran out, as the Python run leaves it
            raise OutOfBudget
        self.path = []
        for step in line:  # where the Python search stops: on the won position, its line in ``path``
            self.apply(step)
            self.path.append(step)
        return won

    def position(self) -> tuple[tuple[bytes, ...], tuple[bool, ...], bytes, tuple[int, ...], tuple[int, ...]]:
        """The position as the compiled core reads it: columns, origins, arch counts, foundation sizes.

        ``origin``: which columns are still bottom parts of their starting ones (:meth:`key`).
        """
        return (tuple(map(bytes, self.cols)), tuple(self.origin), bytes(self.arch), tuple(self.up), tuple(self.down))

    def rules(self) -> tuple[bool, bool]:
        """The rules as the compiled core reads them: whether the search prunes, and kit."""
        return (self.prune, self.kit)


# -- from the search to the engine ----------------------------------------------------------


def to_moves(game: ArchwayGame, step: Step) -> list[Move]:
    """One search step as the engine's moves: reversing moves first for a play at a meeting point."""
    source, target = step
    if source >= PAIR:
        return [Move("f" + _SUITS[source - PAIR], "a" if target == ACE else "k")]
    if source < ARCH:
        name = str(source + 1)
        card = game.raw().columns[source][-1]
    else:
        card = source - ARCH
        name = _NAMES[card]
    if target < ARCH:
        return [Move(name, str(target + 1))]
    if target == BACK:
        return [Move(name, "p")]
    if target != MEET:
        return [Move(name, "a" if target == ACE else "k")]
    suit, rank = card & 3, card >> 2
    up = game.foundation_sizes[0][suit]
    wanted = max(rank, 1)  # the Ace foundation's size that makes the card fit
    pair = "f" + _SUITS[suit]
    reversing = [Move(pair, "k")] * (up - wanted) + [Move(pair, "a")] * (wanted - up)
    return [*reversing, Move(name, "a" if rank >= 1 else "k")]


def line_moves(game: ArchwayGame, path: Iterable[Step]) -> tuple[Move, ...]:
    """The search's steps as canonical moves, each checked by playing it on a copy of ``game``."""
    board = game.copy()
    moves: list[Move] = []
    for step in path:
        for move in to_moves(board, step):
            moves.append(board.play(move))
    if not board.is_won:
        raise AssertionError(f"The solver's line does not win {game.to_text()!r}")
    return tuple(moves)


def _archway(game: Game) -> ArchwayGame:
    if not isinstance(game, ArchwayGame):
        raise TypeError(f"The Archway solver doesn't play {game.title}")
    return game


# -- the public face --------------------------------------------------------------------------


def solve_position(
    game: Game, *, max_nodes: int = DEFAULT_NODES, max_seconds: float = DEFAULT_SECONDS, prune: bool = True,
    compiled: bool = True,
) -> Solution:
    """:func:`solve`, with the pruning rules switchable (``prune=False`` plays the bare rules).

    ``compiled=False`` searches in Python, the reference, even where the compiled core is.
    """
    board = _archway(game)
    started = time.perf_counter()
    if board.is_won:
        return Solution(Verdict.WINNABLE, (), 0, 0.0)
    search = Search(board.raw(), prune=prune, compiled=compiled)
    collecting = gc.isenabled()
    gc.disable()  # the search makes no reference cycles; scanning its tables costs more than it frees
    try:
        won = search.run(max_nodes, started + max_seconds)
    except OutOfBudget:
        return Solution(Verdict.UNRESOLVED, (), search.nodes, time.perf_counter() - started)
    finally:
        if collecting:
            gc.enable()
    seconds = time.perf_counter() - started
    if not won:
        return Solution(Verdict.LOST, (), search.nodes, seconds)
    return Solution(Verdict.WINNABLE, line_moves(board, search.path), search.nodes, seconds)


def solve(game: Game, *, max_nodes: int = DEFAULT_NODES, max_seconds: float = DEFAULT_SECONDS) -> Solution:
    """Decide ``game`` from here: a winning line checked through the engine, a proof of loss, or unresolved."""
    return solve_position(game, max_nodes=max_nodes, max_seconds=max_seconds)


def positions_behind(game: Game) -> tuple[str, ...]:
    """The positions ``game`` went through lately (at most ``RECENT``), most recent first, as text."""
    board = game.copy()
    texts = []
    for _step in range(min(RECENT, len(board.moves))):
        board.undo()
        texts.append(board.to_text())
    return tuple(texts)


def hint(game: Game, *, seconds: float = HINT_SECONDS, behind: Sequence[str] | None = None) -> Hint:
    """The best move in ``game`` and why, with the outlook after it.

    ``WINNABLE``: the move starts a proved win; ``LOST``: no win is left, and the move (None
    when no card can go up any more) starts a line to the most cards home still possible;
    ``UNKNOWN``: the search ran out of its budget and the move is the look-ahead's choice.
    A win that doesn't go back through the positions ``behind`` (texts from
    :func:`positions_behind`, read from ``game`` when None) is looked for first, so a player
    who follows the hints never goes round in a circle.
    """
    started = time.perf_counter()
    board = _archway(game)
    deadline = started + seconds
    if not board.legal_moves():
        if board.is_won:
            return Hint(None, _("The game is won: every card is on its foundation"), Outlook.WINNABLE)
        return Hint(None, _("No move is left: the game is over"), Outlook.LOST)
    found = _think(board, deadline, positions_behind(board) if behind is None else behind)
    return Hint(found.move, found.reason, found.outlook, seconds=time.perf_counter() - started)


def _think(board: ArchwayGame, deadline: float, behind: Sequence[str]) -> Hint:
    search = Search(board.raw())
    avoid: set[int] = set()
    for text in behind:
        earlier = _behind(text)
        if earlier is not None and earlier.options == board.options:
            avoid |= search.keys_of(earlier)
    avoid.discard(search.key())
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            if avoid:
                search.seen.update(avoid)
                if search.run(HINT_NODES, deadline) and search.path:
                    return _winning(board, search.path[0])
                search.seen.clear()  # the lost table keeps what was proved: this run redoes only the rest
            won = search.run(max(1, HINT_NODES - search.nodes), deadline)
        except OutOfBudget:
            return _guess(board, search, deadline)
    finally:
        if collecting:
            gc.enable()
    if won and search.path:
        return _winning(board, search.path[0])
    step = search.best_first or search.stranded_step()
    if step is None:
        return Hint(None, _("No win is left from here, and no card can go up"), Outlook.LOST)
    move = to_moves(board, step)[0]
    # The outlook's own sentence says no win is left; this says what the move is still for.
    why = _("it leads to the most cards home still possible ({most})", most=search.best_score)
    return Hint(move, Text.of_parts((board.describe(move), why), ": "), Outlook.LOST)


@functools.lru_cache(maxsize=BEHIND_KEPT)
def _behind(text: str) -> ArchwayGame | None:
    """A position behind a game, parsed once while it is kept (None if it isn't Archway's); only ever read.

    A game's next hint is asked with all but one of the same positions behind it, so each is
    parsed about once instead of up to :data:`RECENT` times, which was most of a later hint's
    time. :meth:`Search.keys_of` only reads it.
    """
    try:
        earlier = Game.from_text(text)
    except ValueError:
        return None
    return earlier if isinstance(earlier, ArchwayGame) else None


def _look_ahead(search: Search, deadline: float) -> Step | None:
    """The first step of the most promising line a beam search finds from the search's position.

    The exact search could not decide the position within its budget. This looks further than
    it, along fewer lines: from each move, keep the ``BEAM_WIDTH`` positions rated best
    (:func:`_rating`) at each depth, expand each by every move the search would try, and follow
    them until ``LOOK_NODES`` positions are looked at or no move is left. The first move whose
    lines reach the most cards home (:meth:`Search.value`), then the best rating, is the answer.
    Every card is open, so this reads nothing a player doesn't see; its budget is in positions,
    so the same position always gets the same answer (the seconds are a cap for a busy machine).
    """
    return _beam(search, deadline)[0]


def _beam(search: Search, deadline: float) -> tuple[Step | None, int, list[tuple[int, float]]]:
    """:func:`_look_ahead`'s answer, the positions it looked at, and each first move's best (value, rating).

    Compiled (``_core.look_ahead``: the same beam over the same positions, rated with the same
    floats) when the search is; the position is left as it was.
    """
    if search.compiled:
        return _core.look_ahead(search.position(), search.rules(), LOOK_NODES, BEAM_WIDTH, BURIED_WEIGHT,
                                SPACE_WEIGHT, deadline - time.perf_counter())
    root = search.snapshot()
    firsts = search.moves()
    if len(firsts) <= 1:
        return (firsts[0] if firsts else None), 0, []
    most: dict[Step, tuple[int, float]] = {}
    layer: list[tuple[float, int, Step, tuple]] = []
    seen: set[int] = set()
    looked = 0
    for order, step in enumerate(firsts):
        search.restore(root)
        search.apply(step)
        seen.add(search.key())
        rating = _rating(search)
        value, steps = _roll_out(search)
        looked += steps + 1
        for second in search.moves():  # and the plain line after each reply, so no move's obvious line is missed
            record = search.apply(second)
            line, steps = _roll_out(search)
            looked += steps + 1
            value = max(value, line)
            search.undo(record)
        most[step] = (value, rating)
        layer.append((rating, -order, step, search.snapshot()))
    counter = len(firsts)
    while layer and looked < LOOK_NODES and time.perf_counter() < deadline:
        layer.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
        children: list[tuple[float, int, Step, tuple]] = []
        for _rated, _order, first, state in layer[:BEAM_WIDTH]:
            search.restore(state)
            for step in search.moves():
                record = search.apply(step)
                looked += 1
                key = search.key()
                if key not in seen:
                    seen.add(key)
                    rating = _rating(search)
                    score = (search.value(), rating)
                    if score > most[first]:
                        most[first] = score
                    counter += 1
                    children.append((rating, -counter, first, search.snapshot()))
                search.undo(record)
        layer = children
    search.restore(root)
    return max(firsts, key=lambda step: most[step]), looked, [most[step] for step in firsts]


def _roll_out(search: Search) -> tuple[int, int]:
    """Follow the search's first choice from here to the end: the most cards home on the way, and the steps taken.

    The position is put back afterwards.
    """
    records = []
    best = search.value()
    while moves := search.moves():
        records.append(search.apply(moves[0]))
        best = max(best, search.value())
    for record in reversed(records):
        search.undo(record)
    return best, len(records)


def _rating(search: Search) -> float:
    """How promising a position looks: the cards home it leads to, less the cards on those wanted next, plus spaces."""
    spaces = sum(not column for column in search.cols)
    return search.value() - BURIED_WEIGHT * search.buried() + SPACE_WEIGHT * spaces


def _play(board: ArchwayGame, move: Move) -> Text:
    """A move in words, starting with a verb: ``play 7♥ from the arch onto 6♥ on the hearts Ace foundation``."""
    if move.source.startswith("f"):
        return _("move {move}", move=board.describe(move))
    return _("play {move}", move=board.describe(move))


def _capital(said: Text) -> Text:
    """``said`` to begin a reason: its English with a capital (``Play 7♥ …``), the same message."""
    return said.recast(said[0].upper() + said[1:])


def _winning(board: ArchwayGame, step: Step) -> Hint:
    moves = to_moves(board, step)
    move = moves[0]
    said = _capital(_play(board, move))
    if len(moves) > 1:  # reversing first, so that a card of a meeting suit can go up
        after = board.copy()
        for each in moves[:-1]:
            after.play(each)
        card = CARD_WORDS[after.moved_card(moves[-1])]
        suit = _SUIT_NAMES[after.moved_card(moves[-1]) & 3]
        return Hint(
            move,
            Text.of_parts((said, _("reversing the {suit} foundations lets {card} go up, and that leads to a win",
                                   suit=suit, card=card)), ": "),
            Outlook.WINNABLE,
        )
    return Hint(move, Text.of_parts((said, _("it leads to a win")), ": "), Outlook.WINNABLE)


def _guess(board: ArchwayGame, search: Search, deadline: float) -> Hint:
    """The search ran out of budget: the first move of the most promising line a look-ahead finds."""
    step = _look_ahead(search, deadline + GUESS_SECONDS)
    move = board.legal_moves()[0] if step is None else to_moves(board, step)[0]
    said = _capital(_play(board, move))
    return Hint(
        move, Text.of_parts((said, _("it leads towards the most cards up of the lines I looked at")), ": "),
        Outlook.UNKNOWN,
    )
