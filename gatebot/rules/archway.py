"""Archway: two decks, eight foundations (Aces up, Kings down), four columns of twelve, an arch of 13 packets.

``docs/archway.md`` is the contract: the deal numbering, the layout, the notation and the
position text. The engine keeps Gate's shape (:mod:`gatebot.rules.gate`): plain lists of card
indices, moves applied in place and recorded for undo, moves interned.

The two copies of a card are not told apart. A card is its index ``0..51``, as in Gate, and
a pile may hold it twice: the copies have the same face, no rule depends on which is which,
and a move names a card by rank and suit and a place, which is all it needs. A foundation is
a count (its cards are implied by its base and its top), and an arch packet is kept in suit
order, so equal positions have equal text.
"""

from __future__ import annotations

import re
from bisect import insort
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Self

from gatebot.rules.cards import CARD_PRETTY, CARD_TEXT, CARDS, Card, parse_card
from gatebot.rules.deal import shuffle
from gatebot.rules.errors import AmbiguousMove, IllegalMove, PositionError, quoted
from gatebot.rules.game import Game, RuleOption
from gatebot.rules.move import ACE_FOUNDATION, ARCH_PACKET, FOUNDATION, KING_FOUNDATION, Move, read_number
from gatebot.rules.position import check_line_count, parse_pile_line

KIT = "kit"
COLUMN_COUNT = 4
COLUMN_DEPTH = 12
#: The 96 cards a deal shuffles (docs/archway.md §1): deck one without its Aces and Kings,
#: which are the eight foundation bases, then deck two whole.
DECK: tuple[int, ...] = (*range(4, 48), *range(52))

_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_COLUMNS = tuple(str(i + 1) for i in range(COLUMN_COUNT))
#: An arch card as a move's source is its name in lower case (``7h``, ``th``).
_CARD_NAMES = tuple(text.lower() for text in CARD_TEXT)
_CARD_BY_NAME = {name: card for card, name in enumerate(_CARD_NAMES)}
#: A suit's two foundations as the source of a reversing move (``fh``).
_PAIRS = tuple("f" + suit for suit in "cdhs")
_SOURCES = frozenset((*_COLUMNS, *_CARD_NAMES, *_PAIRS))
_TARGETS = frozenset((*_COLUMNS, ACE_FOUNDATION, KING_FOUNDATION, ARCH_PACKET, FOUNDATION))
_MOVES = {
    (source, target): Move(source, target)
    for source in _SOURCES
    for target in (*_COLUMNS, ACE_FOUNDATION, KING_FOUNDATION, ARCH_PACKET)
    if source != target
}
# Pile codes in undo records: columns 0..3, then these.
_ARCH, _UP, _DOWN = 4, 5, 6
_SUIT = "[cdhs♣♦♥♠♧♢♡♤]"
_READ_TOKEN = re.compile(
    rf"(?:([1-9])([afkp])|(10|[a2-9tjqk])({_SUIT})([1-9afkp])|f({_SUIT})([1-9afkp]))(?::([0-9]+))?"
)
_NO_STOCK = "Archway has no stock: every card is dealt face up at the start, so there is nothing to draw"


@dataclass(frozen=True, slots=True)
class RawArchway:
    """An Archway position as card indices, for search code that keeps its own copy.

    ``up`` and ``down`` count the cards on each suit's Ace and King foundation (C D H S, 1 to
    13, the base included); ``arch`` is the 13 packets, Aces first, each in suit order;
    columns are bottom to top.
    """

    columns: tuple[tuple[int, ...], ...]
    arch: tuple[tuple[int, ...], ...]
    up: tuple[int, ...]
    down: tuple[int, ...]
    kit: bool


