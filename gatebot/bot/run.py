"""``gatebot run`` and ``gatebot sync``: start the bot with its database, stop it cleanly.

On SIGINT or SIGTERM the bot closes its gateway connection first, then the solver's worker
process is stopped and the database engine disposed; every game is saved after each request, so nothing is half-written.

Logging in is where Discord is first reached, so that is where its failures are told apart:
a network failure (refused, no such host, no answer, a dropped connection) or an outage is
:data:`EXIT_UNREACHABLE`, worth trying again later; a refused token or intents, or a refused
start-up request, is :data:`EXIT_CONFIG`, which only the operator can fix. Either is one
sentence on stderr, never a traceback. Once logged in, discord.py itself reconnects the
gateway whenever the network drops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys

import aiohttp
import discord
import yarl

from gatebot.bot.client import GateBot
from gatebot.bot.games.wording import slash_deal_command
from gatebot.messages import _
from gatebot.service import GameService
from gatebot.service.opening import Database, DatabaseError
from gatebot.service.opening import open_service as open_games
from gatebot.settings import Settings

log = logging.getLogger(__name__)

#: The exit codes of ``gatebot run`` and ``gatebot sync`` (the README and ``--help`` list them).
EXIT_STOPPED = 0  # stopped by SIGINT or SIGTERM, or sync done
EXIT_BUG = 1  # an unexpected error, logged with its traceback
EXIT_CONFIG = 2  # a setting, the token or the database must be fixed first
EXIT_UNREACHABLE = 75  # EX_TEMPFAIL of sysexits.h: Discord couldn't be reached; try again later
EXIT_INTERRUPTED = 130  # Ctrl-C before the bot was running
#: How long logging in (and the start-up requests made with it) may take before gatebot gives up.
LOGIN_SECONDS = 30.0
#: The failures of the network or of Discord's servers while logging in.
NETWORK_ERRORS = (OSError, aiohttp.ClientError, asyncio.TimeoutError, discord.GatewayNotFound,
                  discord.DiscordServerError)


class StartError(Exception):
    """gatebot couldn't start on Discord; the message is one sentence, ``exit_code`` says which kind."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def _host() -> str:
    """The host discord.py talks to (discord.com, or the base the tests point it at)."""
    url = yarl.URL(discord.http.Route.BASE)
    return f"{url.host}:{url.port}" if url.port not in (None, 443, 80) else str(url.host)


def _network_reason(error: BaseException) -> str:
    """A network failure in a few words: "connection refused", "no answer within 30 s", ..."""
    if isinstance(error, aiohttp.ClientConnectorDNSError):
        return "no such host"
    if isinstance(error, aiohttp.ClientSSLError):
        return "its TLS certificate or handshake failed"
    if isinstance(error, asyncio.TimeoutError):
        return f"no answer within {LOGIN_SECONDS:g} s"
    if isinstance(error, aiohttp.ServerDisconnectedError | ConnectionResetError | aiohttp.ClientPayloadError):
        return "the connection was dropped"
    if isinstance(error, discord.DiscordServerError):
        return f"Discord answered {error.status} {error.response.reason or ''}".strip()
    if isinstance(error, discord.GatewayNotFound):
        return "its gateway was not found"
    os_error = getattr(error, "os_error", error)
    number = getattr(os_error, "errno", None)
    if isinstance(number, int) and number > 0:
        return os.strerror(number).lower()
    return type(error).__name__


async def log_in(bot: discord.Client, token: str) -> None:
    """Log ``bot`` in (which runs its setup hook), or raise :class:`StartError` saying why it can't."""
    try:
        await asyncio.wait_for(bot.login(token), LOGIN_SECONDS)
    except discord.LoginFailure:
        raise StartError("Discord refused the token (401 Unauthorized): check DISCORD_TOKEN "
                         "(or the file DISCORD_TOKEN_FILE names)", EXIT_CONFIG) from None
    except NETWORK_ERRORS as error:
        raise StartError(f"Can't reach Discord at {_host()} ({_network_reason(error)}): check the network "
                         "and start gatebot again", EXIT_UNREACHABLE) from None
    except discord.HTTPException as error:  # refused, not failed: a 403 syncing to GATEBOT_DEV_GUILD_ID
        raise StartError(f"Discord refused a start-up request ({error.status} {error.text or error.response.reason}): "
                         "check GATEBOT_DEV_GUILD_ID and the bot's invitation", EXIT_CONFIG) from None


async def connect(bot: discord.Client) -> None:
    """Run the gateway until closed; the gateway's refusals (token, intents) become :class:`StartError`."""
    try:
        await bot.connect()
    except discord.PrivilegedIntentsRequired:
        raise StartError("Discord refused the Message Content intent that GATEBOT_MOVE_CHANNELS needs: turn it "
                         "on in the developer portal, or unset GATEBOT_MOVE_CHANNELS", EXIT_CONFIG) from None
    except discord.ConnectionClosed as error:
        if error.code != 4004:
            raise
        raise StartError("Discord's gateway refused the token: check DISCORD_TOKEN", EXIT_CONFIG) from None


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
    db, service, message = await open_games(
        settings.database_url, new_command=_("/gate new"), end_prompt=_("Press End game to finish"),
        deal_command=slash_deal_command,
        hint_workers=settings.hint_workers,
    )
    if message:
        log.info(message)
    return db, service


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
            await log_in(bot, settings.token)
            await connect(bot)
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
            await log_in(bot, settings.token)
            synced = await bot.tree.sync()
    finally:
        service.close()
        await db.dispose()
    return len(synced)


def run(settings: Settings) -> int:
    """``gatebot run``: the exit code (``EXIT_*``), with one sentence on stderr for a failure to start."""
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    try:
        asyncio.run(serve(settings))
    except StartError as error:
        return refuse(str(error), error.exit_code)
    except DatabaseError as error:
        return refuse(str(error), EXIT_CONFIG)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception:
        log.exception("gatebot stopped because of a bug")
        return EXIT_BUG
    return EXIT_STOPPED


def refuse(sentence: str, code: int) -> int:
    """Write ``gatebot: sentence.`` on stderr, as every gatebot command says why it stopped; return ``code``."""
    sys.stderr.write(f"gatebot: {sentence.rstrip('.')}.\n")
    sys.stderr.flush()
    return code
