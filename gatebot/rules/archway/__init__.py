"""Archway: two decks, eight foundations (Aces up, Kings down), four columns of twelve, an arch of 13 packets.

``docs/archway.md`` is the contract: the deal numbering, the layout, the notation and the
position text. The engine keeps Gate's shape (:mod:`gatebot.rules.gate`): plain lists of card
indices, moves applied in place and recorded for undo, moves interned.

The two copies of a card are not told apart. A card is its index ``0..51``, as in Gate, and
a pile may hold it twice: the copies have the same face, no rule depends on which is which,
and a move names a card by rank and suit and a place, which is all it needs. A foundation is
a count (its cards are implied by its base and its top), and an arch packet is kept in suit
order, so equal positions have equal text.

The position text is read and written in :mod:`gatebot.rules.archway.position`, and a move
is checked, with the sentence that refuses it, in :mod:`gatebot.rules.archway.checks`.
"""

from __future__ import annotations

import re
from bisect import insort
from dataclasses import dataclass
from types import MappingProxyType
from typing import Self

from gatebot.messages import Text, _, n_
from gatebot.rules.archway import checks as archway_checks
from gatebot.rules.archway.checks import CARD_BY_NAME, CARD_NAMES, COLUMN_COUNT, COLUMNS, MOVES, PAIRS, SUIT_NAMES
from gatebot.rules.archway.position import read_position, write_position
from gatebot.rules.cards import CARD_WORDS, CARDS, Card, parse_card
from gatebot.rules.deal import shuffle
from gatebot.rules.errors import IllegalMove
from gatebot.rules.game import Game, RuleOption
from gatebot.rules.move import ACE_FOUNDATION, ARCH_PACKET, FOUNDATION, KING_FOUNDATION, Move, read_number

KIT = "kit"
COLUMN_DEPTH = 12
#: The 96 cards a deal shuffles (docs/archway.md §1): deck one without its Aces and Kings,
#: which are the eight foundation bases, then deck two whole.
DECK: tuple[int, ...] = (*range(4, 48), *range(52))

