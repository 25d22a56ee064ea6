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

from gatebot.render import render_emoji, render_spoken, render_text
from gatebot.rules import VARIANTS, Game
from gatebot.service import GameService
from gatebot.solver import registry

log = logging.getLogger(__name__)


def draw_every_board() -> None:
    """Draw deal 1 of every variant in every style and find its solver.

    That imports what a first board or hint would: each variant's renderers, picture layout
    and solver, and Pillow with its file plugins. Under a second, once.

    The picture is drawn small. Drawn at the sizes boards are sent at (wide and phone), it
    would find each size's palette and card sprites ahead of a first picture, which then
    costs about 30 ms of CPU rather than 190, once a size; but the bot would hold them, about
    14 MB, even when none of its players sees pictures (text is the default style).
    """
    from gatebot.render.image import render_png  # Pillow, which the bot's own import leaves out

    for variant in VARIANTS:
        game = Game.new(variant.name, deal=1)
        render_text(game)
        render_emoji(game)
        render_spoken(game)
        render_png(game, scale=0.25)
        registry.solver_for(variant)


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
