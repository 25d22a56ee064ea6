"""Gate and Little Gate (RULES.md sections 2-4): the position, legal moves, play and undo.

The position lives in plain lists of card indices and every move is applied in place and
recorded for undo, because the solver and the hint engine play and take back millions of
moves. Moves are interned (one :class:`Move` object per possible move), so generating the
legal moves allocates nothing but the list.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar, Self

from gatebot.rules.autoplay import is_safe_up
from gatebot.rules.cards import CARD_PRETTY, CARD_TEXT, CARDS, RED, Card
from gatebot.rules.deal import shuffled_deck
from gatebot.rules.errors import AmbiguousMove, IllegalMove, PositionError, quoted
from gatebot.rules.game import Game, RuleOption
from gatebot.rules.move import DRAW, FOUNDATION, Move
from gatebot.rules.position import CardClaims, check_line_count, parse_pile_line

SINGLE_MOVES = "single-moves"
STOCK_FILL = "stock-fill"
RESERVE_SIZE = 5

#: ``KEY[c]`` identifies what a card is as a building block: its rank and colour.
KEY: tuple[int, ...] = tuple((c >> 2) * 2 + RED[c] for c in range(52))
#: ``ACCEPTS[t]`` is the ``KEY`` of the cards that may go on ``t`` (-1: nothing, for an Ace).
ACCEPTS: tuple[int, ...] = tuple(((c >> 2) - 1) * 2 + (not RED[c]) if c >= 4 else -1 for c in range(52))
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_HIDDEN_STOCK = "The stock's order is unknown in this position, so no card can come from it"

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
    """Fill ``column``, just emptied, as RULES.md §3 says; return where the card came from.

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
        RuleOption(SINGLE_MOVES, "only top cards move, no runs"),
        RuleOption(STOCK_FILL, "an emptied column takes the next stock card once the waste is empty"),
    )
    unseen_words = "shuffles of the stock"
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
        labels = ["L", "R", "F", *(str(i + 1) for i in range(cls.column_count)), "W", "S"]
        check_line_count(cls.title, labels, lines)
        game = cls(options)
        claim = CardClaims()
        seen = claim.seen

        parsed = [parse_pile_line(line, label, number + 2) for number, (line, label) in
                  enumerate(zip(lines, labels, strict=True))]
        game._reserves = [claim(parsed[0].cards, "L"), claim(parsed[1].cards, "R")]
        foundation = parsed[2]
        if foundation.hidden is not None or len(foundation.slots) != 4:
            raise PositionError("Line F: give four foundation tops in suit order C D H S, - for empty")
        for suit, top in enumerate(foundation.slots):
            if top is None:
                continue
            if top & 3 != suit:
                raise PositionError(
                    f"Line F: {CARD_TEXT[top]} is in the {_SUIT_NAMES[suit]} place; "
                    "foundations are listed in the order C D H S"
                )
            claim(list(range(suit, top + 1, 4)), "F")
            game._foundations[suit] = (top >> 2) + 1
        for i in range(cls.column_count):
            game._columns[i] = claim(parsed[3 + i].cards, str(i + 1))
        game._waste = claim(parsed[-2].cards, "W")
        stock = parsed[-1]
        if stock.hidden is None:
            game._stock = claim(stock.cards, "S")[::-1]
        else:
            missing = sorted(set(range(52)).difference(seen))
            if len(missing) != stock.hidden:
                raise PositionError(
                    f"Line S: the stock is said to hold {stock.hidden} unseen cards, "
                    f"but {len(missing)} cards are missing from the other lines"
                )
            game._stock = claim(missing, "S")
            game._stock_hidden = True
        if len(seen) != 52:
            missing_text = " ".join(CARD_TEXT[c] for c in range(52) if c not in seen)
            raise PositionError(
                f"The position is missing {52 - len(seen)} cards ({missing_text}): each card appears "
                "once, and cards not on the table belong on the S: line"
            )
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
        def pile(label: str, cards: list[int]) -> str:
            return f"{label}:" + "".join(" " + CARD_TEXT[c] for c in cards)

        foundation_tops = [
            CARD_TEXT[(count - 1) * 4 + suit] if count else "-"
            for suit, count in enumerate(self._foundations)
        ]
        lines = [
            " ".join((self.name, *self.options)),
            pile("L", self._reserves[0]),
            pile("R", self._reserves[1]),
            "F: " + " ".join(foundation_tops),
            *(pile(str(i + 1), column) for i, column in enumerate(self._columns)),
            pile("W", self._waste),
        ]
        if hide_stock or self._stock_hidden:
            lines.append(f"S: ?{len(self._stock)}" if self._stock else "S:")
        else:
            lines.append(pile("S", self._stock[::-1]))
        return "\n".join(lines)

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

    def _pile_label(self, source: int) -> str:
        n = self.column_count
        if source < n:
            return f"column {source + 1}"
        return ("the left reserve", "the right reserve", "the waste")[source - n]

    def validate(self, move: Move) -> Move:
        if move.is_draw:
            if self._stock_hidden and self._stock:
                raise IllegalMove(_HIDDEN_STOCK)
            if not self._stock:
                raise IllegalMove(f"The stock is empty: {self.title} has one pass and no redeal")
            return DRAW
        source = self._source_code(move.source)
        target = self._target_code(move.target)
        n = self.column_count
        if source == target and source < n:
            raise IllegalMove(f"Cards can't move from column {source + 1} onto itself")
        pile = self._pile(source)
        if not pile:
            if source < n:
                raise IllegalMove(f"Column {source + 1} is empty: it is a free space, with nothing to move")
            raise IllegalMove(f"{self._pile_label(source).capitalize()} is empty")
        run = self._run_length(pile) if source < n else 1
        if move.count is not None:
            if move.count < 1:
                raise IllegalMove("A move takes at least one card")
            if move.count > run:
                raise IllegalMove(self._run_too_long(source, pile, move.count, run))
        if target == n:
            return self._validate_up(move, source, pile)
        destination = self._columns[target]
        if not destination:
            if move.count is None and run > 1:
                choices = tuple(str(self._counted[source][target][k]) for k in range(1, run + 1))
                raise AmbiguousMove(
                    f"Move how many cards from column {source + 1} to the free space? "
                    f"Choose {', '.join(choices[:-1])} or {choices[-1]}",
                    choices,
                )
            if move.count is None or run == 1:
                return self._plain[source][target]
            return self._counted[source][target][move.count]
        top = destination[-1]
        wanted = ACCEPTS[top]
        for depth in range(1, run + 1):
            if KEY[pile[-depth]] == wanted:
                if move.count not in (None, depth):
                    break
                return self._plain[source][target]
        card = pile[-(move.count or 1)]
        raise IllegalMove(self._why_not_on(card, top))

    def _validate_up(self, move: Move, source: int, pile: list[int]) -> Move:
        if move.count not in (None, 1):
            raise IllegalMove("Cards go to a foundation one at a time")
        card = pile[-1]
        suit = card & 3
        have = self._foundations[suit]
        if have == card >> 2:
            return self._plain[source][self.column_count]
        if have == 0:
            raise IllegalMove(
                f"{CARD_PRETTY[card]} can't go up yet: the {_SUIT_NAMES[suit]} foundation starts "
                f"with {CARD_PRETTY[suit]}"
            )
        top = (have - 1) * 4 + suit
        raise IllegalMove(
            f"{CARD_PRETTY[card]} can't go up yet: the {_SUIT_NAMES[card & 3]} foundation is at "
            f"{CARD_PRETTY[top]} and needs {CARD_PRETTY[top + 4]} next"
        )

    @staticmethod
    def _why_not_on(card: int, top: int) -> str:
        if top < 4:
            return f"{CARD_PRETTY[card]} can't go on {CARD_PRETTY[top]}: nothing builds on an Ace"
        if (card >> 2) == (top >> 2) - 1:
            return f"{CARD_PRETTY[card]} can't go on {CARD_PRETTY[top]}: build down in alternating colours"
        colour = "black" if RED[top] else "red"
        wanted = "A23456789TJQK"[(top >> 2) - 1].replace("T", "10")
        return f"{CARD_PRETTY[card]} can't go on {CARD_PRETTY[top]}: it takes a {colour} {wanted}"

    def _run_too_long(self, source: int, pile: list[int], count: int, run: int) -> str:
        if source >= self.column_count or self._single:
            rule = " in single-moves" if self._single else ""
            return f"Only the top card of {self._pile_label(source)} moves{rule}"
        if count > len(pile):
            cards = "card" if len(pile) == 1 else "cards"
            return f"Column {source + 1} holds only {len(pile)} {cards}"
        return (
            f"Only the top {run} cards of column {source + 1} move together: "
            f"{CARD_PRETTY[pile[-run - 1]]} under them breaks the run"
        )

    def _source_code(self, name: str) -> int:
        code = self._sources.get(name)
        if code is None:
            self.check_pile(name, as_target=False)
        return code  # type: ignore[return-value]

    def _target_code(self, name: str) -> int:
        code = self._targets.get(name)
        if code is None:
            self.check_pile(name, as_target=True)
        return code  # type: ignore[return-value]

    def check_pile(self, name: str, *, as_target: bool) -> None:
        """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
        if name in (self._targets if as_target else self._sources):
            return
        if name.isdigit():
            raise IllegalMove(
                f"Column {name} doesn't exist: {self.title} has columns 1–{self.column_count}"
            )
        if as_target and name in ("l", "r"):
            raise IllegalMove("Nothing moves onto a reserve")
        if as_target and name == "w":
            raise IllegalMove("Nothing moves onto the waste: it only takes cards from the stock")
        if not as_target and name == "f":
            raise IllegalMove("Cards never leave a foundation")
        if not name:
            raise IllegalMove("Say where the card goes: a column, or f for its foundation")
        raise IllegalMove(f"{self.title} has no pile called {quoted(name)}")

    # -- playing ------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        if move.source == "d":
            if self._stock_hidden:
                raise IllegalMove(_HIDDEN_STOCK)
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
        """Fill a column that has just become empty (RULES.md §3); say where the card came from."""
        left, right = self._reserves
        if self._stock_hidden and self._stock_fill and self._stock and not (left or right or self._waste):
            raise IllegalMove(_HIDDEN_STOCK)
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
            raise IllegalMove("There is no move to take back")
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
        """Which card filled the column ``move`` emptied and from where, or that it is a free space (RULES.md §3).

        The fill is automatic and easy to miss on a redrawn board. None when ``move`` emptied
        no column, or when ``before`` isn't this game one move earlier.
        """
        if not move.source.isdigit() or not isinstance(before, GateGame):
            return None
        index = int(move.source) - 1
        was, now = before.columns[index], self.columns[index]
        if now and now == was[: len(now)]:
            return None
        if not now:
            return f"Column {move.source} is a free space now: any card or run may go there."
        card = now[0]
        left, right = before.reserves
        if left and card == left[-1]:
            origin = "the left reserve"
        elif right and card == right[-1]:
            origin = "the right reserve"
        elif before.waste and card == before.waste[-1]:
            origin = "the waste"
        else:
            origin = "the stock"
        return f"{card.pretty} from {origin} fills column {move.source}."

    def is_safe_up(self, move: Move) -> bool:
        """Whether a legal foundation move can never cost a win (:func:`gatebot.rules.autoplay.is_safe_up`)."""
        return move.target == FOUNDATION and is_safe_up(self.moved_card(move), self._foundations)

    def whereabouts(self, card: int) -> str:
        """Where a card is, in words, for a message that explains why it can't move."""
        pretty = CARD_PRETTY[card]
        if self._foundations[card & 3] > card >> 2:
            return f"{pretty} is already on its foundation"
        place = self.locate(card)
        if place is None:
            return f"{pretty} hasn't been drawn from the stock yet"
        pile, above = place
        label = self._pile_label(self._sources[pile])
        if above == 0:
            return f"{pretty} is on top of {label}"
        cards = "card" if above == 1 else "cards"
        return f"{pretty} is in {label} under {above} {cards}"


class LittleGateGame(GateGame):
    """Little Gate: the same rules with four columns (stock 38)."""

    name = "little-gate"
    title = "Little Gate"
    aliases = ("little",)
    column_count = 4
    __slots__ = ()

