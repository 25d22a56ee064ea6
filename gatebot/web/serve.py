"""Serving the web table: ``gatebot web`` on its own, or beside the bot on the bot's event loop.

:func:`start` runs an app on an ``AppRunner`` and returns it with the address it listens on
(port 0 picks a free one); :func:`serve_alone` is ``gatebot web``: it opens the database, makes
one :class:`~gatebot.service.GameService`, prints the address and serves until stopped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from aiohttp import web

from gatebot.messages import _
from gatebot.rules import Game
from gatebot.service import GameService
from gatebot.settings import KeyFileError, WebSettings
from gatebot.settings import web_key as cookie_key
from gatebot.store import Database
from gatebot.store.database import saved_where
from gatebot.store.migrate import upgrade
from gatebot.web.app import build_app

log = logging.getLogger(__name__)

__all__ = ["KeyFileError", "ServeError", "cookie_key", "serve_alone", "serving", "start"]

#: How the table's sentences name starting a game and ending a lost one: its buttons.
NEW_COMMAND = _("New deal")
END_PROMPT = _("Press End game to finish")


def dialog_deal_command(variant: type[Game], options: tuple[str, ...], winnable: bool) -> str:
    """How the table deals ``variant`` with ``options``, or a proven deal of it: its New deal dialog."""
    if winnable:
        return _("New deal with “A deal that can be won” ticked")
    return _("New deal with the options {options}", options=" ".join(options))


async def start(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, str]:
    """Serve ``app`` on ``host``:``port`` on the running loop; the runner (to clean up) and the address."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    sockets = site._server.sockets if site._server is not None else ()  # type: ignore[attr-defined]
    bound = sockets[0].getsockname()[1] if sockets else port
    shown_host = f"[{host}]" if ":" in host else host
    return runner, f"http://{shown_host}:{bound}/"


class ServeError(Exception):
    """The table can't be served (its port, its key file); the message is one sentence saying what to fix."""


@asynccontextmanager
async def serving(service: GameService, settings: WebSettings) -> AsyncIterator[str]:
    """The table served over ``service`` on the running loop (the bot's) while the block runs; yields the address."""
    try:
        runner, address = await start(build_app(service, settings, cookie_key(settings)), settings.host,
                                      settings.port)
    except KeyFileError as error:
        raise ServeError(str(error)) from None
    except OSError as error:
        raise ServeError(f"Can't serve the web table on {settings.host} port {settings.port} "
                         f"({error.strerror or error}): set another WEB_PORT") from None
    log.info("serving the web table at %s", address)
    try:
        yield address
    finally:
        await runner.cleanup()


async def serve_alone(database_url: str, settings: WebSettings, announce: Callable[[str], None]) -> None:
    """``gatebot web``: the table on its own over the database, until cancelled; ``announce`` gets the address."""
    db = Database(database_url)
    service: GameService | None = None
    runner: web.AppRunner | None = None
    try:
        before, after = await upgrade(db)
        if before != after:
            log.info("Upgraded the database %s from %s to %s.", db.safe_url, before or "empty", after)
            where = saved_where(db) if before is None else None
            if where is not None:  # a new player's first start: where the games are, not how the schema came
                announce(_("Your games are saved in {file}.", file=where))
        service = GameService(db, new_command=NEW_COMMAND, end_prompt=END_PROMPT, deal_command=dialog_deal_command)
        runner, address = await start(build_app(service, settings, cookie_key(settings)), settings.host,
                                      settings.port)
        announce(address)
        await asyncio.Event().wait()
    finally:
        if runner is not None:
            await runner.cleanup()
        if service is not None:
            service.close()
        await db.dispose()
