"""Hints and verdicts for Canfield: what :mod:`gatebot.solver.registry` asks of a variant.

A hint reads only the player's view (``to_text(hide_stock=True)``): the reserve's top card,
the piles, the foundations, the waste, and the stock once its order has been seen (from the
second pass on). The cards it can't see — the reserve under its top, the stock in the first
pass — it deals at random many times over (the same deals for the same view), solves each
imagined deal with the thoughtful solver on a small budget, and votes: the move that starts
a win in the most imagined deals is the hint. A move is a token the player can play now, so
a line that begins by turning the stock votes for ``d``. Once nothing is hidden, the hint is
the first move of a proved win, or says that no win is left.
"""

from __future__ import annotations

import random
import time
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from gatebot.messages import Text, _
from gatebot.rules import DRAW, Game, Move, describe_move
from gatebot.rules.canfield import CanfieldGame
from gatebot.solver.canfield import search
from gatebot.solver.results import Hint, Outlook, Solution, Verdict

#: How many deals of the unseen cards a hint imagines, at most.
SAMPLES = 12
#: The solver's budget on one imagined deal.
SAMPLE_NODES = 1_500
#: The solver's budget once nothing is hidden.
EXACT_NODES = 200_000


def positions_behind(game: Game) -> tuple[str, ...]:
    """Nothing: Canfield's moves can't go round in a circle (turning is the only repeat, and it moves on)."""
    return ()


def solve(game: Game, *, max_nodes: int, max_seconds: float) -> Solution:
    """Decide ``game`` with every card known; a winning line is checked by playing it on a copy."""
    board = _canfield(game)
    if not (board.stock_known and board.reserve_known):
        raise ValueError("the solver needs the whole position: the reserve's and the stock's order too")
    found = search.solve(search.position_of(board), max_nodes=max_nodes, max_seconds=max_seconds)
    if found.verdict is not Verdict.WINNABLE:
        return Solution(found.verdict, (), found.nodes, found.seconds)
    copy = board.copy()
    line = tuple(copy.play(Move.from_text(token)) for token in search.tokens(found.line))
    if not copy.is_won:
        raise AssertionError(f"The Canfield solver's line does not win {board.to_text()!r}")
    return Solution(Verdict.WINNABLE, line, found.nodes, found.seconds)


def hint(game: Game, *, seconds: float, behind: Sequence[str] | None = None) -> Hint:
    """The best move in ``game`` as its player sees it, and why (``behind`` is not needed here)."""
    started = time.perf_counter()
    view = Game.from_text(_canfield(game).to_text(hide_stock=True))
    assert isinstance(view, CanfieldGame)
    if view.is_won:
        return Hint(None, _("The game is won: every card is on its foundation"), Outlook.WINNABLE)
    if not view.has_legal_move() or view.is_over:
        return Hint(None, _("No move is left: the game is over"), Outlook.LOST)
    deadline = started + seconds
    found = _exact(view, deadline) if view.hidden_count == 0 else _sampled(view, deadline)
    return replace(found, seconds=time.perf_counter() - started)


def _canfield(game: Game) -> CanfieldGame:
    if not isinstance(game, CanfieldGame):
        raise TypeError(f"{game.title} is not Canfield")
    return game


def _hint(view: CanfieldGame, token: str, why: str, outlook: Outlook, chance: float | None = None,
          samples: int = 0) -> Hint:
    """The hint for ``token``: the move in words, then ``why``, two parts each said in the reader's language."""
    move = DRAW if token == "d" else view.validate(Move.from_text(token))  # a view can't turn a hidden stock
    return Hint(move, Text.of_parts((describe_move(view, move), why), ": "), outlook, chance, samples)


def _first_token(line: tuple[search.Step, ...]) -> str:
    """The token a line starts with: ``d`` when it begins by turning the stock."""
    return search.tokens(line[:1])[0]


def _fallback(position: search.Position) -> str | None:
    """The solver's most promising move when no win was found (a card up first, then a reserve card out)."""
    found = search.moves(position)
    return _first_token((found[0],)) if found else None


def _exact(view: CanfieldGame, deadline: float) -> Hint:
    """Nothing is hidden: the first move of a proved win, or the news that none is left."""
    position = search.position_of(view)
    found = search.solve(position, max_nodes=EXACT_NODES, max_seconds=max(0.05, deadline - time.perf_counter()))
    if found.verdict is Verdict.WINNABLE and found.line:
        return _hint(view, _first_token(found.line), _("it is the first move of a win"), Outlook.WINNABLE)
    token = _fallback(position)
    if found.verdict is Verdict.LOST:
        ups = [move for move in view.legal_moves() if move.target == "f"]
        if not ups:
            return Hint(None, _("No win is left from here, and no card can go up"), Outlook.LOST)
        return _hint(view, str(ups[0]), _("it adds a card to your score"), Outlook.LOST)
    if token is None:
        token = str(view.legal_moves()[0])
    return _hint(view, token, _("it is the most promising move"), Outlook.UNKNOWN)


def _imagined(seen: search.Position, stock_known: bool, rng: random.Random) -> search.Position:
    """The view's position ``seen`` with its unseen cards dealt at random into the hidden reserve and stock."""
    under = max(0, len(seen.reserve) - 1)
    unseen = list(seen.reserve[:under]) + ([] if stock_known else list(seen.stock))
    rng.shuffle(unseen)
    reserve = bytes(unseen[:under]) + seen.reserve[under:]
    stock = seen.stock if stock_known else bytes(unseen[under:])
    return replace(seen, reserve=reserve, stock=stock)


def _sampled(view: CanfieldGame, deadline: float) -> Hint:
    """Vote over imagined deals of the unseen cards: the move that starts the most wins."""
    rng = random.Random(zlib.crc32(view.to_text().encode()))
    seen = search.position_of(view)
    wins: Counter[str] = Counter()
    decided = 0
    first: search.Position | None = None
    for _sample in range(SAMPLES):
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            break
        position = _imagined(seen, view.stock_known, rng)
        first = first or position
        found = search.solve(position, max_nodes=SAMPLE_NODES, max_seconds=remaining)
        if found.verdict is not Verdict.UNRESOLVED:
            decided += 1
        if found.verdict is Verdict.WINNABLE and found.line:
            wins[_first_token(found.line)] += 1
    if wins:
        token, count = wins.most_common(1)[0]
        why = _("it starts the most wins")
        return _hint(view, token, why, Outlook.OPEN, count / max(1, decided), decided)
    token = _fallback(first or _imagined(seen, view.stock_known, rng)) or str(view.legal_moves()[0])
    why = _("no imagined deal was won, and this is the most promising move")
    return _hint(view, token, why, Outlook.OPEN, 0.0 if decided else None, decided)
