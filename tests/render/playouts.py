"""Random games for board tests: positions along a playout that builds more than it draws."""

from __future__ import annotations

import random

from gatebot.rules import CanfieldGame, Game, GateGame, find_variant


def random_playout(
    rng: random.Random, variant: str, options: tuple[str, ...], moves: int, every: int = 1
) -> list[GateGame]:
    """Every ``every``-th position and the last of one random game, biased to build rather than draw."""
    game = Game.new(variant, deal=rng.randint(1, 2**32 - 1), options=options)
    assert isinstance(game, GateGame)
    positions = playout(game, rng, moves, every)
    return [position for position in positions if isinstance(position, GateGame)]


def canfield_playout(
    rng: random.Random, options: tuple[str, ...], moves: int, every: int = 1
) -> list[CanfieldGame]:
    """Like :func:`random_playout`, for a random deal of Canfield."""
    game = Game.new("canfield", deal=rng.randint(1, 2**32 - 1), options=options)
    assert isinstance(game, CanfieldGame)
    positions = playout(game, rng, moves, every)
    return [position for position in positions if isinstance(position, CanfieldGame)]


def variant_playout(variant: str, options: tuple[str, ...], seed: int, moves: int) -> list[Game]:
    """A random deal of ``variant`` with those of ``options`` it has, from the deal to ``moves`` moves on.

    For property tests over every variant that draw options from one shared list.
    """
    rng = random.Random(seed)
    kept = tuple(option for option in options if option in {o.name for o in find_variant(variant).rule_options})
    game = Game.new(variant, deal=rng.randint(1, 2**32 - 1), options=kept)
    return playout(game, rng, moves, every=max(moves, 1))


def playout(game: Game, rng: random.Random, moves: int, every: int = 1) -> list[Game]:
    """``game`` and every ``every``-th position after it of a random game, and the last."""
    positions = [game.copy()]
    for step in range(1, moves + 1):
        if not random_step(game, rng, build_share=0.8):
            break
        if step % every == 0:
            positions.append(game.copy())
    if positions[-1].moves != game.moves:
        positions.append(game)
    return positions


def random_step(game: Game, rng: random.Random, *, build_share: float) -> bool:
    """Play one move: a foundation play if there is one, else a build ``build_share`` of the
    time, else any legal move; False when no move is left."""
    legal = game.legal_moves()
    if not legal:
        return False
    up = [move for move in legal if move.target == "f"]
    builds = [move for move in legal if not move.is_draw]
    if up:
        game.push(up[0])
    elif builds and rng.random() < build_share:
        game.push(rng.choice(builds))
    else:
        game.push(rng.choice(legal))
    return True
