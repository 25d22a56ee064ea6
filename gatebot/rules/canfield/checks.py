"""How Canfield's cards build, and checking a move: whether it is legal, its canonical form, and why not.

:meth:`CanfieldGame.validate <gatebot.rules.canfield.CanfieldGame.validate>` hands over to
:func:`validate` here. The building keys, the piles' names and the interned moves it answers
with are defined here too, for the game's move generation and the position reader to share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.messages import Text, _, n_
from gatebot.rules.cards import CARD_WORDS, RED, RankWord, WantedCard
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
SUIT_NAMES = (_("clubs"), _("diamonds"), _("hearts"), _("spades"))
#: The tableau piles' names in moves and on their lines: ``1`` to ``4``.
PILE_NAMES = tuple(str(i + 1) for i in range(PILE_COUNT))
SOURCES = frozenset((*PILE_NAMES, "r", "w"))
TARGETS = frozenset((*PILE_NAMES, FOUNDATION))
#: One interned :class:`Move` per source and target: the canonical form of every move but a counted one.
PLAIN = {(s, t): Move(s, t) for s in SOURCES for t in TARGETS if s != t}
HIDDEN_STOCK = _("The stock's order is unknown in this position, so no card can come from it")
HIDDEN_RESERVE = _("The reserve's cards under its top are unknown in this position, so none can come out")
_IDLE_PASS = _(
    "No card could move during this whole pass through the stock, so the next pass would show "
    "the same cards: the game is over"
)



def validate(game: CanfieldGame, move: Move) -> Move:
    """``move`` in canonical form if it is legal in ``game``, else :class:`IllegalMove` saying why."""
    if move.is_draw:
        return _validate_turn(game)
    source, target = move.source, move.target
    check_pile(game, source, as_target=False)
    check_pile(game, target, as_target=True)
    if source == target:
        raise IllegalMove(_("Cards can't move from pile {pile} onto itself", pile=source))
    pile = game._source_pile(source)
    if not pile:
        if source.isdigit():
            raise IllegalMove(_("Pile {pile} is empty: it is a space, with nothing to move", pile=source))
        raise IllegalMove(_("{pile} is empty", pile=_("The reserve") if source == "r" else _("The waste")))
    if move.count is not None and move.count < 1:
        raise IllegalMove(_("A move takes at least one card"))
    if target == FOUNDATION:
        if move.count not in (None, 1):
            raise IllegalMove(_("Cards go to a foundation one at a time"))
        if not game._fits_up(pile[-1]):
            raise IllegalMove(why_not_up(game, pile[-1]))
        return PLAIN[source, FOUNDATION]
    destination = game._piles[int(target) - 1]
    if not source.isdigit():
        if move.count not in (None, 1):
            raise IllegalMove(_("Only the top card of {pile} moves", pile=game.pile_label(source)))
        if not destination:
            if source != "w":
                raise IllegalMove(_("A space takes only the top card of the waste"))
            return PLAIN[source, target]
        if TAKES[destination[-1]] != KEY[pile[-1]]:
            raise IllegalMove(why_not_on(pile[-1], destination[-1]))
        return PLAIN[source, target]
    if not destination:
        raise IllegalMove(_("A space takes only the top card of the waste, not cards from a tableau pile"))
    return _validate_pile_move(game, move, pile, destination[-1])


def _validate_turn(game: CanfieldGame) -> Move:
    if game._stock:
        if game._stock_hidden:
            raise IllegalMove(HIDDEN_STOCK)
        return DRAW
    if not game._waste:
        raise IllegalMove(_("The stock and the waste are both empty: there is nothing left to turn"))
    if game._pass_limit is not None and game._pass >= game._pass_limit:
        if game._pass_limit == 1:
            raise IllegalMove(_("The stock is out and this game has one pass: the waste can't be turned over"))
        raise IllegalMove(
            _("The stock is out after the last of {passes} passes: the waste can't be turned over again",
              passes=game._pass_limit)
        )
    if not game._offered:
        raise IllegalMove(_IDLE_PASS)
    return DRAW


def _validate_pile_move(game: CanfieldGame, move: Move, pile: list[int], top: int) -> Move:
    source, target = move.source, move.target
    if not game._partial:
        if move.count not in (None, len(pile)):
            raise IllegalMove(
                n_("A tableau pile moves only as a whole: pile {pile} holds {n} card "
                   "(part of one moves with the partial-moves option)",
                   "A tableau pile moves only as a whole: pile {pile} holds {n} cards "
                   "(part of one moves with the partial-moves option)", len(pile), pile=source)
            )
        if KEY[pile[0]] != TAKES[top]:
            reason = why_not_on(pile[0], top)
            if len(pile) > 1:
                reason = _("Pile {pile} moves only as a whole, so its bottom card must fit: {reason}", pile=source,
                           reason=reason)
            raise IllegalMove(reason)
        return PLAIN[source, target]
    run = game._run_length(pile)
    if move.count is not None and move.count > run:
        if move.count > len(pile):
            raise IllegalMove(n_("Pile {pile} holds only {n} card", "Pile {pile} holds only {n} cards", len(pile),
                                 pile=source))
        raise IllegalMove(
            _("Only the top {run} cards of pile {pile} move together: {card} under them breaks the run",
              run=run, pile=source, card=CARD_WORDS[pile[-run - 1]])
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
            _("Move how many cards from pile {pile} onto {card}? Choose {choices} or {last}", pile=source,
              card=CARD_WORDS[top], choices=", ".join(choices[:-1]), last=choices[-1]),
            choices,
        )
    if run == 1:
        raise IllegalMove(why_not_on(pile[-1], top))
    wanted = WantedCard(((top >> 2) - 1) % 13, red=not RED[top])
    raise IllegalMove(_("No card of the top {run} of pile {pile} fits on {card}: it takes {wanted}",
                        run=run, pile=source, card=CARD_WORDS[top], wanted=wanted))


def why_not_up(game: CanfieldGame, card: int) -> Text:
    """Why ``card`` can't go to its foundation in ``game`` yet."""
    suit = card & 3
    count = game._foundations[suit]
    if count == 0:
        start = game._base * 4 + suit
        return _(
            "{card} can't go up yet: the {suit} foundation starts with {first} "
            "(every foundation starts at the base rank, {rank})",
            card=CARD_WORDS[card], suit=SUIT_NAMES[suit], first=CARD_WORDS[start], rank=RankWord(game._base),
        )
    top = game._foundation_top(suit)
    following = (((top >> 2) + 1) % 13) * 4 + suit
    return _(
        "{card} can't go up yet: the {suit} foundation is at {top} and needs {next} next",
        card=CARD_WORDS[card], suit=SUIT_NAMES[suit], top=CARD_WORDS[top], next=CARD_WORDS[following],
    )


