"""``gatebot run`` and ``gatebot sync``: start the bot with its database, stop it cleanly.

On SIGINT or SIGTERM the bot closes its gateway connection first, then the solver's worker
process is stopped and the database engine disposed; every game is saved after each request, so nothing is half-written.

Logging in is where Discord is first reached, so that is where its failures are told apart:
a network failure (refused, no such host, no answer, a dropped connection) or an outage is
:data:`EXIT_UNREACHABLE`, worth trying again later; a refused token or intents, or a refused
start-up request, is :data:`EXIT_CONFIG`, which only the operator can fix. Either is one
sentence on stderr, never a traceback. Once logged in, discord.py itself reconnects the
gateway whenever the network drops, and each attempt is one line in the log, the reason and the pause.

While the gateway is live the bot keeps its heartbeat file (``HEALTH_FILE``) fresh, which is
how ``gatebot health`` knows it is connected; logs are plain lines, or JSON with ``LOG_FORMAT=json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, TextIO

import aiohttp
import discord
import yarl
from discord.ext import commands
from pythonjsonlogger.json import JsonFormatter

from gatebot.bot import metrics
from gatebot.bot.client import GateBot
from gatebot.bot.games.wording import slash_deal_command
from gatebot.messages import _
from gatebot.service import GameService
from gatebot.service.opening import Database, DatabaseError
from gatebot.service.opening import open_service as open_games
from gatebot.settings import Settings
from gatebot.solver import registry

log = logging.getLogger(__name__)

#: The exit codes of ``gatebot run`` and ``gatebot sync`` (docs/running.md and ``--help`` list them).
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
#: Seconds between writes of the heartbeat file while the gateway is live (``gatebot health`` allows 90).
HEARTBEAT_SECONDS = 15.0
#: Seconds between looks while it isn't, so the first write follows the first acknowledged heartbeat closely.
HEARTBEAT_POLL_SECONDS = 1.0
#: discord.py's own plain line (what it prints when it can't colour), for a stream that isn't a terminal.
PLAIN_FORMAT, PLAIN_DATES = "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S"


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


class Heartbeat:
    """Keeps ``path`` holding the time (``time.time()``, as text) of the bot's last live gateway heartbeat.

    Live means every shard is connected (between discord.py's ``shard_connect`` or
    ``shard_resumed`` and its ``shard_disconnect``) and its last heartbeat was acknowledged:
    a shard's new connection has an infinite latency until its first acknowledgement, and
    discord.py drops a connection whose acknowledgements stop. ``gatebot health`` reads the
    file from another process (a container's health check), so a dead or disconnected bot
    shows as a file that stops getting younger; a clean stop removes it.
    """

    def __init__(self, bot: commands.AutoShardedBot, path: Path) -> None:
        self.bot, self.path = bot, path
        self.live: set[int] = set()
        self.failed = False
        bot.add_listener(self._connected, "on_shard_connect")
        bot.add_listener(self._connected, "on_shard_resumed")
        bot.add_listener(self._disconnected, "on_shard_disconnect")

    async def _connected(self, shard_id: int) -> None:
        self.live.add(shard_id)

    async def _disconnected(self, shard_id: int) -> None:
        self.live.discard(shard_id)

    def is_live(self) -> bool:
        """Whether every shard is connected and has had its heartbeat acknowledged."""
        latencies = self.bot.latencies
        return bool(latencies) and not self.bot.is_closed() and all(
            shard in self.live and math.isfinite(latency) for shard, latency in latencies
        )

    async def keep(self) -> None:
        """Write the file at every beat while live; run until cancelled."""
        while True:
            if self.is_live():
                self.write()
                await asyncio.sleep(HEARTBEAT_SECONDS)
            else:
                await asyncio.sleep(HEARTBEAT_POLL_SECONDS)

    def write(self) -> None:
        """Replace the file at once (a reader never sees half a number); a failure is logged once, not fatal."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_replacing(self.path, f"{time.time():.3f}\n")
        except OSError as error:
            if not self.failed:
                log.warning("can't write the heartbeat file %s (%s): gatebot health will say the bot is down",
                            self.path, error.strerror or error)
            self.failed = True
        else:
            self.failed = False

    def remove(self) -> None:
        """Take the file away on a clean stop, so the health check says at once that the bot is not running."""
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)


