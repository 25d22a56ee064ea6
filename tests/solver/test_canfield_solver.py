"""The Canfield solver against the rules engine: its moves are the engine's, its wins replay there."""

from __future__ import annotations

import random

import pytest

from gatebot.rules import Game
from gatebot.rules.canfield import CanfieldGame
from gatebot.solver.canfield import Verdict, moves, play, position_of, solve, talon_tops, tokens


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