def why_not_on(card: int, top: int) -> Text:
    """Why ``card`` can't go on tableau top ``top``."""
    moved, under = CARD_WORDS[card], CARD_WORDS[top]
    if (card >> 2) == ((top >> 2) - 1) % 13:
        return _("{card} can't go on {top}: build down in alternating colours", card=moved, top=under)
    wanted = WantedCard(((top >> 2) - 1) % 13, red=not RED[top])
    if top < 4:  # building wraps round: only a King goes on an Ace
        return _("{card} can't go on {top}: it takes {wanted} (an Ace takes a King)", card=moved, top=under,
                 wanted=wanted)
    return _("{card} can't go on {top}: it takes {wanted}", card=moved, top=under, wanted=wanted)


def check_pile(game: CanfieldGame, name: str, *, as_target: bool) -> None:
    """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
    if name in (TARGETS if as_target else SOURCES):
        return
    if name.isdigit():
        raise IllegalMove(_("Pile {pile} doesn't exist: {game} has tableau piles 1–{last}", pile=name, game=game.title,
                              last=PILE_COUNT))
    if as_target and name in ("l", "r"):
        raise IllegalMove(_("Nothing moves onto the reserve"))
    if name == "l":
        raise IllegalMove(_("{game} has one reserve: call it r", game=game.title))
    if as_target and name == "w":
        raise IllegalMove(_("Nothing moves onto the waste: it only takes cards from the stock"))
    if not as_target and name == FOUNDATION:
        raise IllegalMove(_("Cards never leave a foundation"))
    if not name:
        raise IllegalMove(_("Say where the card goes: a pile 1–4, or f for its foundation"))
    raise IllegalMove(_("{game} has no pile called {name}", game=game.title, name=quoted(name)))
