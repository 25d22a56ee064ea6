"""How Gate's cards build, and checking a move: whether it is legal, its canonical form, and why not.

:meth:`GateGame.validate <gatebot.rules.gate.GateGame.validate>` hands over to :func:`validate`
here, for Gate and Little Gate alike. The building keys are defined here too, for the game's
move generation and the solver to share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.messages import Text, _, n_
from gatebot.rules.cards import CARD_WORDS, RED, WantedCard
from gatebot.rules.errors import AmbiguousMove, IllegalMove, quoted
from gatebot.rules.move import DRAW, Move

if TYPE_CHECKING:
    from gatebot.rules.gate import GateGame

#: ``KEY[c]`` identifies what a card is as a building block: its rank and colour.
KEY: tuple[int, ...] = tuple((c >> 2) * 2 + RED[c] for c in range(52))
#: ``ACCEPTS[t]`` is the ``KEY`` of the cards that may go on ``t`` (-1: nothing, for an Ace).
ACCEPTS: tuple[int, ...] = tuple(((c >> 2) - 1) * 2 + (not RED[c]) if c >= 4 else -1 for c in range(52))
SUIT_NAMES = (_("clubs"), _("diamonds"), _("hearts"), _("spades"))
HIDDEN_STOCK = _("The stock's order is unknown in this position, so no card can come from it")


def validate(game: GateGame, move: Move) -> Move:
    """``move`` in canonical form if it is legal in ``game``, else :class:`IllegalMove` saying why."""
    if move.is_draw:
        if game._stock_hidden and game._stock:
            raise IllegalMove(HIDDEN_STOCK)
        if not game._stock:
            raise IllegalMove(_("The stock is empty: {game} has one pass and no redeal", game=game.title))
        return DRAW
    source = _source_code(game, move.source)
    target = _target_code(game, move.target)
    n = game.column_count
    if source == target and source < n:
        raise IllegalMove(_("Cards can't move from column {column} onto itself", column=source + 1))
    pile = game._pile(source)
    if not pile:
        if source < n:
            raise IllegalMove(
                _("Column {column} is empty: it is a free space, with nothing to move", column=source + 1)
            )
        raise IllegalMove(_("{pile} is empty", pile=game._pile_label(source, capital=True)))
    run = game._run_length(pile) if source < n else 1
    if move.count is not None:
        if move.count < 1:
            raise IllegalMove(_("A move takes at least one card"))
        if move.count > run:
            raise IllegalMove(_run_too_long(game, source, pile, move.count, run))
    if target == n:
        return _validate_up(game, move, source, pile)
    destination = game._columns[target]
    if not destination:
        if move.count is None and run > 1:
            choices = tuple(str(game._counted[source][target][k]) for k in range(1, run + 1))
            raise AmbiguousMove(
                _(
                    "Move how many cards from column {column} to the free space? Choose {choices} or {last}",
                    column=source + 1, choices=", ".join(choices[:-1]), last=choices[-1],
                ),
                choices,
            )
        if move.count is None or run == 1:
            return game._plain[source][target]
        return game._counted[source][target][move.count]
    top = destination[-1]
    wanted = ACCEPTS[top]
    for depth in range(1, run + 1):
        if KEY[pile[-depth]] == wanted:
            if move.count not in (None, depth):
                break
            return game._plain[source][target]
    card = pile[-(move.count or 1)]
    raise IllegalMove(why_not_on(card, top))


def _validate_up(game: GateGame, move: Move, source: int, pile: list[int]) -> Move:
    if move.count not in (None, 1):
        raise IllegalMove(_("Cards go to a foundation one at a time"))
    card = pile[-1]
    suit = card & 3
    have = game._foundations[suit]
    if have == card >> 2:
        return game._plain[source][game.column_count]
    if have == 0:
        raise IllegalMove(
            _("{card} can't go up yet: the {suit} foundation starts with {first}", card=CARD_WORDS[card],
              suit=SUIT_NAMES[suit], first=CARD_WORDS[suit])
        )
    top = (have - 1) * 4 + suit
    raise IllegalMove(
        _(
            "{card} can't go up yet: the {suit} foundation is at {top} and needs {next} next",
            card=CARD_WORDS[card], suit=SUIT_NAMES[card & 3], top=CARD_WORDS[top], next=CARD_WORDS[top + 4],
        )
    )


def why_not_on(card: int, top: int) -> Text:
    """Why ``card`` can't go on column top ``top``."""
    moved, under = CARD_WORDS[card], CARD_WORDS[top]
    if top < 4:
        return _("{card} can't go on {top}: nothing builds on an Ace", card=moved, top=under)
    if (card >> 2) == (top >> 2) - 1:
        return _("{card} can't go on {top}: build down in alternating colours", card=moved, top=under)
    wanted = WantedCard((top >> 2) - 1, red=not RED[top])
    return _("{card} can't go on {top}: it takes {wanted}", card=moved, top=under, wanted=wanted)


def _run_too_long(game: GateGame, source: int, pile: list[int], count: int, run: int) -> Text:
    if source >= game.column_count or game._single:
        if game._single:
            return _("Only the top card of {pile} moves in single-moves", pile=game._pile_label(source))
        return _("Only the top card of {pile} moves", pile=game._pile_label(source))
    if count > len(pile):
        return n_("Column {column} holds only {n} card", "Column {column} holds only {n} cards", len(pile),
                  column=source + 1)
    return _(
        "Only the top {run} cards of column {column} move together: {card} under them breaks the run",
        run=run, column=source + 1, card=CARD_WORDS[pile[-run - 1]],
    )


def _source_code(game: GateGame, name: str) -> int:
    code = game._sources.get(name)
    if code is None:
        check_pile(game, name, as_target=False)
    return code  # type: ignore[return-value]


def _target_code(game: GateGame, name: str) -> int:
    code = game._targets.get(name)
    if code is None:
        check_pile(game, name, as_target=True)
    return code  # type: ignore[return-value]


def check_pile(game: GateGame, name: str, *, as_target: bool) -> None:
    """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""
    if name in (game._targets if as_target else game._sources):
        return
    if name.isdigit():
        raise IllegalMove(
            _("Column {column} doesn't exist: {game} has columns 1–{last}",
              column=name, game=game.title, last=game.column_count)
        )
    if as_target and name in ("l", "r"):
        raise IllegalMove(_("Nothing moves onto a reserve"))
    if as_target and name == "w":
        raise IllegalMove(_("Nothing moves onto the waste: it only takes cards from the stock"))
    if not as_target and name == "f":
        raise IllegalMove(_("Cards never leave a foundation"))
    if not name:
        raise IllegalMove(_("Say where the card goes: a column, or f for its foundation"))
    raise IllegalMove(_("{game} has no pile called {name}", game=game.title, name=quoted(name)))