# Pile codes in undo records: columns 0..3, then these.
_ARCH, _UP, _DOWN = 4, 5, 6
_SUIT = "[cdhs♣♦♥♠♧♢♡♤]"
_READ_TOKEN = re.compile(
    rf"(?:([1-9])([afkp])|(10|[a2-9tjqk])({_SUIT})([1-9afkp])|f({_SUIT})([1-9afkp]))(?::([0-9]+))?"
)


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
    rule_options = (RuleOption(KIT, _("a column's card may go back to the arch")),)
    card_count = 104
    has_stock = False
    always_winnable_option = KIT
    pile_words = MappingProxyType({
        "a": ACE_FOUNDATION, "ace": ACE_FOUNDATION, "aces": ACE_FOUNDATION,
        "k": KING_FOUNDATION, "king": KING_FOUNDATION, "kings": KING_FOUNDATION,
        "p": ARCH_PACKET, "arch": ARCH_PACKET, "packet": ARCH_PACKET,
        **{pair: pair for pair in PAIRS},
    })
    move_examples = _("3a, 7hk, fhk, 2>4 or a card like 7h")
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
        game = cls(options)
        read_position(game, lines)
        return game

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
        return write_position(self, hide_stock=hide_stock)

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
        spaces = [name for name, column in zip(COLUMNS, self._columns, strict=True) if not column]
        for name, column in zip(COLUMNS, self._columns, strict=True):
            if not column:
                continue
            card = column[-1]
            rank, suit = card >> 2, card & 3
            if rank == up[suit]:
                ups.append(MOVES[name, ACE_FOUNDATION])
            if rank == 12 - down[suit]:
                ups.append(MOVES[name, KING_FOUNDATION])
            others.extend(MOVES[name, space] for space in spaces)
            if self._kit:
                returns.append(MOVES[name, ARCH_PACKET])
        for packet in self._arch:
            previous = -1
            for card in packet:
                if card == previous:
                    continue
                previous = card
                name = CARD_NAMES[card]
                rank, suit = card >> 2, card & 3
                if rank == up[suit]:
                    ups.append(MOVES[name, ACE_FOUNDATION])
                if rank == 12 - down[suit]:
                    ups.append(MOVES[name, KING_FOUNDATION])
                others.extend(MOVES[name, space] for space in spaces)
        for suit, pair in enumerate(PAIRS):
            if up[suit] + down[suit] == 13:  # met: the Ace foundation's top is one below the King's
                if up[suit] > 1:
                    ups.append(MOVES[pair, KING_FOUNDATION])
                if down[suit] > 1:
                    ups.append(MOVES[pair, ACE_FOUNDATION])
        ups.extend(others)
        ups.extend(returns)
        return ups

    # -- checking a move ----------------------------------------------------------------

    def validate(self, move: Move) -> Move:
        return archway_checks.validate(self, move)

    def check_pile(self, name: str, *, as_target: bool) -> None:
        """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
        archway_checks.check_pile(self, name, as_target=as_target)

    # -- playing ------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        source, target = move.source, move.target
        if source in PAIRS:
            suit = PAIRS.index(source)
            if target == KING_FOUNDATION:
                card, code = self._up_top(suit), _UP
                self._up[suit] -= 1
            else:
                card, code = self._down_top(suit), _DOWN
                self._down[suit] -= 1
        elif source in COLUMNS:
            code = int(source) - 1
            card = self._columns[code].pop()
        else:
            card, code = CARD_BY_NAME[source], _ARCH
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
            raise IllegalMove(_("There is no move to take back"))
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
            return Move(CARD_NAMES[parse_card(rank + suit)], card_target, count)
        return Move(PAIRS[parse_card("a" + pair_suit)], pair_target, count)  # an Ace's index is its suit

    def _places(self, card: int) -> list[tuple[str, int]]:
        """Where the copies of ``card`` outside the foundations are: (pile name, cards above), most available first."""
        places = [
            (name, len(column) - 1 - index)
            for name, column in zip(COLUMNS, self._columns, strict=True)
            for index, each in enumerate(column)
            if each == card
        ]
        places.extend((CARD_NAMES[card], 0) for each in self._arch[card >> 2] if each == card)
        return sorted(places, key=lambda place: place[1])

    def locate(self, card: int) -> tuple[str, int] | None:
        """Where the most available copy of a card is (pile name, cards above it); None if both are up."""
        places = self._places(card)
        return places[0] if places else None

    def top_card(self, pile: str) -> int | None:
        """The exposed card of a column, or the named card when it is in the arch (else None)."""
        if pile in COLUMNS:
            column = self._columns[int(pile) - 1]
            return column[-1] if column else None
        card = CARD_BY_NAME.get(pile)
        return card if card is not None and card in self._arch[card >> 2] else None

    def moved_card(self, move: Move) -> int:
        """The card a legal, canonical move carries."""
        source = move.source
        if source in PAIRS:
            suit = PAIRS.index(source)
            return self._up_top(suit) if move.target == KING_FOUNDATION else self._down_top(suit)
        if source in COLUMNS:
            return self._columns[int(source) - 1][-1]
        return CARD_BY_NAME[source]

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
                _("{card} isn't on top of a foundation: in Archway a card goes only onto "
                  "a foundation or into an empty column", card=CARD_WORDS[card])
            )
        if moving is not None and moving & 3 != suit:
            raise IllegalMove(
                _("{card} can't go on {top}: a foundation takes only its own suit", card=CARD_WORDS[moving],
                  top=CARD_WORDS[card])
            )
        return named[0] if len(named) == 1 else FOUNDATION

    def pile_label(self, name: str) -> str:
        if name in COLUMNS:
            return _("column {number}", number=name)
        if name in PAIRS:
            return _("the {suit} foundations", suit=SUIT_NAMES[PAIRS.index(name)])
        if name == ACE_FOUNDATION:
            return _("the Ace foundation")
        if name == KING_FOUNDATION:
            return _("the King foundation")
        return _("the arch")

    def _foundation_words(self, target: str, suit: int) -> Text:
        if target == ACE_FOUNDATION:
            return _("onto {card} on the {suit} Ace foundation", card=CARD_WORDS[self._up_top(suit)],
                     suit=SUIT_NAMES[suit])
        return _("onto {card} on the {suit} King foundation", card=CARD_WORDS[self._down_top(suit)],
                 suit=SUIT_NAMES[suit])

    def describe(self, move: Move) -> str:
        """A legal move in words: ``7♥ from the arch onto 6♥ on the hearts Ace foundation``.

        Each place a card leaves is a sentence of its own, since a language may word "from"
        differently for each (German: *aus dem Bogen*, *von Spalte 3*).
        """
        card = self.moved_card(move)
        source, target = move.source, move.target
        if target in COLUMNS:
            onto = _("into the space in column {column}", column=target)
        elif target == ARCH_PACKET:
            onto = _("back to the arch")
        else:
            onto = self._foundation_words(target, card & 3)
        word, suit = CARD_WORDS[card], SUIT_NAMES[card & 3]
        if source in PAIRS and target == KING_FOUNDATION:
            return _("{card} from the {suit} Ace foundation {onto}", card=word, suit=suit, onto=onto)
        if source in PAIRS:
            return _("{card} from the {suit} King foundation {onto}", card=word, suit=suit, onto=onto)
        if source in COLUMNS:
            return _("{card} from column {column} {onto}", card=word, column=source, onto=onto)
        return _("{card} from the arch {onto}", card=word, onto=onto)

    def whereabouts(self, card: int) -> str:
        """Where a card's copies are, in words, the most available first."""
        word = CARD_WORDS[card]
        places = self._places(card)
        if not places:
            return _("Both {card} are on the foundations already", card=word)

        def said(place: tuple[str, int]) -> Text:
            pile, above = place
            if pile not in COLUMNS:
                return _("in the arch")
            if above == 0:
                return _("the exposed card of column {column}", column=pile)
            return n_("in column {column} under {n} card", "in column {column} under {n} cards", above, column=pile)

        if len(places) == 1:
            return _("{card} is {where}", card=word, where=said(places[0]))
        return _("{card} is {where}, the other {other}", card=word, where=said(places[0]), other=said(places[1]))

    def why_buried_card_stays(self, card: int) -> str:
        return _("{where}: only the exposed card of a column moves", where=self.whereabouts(card))

    def is_safe_up(self, move: Move) -> bool:
        """Whether a legal foundation move can never cost a win, so Auto may play it.

        Safe once the suit's two foundations have passed each other (the Ace foundation's top
        at or above the King foundation's): from then on no reversing is possible, each card of
        the suit still out has one place to go, in a fixed order, and playing it early only
        frees what lay under it (docs/archway.md §7). Reversing moves are never safe.
        """
        if move.target not in (ACE_FOUNDATION, KING_FOUNDATION) or move.source in PAIRS:
            return False
        suit = self.moved_card(move) & 3
        return self._up[suit] + self._down[suit] >= 14


__all__ = ["COLUMN_COUNT", "COLUMN_DEPTH", "DECK", "KIT", "ArchwayGame", "RawArchway"]