class ArchwayGame(Game):
    """Archway: every card open; columns and the arch play only to the foundations or a space."""

    name = "archway"
    title = "Archway"
    family = "archway"
    rule_options = (RuleOption(KIT, "a column's card may go back to the arch"),)
    card_count = 104
    has_stock = False
    pile_words = MappingProxyType({
        "a": ACE_FOUNDATION, "ace": ACE_FOUNDATION, "aces": ACE_FOUNDATION,
        "k": KING_FOUNDATION, "king": KING_FOUNDATION, "kings": KING_FOUNDATION,
        "p": ARCH_PACKET, "arch": ARCH_PACKET, "packet": ARCH_PACKET,
        **{pair: pair for pair in _PAIRS},
    })
    move_examples = "3a, 7hk, fhk, 2>4 or a card like 7h"
    moves_runs = False

    __slots__ = ("_arch", "_columns", "_down", "_history", "_kit", "_moves", "_up", "deal", "options")

    def __init__(self, options: tuple[str, ...] = (), deal: int | None = None) -> None:
        self.deal = deal
        self.options = options
        self._kit = KIT in options
        self._columns: list[list[int]] = [[] for _ in range(COLUMN_COUNT)]
        self._arch: list[list[int]] = [[] for _ in range(13)]
        self._up: list[int] = [1, 1, 1, 1]  # cards on each Ace foundation, the base included
        self._down: list[int] = [1, 1, 1, 1]  # cards on each King foundation, the base included
        self._history: list[tuple[int, int, int]] = []  # (source code, target code, card)
        self._moves: list[Move] = []

    # -- construction -------------------------------------------------------------------

    @classmethod
    def _new(cls, deal: int, options: tuple[str, ...]) -> Self:
        cards = shuffle(deal, DECK)
        game = cls(options, deal)
        rows = COLUMN_COUNT * COLUMN_DEPTH
        game._columns = [cards[i:rows:COLUMN_COUNT] for i in range(COLUMN_COUNT)]
        for card in sorted(cards[rows:]):
            game._arch[card >> 2].append(card)
        return game

    @classmethod
    def _from_lines(cls, lines: list[str], options: tuple[str, ...]) -> Self:
        labels = ["A", "K", "P", *_COLUMNS]
        check_line_count(cls.title, labels, lines)
        game = cls(options)
        seen: Counter[int] = Counter()
        where: dict[int, list[str]] = {}

        def claim(cards: list[int], label: str) -> list[int]:
            for card in cards:
                if seen[card] == 2:
                    raise PositionError(
                        f"Line {label}: {CARD_TEXT[card]} is a third copy (the others are on lines "
                        f"{' and '.join(where[card])}): each card appears twice"
                    )
                seen[card] += 1
                where.setdefault(card, []).append(label)
            return cards

        for number, (line, label) in enumerate(zip(lines, labels, strict=True), 2):
            if label in ("A", "K") and "-" in line.partition(":")[2].split():
                raise PositionError(
                    f"Line {label}: a foundation always holds its base card, so give its top card, not -"
                )
            parsed = parse_pile_line(line, label, number)
            if label in ("A", "K"):
                game._read_foundations(parsed.cards, label, claim)
            elif label == "P":
                for card in claim(parsed.cards, label):
                    insort(game._arch[card >> 2], card)
            else:
                game._columns[int(label) - 1] = claim(parsed.cards, label)
        missing = [card for card in range(52) for _ in range(2 - seen[card])]
        if missing:
            missing_text = " ".join(CARD_TEXT[c] for c in missing)
            raise PositionError(
                f"The position is missing {len(missing)} cards ({missing_text}): each card appears twice, "
                "on the foundations, in the arch or in a column"
            )
        return game

    def _read_foundations(self, tops: list[int], label: str, claim: Callable[[list[int], str], list[int]]) -> None:
        """Read the ``A:`` or ``K:`` line: four tops in suit order; the base and the cards between are implied."""
        kind = "Ace" if label == "A" else "King"
        if len(tops) != 4:
            raise PositionError(
                f"Line {label}: give the top card of each {kind} foundation, four in suit order C D H S"
            )
        for suit, top in enumerate(tops):
            if top & 3 != suit:
                raise PositionError(
                    f"Line {label}: {CARD_TEXT[top]} is in the {_SUIT_NAMES[suit]} place; "
                    "foundations are listed in the order C D H S"
                )
            rank = top >> 2
            if label == "A":
                self._up[suit] = rank + 1
                claim(list(range(suit, top + 1, 4)), label)
            else:
                self._down[suit] = 13 - rank
                claim(list(range(top, 52, 4)), label)

    def copy(self) -> Self:
        other = type(self)(self.options, self.deal)
        other._columns = [column[:] for column in self._columns]
        other._arch = [packet[:] for packet in self._arch]
        other._up = self._up[:]
        other._down = self._down[:]
        other._history = self._history[:]
        other._moves = self._moves[:]
        return other

    # -- reading the position -----------------------------------------------------------

    def to_text(self, *, hide_stock: bool = False) -> str:
        """The position text (docs/archway.md §6); nothing is hidden in Archway, so ``hide_stock`` changes nothing."""

        def pile(label: str, cards: list[int]) -> str:
            return f"{label}:" + "".join(" " + CARD_TEXT[c] for c in cards)

        return "\n".join([
            " ".join((self.name, *self.options)),
            pile("A", [self._up_top(suit) for suit in range(4)]),
            pile("K", [self._down_top(suit) for suit in range(4)]),
            pile("P", [card for packet in self._arch for card in packet]),
            *(pile(name, column) for name, column in zip(_COLUMNS, self._columns, strict=True)),
        ])

    def _up_top(self, suit: int) -> int:
        return (self._up[suit] - 1) * 4 + suit

    def _down_top(self, suit: int) -> int:
        return (13 - self._down[suit]) * 4 + suit

    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        """The four columns, bottom to top (the last card is the exposed one); an empty one is a space."""
        return tuple(tuple(CARDS[c] for c in column) for column in self._columns)

    @property
    def arch(self) -> tuple[tuple[Card, ...], ...]:
        """The 13 packets of the arch, Aces to Kings, each in suit order (every card available)."""
        return tuple(tuple(CARDS[c] for c in packet) for packet in self._arch)

    @property
    def ace_foundations(self) -> tuple[Card, ...]:
        """The top card of each Ace foundation (building up), in suit order C D H S."""
        return tuple(CARDS[self._up_top(suit)] for suit in range(4))

    @property
    def king_foundations(self) -> tuple[Card, ...]:
        """The top card of each King foundation (building down), in suit order C D H S."""
        return tuple(CARDS[self._down_top(suit)] for suit in range(4))

    @property
    def foundation_sizes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """How many cards each Ace foundation and each King foundation holds (bases included), C D H S."""
        return tuple(self._up), tuple(self._down)

    def foundation_heights(self) -> tuple[int, ...]:
        """Two per suit, C D H S: the suit's Ace foundation, then its King foundation (bases included).

        A reversing move takes a card from one and gives it to the other.
        """
        ups, downs = self.foundation_sizes
        return tuple(size for pair in zip(ups, downs, strict=True) for size in pair)

    def raw(self) -> RawArchway:
        """The position as card indices (a copy), for search code."""
        return RawArchway(
            tuple(tuple(column) for column in self._columns),
            tuple(tuple(packet) for packet in self._arch),
            tuple(self._up),
            tuple(self._down),
            self._kit,
        )

    @property
    def stock_count(self) -> int:
        """Always 0: Archway has no stock (for front ends that ask every game)."""
        return 0

    @property
    def stock_known(self) -> bool:
        """Always True: nothing in Archway is hidden."""
        return True

    @property
    def last_move_showed_stock(self) -> bool:
        """Always False: no move shows a card that was hidden, so every move may be taken back."""
        return False

    @property
    def score(self) -> int:
        """Cards on the foundations, the eight bases included (8 at the deal, 104 when won)."""
        return sum(self._up) + sum(self._down)

    @property
    def is_won(self) -> bool:
        return self.score == self.card_count

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    # -- legal moves --------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        up, down = self._up, self._down
        ups: list[Move] = []
        others: list[Move] = []
        returns: list[Move] = []
        spaces = [name for name, column in zip(_COLUMNS, self._columns, strict=True) if not column]
        for name, column in zip(_COLUMNS, self._columns, strict=True):
            if not column:
                continue
            card = column[-1]
            rank, suit = card >> 2, card & 3
            if rank == up[suit]:
                ups.append(_MOVES[name, ACE_FOUNDATION])
            if rank == 12 - down[suit]:
                ups.append(_MOVES[name, KING_FOUNDATION])
            others.extend(_MOVES[name, space] for space in spaces)
            if self._kit:
                returns.append(_MOVES[name, ARCH_PACKET])
        for packet in self._arch:
            previous = -1
            for card in packet:
                if card == previous:
                    continue
                previous = card
                name = _CARD_NAMES[card]
                rank, suit = card >> 2, card & 3
                if rank == up[suit]:
                    ups.append(_MOVES[name, ACE_FOUNDATION])
                if rank == 12 - down[suit]:
                    ups.append(_MOVES[name, KING_FOUNDATION])
                others.extend(_MOVES[name, space] for space in spaces)
        for suit, pair in enumerate(_PAIRS):
            if up[suit] + down[suit] == 13:  # met: the Ace foundation's top is one below the King's
                if up[suit] > 1:
                    ups.append(_MOVES[pair, KING_FOUNDATION])
                if down[suit] > 1:
                    ups.append(_MOVES[pair, ACE_FOUNDATION])
        ups.extend(others)
        ups.extend(returns)
        return ups

    # -- checking a move ----------------------------------------------------------------

    def validate(self, move: Move) -> Move:
        if move.is_draw:
            raise IllegalMove(_NO_STOCK)
        source, target = move.source, move.target
        self.check_pile(source, as_target=False)
        self.check_pile(target, as_target=True)
        if move.count is not None and move.count != 1:
            if move.count < 1:
                raise IllegalMove("A move takes at least one card")
            if source in _COLUMNS:
                raise IllegalMove(f"Only the exposed card of column {source} moves: Archway moves one card at a time")
            raise IllegalMove("Archway moves one card at a time")
        if source in _PAIRS:
            return self._validate_reversal(source, target)
        if source in _COLUMNS:
            if source == target:
                raise IllegalMove(f"A card can't move from column {source} onto itself")
            column = self._columns[int(source) - 1]
            if not column:
                raise IllegalMove(f"Column {source} is empty: it is a space, with nothing to move")
            card = column[-1]
        else:
            card = _CARD_BY_NAME[source]
            if card not in self._arch[card >> 2]:
                where = self.whereabouts(card) if self._places(card) else "both are on the foundations already"
                raise IllegalMove(f"There is no {CARD_PRETTY[card]} in the arch: {where}")
        if target in _COLUMNS:
            if self._columns[int(target) - 1]:
                raise IllegalMove(
                    f"Column {target} isn't a space: in Archway cards go only onto the foundations "
                    "or into an empty column"
                )
            return _MOVES[source, target]
        if target == ARCH_PACKET:
            if not self._kit:
                raise IllegalMove("Cards go back to the arch only with the kit option")
            if source not in _COLUMNS:
                raise IllegalMove(f"{CARD_PRETTY[card]} is in the arch already")
            return _MOVES[source, target]
        return self._validate_up(source, target, card)

    def _fits(self, card: int, target: str) -> bool:
        if target == ACE_FOUNDATION:
            return card >> 2 == self._up[card & 3]
        return card >> 2 == 12 - self._down[card & 3]

    def _validate_up(self, source: str, target: str, card: int) -> Move:
        suit = _SUIT_NAMES[card & 3]
        if target == FOUNDATION:
            fitting = [t for t in (ACE_FOUNDATION, KING_FOUNDATION) if self._fits(card, t)]
            if len(fitting) == 1:
                return _MOVES[source, fitting[0]]
            if fitting:
                up, down = CARD_PRETTY[self._up_top(card & 3)], CARD_PRETTY[self._down_top(card & 3)]
                raise AmbiguousMove(
                    f"{CARD_PRETTY[card]} fits both {suit} foundations: say {source}a (onto {up}) "
                    f"or {source}k (onto {down})",
                    (f"{source}a", f"{source}k"),
                )
            raise IllegalMove(
                f"{CARD_PRETTY[card]} can't go up yet: the {suit} Ace foundation {self._wants(card & 3, True)} "
                f"and the King foundation {self._wants(card & 3, False)}"
            )
        if self._fits(card, target):
            return _MOVES[source, target]
        ace = target == ACE_FOUNDATION
        raise IllegalMove(
            f"{CARD_PRETTY[card]} can't go on the {suit} {'Ace' if ace else 'King'} foundation: it "
            f"{self._wants(card & 3, ace)}"
        )

    def _wants(self, suit: int, ace: bool) -> str:
        """What one foundation takes next, in words (``is at 4♥ and takes 5♥ next``)."""
        count = self._up[suit] if ace else self._down[suit]
        if count == 13:
            return "is complete"
        top = self._up_top(suit) if ace else self._down_top(suit)
        following = top + 4 if ace else top - 4
        return f"is at {CARD_PRETTY[top]} and takes {CARD_PRETTY[following]} next"

    def _validate_reversal(self, source: str, target: str) -> Move:
        suit = _PAIRS.index(source)
        name = _SUIT_NAMES[suit]
        if target not in (ACE_FOUNDATION, KING_FOUNDATION, FOUNDATION):
            raise IllegalMove(
                f"A card leaves the {name} foundations only for the other one (reversing), "
                f"written {source}a or {source}k"
            )
        up, down = self._up[suit], self._down[suit]
        if up + down != 13:
            tops = f"{CARD_PRETTY[self._up_top(suit)]} and {CARD_PRETTY[self._down_top(suit)]}"
            if up + down > 13:
                raise IllegalMove(
                    f"The {name} foundations have passed each other ({tops} on top), so nothing moves between them"
                )
            raise IllegalMove(
                f"The {name} foundations haven't met: reversing needs the Ace foundation's top one below "
                f"the King foundation's ({tops} now)"
            )
        directions = [t for t, size in ((KING_FOUNDATION, up), (ACE_FOUNDATION, down)) if size > 1]
        if target == FOUNDATION:
            if len(directions) == 1:
                return _MOVES[source, directions[0]]
            raise AmbiguousMove(
                f"Reverse which way? Say {source}k (from the Ace foundation) or {source}a (from the King foundation)",
                (f"{source}k", f"{source}a"),
            )
        if target not in directions:
            kind, base = ("Ace", suit) if target == KING_FOUNDATION else ("King", 48 + suit)
            raise IllegalMove(
                f"{CARD_PRETTY[base]} is the base of the {name} {kind} foundation: the bases stay where they are"
            )
        return _MOVES[source, target]

    def check_pile(self, name: str, *, as_target: bool) -> None:
        """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
        if name in (_TARGETS if as_target else _SOURCES):
            return
        if name.isdigit():
            raise IllegalMove(f"Column {name} doesn't exist: Archway has columns 1–{COLUMN_COUNT}")
        if name in ("l", "r"):
            raise IllegalMove("Archway has no reserves: its cards are in the columns and the arch")
        if name == "w":
            raise IllegalMove("Archway has no waste: every card is dealt face up at the start")
        if as_target:
            if name in _SOURCES:
                raise IllegalMove(
                    "A card goes onto a foundation (a or k), into an empty column or, with kit, to the arch"
                )
        elif name in (FOUNDATION, ACE_FOUNDATION, KING_FOUNDATION):
            raise IllegalMove("A card leaves a foundation only for the other one of its suit, written like fhk or fha")
        elif name == ARCH_PACKET:
            raise IllegalMove("Name the card of the arch that moves, like 7h")
        if not name:
            raise IllegalMove("Say where the card goes: a or k for its Ace or King foundation, or an empty column")
        raise IllegalMove(f"Archway has no pile called {quoted(name)}")

    # -- playing ------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        source, target = move.source, move.target
        if source in _PAIRS:
            suit = _PAIRS.index(source)
            if target == KING_FOUNDATION:
                card, code = self._up_top(suit), _UP
                self._up[suit] -= 1
            else:
                card, code = self._down_top(suit), _DOWN
                self._down[suit] -= 1
        elif source in _COLUMNS:
            code = int(source) - 1
            card = self._columns[code].pop()
        else:
            card, code = _CARD_BY_NAME[source], _ARCH
            self._arch[card >> 2].remove(card)
        self._history.append((code, self._put(target, card), card))
        self._moves.append(move)

    def _put(self, target: str, card: int) -> int:
        """Put ``card`` on ``target``; return its pile code."""
        if target == ACE_FOUNDATION:
            self._up[card & 3] += 1
            return _UP
        if target == KING_FOUNDATION:
            self._down[card & 3] += 1
            return _DOWN
        if target == ARCH_PACKET:
            insort(self._arch[card >> 2], card)
            return _ARCH
        code = int(target) - 1
        self._columns[code].append(card)
        return code

    def undo(self) -> Move:
        if not self._history:
            raise IllegalMove("There is no move to take back")
        source, target, card = self._history.pop()
        for code, step in ((target, -1), (source, 1)):
            if code == _UP:
                self._up[card & 3] += step
            elif code == _DOWN:
                self._down[card & 3] += step
            elif code == _ARCH:
                if step < 0:
                    self._arch[card >> 2].remove(card)
                else:
                    insort(self._arch[card >> 2], card)
            elif step < 0:
                self._columns[code].pop()
            else:
                self._columns[code].append(card)
        return self._moves.pop()

    # -- helpers for the move language and Auto -----------------------------------------

    @classmethod
    def read_token(cls, word: str) -> Move | None:
        """Archway's own one-word moves, as typed: ``3a``, ``7hk``, ``10♥a``, ``7h2``, ``fhk``, ``3p``."""
        match = _READ_TOKEN.fullmatch(word)
        if match is None:
            return None
        column, column_target, rank, suit, card_target, pair_suit, pair_target, count_text = match.groups()
        count = read_number(count_text) if count_text else None
        if column is not None:
            return Move(column, column_target, count)
        if rank is not None:
            return Move(_CARD_NAMES[parse_card(rank + suit)], card_target, count)
        return Move(_PAIRS[parse_card("a" + pair_suit)], pair_target, count)  # an Ace's index is its suit

    def _places(self, card: int) -> list[tuple[str, int]]:
        """Where the copies of ``card`` outside the foundations are: (pile name, cards above), most available first."""
        places = [
            (name, len(column) - 1 - index)
            for name, column in zip(_COLUMNS, self._columns, strict=True)
            for index, each in enumerate(column)
            if each == card
        ]
        places.extend((_CARD_NAMES[card], 0) for each in self._arch[card >> 2] if each == card)
        return sorted(places, key=lambda place: place[1])

    def locate(self, card: int) -> tuple[str, int] | None:
        """Where the most available copy of a card is (pile name, cards above it); None if both are up."""
        places = self._places(card)
        return places[0] if places else None

    def top_card(self, pile: str) -> int | None:
        """The exposed card of a column, or the named card when it is in the arch (else None)."""
        if pile in _COLUMNS:
            column = self._columns[int(pile) - 1]
            return column[-1] if column else None
        card = _CARD_BY_NAME.get(pile)
        return card if card is not None and card in self._arch[card >> 2] else None

    def moved_card(self, move: Move) -> int:
        """The card a legal, canonical move carries."""
        source = move.source
        if source in _PAIRS:
            suit = _PAIRS.index(source)
            return self._up_top(suit) if move.target == KING_FOUNDATION else self._down_top(suit)
        if source in _COLUMNS:
            return self._columns[int(source) - 1][-1]
        return _CARD_BY_NAME[source]

    def cards_moved(self, move: Move) -> int:
        """Always one: Archway moves one card at a time."""
        return 1

    def is_foundation(self, pile: str) -> bool:
        return pile in (FOUNDATION, ACE_FOUNDATION, KING_FOUNDATION)

    def card_target(self, card: int, moving: int | None) -> str | None:
        """A card names the foundation it tops (``7h 8h``: onto 8♥); any other card is refused."""
        suit = card & 3
        named = [t for t, top in ((ACE_FOUNDATION, self._up_top(suit)), (KING_FOUNDATION, self._down_top(suit)))
                 if top == card]
        if not named:
            raise IllegalMove(
                f"{CARD_PRETTY[card]} isn't on top of a foundation: in Archway a card goes only onto "
                "a foundation or into an empty column"
            )
        if moving is not None and moving & 3 != suit:
            raise IllegalMove(
                f"{CARD_PRETTY[moving]} can't go on {CARD_PRETTY[card]}: a foundation takes only its own suit"
            )
        return named[0] if len(named) == 1 else FOUNDATION

    def pile_label(self, name: str) -> str:
        if name in _COLUMNS:
            return f"column {name}"
        if name in _PAIRS:
            return f"the {_SUIT_NAMES[_PAIRS.index(name)]} foundations"
        if name == ACE_FOUNDATION:
            return "the Ace foundation"
        if name == KING_FOUNDATION:
            return "the King foundation"
        return "the arch"

    def _foundation_words(self, target: str, suit: int) -> str:
        if target == ACE_FOUNDATION:
            return f"onto {CARD_PRETTY[self._up_top(suit)]} on the {_SUIT_NAMES[suit]} Ace foundation"
        return f"onto {CARD_PRETTY[self._down_top(suit)]} on the {_SUIT_NAMES[suit]} King foundation"

    def describe(self, move: Move) -> str:
        """A legal move in words: ``7♥ from the arch onto 6♥ on the hearts Ace foundation``."""
        card = self.moved_card(move)
        source, target = move.source, move.target
        if source in _PAIRS:
            kind = "Ace" if target == KING_FOUNDATION else "King"
            where = f"the {_SUIT_NAMES[card & 3]} {kind} foundation"
        else:
            where = self.pile_label(source)
        if target in _COLUMNS:
            onto = f"into the space in column {target}"
        elif target == ARCH_PACKET:
            onto = "back to the arch"
        else:
            onto = self._foundation_words(target, card & 3)
        return f"{CARD_PRETTY[card]} from {where} {onto}"

    def whereabouts(self, card: int) -> str:
        """Where a card's copies are, in words, the most available first."""
        pretty = CARD_PRETTY[card]
        places = self._places(card)
        if not places:
            return f"Both {pretty} are on the foundations already"

        def said(place: tuple[str, int]) -> str:
            pile, above = place
            if pile not in _COLUMNS:
                return "in the arch"
            if above == 0:
                return f"the exposed card of column {pile}"
            return f"in column {pile} under {above} {'card' if above == 1 else 'cards'}"

        first = f"{pretty} is {said(places[0])}"
        if len(places) == 1:
            return first
        return f"{first}, the other {said(places[1])}"

    def why_buried_card_stays(self, card: int) -> str:
        return f"{self.whereabouts(card)}: only the exposed card of a column moves"

    def is_safe_up(self, move: Move) -> bool:
        """Whether a legal foundation move can never cost a win, so Auto may play it.

        Safe once the suit's two foundations have passed each other (the Ace foundation's top
        at or above the King foundation's): from then on no reversing is possible, each card of
        the suit still out has one place to go, in a fixed order, and playing it early only
        frees what lay under it (docs/archway.md §7). Reversing moves are never safe.
        """
        if move.target not in (ACE_FOUNDATION, KING_FOUNDATION) or move.source in _PAIRS:
            return False
        suit = self.moved_card(move) & 3
        return self._up[suit] + self._down[suit] >= 14