def write_replacing(path: Path, text: str) -> None:
    """Put ``text`` (ASCII) at ``path`` in one step, following no link that someone planted in its folder.

    The text goes to a new file of a name nobody can guess, made beside ``path`` by
    :func:`tempfile.mkstemp` (which creates it exclusively, so it never opens a file or link that
    was there), then :func:`os.replace` puts it in place: a rename replaces a link at ``path``
    itself, never what the link points to. Readable by all (the health check may run as another
    user); the temporary file is removed if anything fails.
    """
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            os.fchmod(file.fileno(), 0o644)
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class GatewayRetries(logging.Filter):
    """discord.py's "Attempting a reconnect" after a network failure, as one line instead of a traceback.

    Once logged in, a lost gateway is retried by discord.py itself (with a growing pause), and
    it logs each attempt with the whole traceback of a refused or dropped connection; for a
    network failure that is noise, so the record becomes one sentence with the reason and the
    pause. Any other failure keeps its traceback: it may be a bug.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite a retry record whose exception is a network failure; keep every record."""
        error = record.exc_info[1] if record.exc_info else None
        if (record.name in ("discord.client", "discord.shard") and isinstance(error, NETWORK_ERRORS)
                and str(record.msg).startswith("Attempting a reconnect") and isinstance(record.args, tuple)):
            shard = f" for shard {record.args[0]}" if len(record.args) == 2 else ""
            pause = record.args[-1]
            record.msg = "Can't reach Discord's gateway%s (%s): check the network; gatebot retries in %.1f s"
            record.args = (shard, _network_reason(error), pause)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def setup_logging(settings: Settings, stream: TextIO | None = None) -> None:
    """Log to ``stream`` (stderr): JSON objects for ``LOG_FORMAT=json``, else discord.py's lines.

    discord.py colours its lines when the stream is a terminal, and also whenever it runs in
    a container, terminal or not (``discord.utils.stream_supports_colour``), which fills
    ``docker logs`` with escape codes; so a stream that isn't a terminal gets its plain lines.
    Each JSON object has ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message`` and, for
    a logged exception, ``exception`` (its traceback as one string). A lost gateway's retries
    are one line each (:class:`GatewayRetries`).
    """
    stream = sys.stderr if stream is None else stream
    options: dict[str, Any] = {}
    if settings.log_format == "json":
        options["formatter"] = JsonFormatter(
            "{levelname}{name}{message}", style="{", timestamp="time", json_ensure_ascii=False,
            rename_fields={"levelname": "level", "name": "logger", "exc_info": "exception"},
        )
    elif not stream.isatty():
        options["formatter"] = logging.Formatter(PLAIN_FORMAT, PLAIN_DATES, style="{")
    handler = logging.StreamHandler(stream)
    handler.addFilter(GatewayRetries())
    discord.utils.setup_logging(handler=handler, level=getattr(logging, settings.log_level), **options)


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


def log_slow_solvers() -> None:
    """One line for each compiled core that couldn't be imported, naming the variants whose solver searches in Python.

    gatebot plays on, its verdicts the same: the solver is slower (Canfield's about 40 times, Gate's
    40 to 50), so hints think less far and ``gatebot solve`` decides fewer deals in the same time.
    The variants of one solver (Gate and Little Gate) share a core, and so its reason and its line.
    """
    by_reason: dict[str, list[str]] = {}
    for title, reason in registry.not_compiled().items():
        by_reason.setdefault(reason, []).append(title)
    for reason, titles in by_reason.items():
        log.warning("%s's solver searches in Python, more slowly: its compiled core isn't available (%s)",
                    " and ".join(titles), reason)


#: What runs beside the bot on its loop, over its service, for as long as the bot runs (the web table).
Beside = Callable[[GameService], AbstractAsyncContextManager[object]]


async def serve(settings: Settings, beside: Beside | None = None) -> None:
    """Run the bot until it is closed or the process is asked to stop; ``beside`` runs with it, on its service."""
    if settings.api_base:
        use_api_base(settings.api_base)
    log_slow_solvers()
    counters = _serve_metrics(settings)
    try:
        db, service = await open_service(settings)
    except BaseException:
        if counters is not None:
            counters.stop()
        raise
    bot = GateBot(settings, service)
    metrics.watch_gateway(bot)
    heartbeat = Heartbeat(bot, settings.health_file)
    beating = asyncio.create_task(heartbeat.keep(), name="heartbeat file")
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot, beside(service) if beside is not None else contextlib.nullcontext():
            await log_in(bot, settings.token)
            await connect(bot)
    finally:
        beating.cancel()
        heartbeat.remove()
        service.close()
        await db.dispose()
        if counters is not None:
            counters.stop()
        log.info("stopped; the database is closed")


def _serve_metrics(settings: Settings) -> metrics.MetricsServer | None:
    """The counters' HTTP server when ``METRICS_PORT`` is set (a port it can't have is :class:`StartError`)."""
    if settings.metrics_port is None:
        return None
    try:
        server = metrics.serve(settings.metrics_port)
    except metrics.MetricsError as error:
        raise StartError(str(error), EXIT_CONFIG) from None
    log.info("serving counters at http://%s:%d/metrics", metrics.ADDRESS, server.port)
    return server


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


def run(settings: Settings, beside: Beside | None = None) -> int:
    """``gatebot run``: the exit code (``EXIT_*``), with one sentence on stderr for a failure to start.

    ``beside`` (the web table, when WEB_PORT is set) is served from the bot's loop over its service.
    """
    setup_logging(settings)
    as_json = settings.log_format == "json"
    try:
        asyncio.run(serve(settings, beside))
    except StartError as error:
        return refuse(str(error), error.exit_code, as_json=as_json)
    except DatabaseError as error:
        return refuse(str(error), EXIT_CONFIG, as_json=as_json)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception:
        log.exception("gatebot stopped because of a bug")
        return EXIT_BUG
    return EXIT_STOPPED


def refuse(sentence: str, code: int, *, as_json: bool = False) -> int:
    """Write ``gatebot: sentence.`` on stderr, as every gatebot command says why it stopped; return ``code``.

    ``as_json`` (``LOG_FORMAT=json``): the sentence is logged as an error instead, so stderr stays all JSON.
    """
    if as_json:
        log.error("%s.", sentence.rstrip("."))
        return code
    sys.stderr.write(f"gatebot: {sentence.rstrip('.')}.\n")
    sys.stderr.flush()
    return code
