"""Archway's piles by name, and checking a move: whether it is legal, its canonical form, and why not.

:meth:`ArchwayGame.validate <gatebot.rules.archway.ArchwayGame.validate>` hands over to
:func:`validate` here. The names a move gives the piles (columns, arch cards, a suit's pair
of foundations) and the interned moves between them are defined here too, for the game's
move generation, its move language and the position reader to share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.rules.cards import CARD_PRETTY, CARD_TEXT
from gatebot.rules.errors import AmbiguousMove, IllegalMove, quoted
from gatebot.rules.move import ACE_FOUNDATION, ARCH_PACKET, FOUNDATION, KING_FOUNDATION, Move

if TYPE_CHECKING:
    from gatebot.rules.archway import ArchwayGame

COLUMN_COUNT = 4
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: The columns' names in moves and on their lines: ``1`` to ``4``.
COLUMNS = tuple(str(i + 1) for i in range(COLUMN_COUNT))
#: An arch card as a move's source is its name in lower case (``7h``, ``th``).
CARD_NAMES = tuple(text.lower() for text in CARD_TEXT)
CARD_BY_NAME = {name: card for card, name in enumerate(CARD_NAMES)}
#: A suit's two foundations as the source of a reversing move (``fh``).
PAIRS = tuple("f" + suit for suit in "cdhs")
SOURCES = frozenset((*COLUMNS, *CARD_NAMES, *PAIRS))
TARGETS = frozenset((*COLUMNS, ACE_FOUNDATION, KING_FOUNDATION, ARCH_PACKET, FOUNDATION))
#: One interned :class:`Move` per source and target: the canonical form of every move.
MOVES = {
    (source, target): Move(source, target)
    for source in SOURCES
    for target in (*COLUMNS, ACE_FOUNDATION, KING_FOUNDATION, ARCH_PACKET)
    if source != target
}
NO_STOCK = "Archway has no stock: every card is dealt face up at the start, so there is nothing to draw"


def validate(game: ArchwayGame, move: Move) -> Move:
    """``move`` in canonical form if it is legal in ``game``, else :class:`IllegalMove` saying why."""
    if move.is_draw:
        raise IllegalMove(NO_STOCK)
    source, target = move.source, move.target
    check_pile(game, source, as_target=False)
    check_pile(game, target, as_target=True)
    if move.count is not None and move.count != 1:
        if move.count < 1:
            raise IllegalMove("A move takes at least one card")
        if source in COLUMNS:
            raise IllegalMove(f"Only the exposed card of column {source} moves: Archway moves one card at a time")
        raise IllegalMove("Archway moves one card at a time")
    if source in PAIRS:
        return _validate_reversal(game, source, target)
    if source in COLUMNS:
        if source == target:
            raise IllegalMove(f"A card can't move from column {source} onto itself")
        column = game._columns[int(source) - 1]
        if not column:
            raise IllegalMove(f"Column {source} is empty: it is a space, with nothing to move")
        card = column[-1]
    else:
        card = CARD_BY_NAME[source]
        if card not in game._arch[card >> 2]:
            where = game.whereabouts(card) if game._places(card) else "both are on the foundations already"
            raise IllegalMove(f"There is no {CARD_PRETTY[card]} in the arch: {where}")
    if target in COLUMNS:
        if game._columns[int(target) - 1]:
            raise IllegalMove(
                f"Column {target} isn't a space: in Archway cards go only onto the foundations "
                "or into an empty column"
            )
        return MOVES[source, target]
    if target == ARCH_PACKET:
        if not game._kit:
            raise IllegalMove("Cards go back to the arch only with the kit option")
        if source not in COLUMNS:
            raise IllegalMove(f"{CARD_PRETTY[card]} is in the arch already")
        return MOVES[source, target]
    return _validate_up(game, source, target, card)


def _fits(game: ArchwayGame, card: int, target: str) -> bool:
    if target == ACE_FOUNDATION:
        return card >> 2 == game._up[card & 3]
    return card >> 2 == 12 - game._down[card & 3]


def _validate_up(game: ArchwayGame, source: str, target: str, card: int) -> Move:
    suit = SUIT_NAMES[card & 3]
    if target == FOUNDATION:
        fitting = [t for t in (ACE_FOUNDATION, KING_FOUNDATION) if _fits(game, card, t)]
        if len(fitting) == 1:
            return MOVES[source, fitting[0]]
        if fitting:
            up, down = CARD_PRETTY[game._up_top(card & 3)], CARD_PRETTY[game._down_top(card & 3)]
            raise AmbiguousMove(
                f"{CARD_PRETTY[card]} fits both {suit} foundations: say {source}a (onto {up}) "
                f"or {source}k (onto {down})",
                (f"{source}a", f"{source}k"),
            )
        raise IllegalMove(
            f"{CARD_PRETTY[card]} can't go up yet: the {suit} Ace foundation {_wants(game, card & 3, True)} "
            f"and the King foundation {_wants(game, card & 3, False)}"
        )
    if _fits(game, card, target):
        return MOVES[source, target]
    ace = target == ACE_FOUNDATION
    raise IllegalMove(
        f"{CARD_PRETTY[card]} can't go on the {suit} {'Ace' if ace else 'King'} foundation: it "
        f"{_wants(game, card & 3, ace)}"
    )


def _wants(game: ArchwayGame, suit: int, ace: bool) -> str:
    """What one foundation takes next, in words (``is at 4♥ and takes 5♥ next``)."""
    count = game._up[suit] if ace else game._down[suit]
    if count == 13:
        return "is complete"
    top = game._up_top(suit) if ace else game._down_top(suit)
    following = top + 4 if ace else top - 4
    return f"is at {CARD_PRETTY[top]} and takes {CARD_PRETTY[following]} next"


def _validate_reversal(game: ArchwayGame, source: str, target: str) -> Move:
    suit = PAIRS.index(source)
    name = SUIT_NAMES[suit]
    if target not in (ACE_FOUNDATION, KING_FOUNDATION, FOUNDATION):
        raise IllegalMove(
            f"A card leaves the {name} foundations only for the other one (reversing), "
            f"written {source}a or {source}k"
        )
    up, down = game._up[suit], game._down[suit]
    if up + down != 13:
        tops = f"{CARD_PRETTY[game._up_top(suit)]} and {CARD_PRETTY[game._down_top(suit)]}"
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
            return MOVES[source, directions[0]]
        raise AmbiguousMove(
            f"Reverse which way? Say {source}k (from the Ace foundation) or {source}a (from the King foundation)",
            (f"{source}k", f"{source}a"),
        )
    if target not in directions:
        kind, base = ("Ace", suit) if target == KING_FOUNDATION else ("King", 48 + suit)
        raise IllegalMove(
            f"{CARD_PRETTY[base]} is the base of the {name} {kind} foundation: the bases stay where they are"
        )
    return MOVES[source, target]


def check_pile(game: ArchwayGame, name: str, *, as_target: bool) -> None:
    """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
    if name in (TARGETS if as_target else SOURCES):
        return
    if name.isdigit():
        raise IllegalMove(f"Column {name} doesn't exist: Archway has columns 1–{COLUMN_COUNT}")
    if name in ("l", "r"):
        raise IllegalMove("Archway has no reserves: its cards are in the columns and the arch")
    if name == "w":
        raise IllegalMove("Archway has no waste: every card is dealt face up at the start")
    if as_target:
        if name in SOURCES:
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
