"""``gatebot run`` and ``gatebot sync``: start the bot with its database, stop it cleanly.

On SIGINT or SIGTERM the bot closes its gateway connection first, then the solver's worker
process is stopped and the database engine disposed; every game is saved after each request, so nothing is half-written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import discord
import yarl

from gatebot.bot.client import GateBot
from gatebot.service import GameService
from gatebot.settings import Settings
from gatebot.store.database import Database, DatabaseError
from gatebot.store.migrate import ensure_schema

log = logging.getLogger(__name__)


def use_api_base(base: str) -> None:
    """Point discord.py at a Discord other than discord.com: the tests' fake, over loopback.

    REST calls go to ``base``; the gateway is the same host's ``/gateway`` (a plain client
    never asks ``GET /gateway/bot``, it opens ``DEFAULT_GATEWAY``).
    """
    url = yarl.URL(base.rstrip("/"))
    discord.http.Route.BASE = str(url)
    scheme = "wss" if url.scheme == "https" else "ws"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = url.with_scheme(scheme).with_path("/gateway")


async def open_service(settings: Settings) -> tuple[Database, GameService]:
    """The database (migrated to this version, saying so in the log) and the service over it."""
    db = Database(settings.database_url)
    try:
        message = await ensure_schema(db)
    except BaseException:
        await db.dispose()
        raise
    if message:
        log.info(message)
    return db, GameService(
        db, new_command="/gate new", end_prompt="Press End game to finish", hint_workers=settings.hint_workers
    )


async def serve(settings: Settings) -> None:
    """Run the bot until it is closed or the process is asked to stop."""
    if settings.api_base:
        use_api_base(settings.api_base)
    db, service = await open_service(settings)
    bot = GateBot(settings, service)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(settings.token)
    finally:
        service.close()
        await db.dispose()
        log.info("stopped; the database is closed")


async def sync_commands(settings: Settings) -> int:
    """Register the slash commands globally (they take up to an hour to appear everywhere)."""
    if settings.api_base:
        use_api_base(settings.api_base)
    db, service = await open_service(settings)
    bot = GateBot(settings, service)
    try:
        async with bot:
            await bot.login(settings.token)
            synced = await bot.tree.sync()
    finally:
        service.close()
        await db.dispose()
    return len(synced)


def run(settings: Settings) -> int:
    """``gatebot run``: the exit code, 2 with one sentence on a problem the operator can fix."""
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (or the file DISCORD_TOKEN_FILE names)")
        return 2
    except DatabaseError as error:
        log.error("%s", error)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
