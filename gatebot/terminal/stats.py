"""``gatebot stats`` and ``gatebot games``: a terminal player's statistics, their picture, and their past games.

The same database and player as ``gatebot play``. ``stats`` prints what the ``stats`` command
of ``gatebot play`` prints and, with ``--out``, writes the statistics picture of one variant
(:mod:`gatebot.render.results_image`, drawn off the event loop and imported only here).
``games`` prints a page of the player's finished games, newest first, each with the number
``gatebot replay --game N`` and ``gatebot card --game N`` take.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from gatebot.errors import UserError
from gatebot.locale import terminal_language
from gatebot.messages import _, joined
from gatebot.service.history import History, chart_description, history_text
from gatebot.service.stats import Statistics, stats_text
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.terminal.play import watch
from gatebot.terminal.session import PLATFORM


class NothingToDraw(UserError):
    """The statistics picture was asked for a variant the player has no finished game of (or of none at all)."""


@dataclass(frozen=True, slots=True)
class StatsRequest:
    """Where the games are, whose, where the picture goes (None: nowhere), of which variant (None: the most played)."""

    database_url: str
    user: str
    out: Path | None = None
    variant: str | None = None


@dataclass(frozen=True, slots=True)
class GamesRequest:
    """Where the games are, whose, and which page of them (from 1)."""

    database_url: str
    user: str
    page: int = 1


async def show_stats(request: StatsRequest) -> str:
    """The player's statistics as text; the picture written to ``request.out`` first, when asked.

    Raises :class:`NothingToDraw` (one sentence, nothing written) for a picture of nothing,
    :class:`~gatebot.store.DatabaseError` for a database that can't be used, and ``OSError``
    when the file can't be written.
    """
    db = Database(request.database_url)
    try:
        await ensure_schema(db)
        found = await Statistics(db).player(PLATFORM, request.user)
    finally:
        await db.dispose()
    text = (_("You haven't played yet: start a game with gatebot play.") if found is None
            else stats_text(found, own=True, new_command="gatebot play"))
    if request.out is None:
        return text
    chosen = found.of(request.variant) if found is not None else None
    if chosen is None:
        raise NothingToDraw(_("You have no finished game of that variant yet, so there is no picture to draw.")
                            if request.variant is not None and found is not None and found.variants
                            else _("You have no finished game yet, so there is no picture to draw."))
    from gatebot.render.results_image import render_results_png  # only a picture's asker pays for its import

    picture = await asyncio.to_thread(render_results_png, chosen.chart(), terminal_language())
    request.out.write_bytes(picture)
    return joined(text, _("Wrote the picture of your {title} games to {out}: {size} KB.", title=chosen.title,
                          out=str(request.out), size=max(1, round(len(picture) / 1024))),
                  chart_description(chosen), sep="\n")


async def show_games(request: GamesRequest) -> str:
    """A page of the player's finished games as text, newest first, each with its number."""
    db = Database(request.database_url)
    try:
        await ensure_schema(db)
        page = await History(db).page(PLATFORM, request.user, request.page)
    finally:
        await db.dispose()
    return history_text(page, watch=watch, empty=_("You have no finished games yet: start one with gatebot play."))
