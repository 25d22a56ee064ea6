"""How Canfield's cards build, and checking a move: whether it is legal, its canonical form, and why not.

:meth:`CanfieldGame.validate <gatebot.rules.canfield.CanfieldGame.validate>` hands over to
:func:`validate` here. The building keys, the piles' names and the interned moves it answers
with are defined here too, for the game's move generation and the position reader to share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.rules.cards import CARD_PRETTY, RANK_LETTERS, RED
from gatebot.rules.errors import AmbiguousMove, IllegalMove, quoted
from gatebot.rules.move import DRAW, FOUNDATION, Move

if TYPE_CHECKING:
    from gatebot.rules.canfield import CanfieldGame

PILE_COUNT = 4
#: ``KEY[c]`` identifies what a card is as a building block: its rank and colour.
KEY: tuple[int, ...] = tuple((c >> 2) * 2 + RED[c] for c in range(52))
#: ``TAKES[t]`` is the ``KEY`` of the cards that go on ``t``: one rank lower (an Ace takes a
#: King), the other colour.
TAKES: tuple[int, ...] = tuple((((c >> 2) - 1) % 13) * 2 + (not RED[c]) for c in range(52))
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: The tableau piles' names in moves and on their lines: ``1`` to ``4``.
PILE_NAMES = tuple(str(i + 1) for i in range(PILE_COUNT))
SOURCES = frozenset((*PILE_NAMES, "r", "w"))
TARGETS = frozenset((*PILE_NAMES, FOUNDATION))
#: One interned :class:`Move` per source and target: the canonical form of every move but a counted one.
PLAIN = {(s, t): Move(s, t) for s in SOURCES for t in TARGETS if s != t}
HIDDEN_STOCK = "The stock's order is unknown in this position, so no card can come from it"
HIDDEN_RESERVE = "The reserve's cards under its top are unknown in this position, so none can come out"
_IDLE_PASS = (
    "No card could move during this whole pass through the stock, so the next pass would show "
    "the same cards: the game is over"
)


def _rank_name(rank: int) -> str:
    return "10" if rank == 9 else RANK_LETTERS[rank]


def validate(game: CanfieldGame, move: Move) -> Move:
    """``move`` in canonical form if it is legal in ``game``, else :class:`IllegalMove` saying why."""
    if move.is_draw:
        return _validate_turn(game)
    source, target = move.source, move.target
    check_pile(game, source, as_target=False)
    check_pile(game, target, as_target=True)
    if source == target:
        raise IllegalMove(f"Cards can't move from pile {source} onto itself")
    pile = game._source_pile(source)
    if not pile:
        if source.isdigit():
            raise IllegalMove(f"Pile {source} is empty: it is a space, with nothing to move")
        raise IllegalMove(f"{game.pile_label(source).capitalize()} is empty")
    if move.count is not None and move.count < 1:
        raise IllegalMove("A move takes at least one card")
    if target == FOUNDATION:
        if move.count not in (None, 1):
            raise IllegalMove("Cards go to a foundation one at a time")
        if not game._fits_up(pile[-1]):
            raise IllegalMove(why_not_up(game, pile[-1]))
        return PLAIN[source, FOUNDATION]
    destination = game._piles[int(target) - 1]
    if not source.isdigit():
        if move.count not in (None, 1):
            raise IllegalMove(f"Only the top card of {game.pile_label(source)} moves")
        if not destination:
            if source != "w":
                raise IllegalMove("A space takes only the top card of the waste")
            return PLAIN[source, target]
        if TAKES[destination[-1]] != KEY[pile[-1]]:
            raise IllegalMove(why_not_on(pile[-1], destination[-1]))
        return PLAIN[source, target]
    if not destination:
        raise IllegalMove("A space takes only the top card of the waste, not cards from a tableau pile")
    return _validate_pile_move(game, move, pile, destination[-1])


def _validate_turn(game: CanfieldGame) -> Move:
    if game._stock:
        if game._stock_hidden:
            raise IllegalMove(HIDDEN_STOCK)
        return DRAW
    if not game._waste:
        raise IllegalMove("The stock and the waste are both empty: there is nothing left to turn")
    if game._pass_limit is not None and game._pass >= game._pass_limit:
        if game._pass_limit == 1:
            raise IllegalMove("The stock is out and this game has one pass: the waste can't be turned over")
        raise IllegalMove(
            f"The stock is out after the last of {game._pass_limit} passes: the waste can't be turned over again"
        )
    if not game._offered:
        raise IllegalMove(_IDLE_PASS)
    return DRAW


def _validate_pile_move(game: CanfieldGame, move: Move, pile: list[int], top: int) -> Move:
    source, target = move.source, move.target
    if not game._partial:
        if move.count not in (None, len(pile)):
            raise IllegalMove(
                f"A tableau pile moves only as a whole: pile {source} holds {len(pile)} "
                f"{'card' if len(pile) == 1 else 'cards'} (part of one moves with the partial-moves option)"
            )
        if KEY[pile[0]] != TAKES[top]:
            reason = why_not_on(pile[0], top)
            if len(pile) > 1:
                reason = f"Pile {source} moves only as a whole, so its bottom card must fit: {reason}"
            raise IllegalMove(reason)
        return PLAIN[source, target]
    run = game._run_length(pile)
    if move.count is not None and move.count > run:
        if move.count > len(pile):
            raise IllegalMove(f"Pile {source} holds only {len(pile)} {'card' if len(pile) == 1 else 'cards'}")
        raise IllegalMove(
            f"Only the top {run} cards of pile {source} move together: "
            f"{CARD_PRETTY[pile[-run - 1]]} under them breaks the run"
        )
    depths = game._depths(pile, top)
    if move.count is not None:
        if move.count not in depths:
            raise IllegalMove(why_not_on(pile[-move.count], top))
        return PLAIN[source, target] if len(depths) == 1 else Move(source, target, move.count)
    if len(depths) == 1:
        return PLAIN[source, target]
    if depths:
        choices = tuple(str(Move(source, target, depth)) for depth in depths)
        raise AmbiguousMove(
            f"Move how many cards from pile {source} onto {CARD_PRETTY[top]}? "
            f"Choose {', '.join(choices[:-1])} or {choices[-1]}",
            choices,
        )
    if run == 1:
        raise IllegalMove(why_not_on(pile[-1], top))
    colour = "black" if RED[top] else "red"
    wanted = _rank_name(((top >> 2) - 1) % 13)
    raise IllegalMove(
        f"No card of the top {run} of pile {source} fits on {CARD_PRETTY[top]}: it takes a {colour} {wanted}"
    )


def why_not_up(game: CanfieldGame, card: int) -> str:
    """Why ``card`` can't go to its foundation in ``game`` yet."""
    suit = card & 3
    count = game._foundations[suit]
    if count == 0:
        start = game._base * 4 + suit
        return (
            f"{CARD_PRETTY[card]} can't go up yet: the {SUIT_NAMES[suit]} foundation starts with "
            f"{CARD_PRETTY[start]} (every foundation starts at the base rank, {_rank_name(game._base)})"
        )
    top = game._foundation_top(suit)
    following = (((top >> 2) + 1) % 13) * 4 + suit
    return (
        f"{CARD_PRETTY[card]} can't go up yet: the {SUIT_NAMES[suit]} foundation is at "
        f"{CARD_PRETTY[top]} and needs {CARD_PRETTY[following]} next"
    )


