"""Canfield's hints and verdicts: they read only what the player sees, and they lead to wins."""

from __future__ import annotations

import random

import pytest

from gatebot.rules import DRAW, Game, Move
from gatebot.rules.canfield import CanfieldGame
from gatebot.rules.errors import IllegalMove
from gatebot.solver import Outlook, Verdict, registry
from gatebot.solver.canfield import advice, search
from gatebot.solver.canfield.search import position_of, solve, tokens

#: Long enough for every imagined deal, so the answer doesn't depend on the machine's speed.
PATIENT = 60.0


def canfield(deal: int, *options: str) -> CanfieldGame:
    game = Game.new("canfield", deal=deal, options=options)
    assert isinstance(game, CanfieldGame)
    return game


def reshuffled(game: CanfieldGame, seed: int) -> CanfieldGame:
    """The same view with the cards the player can't see in another order."""
    lines = game.to_text().splitlines()
    rng = random.Random(seed)
    reserve = lines[1].split()[1:]
    under = reserve[:-1]
    rng.shuffle(under)
    lines[1] = " ".join(["R:", *under, reserve[-1]])
    if game.pass_number == 1:
        stock = lines[-2].split()[1:]
        rng.shuffle(stock)
        lines[-2] = " ".join(["S:", *stock])
    other = Game.from_text("\n".join(lines))
    assert isinstance(other, CanfieldGame)
    assert other.to_text(hide_stock=True) == game.to_text(hide_stock=True) and other.to_text() != game.to_text()
    return other


def won_deal() -> CanfieldGame:
    """Deal 11, which the solver wins in a few dozen positions."""
    game = canfield(11)
    assert solve(position_of(game), max_seconds=5).verdict.value == "winnable"
    return game


def first_pass_turned(game: CanfieldGame) -> CanfieldGame:
    """``game`` once its stock has been turned through once and over, nothing played from the waste."""
    game = game.copy()
    while game.pass_number == 1:
        game.play("d")
    return game


@pytest.fixture
def few_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sampled hint's budget small enough for a test, and spent by positions, not by the clock."""
    monkeypatch.setattr(advice, "THINK_NODES", 2_000)
    monkeypatch.setattr(advice, "SAMPLES", 4)


@pytest.mark.usefixtures("few_positions")
@pytest.mark.parametrize("deal", [1, 13])
def test_a_hint_is_the_same_whatever_order_the_unseen_cards_are_in(deal: int) -> None:
    for game in (canfield(deal), first_pass_turned(canfield(deal))):
        first = registry.hint(game, seconds=PATIENT)
        for seed in (1,):
            again = registry.hint(reshuffled(game, seed), seconds=PATIENT)
            assert (again.move, again.reason, again.win_chance) == (first.move, first.reason, first.win_chance)
        assert first.move is not None and first.move in game.legal_moves()
        assert first.outlook is Outlook.OPEN
    assert game.pass_number == 2 and first.samples > 0  # the reserve is still hidden: imagined deals


def test_with_unlimited_passes_the_first_pass_is_turned_through_before_a_waste_card_is_played() -> None:
    game = canfield(1)
    while game.pass_number == 1:
        found = registry.hint(game, seconds=PATIENT)
        assert found.move is not None
        assert found.move == DRAW or (found.move.source != "w" and found.move.target == "f" and found.samples == 0)
        game.play(found.move)
    assert game.stock_known and game.to_text(hide_stock=True).splitlines()[-2] == canfield(1).to_text().splitlines()[-2]


@pytest.mark.usefixtures("few_positions")
def test_with_a_limited_number_of_passes_the_first_pass_is_weighed_on_imagined_deals() -> None:
    found = registry.hint(canfield(1, "draw-one"), seconds=PATIENT)
    assert found.samples > 0


def test_a_card_that_nothing_could_build_on_goes_up_at_once() -> None:
    lines = canfield(1).to_text().splitlines()  # base queen, QC up; piles 1: KH, 4: KS
    stock = [card for card in lines[-2].split()[1:] if card not in ("QD", "QH", "QS")]
    lines[-2] = " ".join(["S:", *stock])
    lines[2] = "F: QC QD QH QS"  # every queen is up: nothing can ever build on KH or KS
    game = Game.from_text("\n".join(lines))
    found = registry.hint(game, seconds=0.001)
    assert found.move in (Move.from_text("1f"), Move.from_text("4f")) and found.samples == 0


