"""Serving the web table: ``gatebot web`` on its own, or beside the bot on the bot's event loop.

:func:`start` runs an app on an ``AppRunner`` and returns it with the address it listens on
(port 0 picks a free one); :func:`serve_alone` is ``gatebot web``: it opens the database, makes
one :class:`~gatebot.service.GameService`, prints the address and serves until stopped.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import os
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from aiohttp import web

from gatebot.messages import _
from gatebot.service import GameService
from gatebot.settings import WebSettings
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.web.app import build_app

log = logging.getLogger(__name__)

#: How the table's sentences name starting a game and ending a lost one: its buttons.
NEW_COMMAND = _("New deal")
END_PROMPT = _("Press End game to finish")


class KeyFileError(Exception):
    """The cookie key file can't be read or made; the message says which file and what to do."""


def cookie_key(settings: WebSettings) -> bytes:
    """The 32 bytes that seal the session cookies: WEB_SECRET_KEY's, else the key file's (made now, mode 0600)."""
    if settings.secret_key is not None:
        return settings.secret_key
    path = settings.key_file
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_key(path)  # another process made it first
    except OSError as error:
        raise KeyFileError(f"Can't make the web table's key file {path} ({error.strerror}): "
                           "set WEB_SECRET_KEY, or make that directory writable") from None
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(base64.urlsafe_b64encode(key).decode() + "\n")
    return key


def _read_key(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
        key = base64.urlsafe_b64decode(text)
    except FileNotFoundError:
        raise
    except (OSError, ValueError, binascii.Error):
        raise KeyFileError(f"The web table's key file {path} can't be read: remove it to make a new one "
                           "(everyone's guest session ends), or set WEB_SECRET_KEY") from None
    if len(key) != 32:
        raise KeyFileError(f"The web table's key file {path} is not a key: remove it to make a new one")
    return key


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
        upgraded = await ensure_schema(db)
        if upgraded:
            announce(upgraded)
        service = GameService(db, new_command=NEW_COMMAND, end_prompt=END_PROMPT)
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
