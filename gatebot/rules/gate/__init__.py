"""Gate and Little Gate (docs/rules.md#gate, #little-gate): the position, legal moves, play and undo.

The position lives in plain lists of card indices and every move is applied in place and
recorded for undo, because the solver and the hint engine play and take back millions of
moves. Moves are interned (one :class:`Move` object per possible move), so generating the
legal moves allocates nothing but the list.

The position text is read and written in :mod:`gatebot.rules.gate.position`, and a move is
checked, with the sentence that refuses it, in :mod:`gatebot.rules.gate.checks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar, Self

from gatebot.messages import Text, _, n_
from gatebot.rules.autoplay import is_safe_up
from gatebot.rules.cards import CARD_WORDS, CARDS, Card
from gatebot.rules.deal import shuffled_deck
from gatebot.rules.errors import IllegalMove
from gatebot.rules.game import Game, RuleOption
from gatebot.rules.gate import checks as gate_checks
from gatebot.rules.gate.checks import ACCEPTS, HIDDEN_STOCK, KEY
from gatebot.rules.gate.position import read_position, write_position
from gatebot.rules.move import DRAW, FOUNDATION, Move

SINGLE_MOVES = "single-moves"
STOCK_FILL = "stock-fill"
RESERVE_SIZE = 5

# Undo records: (source, target, count, card, fill) for card moves; the draw is its own record.
_DRAW_RECORD = (-1, -1, 0, -1, -1)
#: Where the card that filled an emptied column came from; ``FILL_LEFT`` to ``FILL_STOCK``
#: index the piles (left reserve, right reserve, waste, stock) it goes back to on undo.
FILL_NONE, FILL_LEFT, FILL_RIGHT, FILL_WASTE, FILL_STOCK = -1, 0, 1, 2, 3


@cache
def _move_tables(columns: int) -> tuple[
    dict[str, int], dict[str, int], list[list[Move]], list[list[list[Move]]]
]:
    """Pile-name lookups and the interned moves of a board with ``columns`` columns.

    Source codes: columns ``0..n-1``, then left reserve ``n``, right ``n+1``, waste ``n+2``.
    Target codes: columns ``0..n-1``, then the foundation ``n``.
    """
    names = [str(i + 1) for i in range(columns)]
    source_names = [*names, "l", "r", "w"]
    target_names = [*names, "f"]
    sources = {name: i for i, name in enumerate(source_names)}
    targets = {name: i for i, name in enumerate(target_names)}
    plain = [[Move(s, t) for t in target_names] for s in source_names]
    counted = [
        [[Move(s, t, n) if n else Move(s, t) for n in range(14)] for t in target_names]
        for s in names
    ]
    return sources, targets, plain, counted


def fill_column(
    column: list[int], reserves: list[list[int]], waste: list[int], stock: list[int], *, stock_fill: bool
) -> int:
    """Fill ``column``, just emptied, as docs/rules.md#filling-an-emptied-column says; return where the card came from.

    From the deeper reserve (the left on a tie), else the waste's top card, else — with the
    ``stock-fill`` option — the next stock card (``stock`` lists it last), else nothing: a
    free space. The rules engine and the solver both fill through here.
    """
    left, right = reserves
    if left or right:
        if len(left) >= len(right):
            column.append(left.pop())
            return FILL_LEFT
        column.append(right.pop())
        return FILL_RIGHT
    if waste:
        column.append(waste.pop())
        return FILL_WASTE
    if stock_fill and stock:
        column.append(stock.pop())
        return FILL_STOCK
    return FILL_NONE


@dataclass(frozen=True, slots=True)
class RawPosition:
    """A Gate position as card indices, for search code that keeps its own copy.

    ``foundations`` are card counts per suit (C D H S); ``stock`` lists the next card to be
    drawn *last*; the other piles are bottom to top.
    """

    reserves: tuple[tuple[int, ...], tuple[int, ...]]
    foundations: tuple[int, ...]
    columns: tuple[tuple[int, ...], ...]
    waste: tuple[int, ...]
    stock: tuple[int, ...]


class GateGame(Game):
    """Gate: two open reserves of five, eight one-card columns, one pass through the stock."""

    name = "gate"
    title = "Gate"
    family = "gate"
    rule_options = (
        RuleOption(SINGLE_MOVES, _("only top cards move, no runs")),
        RuleOption(STOCK_FILL, _("an emptied column takes the next stock card once the waste is empty")),
    )
    unseen_words = _("shuffles of the stock")
    column_count: ClassVar[int] = 8

    __slots__ = (
        "_columns",
        "_counted",
        "_foundations",
        "_history",
        "_moves",
        "_plain",
        "_reserves",
        "_single",
        "_sources",
        "_stock",
        "_stock_fill",
        "_stock_hidden",
        "_targets",
        "_waste",
        "deal",
        "options",
    )

    def __init__(self, options: tuple[str, ...] = (), deal: int | None = None) -> None:
        self.deal = deal
        self.options = options
        self._single = SINGLE_MOVES in options
        self._stock_fill = STOCK_FILL in options
        self._reserves: list[list[int]] = [[], []]
        self._foundations: list[int] = [0, 0, 0, 0]
        self._columns: list[list[int]] = [[] for _ in range(self.column_count)]
        self._waste: list[int] = []
        self._stock: list[int] = []  # next card to draw last, so a draw is a pop()
        self._stock_hidden = False
        self._history: list[tuple[int, int, int, int, int]] = []
        self._moves: list[Move] = []
        self._sources, self._targets, self._plain, self._counted = _move_tables(self.column_count)

    # -- construction -------------------------------------------------------------------

    @classmethod
    def _new(cls, deal: int, options: tuple[str, ...]) -> Self:
        cards = shuffled_deck(deal)
        game = cls(options, deal)
        game._reserves = [cards[0:10:2], cards[1:10:2]]
        game._columns = [[card] for card in cards[10 : 10 + cls.column_count]]
        game._stock = cards[10 + cls.column_count :][::-1]
        return game

    @classmethod
    def _from_lines(cls, lines: list[str], options: tuple[str, ...]) -> Self:
        game = cls(options)
        read_position(game, lines)
        return game

    def copy(self) -> Self:
        other = type(self)(self.options, self.deal)
        other._reserves = [self._reserves[0][:], self._reserves[1][:]]
        other._foundations = self._foundations[:]
        other._columns = [column[:] for column in self._columns]
        other._waste = self._waste[:]
        other._stock = self._stock[:]
        other._stock_hidden = self._stock_hidden
        other._history = self._history[:]
        other._moves = self._moves[:]
        return other

    # -- reading the position -----------------------------------------------------------

    def to_text(self, *, hide_stock: bool = False) -> str:
        return write_position(self, hide_stock=hide_stock)

    @property
    def reserves(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Left and right reserve, bottom to top."""
        left, right = self._reserves
        return tuple(CARDS[c] for c in left), tuple(CARDS[c] for c in right)

    @property
    def foundations(self) -> tuple[Card | None, ...]:
        """The top card of each foundation in suit order C D H S (None when empty)."""
        return tuple(CARDS[(n - 1) * 4 + s] if n else None for s, n in enumerate(self._foundations))

    def foundation_heights(self) -> tuple[int, ...]:
        """Each foundation's height by rank, C D H S."""
        return tuple(self._foundations)

    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        """Each column bottom to top; an empty one is a free space."""
        return tuple(tuple(CARDS[c] for c in column) for column in self._columns)

    @property
    def waste(self) -> tuple[Card, ...]:
        """The waste, bottom to top."""
        return tuple(CARDS[c] for c in self._waste)

    def raw(self) -> RawPosition:
        """The position as card indices (a copy), for the solver."""
        return RawPosition(
            (tuple(self._reserves[0]), tuple(self._reserves[1])),
            tuple(self._foundations),
            tuple(tuple(column) for column in self._columns),
            tuple(self._waste),
            tuple(self._stock),
        )

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def stock_known(self) -> bool:
        """False for a position read from ``S: ?n``, whose stock order is unknown."""
        return not self._stock_hidden

    @property
    def score(self) -> int:
        return sum(self._foundations)

    @property
    def is_won(self) -> bool:
        return sum(self._foundations) == 52

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    # -- legal moves --------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        columns = self._columns
        n = self.column_count
        foundations = self._foundations
        plain = self._plain
        single = self._single
        up: list[Move] = []
        out: list[Move] = []
        accepting: dict[int, list[int]] = {}
        free: list[int] = []
        for j, column in enumerate(columns):
            if column:
                key = ACCEPTS[column[-1]]
                if key >= 0:
                    if key in accepting:
                        accepting[key].append(j)
                    else:
                        accepting[key] = [j]
            else:
                free.append(j)
        for source, pile in ((n, self._reserves[0]), (n + 1, self._reserves[1]), (n + 2, self._waste)):
            if pile:
                card = pile[-1]
                row = plain[source]
                if foundations[card & 3] == card >> 2:
                    up.append(row[n])
                targets = accepting.get(KEY[card])
                if targets:
                    out.extend(row[j] for j in targets)
                out.extend(row[j] for j in free)
        for i, column in enumerate(columns):
            if not column:
                continue
            row = plain[i]
            card = column[-1]
            if foundations[card & 3] == card >> 2:
                up.append(row[n])
            depth = 1
            height = len(column)
            while True:
                targets = accepting.get(KEY[card])
                if targets:
                    out.extend(row[j] for j in targets)
                if depth == height or single:
                    break
                below = column[-depth - 1]
                if ACCEPTS[below] != KEY[card]:
                    break
                card = below
                depth += 1
            if free:
                if depth == 1:
                    out.extend(row[j] for j in free)
                else:
                    counted = self._counted[i]
                    for j in free:
                        out.extend(counted[j][1 : depth + 1])
        if self._stock:
            out.append(DRAW)
        up.extend(out)
        return up

    def has_legal_move(self) -> bool:
        if self._stock:
            return True
        return bool(self.legal_moves())

    # -- checking a move ----------------------------------------------------------------

    def _run_length(self, column: list[int]) -> int:
        """How many cards at the top of ``column`` form a built run that may move together."""
        if not column:
            return 0
        if self._single:
            return 1
        depth = 1
        while depth < len(column) and ACCEPTS[column[-depth - 1]] == KEY[column[-depth]]:
            depth += 1
        return depth

    def _pile(self, source: int) -> list[int]:
        """The cards of the pile with source code ``source`` (a column, a reserve or the waste)."""
        n = self.column_count
        if source < n:
            return self._columns[source]
        return (self._reserves[0], self._reserves[1], self._waste)[source - n]

    def _pile_label(self, source: int, *, capital: bool = False) -> Text:
        """A pile as a sentence names it: ``column 3``, ``the waste`` (``capital``: to begin one)."""
        n = self.column_count
        if source < n:
            return _("Column {number}", number=source + 1) if capital else _("column {number}", number=source + 1)
        if capital:
            return (_("The left reserve"), _("The right reserve"), _("The waste"))[source - n]
        return (_("the left reserve"), _("the right reserve"), _("the waste"))[source - n]

    def validate(self, move: Move) -> Move:
        return gate_checks.validate(self, move)

    def check_pile(self, name: str, *, as_target: bool) -> None:
        """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
        gate_checks.check_pile(self, name, as_target=as_target)

    # -- playing ------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        if move.source == "d":
            if self._stock_hidden:
                raise IllegalMove(HIDDEN_STOCK)
            self._waste.append(self._stock.pop())
            self._history.append(_DRAW_RECORD)
            self._moves.append(move)
            return
        n = self.column_count
        source = self._sources[move.source]
        target = self._targets[move.target]
        fill = FILL_NONE
        if source < n:
            column = self._columns[source]
            if target == n:
                count = 1
            else:
                destination = self._columns[target]
                if destination:
                    wanted = ACCEPTS[destination[-1]]
                    count = 1
                    while KEY[column[-count]] != wanted:
                        count += 1
                else:
                    count = move.count or 1
            card = column[-count]
            if target == n:
                column.pop()
                self._foundations[card & 3] += 1
            else:
                self._columns[target].extend(column[-count:])
                del column[-count:]
            if not column:
                fill = self._fill(column)
        else:
            count = 1
            card = self._pile(source).pop()
            if target == n:
                self._foundations[card & 3] += 1
            else:
                self._columns[target].append(card)
        self._history.append((source, target, count, card, fill))
        self._moves.append(move)

    def _fill(self, column: list[int]) -> int:
        """Fill a column that has just become empty; say where the card came from.

        The rule: docs/rules.md#filling-an-emptied-column.
        """
        left, right = self._reserves
        if self._stock_hidden and self._stock_fill and self._stock and not (left or right or self._waste):
            raise IllegalMove(HIDDEN_STOCK)
        return fill_column(column, self._reserves, self._waste, self._stock, stock_fill=self._stock_fill)

    @property
    def last_move_showed_stock(self) -> bool:
        """Whether the last move turned up a stock card (a draw, or a fill from the stock).

        Taking such a move back would hide a card the player has already seen, which a
        challenge does not allow.
        """
        if not self._history:
            return False
        source, _target, _count, _card, fill = self._history[-1]
        return source < 0 or fill == FILL_STOCK

    def undo(self) -> Move:
        if not self._history:
            raise IllegalMove(_("There is no move to take back"))
        source, target, count, card, fill = self._history.pop()
        move = self._moves.pop()
        if source < 0:
            self._stock.append(self._waste.pop())
            return move
        n = self.column_count
        if fill != FILL_NONE:
            filled = self._columns[source].pop()
            (self._reserves[0], self._reserves[1], self._waste, self._stock)[fill].append(filled)
        if target == n:
            self._foundations[card & 3] -= 1
            cards = [card]
        else:
            destination = self._columns[target]
            cards = destination[-count:]
            del destination[-count:]
        self._pile(source).extend(cards)
        return move

    # -- helpers for the move language --------------------------------------------------

    def locate(self, card: int) -> tuple[str, int] | None:
        """Where a visible card is: (pile name, cards above it); None if on a foundation or in the stock."""
        for i, column in enumerate(self._columns):
            if card in column:
                return str(i + 1), len(column) - 1 - column.index(card)
        for name, pile in (("l", self._reserves[0]), ("r", self._reserves[1]), ("w", self._waste)):
            if card in pile:
                return name, len(pile) - 1 - pile.index(card)
        return None

    def top_card(self, pile: str) -> int | None:
        """The top card of a column, reserve or the waste (None when empty or no such pile)."""
        code = self._sources.get(pile)
        if code is None:
            return None
        cards = self._pile(code)
        return cards[-1] if cards else None

    def moved_card(self, move: Move) -> int:
        """The deepest card a legal, canonical move carries (the card that lands on the target)."""
        if move.is_draw:
            return self._stock[-1]
        n = self.column_count
        source = self._sources[move.source]
        if source >= n:
            return self._pile(source)[-1]
        column = self._columns[source]
        target = self._targets[move.target]
        if target == n:
            return column[-1]
        destination = self._columns[target]
        if not destination:
            return column[-(move.count or 1)]
        wanted = ACCEPTS[destination[-1]]
        return next(c for c in reversed(column) if KEY[c] == wanted)

    def pile_label(self, name: str) -> str:
        return self._pile_label(self._sources[name])

    def fill_note(self, before: Game, move: Move) -> str | None:
        """Which card filled the column ``move`` emptied and from where, or that it is a free space.

        The fill (docs/rules.md#filling-an-emptied-column) is automatic and easy to miss on a
        redrawn board. None when ``move`` emptied no column, or when ``before`` isn't this game
        one move earlier.
        """
        if not move.source.isdigit() or not isinstance(before, GateGame):
            return None
        index = int(move.source) - 1
        was, now = before.columns[index], self.columns[index]
        if now and now == was[: len(now)]:
            return None
        if not now:
            return _("Column {column} is a free space now: any card or run may go there.", column=move.source)
        card = now[0]
        left, right = before.reserves
        if left and card == left[-1]:
            origin = _("the left reserve")
        elif right and card == right[-1]:
            origin = _("the right reserve")
        elif before.waste and card == before.waste[-1]:
            origin = _("the waste")
        else:
            origin = _("the stock")
        return _("{card} from {origin} fills column {column}.", card=CARD_WORDS[card.index], origin=origin,
                 column=move.source)

    def is_safe_up(self, move: Move) -> bool:
        """Whether a legal foundation move can never cost a win (:func:`gatebot.rules.autoplay.is_safe_up`)."""
        return move.target == FOUNDATION and is_safe_up(self.moved_card(move), self._foundations)

    def whereabouts(self, card: int) -> str:
        """Where a card is, in words, for a message that explains why it can't move."""
        word = CARD_WORDS[card]
        if self._foundations[card & 3] > card >> 2:
            return _("{card} is already on its foundation", card=word)
        place = self.locate(card)
        if place is None:
            return _("{card} hasn't been drawn from the stock yet", card=word)
        pile, above = place
        label = self._pile_label(self._sources[pile])
        if above == 0:
            return _("{card} is on top of {pile}", card=word, pile=label)
        return n_("{card} is in {pile} under {n} card", "{card} is in {pile} under {n} cards", above, card=word,
                  pile=label)


class LittleGateGame(GateGame):
    """Little Gate: the same rules with four columns (stock 38)."""

    name = "little-gate"
    title = "Little Gate"
    aliases = ("little",)
    column_count = 4
    __slots__ = ()



__all__ = [
    "ACCEPTS",
    "FILL_LEFT",
    "FILL_NONE",
    "FILL_RIGHT",
    "FILL_STOCK",
    "FILL_WASTE",
    "KEY",
    "RESERVE_SIZE",
    "SINGLE_MOVES",
    "STOCK_FILL",
    "GateGame",
    "LittleGateGame",
    "RawPosition",
    "fill_column",
]