def test_turning_a_known_talon_keeps_the_imagined_deals_and_a_card_played_changes_them() -> None:
    game = first_pass_turned(canfield(1))

    def seed(board: CanfieldGame) -> int:
        view = Game.from_text(board.to_text(hide_stock=True))
        assert isinstance(view, CanfieldGame)
        return advice._seed(view, position_of(view))

    turned = game.copy()
    turned.play_line("d d d")  # a turn of the talon is the same position to the solver
    assert turned.to_text(hide_stock=True) != game.to_text(hide_stock=True) and seed(turned) == seed(game)
    while turned.stock_count:  # to the end of the pass, however the last turn groups the cards
        turned.play("d")
    assert len(turned.waste) % 3 != 0 and seed(turned) == seed(game)
    moved = next(move for move in game.legal_moves() if not move.is_draw)
    played = game.copy()
    played.play(moved)
    assert seed(played) != seed(game)


def test_a_hint_to_turn_towards_a_planned_card_gets_there_before_the_talon_comes_round() -> None:
    """Deal 52003 after these moves: a hint that says turn must play a card within one round of
    the talon (a round: its cards turned three at a time, then the waste turned over). The moves
    are weighed with searches sharing what they prove lost, so the hint must not depend on
    where the talon stands; when it did, the plan changed at every turn and the hint said
    "turn" for ever."""
    game = canfield(52003)
    game.play_line("d d d d d d d d d d d d d 3f 4f rf")
    assert game.pass_number > 1 and game.passes_left is None
    talon = game.stock_count + len(game.waste)
    said = []
    for _turn in range(-(-talon // 3) + 2):
        found = registry.hint(game, seconds=PATIENT, behind=registry.positions_behind(game))
        assert found.move is not None
        said.append(str(found.move))
        if not found.move.is_draw:
            break
        game.play(found.move)
    assert said[-1] != "d" and set(said[:-1]) <= {"d"}, said


def run_just_moved(deal: int, seed: int) -> tuple[CanfieldGame, Move] | None:
    """A partial-moves game whose last move took a run off a card it could go straight back onto."""
    game = canfield(deal, "partial-moves")
    rng = random.Random(seed)
    for _step in range(300):
        moves = game.legal_moves()
        if not moves:
            return None
        last = game.play(rng.choice(moves))
        if last.source.isdigit() and last.target.isdigit():
            back = Move(last.target, last.source)
            if back in game.legal_moves():
                return game, back
    return None


@pytest.mark.usefixtures("few_positions")
def test_a_hint_never_moves_a_run_back_where_it_just_came_from() -> None:
    found = [case for deal in range(1, 40) for seed in (1, 2) if (case := run_just_moved(deal, seed))]
    assert len(found) >= 3
    for game, back in found[:3]:
        before = game.copy()
        before.undo()
        assert registry.positions_behind(game)[0] == before.to_text(hide_stock=True)
        assert registry.hint(game, seconds=PATIENT).move != back


def test_the_hidden_cards_are_the_reserve_under_its_top_and_the_first_pass_stock() -> None:
    game = canfield(1)
    assert registry.thinks_about(game) and game.hidden_count == 12 + 34
    game.play_line("d " * 13)
    assert game.pass_number == 2 and game.hidden_count == 12


def test_once_nothing_is_hidden_the_hints_win_the_game() -> None:
    game = won_deal()
    line = tokens(solve(position_of(game), max_seconds=5).line)
    for token in line:  # follow the win until every card is known
        if game.hidden_count == 0:
            break
        game.play(token)
    assert game.hidden_count == 0 and not game.is_won
    for _ in range(200):
        found = registry.hint(game, seconds=PATIENT)
        assert found.outlook is Outlook.WINNABLE and found.move is not None
        game.play(found.move)
        if game.is_won:
            break
    assert game.is_won
    done = registry.hint(game, seconds=1)
    assert done.move is None and done.outlook is Outlook.WINNABLE


def test_the_solver_door_replays_its_win_and_proves_a_dead_deal_lost() -> None:
    game = won_deal()
    found = registry.solve(game)
    assert found.verdict is Verdict.WINNABLE
    board = game.copy()
    for move in found.line:
        board.play(move)
    assert board.is_won
    stuck = canfield(3)  # no card can ever move: the stock turns up nothing that fits
    assert registry.solve(stuck).verdict is Verdict.LOST
    only = registry.hint(stuck, seconds=PATIENT)
    assert only.move == Move.from_text("d")


def test_the_solver_needs_the_whole_position() -> None:
    game = canfield(1)
    view = Game.from_text(game.to_text(hide_stock=True))
    with pytest.raises(ValueError, match="whole position"):
        registry.solve(view)
    game.play_line("d " * 13)  # the stock is known from the second pass, the reserve never is
    view = Game.from_text(game.to_text(hide_stock=True))
    assert isinstance(view, CanfieldGame) and view.stock_known and not view.reserve_known
    with pytest.raises(ValueError, match="reserve's and the stock's order"):
        registry.solve(view)


def weighed_in_full(view: CanfieldGame) -> tuple[dict[int, int], dict[int, int], list[search.Step]]:
    """Each candidate move of ``view`` weighed on every one of the hint's imagined deals: its wins and losses.

    On one deal the moves are searched sharing what they prove lost, in an order shuffled afresh
    on every deal from that of the positions they lead to (not of the moves, which depends on
    where the talon stands); a move that wins the game at once isn't searched.
    """
    seen = position_of(view)
    rng = random.Random(advice._seed(view, seen))
    shuffler = random.Random(advice._seed(view, seen) ^ 0x5EED)
    steps = advice._candidates(seen, view.stock_known)
    wins = dict.fromkeys(range(len(steps)), 0)
    lost = dict.fromkeys(range(len(steps)), 0)
    for _sample in range(advice.SAMPLES):
        imagined = advice._imagined(seen, view.stock_known, rng)
        after = [search.play(imagined, step) for step in steps]
        searched = sorted((index for index in range(len(steps)) if not after[index].won), key=lambda index: (
            after[index].foundations, after[index].piles, after[index].reserve, after[index].stock,
            after[index].waste, after[index].passes))
        shuffler.shuffle(searched)
        found = search.solve_each([after[index] for index in searched], max_nodes=advice.MOVE_NODES,
                                  max_seconds=PATIENT)
        verdicts = dict(zip(searched, (result.verdict for result in found), strict=True))
        for index in range(len(steps)):
            wins[index] += verdicts.get(index, Verdict.WINNABLE) is Verdict.WINNABLE
            lost[index] += verdicts.get(index) is Verdict.LOST
    return wins, lost, steps


def test_a_sampled_hint_is_the_move_that_wins_the_most_imagined_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each move weighed on the same imagined deals: the most won, then the fewest proved lost, then
    the fewest turns of the talon, then the solver's order; the chance is the share won."""
    monkeypatch.setattr(advice, "SAMPLES", 8)
    monkeypatch.setattr(advice, "MOVE_NODES", 400)
    monkeypatch.setattr(advice, "THINK_NODES", 10_000_000)  # only the deals bound the weighing
    weighed = 0
    for deal in (1, 2, 3, 5, 8, 13, 21, 34):
        game = canfield(deal)
        try:
            game = first_pass_turned(game)
            game.play_line("d d")
        except IllegalMove:  # no card could move in the first pass: that game is over
            continue
        view = Game.from_text(game.to_text(hide_stock=True))
        assert isinstance(view, CanfieldGame) and view.stock_known and view.hidden_count
        wins, lost, steps = weighed_in_full(view)
        if max(wins.values()) == 0 or len(steps) < 2:
            continue
        weighed += 1
        picked = max(wins, key=lambda index: (wins[index], -lost[index], -advice._turns(steps[index]), -index))
        found = registry.hint(view, seconds=PATIENT, behind=())
        assert found.move is not None
        assert ("d" if found.move.is_draw else str(found.move)) == advice._first_token((steps[picked],)), deal
        assert found.win_chance == wins[picked] / advice.SAMPLES and found.samples == advice.SAMPLES
    assert weighed >= 4
