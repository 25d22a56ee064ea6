"""Canfield: a reserve of 13, foundations from a dealt base rank, four tableau piles, the stock in threes.

``docs/canfield.md`` is the contract: the deal layout, the notation and the position text.
The engine keeps Gate's shape (:mod:`gatebot.rules.gate`): plain lists of card indices, moves
applied in place and recorded for undo, moves interned so generating them allocates little.

Two facts of the rules are kept as invariants, checked when a position is read: every tableau
pile is a properly built run (cards only ever join a pile by fitting its top), and a tableau
pile is never empty while the reserve holds a card (the reserve fills it at once).

The position text is read and written in :mod:`gatebot.rules.canfield.position`, and a move
is checked, with the sentence that refuses it, in :mod:`gatebot.rules.canfield.checks`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Self

from gatebot.messages import _, n_
from gatebot.rules.canfield import checks as canfield_checks
from gatebot.rules.canfield.checks import (
    HIDDEN_RESERVE,
    HIDDEN_STOCK,
    KEY,
    PILE_COUNT,
    PILE_NAMES,
    PLAIN,
    SOURCES,
    TAKES,
)
from gatebot.rules.canfield.position import IDLE, read_position, write_position
from gatebot.rules.cards import CARD_WORDS, CARDS, Card
from gatebot.rules.deal import shuffled_deck
from gatebot.rules.errors import IllegalMove, UnknownVariant
from gatebot.rules.game import Game, RuleOption
from gatebot.rules.move import DRAW, FOUNDATION, Move

DRAW_ONE = "draw-one"
PASSES_1 = "passes-1"
PASSES_2 = "passes-2"
PARTIAL_MOVES = "partial-moves"
RESERVE_SIZE = 13
#: Passes through the stock turning one card at a time, unless passes-1 or passes-2 says fewer.
DRAW_ONE_PASSES = 3
_OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))  # suits of the other colour, for C D H S

# Undo records: (kind, source, target, count, card, filled, offered before the move).
_TURN, _REDEAL, _CARD = 0, 1, 2


@dataclass(frozen=True, slots=True)
class RawCanfield:
    """A Canfield position as card indices, for search code that keeps its own copy.

    ``base`` is the base rank (0 for Ace … 12 for King); ``foundations`` are card counts per
    suit (C D H S); ``stock`` lists the next card to turn *last*; the other piles are bottom
    to top. ``passes_left`` is how many more times the waste may be turned over (None: no limit).
    """

    base: int
    reserve: tuple[int, ...]
    foundations: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    waste: tuple[int, ...]
    stock: tuple[int, ...]
    draw: int
    passes_left: int | None
    partial_moves: bool


class CanfieldGame(Game):
    """Canfield: 13 in the reserve, one base card up, four tableau piles, the rest the stock."""

    name = "canfield"
    title = "Canfield"
    aliases = ("demon",)
    family = "canfield"
    rule_options = (
        RuleOption(DRAW_ONE, _("turn the stock one card at a time (3 passes)")),
        RuleOption(PASSES_1, _("with draw-one: one pass through the stock instead of 3")),
        RuleOption(PASSES_2, _("with draw-one: two passes through the stock instead of 3")),
        RuleOption(PARTIAL_MOVES, _("part of a pile may move, not only the whole pile")),
    )

    __slots__ = (
        "_base",
        "_draw",
        "_foundations",
        "_history",
        "_moves",
        "_offered",
        "_partial",
        "_pass",
        "_pass_limit",
        "_piles",
        "_reserve",
        "_reserve_hidden",
        "_stock",
        "_stock_hidden",
        "_waste",
        "deal",
        "options",
    )

    def __init__(self, options: tuple[str, ...] = (), deal: int | None = None) -> None:
        self.deal = deal
        self.options = options
        self._draw = 1 if DRAW_ONE in options else 3
        self._pass_limit: int | None = None
        if DRAW_ONE in options:
            self._pass_limit = 1 if PASSES_1 in options else 2 if PASSES_2 in options else DRAW_ONE_PASSES
        self._partial = PARTIAL_MOVES in options
        self._base = 0
        self._reserve: list[int] = []
        self._foundations: list[int] = [0, 0, 0, 0]
        self._piles: list[list[int]] = [[] for _ in range(PILE_COUNT)]
        self._waste: list[int] = []
        self._stock: list[int] = []  # next card to turn last, so a turn is a pop()
        self._stock_hidden = False
        self._reserve_hidden = 0  # how many reserve cards, from the bottom, a view doesn't know
        self._pass = 1
        self._offered = True  # a card could move at some point of this pass
        self._history: list[tuple[int, str, str, int, int, bool, bool]] = []
        self._moves: list[Move] = []

    # -- construction -------------------------------------------------------------------

    @classmethod
    def check_options(cls, options: Iterable[str]) -> tuple[str, ...]:
        """Validate option names, and that passes-1 or passes-2 comes alone and with draw-one."""
        chosen = super().check_options(options)
        if PASSES_1 in chosen and PASSES_2 in chosen:
            raise UnknownVariant(_("Canfield takes one of passes-1 and passes-2, not both"))
        if (PASSES_1 in chosen or PASSES_2 in chosen) and DRAW_ONE not in chosen:
            raise UnknownVariant(
                _("passes-1 and passes-2 go with draw-one: turning three at a time, the passes are unlimited")
            )
        return chosen

    @classmethod
    def _new(cls, deal: int, options: tuple[str, ...]) -> Self:
        cards = shuffled_deck(deal)
        game = cls(options, deal)
        game._reserve = cards[:RESERVE_SIZE]
        base_card = cards[RESERVE_SIZE]
        game._base = base_card >> 2
        game._foundations[base_card & 3] = 1
        first_pile = RESERVE_SIZE + 1
        game._piles = [[card] for card in cards[first_pile : first_pile + PILE_COUNT]]
        game._stock = cards[first_pile + PILE_COUNT :][::-1]
        game._offered = game._has_card_move()
        return game

    @classmethod
    def _from_lines(cls, lines: list[str], options: tuple[str, ...]) -> Self:
        game = cls(options)
        read_position(game, lines)
        return game

    def copy(self) -> Self:
        other = type(self)(self.options, self.deal)
        other._base = self._base
        other._reserve = self._reserve[:]
        other._foundations = self._foundations[:]
        other._piles = [pile[:] for pile in self._piles]
        other._waste = self._waste[:]
        other._stock = self._stock[:]
        other._stock_hidden = self._stock_hidden
        other._reserve_hidden = self._reserve_hidden
        other._pass = self._pass
        other._offered = self._offered
        other._history = self._history[:]
        other._moves = self._moves[:]
        return other

    # -- reading the position -----------------------------------------------------------

    def to_text(self, *, hide_stock: bool = False) -> str:
        """The position text; ``hide_stock`` writes what a player sees (see the docs).

        That is the reserve as ``R: ?n`` and its top card, and the stock as ``S: ?n`` in the first pass only.
        """
        return write_position(self, hide_stock=hide_stock)

    def _foundation_top(self, suit: int) -> int:
        return ((self._base + self._foundations[suit] - 1) % 13) * 4 + suit

    @property
    def base_rank(self) -> int:
        """The rank every foundation starts from, 1 (Ace) to 13 (King)."""
        return self._base + 1

    @property
    def reserve(self) -> tuple[Card, ...]:
        """The reserve, bottom to top (only the top card is face up in play)."""
        return tuple(CARDS[c] for c in self._reserve)

    @property
    def foundations(self) -> tuple[Card | None, ...]:
        """The top card of each foundation in suit order C D H S (None when empty)."""
        return tuple(CARDS[self._foundation_top(s)] if n else None for s, n in enumerate(self._foundations))

    @property
    def foundation_counts(self) -> tuple[int, ...]:
        """How many cards each foundation holds, in suit order C D H S."""
        return tuple(self._foundations)

    def foundation_heights(self) -> tuple[int, ...]:
        """Each foundation's count up from the deal's base rank, C D H S."""
        return self.foundation_counts

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """The four tableau piles, bottom to top; an empty one is a space."""
        return tuple(tuple(CARDS[c] for c in pile) for pile in self._piles)

    @property
    def waste(self) -> tuple[Card, ...]:
        """The waste, bottom to top."""
        return tuple(CARDS[c] for c in self._waste)

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    def _reveals_reserve(self, move: Move) -> bool:
        """Whether ``move`` turns up the reserve's next card: it takes the top one, or empties a pile."""
        if move.is_draw or not self._reserve:
            return False
        if move.source == "r":
            return True
        if not move.source.isdigit():
            return False
        pile = self._piles[int(move.source) - 1]
        return bool(pile) and self.cards_moved(move) >= len(pile)

    @property
    def hidden_count(self) -> int:
        """How many cards its player can't see: the reserve under its top, and the stock in the first pass."""
        stock = len(self._stock) if self._pass == 1 or self._stock_hidden else 0
        return max(0, len(self._reserve) - 1) + stock

    @property
    def reserve_known(self) -> bool:
        """False for a position read from ``R: ?n TOP``, whose reserve under its top is unknown."""
        return not self._reserve_hidden

    @property
    def stock_known(self) -> bool:
        """False for a position read from ``S: ?n``, whose stock order is unknown."""
        return not self._stock_hidden

    @property
    def draw_count(self) -> int:
        """How many cards a turn of the stock takes: 3, or 1 with draw-one."""
        return self._draw

    @property
    def pass_number(self) -> int:
        """Which pass through the stock this is, from 1."""
        return self._pass

    @property
    def passes_left(self) -> int | None:
        """How many more times the waste may be turned over (None: as often as you like)."""
        return None if self._pass_limit is None else self._pass_limit - self._pass

    @property
    def pass_idle(self) -> bool:
        """True while no card could move at any point of this pass through the stock."""
        return not self._offered

    def raw(self) -> RawCanfield:
        """The position as card indices (a copy), for search code."""
        return RawCanfield(
            self._base,
            tuple(self._reserve),
            tuple(self._foundations),
            tuple(tuple(pile) for pile in self._piles),
            tuple(self._waste),
            tuple(self._stock),
            self._draw,
            self.passes_left,
            self._partial,
        )

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

    def _fits_up(self, card: int) -> bool:
        count = self._foundations[card & 3]
        return count < 13 and card >> 2 == (self._base + count) % 13

    def _run_length(self, pile: list[int]) -> int:
        """How many cards at the top of ``pile`` form a properly built run."""
        depth = 1 if pile else 0
        while depth < len(pile) and TAKES[pile[-depth - 1]] == KEY[pile[-depth]]:
            depth += 1
        return depth

    def _depths(self, pile: list[int], top: int) -> list[int]:
        """The numbers of cards from the top of tableau ``pile`` that may move onto card ``top``."""
        wanted = TAKES[top]
        if not self._partial:
            return [len(pile)] if KEY[pile[0]] == wanted else []
        return [d for d in range(1, self._run_length(pile) + 1) if KEY[pile[-d]] == wanted]

    def _card_moves(self) -> list[Move]:
        """Every legal move but the turn of the stock, foundation plays first."""
        up: list[Move] = []
        out: list[Move] = []
        piles = self._piles
        for source, pile in (("r", self._reserve), ("w", self._waste)):
            if not pile:
                continue
            card = pile[-1]
            if self._fits_up(card):
                up.append(PLAIN[source, FOUNDATION])
            for name, target in zip(PILE_NAMES, piles, strict=True):
                if target:
                    if TAKES[target[-1]] == KEY[card]:
                        out.append(PLAIN[source, name])
                elif source == "w" and not self._reserve:
                    out.append(PLAIN[source, name])
        for source, pile in zip(PILE_NAMES, piles, strict=True):
            if not pile:
                continue
            if self._fits_up(pile[-1]):
                up.append(PLAIN[source, FOUNDATION])
            for name, target in zip(PILE_NAMES, piles, strict=True):
                if name == source or not target:
                    continue
                depths = self._depths(pile, target[-1])
                if len(depths) == 1:
                    out.append(PLAIN[source, name])
                else:
                    out.extend(Move(source, name, depth) for depth in depths)
        up.extend(out)
        return up

    def _has_card_move(self) -> bool:
        return bool(self._card_moves())

    def _can_turn_over(self) -> bool:
        """Whether ``d`` with the stock out would turn the waste over for another pass."""
        more = self._pass_limit is None or self._pass < self._pass_limit
        return bool(self._waste) and more and self._offered

    def legal_moves(self) -> list[Move]:
        moves = self._card_moves()
        if self._stock or self._can_turn_over():
            moves.append(DRAW)
        return moves

    def has_legal_move(self) -> bool:
        return bool(self._stock) or self._can_turn_over() or self._has_card_move()

    # -- checking a move ----------------------------------------------------------------

    def validate(self, move: Move) -> Move:
        return canfield_checks.validate(self, move)

    def check_pile(self, name: str, *, as_target: bool) -> None:
        """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
        canfield_checks.check_pile(self, name, as_target=as_target)

    # -- playing ------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        offered = self._offered
        if self._reserve_hidden and self._reveals_reserve(move):
            raise IllegalMove(HIDDEN_RESERVE)
        if move.is_draw:
            if self._stock:
                if self._stock_hidden:
                    raise IllegalMove(HIDDEN_STOCK)
                count = min(self._draw, len(self._stock))
                for _ in range(count):
                    self._waste.append(self._stock.pop())
                self._history.append((_TURN, "", "", count, -1, False, offered))
                if not offered:
                    self._offered = self._has_card_move()
            else:
                self._stock = self._waste[::-1]
                self._waste = []
                self._pass += 1
                self._history.append((_REDEAL, "", "", 0, -1, False, offered))
                self._offered = self._has_card_move()
            self._moves.append(move)
            return
        source, target = move.source, move.target
        pile = self._source_pile(source)
        if target == FOUNDATION:
            count = 1
            card = pile.pop()
            self._foundations[card & 3] += 1
        else:
            destination = self._piles[int(target) - 1]
            if not source.isdigit():
                count = 1
            elif move.count is not None:
                count = move.count
            elif not self._partial:
                count = len(pile)
            else:
                wanted = TAKES[destination[-1]]
                count = 1
                while KEY[pile[-count]] != wanted:
                    count += 1
            card = pile[-count]
            destination.extend(pile[-count:])
            del pile[-count:]
        filled = not pile and source.isdigit() and bool(self._reserve)
        if filled:
            pile.append(self._reserve.pop())
        self._history.append((_CARD, source, target, count, card, filled, offered))
        self._offered = True
        self._moves.append(move)

    def undo(self) -> Move:
        if not self._history:
            raise IllegalMove(_("There is no move to take back"))
        kind, source, target, count, card, filled, offered = self._history.pop()
        move = self._moves.pop()
        self._offered = offered
        if kind == _TURN:
            for _turn in range(count):
                self._stock.append(self._waste.pop())
        elif kind == _REDEAL:
            self._waste = self._stock[::-1]
            self._stock = []
            self._pass -= 1
        else:
            pile = self._source_pile(source)
            if filled:
                self._reserve.append(pile.pop())
            if target == FOUNDATION:
                self._foundations[card & 3] -= 1
                pile.append(card)
            else:
                destination = self._piles[int(target) - 1]
                pile.extend(destination[-count:])
                del destination[-count:]
        return move

    @property
    def last_move_showed_stock(self) -> bool:
        """Whether the last move turned up stock cards never seen before (a turn in the first pass).

        Taking such a move back would hide cards the player has already seen. From the
        second pass on, the stock is the turned-over waste, every card of it seen already.
        """
        return bool(self._history) and self._history[-1][0] == _TURN and self._pass == 1

    # -- helpers for the move language and Auto -----------------------------------------

    def _source_pile(self, name: str) -> list[int]:
        if name == "r":
            return self._reserve
        if name == "w":
            return self._waste
        return self._piles[int(name) - 1]

    def locate(self, card: int) -> tuple[str, int] | None:
        """Where a card its player sees is: (pile name, cards above it).

        None for a card on a foundation, in the stock, or face down in the reserve: of the
        reserve only the top card is seen, so a card under it has no place a player could know.
        """
        for name, pile in zip(PILE_NAMES, self._piles, strict=True):
            if card in pile:
                return name, len(pile) - 1 - pile.index(card)
        if self._reserve and self._reserve[-1] == card:
            return "r", 0
        if card in self._waste:
            return "w", len(self._waste) - 1 - self._waste.index(card)
        return None

    def _stock_unseen(self) -> bool:
        """Whether its player can't see the stock's order: in the first pass, or in a view that hides it."""
        return self._pass == 1 or self._stock_hidden

    def top_card(self, pile: str) -> int | None:
        """The top card of a tableau pile, the reserve or the waste (None when empty or no such pile)."""
        if pile not in SOURCES:
            return None
        cards = self._source_pile(pile)
        return cards[-1] if cards else None

    def moved_card(self, move: Move) -> int:
        """The deepest card a legal, canonical move carries (the card that lands on the target).

        For ``d`` it is the first card the turn takes: the next stock card, or with the stock
        out the bottom card of the waste, which turning over makes the next to come.
        """
        if move.is_draw:
            return self._stock[-1] if self._stock else self._waste[0]
        pile = self._source_pile(move.source)
        if move.target == FOUNDATION or not move.source.isdigit():
            return pile[-1]
        if move.count is not None:
            return pile[-move.count]
        destination = self._piles[int(move.target) - 1]
        return pile[-self._depths(pile, destination[-1])[0]]

    def pile_label(self, name: str) -> str:
        if name == "r":
            return _("the reserve")
        if name == "w":
            return _("the waste")
        return _("pile {number}", number=name)

    def describe(self, move: Move) -> str:
        """A legal move in words, as the move language words it (``6♦ from pile 3 onto 7♣ in pile 1``), marked.

        Each sentence whole, so a language can word it its own way; a draw is the move language's.
        """
        if move.is_draw:
            return _("draw from the stock")
        card, where = CARD_WORDS[self.moved_card(move)], self.pile_label(move.source)
        if move.target == FOUNDATION:
            return _("{card} from {pile} to the foundation", card=card, pile=where)
        top, onto = self.top_card(move.target), self.pile_label(move.target)
        count = self.cards_moved(move)
        if top is None and count == 1:
            return _("{card} from {pile} onto the free space in {target}", card=card, pile=where, target=onto)
        if top is None:
            return n_("{card} and the {n} on it from {pile} onto the free space in {target}",
                      "{card} and the {n} on it from {pile} onto the free space in {target}", count - 1, card=card,
                      pile=where, target=onto)
        if count == 1:
            return _("{card} from {pile} onto {top} in {target}", card=card, pile=where, top=CARD_WORDS[top],
                     target=onto)
        return n_("{card} and the {n} on it from {pile} onto {top} in {target}",
                  "{card} and the {n} on it from {pile} onto {top} in {target}", count - 1, card=card, pile=where,
                  top=CARD_WORDS[top], target=onto)

    def whereabouts(self, card: int) -> str:
        """Where a card is, in words, for a message that explains why it can't move."""
        word = CARD_WORDS[card]
        if ((card >> 2) - self._base) % 13 < self._foundations[card & 3]:
            return _("{card} is already on its foundation", card=word)
        place = self.locate(card)
        if place is None:
            if card in self._stock and not self._stock_unseen():
                return _("{card} hasn't been turned up from the stock yet", card=word)
            return self._face_down(card)
        pile, above = place
        label = self.pile_label(pile)
        if above == 0:
            return _("{card} is on top of {pile}", card=word, pile=label)
        return n_("{card} is in {pile} under {n} card", "{card} is in {pile} under {n} cards", above, card=word,
                  pile=label)

    def _face_down(self, card: int) -> str:
        """Where a card its player can't see is, in the words of what they can see.

        The sentence is the same whichever unseen place the card is in, so a refusal that names
        it can't tell its player where it lies.
        """
        reserve, stock = len(self._reserve) > 1, bool(self._stock) and self._stock_unseen()
        word = CARD_WORDS[card]
        if reserve and not stock:
            return _("{card} isn't in play yet: it is face down in the reserve", card=word)
        if stock and not reserve:
            return _("{card} isn't in play yet: it is face down in the stock", card=word)
        return _("{card} isn't in play yet: it is face down in the reserve or the stock", card=word)

    def why_buried_card_stays(self, card: int) -> str:
        """Why a card with cards on it in a tableau pile has no move, when a player names it alone."""
        where = self.whereabouts(card)
        if self._partial:
            return _("{where}, and no pile takes it with the cards on it right now", where=where)
        place = self.locate(card)
        assert place is not None
        bottom = self._source_pile(place[0])[0]
        if bottom == card:
            return _("{where}: its pile moves only as a whole, and no pile takes {card} right now", where=where,
                     card=CARD_WORDS[card])
        return _("{where}: a pile moves only as a whole, from its bottom card, {card}", where=where,
                 card=CARD_WORDS[bottom])

    def is_safe_up(self, move: Move) -> bool:
        """Whether a legal foundation move can never cost a win, so Auto may play it.

        Safe when both cards that could ever be built on it (the other colour, one rank
        lower, a King under an Ace) are up already. Never a waste card when turning three at
        a time: taking one changes which cards the later turns of the waste show.
        """
        if move.target != FOUNDATION or (move.source == "w" and self._draw > 1):
            return False
        card = self.moved_card(move)
        needed = ((card >> 2) - self._base) % 13 or 13  # cards up in a suit when the rank below is up
        first, second = _OTHER_COLOUR[card & 3]
        return self._foundations[first] >= needed and self._foundations[second] >= needed


__all__ = [
    "DRAW_ONE",
    "DRAW_ONE_PASSES",
    "IDLE",
    "KEY",
    "PARTIAL_MOVES",
    "PASSES_1",
    "PASSES_2",
    "PILE_COUNT",
    "RESERVE_SIZE",
    "TAKES",
    "CanfieldGame",
    "RawCanfield",
]
