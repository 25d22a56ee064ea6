"""Why a move is worth playing, in one sentence a player learns from.

Every hint comes with one sentence: the move in words, then, after a colon, what it achieves
("Play 7♣ from column 3 onto 8♥: it empties column 3, which pulls the K♦ off the left
gatepost and uncovers the A♠ there"). The sentence is built from what the player sees —
the columns, the two gateposts (the reserves), the waste, the foundations and how many
cards the stock holds — and never from the stock's order: the consequences of a move are
worked out on a copy of that visible table, not by playing the move, so the sentence is the
same whether the stock is listed or hidden (``S: ?n``), and a draw is explained without
looking at the card it turns.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gatebot.messages import N_, Text, _, joined
from gatebot.rules import GateGame, Move
from gatebot.rules.autoplay import is_safe_up
from gatebot.rules.cards import CARD_WORDS
from gatebot.rules.gate import ACCEPTS, KEY, SINGLE_MOVES, STOCK_FILL
from gatebot.rules.move import FOUNDATION

#: The length a sentence should stay within; lesser reasons are left out to keep to it.
LIMIT = 160
#: At most this many reasons follow the colon: more reads as a list, not a lesson.
MAX_REASONS = 2
#: Stands for a card filled in from the stock, which the sentence must not know.
_UNSEEN = -1
_GATEPOSTS = (_("the left gatepost"), _("the right gatepost"))
#: Between two reasons of one hint.
_AND = N_(", and ")
_KING = 12


class _Fill(enum.Enum):
    """What filled the column a move emptied (NONE: the move emptied no column)."""

    NONE = enum.auto()
    LEFT = enum.auto()
    RIGHT = enum.auto()
    WASTE = enum.auto()
    STOCK = enum.auto()
    FREE = enum.auto()


@dataclass(slots=True)
class _Table:
    """The visible table as card indices: everything but the stock's order.

    Piles are bottom to top; ``foundations`` counts cards per suit (C D H S). A column
    filled from the stock holds :data:`_UNSEEN`.
    """

    reserves: list[list[int]]
    foundations: list[int]
    columns: list[list[int]]
    waste: list[int]
    stock: int
    single: bool
    stock_fill: bool

    @classmethod
    def of(cls, game: GateGame) -> _Table:
        """Read the table through the public, order-free views of ``game``."""
        left, right = game.reserves
        return cls(
            reserves=[[c.index for c in left], [c.index for c in right]],
            foundations=[0 if top is None else top.rank for top in game.foundations],
            columns=[[c.index for c in column] for column in game.columns],
            waste=[c.index for c in game.waste],
            stock=game.stock_count,
            single=SINGLE_MOVES in game.options,
            stock_fill=STOCK_FILL in game.options,
        )

    def copy(self) -> _Table:
        return _Table(
            [self.reserves[0][:], self.reserves[1][:]],
            self.foundations[:],
            [column[:] for column in self.columns],
            self.waste[:],
            self.stock,
            self.single,
            self.stock_fill,
        )

    def pile(self, name: str) -> list[int]:
        """The pile a move names as its source: a column ``1``-``8``, ``l``, ``r`` or ``w``."""
        if name == "l":
            return self.reserves[0]
        if name == "r":
            return self.reserves[1]
        if name == "w":
            return self.waste
        return self.columns[int(name) - 1]

    def run_length(self, column: list[int]) -> int:
        """How many cards at the top of ``column`` form a run that moves as one."""
        if not column or column[-1] == _UNSEEN:
            return 0
        if self.single:
            return 1
        depth = 1
        while depth < len(column):
            below = column[-depth - 1]
            if below == _UNSEEN or ACCEPTS[below] != KEY[column[-depth]]:
                break
            depth += 1
        return depth

    def goes_up(self, card: int) -> bool:
        """Whether ``card`` is the next card its foundation needs."""
        return self.foundations[card & 3] == card >> 2

    def playable_tops(self) -> list[tuple[int, str]]:
        """Cards a player can pick up now, each with where it is in words."""
        found: list[tuple[int, str]] = [
            (column[-1], _("column {number}", number=i + 1)) for i, column in enumerate(self.columns)
            if column and column[-1] != _UNSEEN
        ]
        for gatepost, reserve in zip(_GATEPOSTS, self.reserves, strict=True):
            if reserve:
                found.append((reserve[-1], gatepost))
        if self.waste:
            found.append((self.waste[-1], _("the waste")))
        return found


@dataclass(frozen=True, slots=True)
class _Effect:
    """What one move does to the visible table."""

    card: int  # the deepest card moved: the one that lands on the target
    count: int  # how many cards moved
    onto: int | None  # the card it lands on; None for a foundation or a free space
    fill: _Fill
    filled: int | None  # the card that filled the emptied column, when it is known
    after: _Table


def explain(game: GateGame, move: Move, *, why: str | None = None) -> str:
    """One sentence saying what ``move`` does in ``game`` and why it helps.

    ``move`` must be legal and canonical in ``game``. The sentence names only cards the
    player can see, so it can be shown before the move, whatever the stock holds. ``why``,
    when given, is the reason said after the move instead of the one read off the table: the
    solver's, when what it found matters more (the most cards that can still go home).
    """
    table = _Table.of(game)
    if move.is_draw:
        if why is not None:
            return Text.of_parts((_draw_action(table), why), ": ")
        return _compose(_draw_action(table), _draw_reasons(table, game.legal_moves()))
    effect = _apply(table, move)
    if why is not None:
        return Text.of_parts((_action(move, effect), why), ": ")
    reasons = [
        *_source_reasons(move, effect),
        *_foundation_reasons(table, move, effect),
        *_target_reasons(move, effect),
    ]
    return _compose(_action(move, effect), reasons or [[_("it keeps the game moving")]])


# -- working out the move ---------------------------------------------------------------


def _apply(table: _Table, move: Move) -> _Effect:
    """Play ``move`` on a copy of the visible table, auto-fill included (docs/rules.md#filling-an-emptied-column)."""
    after = table.copy()
    pile = after.pile(move.source)
    if move.target == FOUNDATION:
        count, onto = 1, None
    else:
        destination = after.columns[int(move.target) - 1]
        if destination:
            onto = destination[-1]
            count = 1
            while KEY[pile[-count]] != ACCEPTS[onto]:
                count += 1
        else:
            onto = None
            count = move.count or 1
    card = pile[-count]
    moved = pile[-count:]
    del pile[-count:]
    if move.target == FOUNDATION:
        after.foundations[card & 3] += 1
    else:
        after.columns[int(move.target) - 1].extend(moved)
    fill, filled = _Fill.NONE, None
    if move.source.isdigit() and not pile:
        fill, filled = _fill(after, pile)
    return _Effect(card, count, onto, fill, filled, after)


def _fill(table: _Table, column: list[int]) -> tuple[_Fill, int | None]:
    """Fill a just-emptied column the way the rules do, and say where its card came from."""
    left, right = table.reserves
    if left or right:
        if len(left) >= len(right):
            column.append(left.pop())
            return _Fill.LEFT, column[-1]
        column.append(right.pop())
        return _Fill.RIGHT, column[-1]
    if table.waste:
        column.append(table.waste.pop())
        return _Fill.WASTE, column[-1]
    if table.stock_fill and table.stock:
        table.stock -= 1
        column.append(_UNSEEN)
        return _Fill.STOCK, None
    return _Fill.FREE, None


# -- the sentence -----------------------------------------------------------------------


def _compose(action: str, reasons: list[list[str]]) -> str:
    """Join the action and the most important reasons that fit within :data:`LIMIT`.

    Each reason comes as variants, the most telling first and the shortest last; the first
    reason is always said (in its shortest form if nothing fits), later ones only if they fit.
    """
    chosen: list[str] = []
    length = len(action)
    for variants in reasons:
        if len(chosen) == MAX_REASONS:
            break
        joiner = _AND if chosen else ": "
        fitting = next((v for v in variants if length + len(joiner) + len(v) <= LIMIT), None)
        if fitting is None and not chosen:
            fitting = variants[-1]
        if fitting is not None:
            chosen.append(fitting)
            length += len(joiner) + len(fitting)
    if not chosen:
        return action
    # The action and the reasons stay apart, so a front end can say each in its reader's language.
    return Text.of_parts((action, joined(*chosen, sep=_AND)), ": ")


def _where(name: str) -> str:
    """A move source in the words players see."""
    if name == "l":
        return _GATEPOSTS[0]
    if name == "r":
        return _GATEPOSTS[1]
    if name == "w":
        return _("the waste")
    return _("column {number}", number=name)


def _action(move: Move, effect: _Effect) -> str:
    """The move itself: ``Play 7♣ from column 3 onto 8♥``, ``Put A♠ up from the waste``."""
    card = CARD_WORDS[effect.card]
    source = _where(move.source)
    if move.target == FOUNDATION:
        return _("Put {card} up from {source}", card=card, source=source)
    if effect.count == 1:
        what = _("Play {card}", card=card)
    elif effect.count == 2:
        what = _("Move {card} and the card on it", card=card)
    else:
        what = _("Move {card} and the {count} cards on it", card=card, count=effect.count - 1)
    if effect.onto is None:
        return _("{what} from {source} into the free space in column {column}", what=what, source=source,
                 column=move.target)
    return _("{what} from {source} onto {card}", what=what, source=source, card=CARD_WORDS[effect.onto])


def _prospects(table: _Table, card: int, home: int | None) -> list[str]:
    """What a newly freed card can do next, as endings for a clause naming it, best first.

    ``home`` is the index of the column the card tops (None for a gatepost or the waste),
    so it is not offered its own column, and only a column card can take a waiting card.
    """
    if table.goes_up(card):
        return [_(", which can then go up"), ""]
    for i, column in enumerate(table.columns):
        if i != home and column and column[-1] != _UNSEEN and ACCEPTS[column[-1]] == KEY[card]:
            return [_(", which can then go onto {card}", card=CARD_WORDS[column[-1]]), ""]
    if home is not None:
        for waiting, where in table.playable_tops():
            if not where.startswith("column") and ACCEPTS[card] == KEY[waiting]:
                return [_(", ready for the {card} from {where}", card=CARD_WORDS[waiting], where=where), ""]
    return [""]


def _source_reasons(move: Move, effect: _Effect) -> list[list[str]]:
    """What leaving the source pile does: a column emptied or uncovered, a card shown beneath."""
    after = effect.after
    if move.source.isdigit():
        index = int(move.source) - 1
        if effect.fill is not _Fill.NONE:
            return [_emptied(after, move.source, effect)]
        uncovered = after.columns[index][-1]
        text = _("it uncovers the {card}", card=CARD_WORDS[uncovered])
        return [[joined(text, ending, sep="") for ending in _prospects(after, uncovered, index)]]
    if move.source == "w":
        return _waste_reasons(after, move, effect)
    pile = after.pile(move.source)
    side = "lr".index(move.source)
    gatepost = _GATEPOSTS[side]
    if pile:
        text = _("it shows the {card} on {gatepost}", card=CARD_WORDS[pile[-1]], gatepost=gatepost)
        return [[joined(text, ending, sep="") for ending in _prospects(after, pile[-1], None)]]
    cleared = _("it clears {gatepost}", gatepost=gatepost)
    if not any(after.reserves):
        return [[
            _("it clears the last gatepost, so emptied columns take the waste's top card from now on"),
            cleared,
        ]]
    if side == 0:
        return [[_("it clears the left gatepost, so the right one fills emptied columns from now on"), cleared]]
    return [[_("it clears the right gatepost, so the left one fills emptied columns from now on"), cleared]]


def _waste_reasons(after: _Table, move: Move, effect: _Effect) -> list[list[str]]:
    """What taking the waste's top card achieves: the card beneath, and the card kept in play.

    The stock goes round once, so a waste card that stays when the next card is turned is
    buried until everything above it has been played: placing it now keeps it in play.
    """
    rescue: list[list[str]] = (
        [[_("it saves the {card} from being buried by the next draw", card=CARD_WORDS[effect.card])]]
        if move.target != FOUNDATION and after.stock else []
    )
    if not after.waste:
        if not any(after.reserves) and not after.stock_fill:
            return [*rescue, [_("it empties the waste, so a column emptied next stays a free space"),
                              _("it empties the waste")]]
        return [*rescue, [_("it empties the waste")]]
    beneath = after.waste[-1]
    text = _("it shows the {card} on the waste", card=CARD_WORDS[beneath])
    endings = _prospects(after, beneath, None)
    if len(endings) > 1:
        return [[joined(text, ending, sep="") for ending in endings], *rescue]
    return [*rescue, [text]]


def _emptied(after: _Table, column: str, effect: _Effect) -> list[str]:
    """The clause for a move that empties ``column``: what fills it, and what that shows."""
    if effect.fill is _Fill.STOCK:
        return [_("it empties column {column}, which the next stock card fills", column=column)]
    if effect.fill is _Fill.FREE:
        waiting = _king_waiting(after)
        plain = _("it empties column {column}, leaving a free space", column=column)
        if waiting:
            return [_("it empties column {column}, leaving a free space for the {king}", column=column, king=waiting),
                    plain]
        return [plain]
    assert effect.filled is not None
    filled = CARD_WORDS[effect.filled]
    if effect.fill is _Fill.WASTE:
        base = _("it empties column {column}, which takes the {card} from the waste", column=column, card=filled)
        pile = after.waste
        shown_there = N_("{base} and uncovers the {card} on the waste")
    else:
        side = 0 if effect.fill is _Fill.LEFT else 1
        base = _("it empties column {column}, which pulls the {card} off {gatepost}", column=column, card=filled,
                 gatepost=_GATEPOSTS[side])
        pile = after.reserves[side]
        shown_there = N_("{base} and uncovers the {card} there")
    if not pile:
        return [_("{base}, its last card", base=base), base]
    shown = Text(shown_there, {"base": base, "card": CARD_WORDS[pile[-1]]})
    return [joined(shown, ending, sep="") for ending in _prospects(after, pile[-1], None)] + [base]


def _king_waiting(table: _Table) -> str | None:
    """A King that a free space would help, in words (``K♠ on the waste``), if any.

    A King can rest only in a free space, so one on a gatepost, on the waste or heading a
    run with cards beneath it is waiting for one.
    """
    for gatepost, reserve in zip(_GATEPOSTS, table.reserves, strict=True):
        if reserve and reserve[-1] >> 2 == _KING:
            return _("{card} on {gatepost}", card=CARD_WORDS[reserve[-1]], gatepost=gatepost)
    if table.waste and table.waste[-1] >> 2 == _KING:
        return _("{card} on the waste", card=CARD_WORDS[table.waste[-1]])
    for i, column in enumerate(table.columns):
        run = table.run_length(column)
        if run and run < len(column) and column[-run] >> 2 == _KING:
            return _("{card} in column {column}", card=CARD_WORDS[column[-run]], column=i + 1)
    return None


def _foundation_reasons(table: _Table, move: Move, effect: _Effect) -> list[list[str]]:
    """For a card going up: the next of its suit now free to follow, and whether it is safe."""
    if move.target != FOUNDATION:
        return []
    reasons: list[list[str]] = []
    following = effect.card + 4
    if effect.card >> 2 < _KING:
        shown = effect.after.pile(move.source)[-1:]
        for card, where in effect.after.playable_tops():
            if card == following and (card not in shown or effect.fill is not _Fill.NONE):
                reasons.append([_("now {card} can follow from {where}", card=CARD_WORDS[card], where=where)])
    if effect.card < 4:
        reasons.append([_("an Ace is always safe to put up")])
    elif is_safe_up(effect.card, table.foundations):
        reasons.append([_("no card still needs the {card} to build on", card=CARD_WORDS[effect.card])])
    return reasons


def _target_reasons(move: Move, effect: _Effect) -> list[list[str]]:
    """What landing on a column sets up: a card that can follow, a longer run, a King placed."""
    if move.target == FOUNDATION:
        return []
    after = effect.after
    reasons: list[list[str]] = []
    if not move.source.isdigit():
        shown = after.pile(move.source)[-1:]
        landed = CARD_WORDS[effect.card]
        for waiting, where in after.playable_tops():
            if not where.startswith("column") and waiting not in shown and ACCEPTS[effect.card] == KEY[waiting]:
                reasons.append([_("the {card} from {where} can then go onto the {landed}", card=CARD_WORDS[waiting],
                                  where=where, landed=landed)])
                break
    if effect.onto is not None and not after.single:
        column = after.columns[int(move.target) - 1]
        run = after.run_length(column)
        if run >= 3:
            start = CARD_WORDS[column[-run]]
            if run in (8, 11):
                reasons.append([_("it builds an {run}-card run down from the {card}, to move as one later", run=run,
                                  card=start),
                                _("it builds an {run}-card run down from the {card}", run=run, card=start)])
            else:
                reasons.append([_("it builds a {run}-card run down from the {card}, to move as one later", run=run,
                                  card=start),
                                _("it builds a {run}-card run down from the {card}", run=run, card=start)])
    if effect.onto is None and effect.card >> 2 == _KING and effect.fill is _Fill.NONE:
        reasons.append([_("only a free space can take a King")])
    return reasons


# -- draws ------------------------------------------------------------------------------


def _draw_action(table: _Table) -> str:
    """The draw in words, with what the player can see of the stock: how many cards are left."""
    if table.stock == 1:
        return _("Turn the last stock card")
    return _("Turn the next stock card ({count} left)", count=table.stock)


def _draw_reasons(table: _Table, legal: list[Move]) -> list[list[str]]:
    """Why turning a card is right, honestly and without knowing what it will be.

    The reasons only say what the table offers instead: nothing, moves that can wait, or a
    waste card that has nowhere to go or is worth keeping for later.
    """
    table_moves = any(not move.is_draw and move.source != "w" for move in legal)
    waste_moves = any(move.source == "w" for move in legal)
    waste = CARD_WORDS[table.waste[-1]] if table.waste else None
    if waste is None:
        if table_moves:
            return [[_("the moves on the table can wait for a new card to build with")]]
        return [[_("nothing on the table can move")]]
    if not table_moves and not waste_moves:
        return [[_("nothing on the table can move, and the {card} on the waste has nowhere to go", card=waste)]]
    if not table_moves:
        return [[_("nothing on the table can move, and the {card} can wait on the waste", card=waste)]]
    if not waste_moves:
        return [[_("the moves on the table can wait, and the {card} on the waste has nowhere to go yet", card=waste)]]
    return [[_("the moves on the table and the {card} on the waste can wait for a new card", card=waste)]]
