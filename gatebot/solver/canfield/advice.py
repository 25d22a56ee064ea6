"""Hints and verdicts for Canfield: what :mod:`gatebot.solver.registry` asks of a variant.

A hint reads only the player's view (``to_text(hide_stock=True)``): the reserve's top card,
the piles, the foundations, the waste, and the stock once its order has been seen (from the
second pass on). Some hints need no search: a card up that can't hurt, and, with unlimited
passes, turning through the first pass, which shows the whole stock at no cost (the waste
turned over is the stock again, in the same order). Otherwise the cards it can't see (the
reserve under its top, the stock in a first pass that costs a pass) are dealt at random
many times over, the same deals for the same view, and every move is weighed on the same
imagined deals: the share of them the solver wins after it (perfect-information Monte
Carlo). With the stock known a move is one of the solver's plans, "turn *k* times, then
play the waste's card", and the hint says ``d`` until the card shows. Once nothing is
hidden, the hint is the first move of a proved win, or says that no win is left.

The strength is set in positions (``MOVE_NODES`` a move and deal, ``THINK_NODES`` a hint),
so it doesn't depend on the machine's load, with the seconds a hint is given as a cap: a
faster search weighs more deals in the same time.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Sequence
from dataclasses import replace

from gatebot.messages import Text, _
from gatebot.rules import DRAW, Game, Move, describe_move
from gatebot.rules.canfield import CanfieldGame
from gatebot.solver.canfield import search
from gatebot.solver.results import Hint, Outlook, Solution, Verdict

#: How many deals of the unseen cards a hint imagines, at most.
SAMPLES = 16
#: The solver's budget for one move on one imagined deal: enough for most imagined deals to be
#: decided after a move, so moves are told apart by wins rather than by budgets run out (with 300,
#: a player taking every hint won 348 of deals 46001-46300 and 47001-47400; with 2,000, 376 —
#: docs/solver.md, "Issue 29: 2,000 nodes a move and deal").
MOVE_NODES = 2_000
#: The most positions a sampled hint searches in all: its strength, whatever the machine's load
#: (the seconds it is given are a cap on top).
THINK_NODES = 320_000
#: The solver's budget once nothing is hidden.
EXACT_NODES = 200_000


#: How many of the latest positions a hint keeps away from.
RECENT = 8


def positions_behind(game: Game) -> tuple[str, ...]:
    """The positions ``game`` went through in its last few moves, as its player saw them, latest first.

    A hint doesn't lead back to them: with partial moves a run can go back and forth between
    two piles, and a move back undoes the one before.
    """
    board = _canfield(game).copy()
    texts = []
    for _step in range(min(RECENT, len(board.moves))):
        board.undo()
        texts.append(board.to_text(hide_stock=True))
    return tuple(texts)


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
    """The best move in ``game`` as its player sees it, and why.

    ``behind`` lists positions the game went through lately, as its player saw them (by
    default read from ``game``'s own moves): a move back to one of them, such as a run moved
    back where it came from, is hinted only when nothing else is left.
    """
    started = time.perf_counter()
    view = Game.from_text(_canfield(game).to_text(hide_stock=True))
    assert isinstance(view, CanfieldGame)
    if view.is_won:
        return Hint(None, _("The game is won: every card is on its foundation"), Outlook.WINNABLE)
    if not view.has_legal_move() or view.is_over:
        return Hint(None, _("No move is left: the game is over"), Outlook.LOST)
    deadline = started + seconds
    earlier = frozenset(positions_behind(game) if behind is None else behind)
    if view.hidden_count == 0:
        found = _exact(view, deadline, earlier)
    else:
        found = _at_once(view, deadline, earlier) or _sampled(view, deadline, earlier)
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


def _turns(step: search.Step) -> int:
    """How many times ``step`` turns the talon before it plays a card (a plain turn counts one)."""
    return step[1] if step[0] == "W" else 1 if step[0] in ("d", "n") else 0


def _at_once(view: CanfieldGame, deadline: float, earlier: frozenset[str]) -> Hint | None:
    """A hint that needs no search: a safe card up, or turning through a first pass that costs nothing.

    A card goes up at once when the solver's pruning rule proves the play can't hurt (both
    cards that could build on it are up). With unlimited passes the first pass turns the
    stock without playing from the waste: the waste turned over is then the stock again in
    the same order, every card of it seen, so nothing a player could do has been lost and
    from then on only the reserve is hidden. The turn still tells the player's odds: the
    share of imagined deals the solver wins from here.
    """
    position = search.position_of(view)
    first = search.moves(position)
    if len(first) == 1 and first[0][0] == "f" and not _undoes(view, _first_token((first[0],)), earlier):
        return _hint(view, _first_token((first[0],)), _("it adds a card to your score"), Outlook.OPEN)
    if view.passes_left is None and view.pass_number == 1 and DRAW in view.legal_moves():
        won, samples = _chances(view, deadline)
        return _hint(view, "d", _("it keeps the game moving"), Outlook.OPEN, won / samples if samples else None,
                     samples)
    return None


def _chances(view: CanfieldGame, deadline: float) -> tuple[int, int]:
    """How many imagined deals of the unseen cards the solver wins from ``view``, of how many it settled or tried.

    The player's odds as the hint's other answers give them, one search a deal (the move
    itself needs none).
    """
    seen = search.position_of(view)
    rng = random.Random(_seed(view, seen))
    won = samples = nodes = 0
    while samples < SAMPLES and nodes < THINK_NODES // 4:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            break
        found = search.solve(_imagined(seen, view.stock_known, rng), max_nodes=MOVE_NODES, max_seconds=remaining)
        if found.verdict is Verdict.UNRESOLVED and time.perf_counter() >= deadline:
            break  # cut by the clock, not by its budget: left out
        nodes += found.nodes
        samples += 1
        won += found.verdict is Verdict.WINNABLE
    return won, samples


def _undoes(view: CanfieldGame, token: str, earlier: frozenset[str]) -> bool:
    """Whether playing ``token`` brings back a position the game has just been through."""
    if not earlier or token == "d":
        return False
    board = view.copy()
    try:
        board.play(Move.from_text(token))
    except ValueError:
        return False  # it turns up a hidden reserve card: nothing seen before comes back
    return board.to_text(hide_stock=True) in earlier


def _fallback(position: search.Position) -> str | None:
    """The solver's most promising move when no win was found (a card up first, then a reserve card out)."""
    found = sorted(search.moves(position), key=_turns)
    return _first_token((found[0],)) if found else None


def _exact(view: CanfieldGame, deadline: float, earlier: frozenset[str]) -> Hint:
    """Nothing is hidden: the first move of a proved win, or the news that none is left."""
    position = search.position_of(view)
    found = search.solve(position, max_nodes=EXACT_NODES, max_seconds=max(0.05, deadline - time.perf_counter()))
    if found.verdict is Verdict.WINNABLE and found.line:
        return _hint(view, _first_token(found.line), _("it is the first move of a win"), Outlook.WINNABLE)
    if found.verdict is Verdict.LOST:
        ups = [move for move in view.legal_moves() if move.target == "f"]
        if not ups:
            return Hint(None, _("No win is left from here, and no card can go up"), Outlook.LOST)
        return _hint(view, str(ups[0]), _("it adds a card to your score"), Outlook.LOST)
    steps = [step for step in _candidates(position, True) if not _undoes(view, _first_token((step,)), earlier)]
    token = _first_token((steps[0],)) if steps else str(view.legal_moves()[0])
    return _hint(view, token, _("it is the most promising move"), Outlook.UNKNOWN)


def _imagined(seen: search.Position, stock_known: bool, rng: random.Random) -> search.Position:
    """The view's position ``seen`` with its unseen cards dealt at random into the hidden reserve and stock."""
    under = max(0, len(seen.reserve) - 1)
    unseen = list(seen.reserve[:under]) + ([] if stock_known else list(seen.stock))
    rng.shuffle(unseen)
    reserve = bytes(unseen[:under]) + seen.reserve[under:]
    stock = seen.stock if stock_known else bytes(unseen[under:])
    return replace(seen, reserve=reserve, stock=stock)


def _candidates(position: search.Position, stock_known: bool) -> list[search.Step]:
    """The moves a hint weighs, as the solver's steps, fewest turns of the talon first.

    With the stock known a step is a plan the player can follow: turn *k* times, then play
    the waste's card (the hint says ``d`` until the card shows). With it unknown every
    turning plan is the one move ``d``, since what a turn shows is not known.
    """
    steps = search.moves(position, safe=False)
    if not stock_known:
        steps = [step for step in steps if _turns(step) == 0]
        if position.stock or position.waste:
            steps.append(("d",))
    return sorted(steps, key=_turns)  # stable: the solver's order among equals


def _seed(view: CanfieldGame, seen: search.Position) -> int:
    """The imagined deals' seed: the view, with a known talon of unlimited passes written as its cycle.

    Turning such a talon leads back round, so every turn of it is the same position to the
    solver; seeding by the cycle keeps the imagined deals, and so the plan, the same while
    the player turns towards the card the hint is after.
    """
    if view.stock_known and view.passes_left is None:
        talon = seen.waste + seen.stock[::-1]
        rest = replace(seen, stock=b"", waste=b"")
        phase = len(seen.waste) % seen.draw if seen.stock else 0  # the turns' grouping, as the solver keys it
        return zlib.crc32(repr((rest, talon, phase)).encode())
    return zlib.crc32(view.to_text(hide_stock=True).encode())


def _order(position: search.Position) -> tuple[object, ...]:
    """What the positions a hint searches on one imagined deal are sorted by, before they are shuffled.

    Searches sharing what they prove lost decide a position or not depending on what was searched
    before it, so the order must not depend on where the talon stands: turning towards a planned
    card changes the plans' turn counts, not the positions they lead to. In the moves' order a
    plan could lose its lead at every turn, and the hint say "turn" for ever.
    """
    return position.foundations, position.piles, position.reserve, position.stock, position.waste, position.passes


def _sampled(view: CanfieldGame, deadline: float, earlier: frozenset[str]) -> Hint:
    """Perfect-information Monte Carlo: each move's share of imagined deals won after it.

    Every move is weighed on the same imagined deals of the unseen cards, deal by deal
    (each with ``MOVE_NODES``), until ``SAMPLES`` deals, ``THINK_NODES`` positions in all or
    the seconds run out; a deal not finished for every move is left out. On one deal the
    moves' searches share what they prove lost (:func:`search.solve_each`): their trees
    overlap, so a move searched later is decided in fewer positions, and more often. So that
    no move gains by coming later, their order is shuffled afresh on every deal (seeded as the
    deals are, from the positions the moves lead to: :func:`_order`). The move winning the
    most deals is the hint; among equals, the one proved lost on the fewest, then the one
    turning the talon least.
    """
    seen = search.position_of(view)
    seed = _seed(view, seen)
    rng = random.Random(seed)
    shuffler = random.Random(seed ^ 0x5EED)  # the order of the moves' searches, deal by deal
    steps = _candidates(seen, view.stock_known)
    if not steps:  # no card can move, however the talon is turned: turning is all that is left
        return _hint(view, "d", _("it keeps the game moving"), Outlook.OPEN)
    tokens = [_first_token((step,)) for step in steps]
    kept = [index for index, token in enumerate(tokens) if not _undoes(view, token, earlier)] or list(
        range(len(steps)))
    wins = dict.fromkeys(kept, 0)
    lost = dict.fromkeys(kept, 0)
    samples = nodes = 0
    while samples < SAMPLES and nodes < THINK_NODES:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            break
        position = _imagined(seen, view.stock_known, rng)
        after = {index: search.play(position, steps[index]) for index in kept}
        searched = sorted((index for index in kept if not after[index].won), key=lambda index: _order(after[index]))
        shuffler.shuffle(searched)
        found = dict(zip(searched, search.solve_each(
            [after[index] for index in searched], max_nodes=MOVE_NODES, max_seconds=remaining), strict=True))
        if time.perf_counter() >= deadline and any(result.verdict is Verdict.UNRESOLVED for result in found.values()):
            break  # the clock may have cut a search: the deal is left out
        nodes += sum(result.nodes for result in found.values())
        samples += 1
        for index in kept:
            result = found.get(index)
            wins[index] += result is None or result.verdict is Verdict.WINNABLE  # None: the move itself wins
            lost[index] += result is not None and result.verdict is Verdict.LOST
    if not samples:
        index = kept[0]
        why = _("it is the most promising move")
        return _hint(view, tokens[index], why, Outlook.OPEN, None, 0)
    best = max(kept, key=lambda index: (wins[index], -lost[index], -_turns(steps[index]), -index))
    if wins[best]:
        return _hint(view, tokens[best], _("it starts the most wins"), Outlook.OPEN, wins[best] / samples, samples)
    why = _("no imagined deal was won, and this is the most promising move")
    return _hint(view, tokens[best], why, Outlook.OPEN, 0.0, samples)