def why_not_on(card: int, top: int) -> str:
    """Why ``card`` can't go on tableau top ``top``."""
    if (card >> 2) == ((top >> 2) - 1) % 13:
        return f"{CARD_PRETTY[card]} can't go on {CARD_PRETTY[top]}: build down in alternating colours"
    colour = "black" if RED[top] else "red"
    wanted = _rank_name(((top >> 2) - 1) % 13)
    wrap = " (an Ace takes a King)" if top < 4 else ""
    return f"{CARD_PRETTY[card]} can't go on {CARD_PRETTY[top]}: it takes a {colour} {wanted}{wrap}"


def check_pile(game: CanfieldGame, name: str, *, as_target: bool) -> None:
    """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
    if name in (TARGETS if as_target else SOURCES):
        return
    if name.isdigit():
        raise IllegalMove(f"Pile {name} doesn't exist: {game.title} has tableau piles 1–{PILE_COUNT}")
    if as_target and name in ("l", "r"):
        raise IllegalMove("Nothing moves onto the reserve")
    if name == "l":
        raise IllegalMove(f"{game.title} has one reserve: call it r")
    if as_target and name == "w":
        raise IllegalMove("Nothing moves onto the waste: it only takes cards from the stock")
    if not as_target and name == FOUNDATION:
        raise IllegalMove("Cards never leave a foundation")
    if not name:
        raise IllegalMove("Say where the card goes: a pile 1–4, or f for its foundation")
    raise IllegalMove(f"{game.title} has no pile called {quoted(name)}")
