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

from gatebot.render import boards_for
from gatebot.rules import VARIANTS
from gatebot.service import GameService
from gatebot.solver import registry

log = logging.getLogger(__name__)


def import_every_board() -> None:
    """Import each variant's renderers and solver, and Pillow: the modules a first board or hint imports."""
    import gatebot.render.image  # noqa: F401  Pillow, which the bot's own import leaves out

    for variant in VARIANTS:
        boards_for(variant)
        registry.solver_for(variant)


async def warm_up(service: GameService) -> float:
    """Import what drawing and hints need, open the first database connection, set the hint workers starting.

    The seconds it took are logged and returned. Only imports, no drawing: on a loaded host the
    warm-up itself must stay short, well within the time allowed for logging in.
    """
    started = time.perf_counter()
    import_every_board()
    await service.warm_up()
    took = time.perf_counter() - started
    log.info("warmed up in %.1f s: boards and solvers imported, database connected, hint workers starting", took)
    return took
