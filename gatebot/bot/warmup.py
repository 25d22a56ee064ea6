"""Warming up before the bot goes online, so its first command answers within Discord's 3 seconds.

On a busy small host the first ``/gate new`` after a start paid for everything done once: the
variants' board and solver modules imported on first use, Pillow and its fonts for a picture,
the first database connection, and the hint workers' processes starting and importing gatebot.
Together that could outlast Discord's window. :func:`warm_up` does it all while the bot logs in,
before its gateway connects, so no interaction can arrive before it is done.
"""

from __future__ import annotations

import logging
import time
from functools import cache

from gatebot.render import render_emoji, render_spoken, render_text
from gatebot.rules import VARIANTS, Game
from gatebot.service import GameService
from gatebot.solver import registry

log = logging.getLogger(__name__)


def draw_every_board() -> None:
    """Draw deal 1 of every variant in every style and find its solver.

    That imports what a first board or hint would: each variant's renderers, picture layout
    and solver, and Pillow with its file plugins. The picture is drawn at the sizes boards are
    sent at, wide and phone, so the palette each size finds once (about 80 ms) is found here
    rather than for a player's first picture. Under a second, once.
    """
    from gatebot.render.image import render_png  # Pillow, which the bot's own import leaves out

    for variant in VARIANTS:
        game = Game.new(variant.name, deal=1)
        render_text(game)
        render_emoji(game)
        render_spoken(game)
        render_png(game, scale=0.25)
        registry.solver_for(variant)
    _full_size_boards()


@cache
def _full_size_boards() -> None:
    """Draw deal 1 of every variant wide and phone, once a process: what a later warm-up needs is kept."""
    from gatebot.render.image import PHONE_SCALE, render_png

    for variant in VARIANTS:
        game = Game.new(variant.name, deal=1)
        render_png(game)
        render_png(game, scale=PHONE_SCALE, phone=True)


async def warm_up(service: GameService) -> float:
    """Draw every board once, open the first database connection, set the hint workers starting.

    The seconds it took are logged and returned. The workers start in their own processes
    without being waited for: on a loaded host the warm-up must stay short, well within the
    time allowed for logging in.
    """
    started = time.perf_counter()
    draw_every_board()
    await service.warm_up()
    took = time.perf_counter() - started
    log.info("warmed up in %.1f s: boards drawn, database connected, hint workers starting", took)
    return took
