"""A hint reads only its player's view: games that differ only in hidden cards get the same hint.

The hint engines stop on the clock as well as on node budgets, so the hints of two games are
compared under a clock that moves on by a fixed step each time it is read: two runs that do
the same work see the same times, and any difference in the hints comes from the games.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable

import pytest

from gatebot.rules import Game
from gatebot.solver import registry
from tests.rules.builders import EVERY_VARIANT, hidden_places, midgame, with_hidden_cards

#: The step the clock takes at each reading, and the hint's budget on that clock.
TICK = 0.05
SECONDS = 0.3


@pytest.fixture
def steady_clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Make ``time.perf_counter`` move on by :data:`TICK` at each reading; the fixture restarts it from 0."""

    def restart() -> None:
        ticks = itertools.count()
        monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * TICK)

    restart()
    return restart


@pytest.mark.parametrize(("variant", "options"), EVERY_VARIANT)
def test_the_hidden_cards_are_the_ones_the_view_writes_as_unseen(variant: str, options: tuple[str, ...]) -> None:
    for deal, steps in ((3, 0), (4, 25)):
        game = midgame(variant, options, deal, steps, seed=deal)
        assert game.hidden_count == len(hidden_places(game))


# Positions whose hints search (imagined stock orders or deals), not a forced draw.
@pytest.mark.parametrize(("variant", "deal", "steps"), [("gate", 3, 20), ("little-gate", 7, 12), ("canfield", 7, 12)])
def test_a_hint_is_the_same_for_every_order_of_the_hidden_cards(
    variant: str, deal: int, steps: int, steady_clock: Callable[[], None]
) -> None:
    game = midgame(variant, (), deal, steps, seed=deal)
    places = hidden_places(game)
    order = list(range(len(places)))
    random.Random(deal).shuffle(order)
    twin = with_hidden_cards(game, order)
    view = Game.from_text(game.to_text(hide_stock=True))
    behind = registry.positions_behind(game)
    hints = []
    for board in (game, twin, view):
        steady_clock()
        hints.append(registry.hint(board, seconds=SECONDS, behind=behind))
    assert hints[1] == hints[0]
    assert hints[2] == hints[0]
    assert hints[0].move in game.legal_moves()
