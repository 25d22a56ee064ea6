"""Archway's piles by name, and checking a move: whether it is legal, its canonical form, and why not.

:meth:`ArchwayGame.validate <gatebot.rules.archway.ArchwayGame.validate>` hands over to
:func:`validate` here. The names a move gives the piles (columns, arch cards, a suit's pair
of foundations) and the interned moves between them are defined here too, for the game's
move generation, its move language and the position reader to share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.messages import Text, _
from gatebot.rules.cards import CARD_TEXT, CARD_WORDS
from gatebot.rules.errors import AmbiguousMove, IllegalMove, quoted
from gatebot.rules.move import ACE_FOUNDATION, ARCH_PACKET, FOUNDATION, KING_FOUNDATION, Move

if TYPE_CHECKING:
    from gatebot.rules.archway import ArchwayGame

COLUMN_COUNT = 4
SUIT_NAMES = (_("clubs"), _("diamonds"), _("hearts"), _("spades"))
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
NO_STOCK = _("Archway has no stock: every card is dealt face up at the start, so there is nothing to draw")


def validate(game: ArchwayGame, move: Move) -> Move:
    """``move`` in canonical form if it is legal in ``game``, else :class:`IllegalMove` saying why."""
    if move.is_draw:
        raise IllegalMove(NO_STOCK)
    source, target = move.source, move.target
    check_pile(game, source, as_target=False)
    check_pile(game, target, as_target=True)
    if move.count is not None and move.count != 1:
        if move.count < 1:
            raise IllegalMove(_("A move takes at least one card"))
        if source in COLUMNS:
            raise IllegalMove(_("Only the exposed card of column {column} moves: Archway moves one card at a time",
                                    column=source))
        raise IllegalMove(_("Archway moves one card at a time"))
    if source in PAIRS:
        return _validate_reversal(game, source, target)
    if source in COLUMNS:
        if source == target:
            raise IllegalMove(_("A card can't move from column {column} onto itself", column=source))
        column = game._columns[int(source) - 1]
        if not column:
            raise IllegalMove(_("Column {column} is empty: it is a space, with nothing to move", column=source))
        card = column[-1]
    else:
        card = CARD_BY_NAME[source]
        if card not in game._arch[card >> 2]:
            where = game.whereabouts(card) if game._places(card) else _("both are on the foundations already")
            raise IllegalMove(_("There is no {card} in the arch: {where}", card=CARD_WORDS[card], where=where))
    if target in COLUMNS:
        if game._columns[int(target) - 1]:
            raise IllegalMove(
                _("Column {column} isn't a space: in Archway cards go only onto the foundations "
                  "or into an empty column", column=target)
            )
        return MOVES[source, target]
    if target == ARCH_PACKET:
        if not game._kit:
            raise IllegalMove(_("Cards go back to the arch only with the kit option"))
        if source not in COLUMNS:
            raise IllegalMove(_("{card} is in the arch already", card=CARD_WORDS[card]))
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
            up, down = CARD_WORDS[game._up_top(card & 3)], CARD_WORDS[game._down_top(card & 3)]
            raise AmbiguousMove(
                _("{card} fits both {suit} foundations: say {ace} (onto {up}) or {king} (onto {down})",
                  card=CARD_WORDS[card], suit=suit, ace=source + "a", up=up, king=source + "k", down=down),
                (f"{source}a", f"{source}k"),
            )
        raise IllegalMove(
            _("{card} can't go up yet: the {suit} Ace foundation {ace} and the King foundation {king}",
              card=CARD_WORDS[card], suit=suit, ace=_wants(game, card & 3, True), king=_wants(game, card & 3, False))
        )
    if _fits(game, card, target):
        return MOVES[source, target]
    if target == ACE_FOUNDATION:
        raise IllegalMove(_("{card} can't go on the {suit} Ace foundation: it {wants}", card=CARD_WORDS[card],
                            suit=suit, wants=_wants(game, card & 3, True)))
    raise IllegalMove(_("{card} can't go on the {suit} King foundation: it {wants}", card=CARD_WORDS[card],
                        suit=suit, wants=_wants(game, card & 3, False)))


def _wants(game: ArchwayGame, suit: int, ace: bool) -> Text:
    """What one foundation takes next, in words (``is at 4♥ and takes 5♥ next``)."""
    count = game._up[suit] if ace else game._down[suit]
    if count == 13:
        return _("is complete")
    top = game._up_top(suit) if ace else game._down_top(suit)
    following = top + 4 if ace else top - 4
    return _("is at {top} and takes {next} next", top=CARD_WORDS[top], next=CARD_WORDS[following])


def _validate_reversal(game: ArchwayGame, source: str, target: str) -> Move:
    suit = PAIRS.index(source)
    name = SUIT_NAMES[suit]
    if target not in (ACE_FOUNDATION, KING_FOUNDATION, FOUNDATION):
        raise IllegalMove(
            _("A card leaves the {suit} foundations only for the other one (reversing), written {ace} or {king}",
              suit=name, ace=source + "a", king=source + "k")
        )
    up, down = game._up[suit], game._down[suit]
    if up + down != 13:
        ace, king = CARD_WORDS[game._up_top(suit)], CARD_WORDS[game._down_top(suit)]
        if up + down > 13:
            raise IllegalMove(
                _("The {suit} foundations have passed each other ({ace} and {king} on top), so nothing moves "
                  "between them", suit=name, ace=ace, king=king)
            )
        raise IllegalMove(
            _("The {suit} foundations haven't met: reversing needs the Ace foundation's top one below "
              "the King foundation's ({ace} and {king} now)", suit=name, ace=ace, king=king)
        )
    directions = [t for t, size in ((KING_FOUNDATION, up), (ACE_FOUNDATION, down)) if size > 1]
    if target == FOUNDATION:
        if len(directions) == 1:
            return MOVES[source, directions[0]]
        raise AmbiguousMove(
            _("Reverse which way? Say {king} (from the Ace foundation) or {ace} (from the King foundation)",
              king=source + "k", ace=source + "a"),
            (f"{source}k", f"{source}a"),
        )
    if target not in directions:
        if target == KING_FOUNDATION:
            raise IllegalMove(_("{card} is the base of the {suit} Ace foundation: the bases stay where they are",
                                card=CARD_WORDS[suit], suit=name))
        raise IllegalMove(_("{card} is the base of the {suit} King foundation: the bases stay where they are",
                            card=CARD_WORDS[48 + suit], suit=name))
    return MOVES[source, target]


def check_pile(game: ArchwayGame, name: str, *, as_target: bool) -> None:
    """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
    if name in (TARGETS if as_target else SOURCES):
        return
    if name.isdigit():
        raise IllegalMove(_("Column {column} doesn't exist: Archway has columns 1–{last}", column=name,
                              last=COLUMN_COUNT))
    if name in ("l", "r"):
        raise IllegalMove(_("Archway has no reserves: its cards are in the columns and the arch"))
    if name == "w":
        raise IllegalMove(_("Archway has no waste: every card is dealt face up at the start"))
    if as_target:
        if name in SOURCES:
            raise IllegalMove(
                _("A card goes onto a foundation (a or k), into an empty column or, with kit, to the arch")
            )
    elif name in (FOUNDATION, ACE_FOUNDATION, KING_FOUNDATION):
        raise IllegalMove(_("A card leaves a foundation only for the other one of its suit, written like fhk or fha"))
    elif name == ARCH_PACKET:
        raise IllegalMove(_("Name the card of the arch that moves, like 7h"))
    if not name:
        raise IllegalMove(_("Say where the card goes: a or k for its Ace or King foundation, or an empty column"))
    raise IllegalMove(_("Archway has no pile called {name}", name=quoted(name)))
