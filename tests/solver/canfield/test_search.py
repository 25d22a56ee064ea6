"""The Canfield solver against the rules engine: its moves are the engine's, its wins replay there."""

from __future__ import annotations

import random

import pytest

from gatebot.rules import Game
from gatebot.rules.canfield import CanfieldGame
from gatebot.rules.cards import CARDS
from gatebot.solver.canfield.search import Verdict, deadlocked, moves, play, position_of, solve, talon_tops, tokens


def canfield(deal: int, *options: str) -> CanfieldGame:
    game = Game.new("canfield", deal=deal, options=options)
    assert isinstance(game, CanfieldGame)
    return game


@pytest.mark.parametrize("deal", range(1, 31))
def test_every_win_found_replays_through_the_engine(deal: int) -> None:
    game = canfield(deal)
    result = solve(position_of(game), max_seconds=0.5)
    if result.verdict is Verdict.WINNABLE:
        for token in tokens(result.line):
            game.play(token)
        assert game.is_won


def test_some_deals_are_won_and_some_proved_lost() -> None:
    verdicts = {solve(position_of(canfield(deal)), max_seconds=0.5).verdict for deal in range(1, 31)}
    assert {Verdict.WINNABLE, Verdict.LOST} <= verdicts


@pytest.mark.parametrize("options", [(), ("partial-moves",), ("draw-one",), ("draw-one", "passes-1")])
def test_each_move_of_the_search_is_a_legal_move_with_the_engines_result(options: tuple[str, ...]) -> None:
    """Random walks: every search move, spelt out, is legal in the engine and lands on the same position."""
    rng = random.Random(11)
    for deal in range(1, 25):
        game = canfield(deal, *options)
        for _ in range(60):
            here = position_of(game)
            found = moves(here, safe=False)
            if not found:
                break
            step = rng.choice(found)
            for token in tokens((step,)):
                assert token in {str(move) for move in game.legal_moves()}, (deal, step, token)
                game.play(token)
            after = play(here, step)
            mine = position_of(game)
            assert (after.reserve, after.foundations, after.piles, after.stock, after.waste, after.passes) == (
                mine.reserve, mine.foundations, mine.piles, mine.stock, mine.waste, mine.passes
            )


def test_the_talon_shows_the_engines_waste_tops_turn_by_turn() -> None:
    game = canfield(5)
    shown = talon_tops(position_of(game))
    seen = []
    for turns in range(len(shown) + 3):
        if game.raw().waste:
            seen.append((turns, game.raw().waste[-1]))
        if "d" not in {str(move) for move in game.legal_moves()}:
            break
        game.play("d")
    assert shown == seen[: len(shown)]


def deadlock_position() -> CanfieldGame:
    """2♣ lies on 3♥, and K♥ on A♣: 2♣ must go up before 3♥, which (A♥ … K♥) must go up before
    A♣, which must go up before 2♣ — a circle, so none of the four can ever go up."""
    placed = {"AS", "3H", "2C", "AC", "KH"}
    rest = [card for card in (rank + suit for rank in "A23456789TJQK" for suit in "CDHS") if card not in placed]
    text = "\n".join(["canfield", "R:", "F: - - - AS", "B: A", "1: 3H 2C", "2: AC KH", "3:", "4:", "W:",
                      "S: " + " ".join(rest), "P: 1"])
    game = Game.from_text(text)
    assert isinstance(game, CanfieldGame)
    return game


def test_a_circle_of_cards_that_must_go_up_first_is_a_deadlock_and_no_play_breaks_it() -> None:
    game = deadlock_position()
    assert deadlocked(position_of(game))
    assert solve(position_of(game), max_nodes=10).verdict is Verdict.LOST
    stuck = {"3H", "2C", "AC", "KH"}
    rng = random.Random(3)
    best = 0
    for _ in range(30):  # whatever is played, none of the circle's cards reaches a foundation
        board = game.copy()
        for _ in range(150):
            legal = board.legal_moves()
            if not legal:
                break
            board.play(rng.choice(legal))
        up = {str(card) for card in CARDS if str(card) not in _off_foundations(board)}
        assert not stuck & up
        best = max(best, len(up))
    assert best > 2  # other cards do go up: the walks get somewhere


def _off_foundations(game: CanfieldGame) -> set[str]:
    lines = game.to_text().splitlines()
    return {word for line in lines[1:] if line[:2] not in ("F:", "B:", "P:") for word in line.split()[1:]}


def test_the_deadlock_rule_only_ever_settles_deals_the_bare_search_would_settle_the_same_way() -> None:
    more = 0
    for deal in range(1, 31):
        start = position_of(canfield(deal))
        bare = solve(start, max_nodes=4_000, max_seconds=60, deadlocks=False).verdict
        pruned = solve(start, max_nodes=4_000, max_seconds=60).verdict
        if bare is not Verdict.UNRESOLVED:
            assert pruned is bare, deal
        more += bare is Verdict.UNRESOLVED and pruned is not Verdict.UNRESOLVED
    assert more > 0  # and it settles some the bare search can't within the budget
