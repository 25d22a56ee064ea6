"""``gatebot health``: is the bot up? Its gateway heartbeat is recent and its database answers.

Meant for a container's ``HEALTHCHECK`` or a supervisor, run beside ``gatebot run`` with the
same environment (and ``.env``). The running bot keeps ``HEALTH_FILE`` holding the time of its
last acknowledged gateway heartbeat (:class:`gatebot.bot.run.Heartbeat`); this command, another
process, reads it and then asks the database ``SELECT 1``. Healthy is exit 0 and one line on
stdout; anything else is exit 1 and one line on stderr naming the check that failed. Never 2:
Docker reserves it, so a health check's settings mistake is unhealthy too.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from gatebot.cli.output import say
from gatebot.messages import _, message_of

EXIT_HEALTHY, EXIT_UNHEALTHY = 0, 1
#: The oldest heartbeat that still counts as live: the bot rewrites it every 15 s while connected,
#: and discord.py drops a connection whose acknowledgements stop for a minute.
MAX_HEARTBEAT_AGE = 90.0
#: How long the database may take to answer ``SELECT 1`` (a health check's own timeout is 30 s by default).
DATABASE_SECONDS = 10.0


class Unhealthy(Exception):
    """One check failed; the message (a marked sentence) says which and why."""


def health_command(args: argparse.Namespace) -> int:
    """``gatebot health``: exit 0 with one line when both checks pass, else exit 1 with the one that failed."""
    try:
        values = _environment()
        age = heartbeat_age(_health_file(values), now=time.time())
        asyncio.run(database_answers(_database_url(values)))
    except Unhealthy as problem:
        reason = say(message_of(problem)).rstrip(".")
        sys.stderr.write(say(_("gatebot: unhealthy: {reason}.", reason=reason)) + "\n")
        return EXIT_UNHEALTHY
    sys.stdout.write(say(_("healthy: the last gateway heartbeat was {age} s ago and the database answers.",
                           age=format(age, ".0f"))) + "\n")
    return EXIT_HEALTHY


def _environment() -> dict[str, str]:
    """The process environment over ``.env``, as ``gatebot run`` reads them."""
    from gatebot.settings import SettingsError, read_dotenv

    try:
        return {**read_dotenv(Path(".env")), **os.environ}
    except SettingsError as error:
        raise Unhealthy(message_of(error)) from None


def _health_file(values: Mapping[str, str]) -> Path:
    from gatebot.settings import health_file_from_env

    return health_file_from_env(values)


def _database_url(values: Mapping[str, str]) -> str:
    from gatebot.store.database import database_url_from_env

    return database_url_from_env(values)


def heartbeat_age(path: Path, *, now: float) -> float:
    """Seconds since the heartbeat ``path`` records, or :class:`Unhealthy` if there is none this recent."""
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise Unhealthy(_("no heartbeat file at {path}: the bot is not running, or not connected to Discord yet",
                          path=str(path))) from None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or _("it is not ASCII text")
        raise Unhealthy(_("can't read the heartbeat file {path} ({reason}): check HEALTH_FILE", path=str(path),
                          reason=reason)) from None
    try:
        beat = float(text.strip())
    except ValueError:
        beat = math.nan
    if not math.isfinite(beat):
        raise Unhealthy(_("the heartbeat file {path} holds no time: is HEALTH_FILE the bot's?", path=str(path)))
    age = now - beat
    if age < -MAX_HEARTBEAT_AGE:
        raise Unhealthy(_("the heartbeat file {path} holds a time {ahead} s in the future: check the clock",
                          path=str(path), ahead=format(-age, ".0f")))
    age = max(0.0, age)  # the clock stepped back a little since the bot wrote it
    if age > MAX_HEARTBEAT_AGE:
        raise Unhealthy(_("the bot's last gateway heartbeat was {age} s ago (more than {most}): it is not "
                          "connected to Discord, or it has stopped", age=format(age, ".0f"),
                          most=format(MAX_HEARTBEAT_AGE, ".0f")))
    return age


async def database_answers(url: str) -> None:
    """Ask the database ``SELECT 1`` through the store's :class:`Database`; :class:`Unhealthy` if it can't answer.

    A SQLite file that doesn't exist is unhealthy rather than created: the bot makes it at start.
    """
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    from gatebot.store.database import Database, DatabaseError, parse_database_url

    try:
        parsed = parse_database_url(url)
        file = parsed.database if parsed.drivername.startswith("sqlite") else None
        if file not in (None, "", ":memory:") and not Path(file).expanduser().is_file():
            raise Unhealthy(_("the database doesn't answer (there is no file {file})", file=file))
        db = Database(parsed)
    except DatabaseError as error:
        raise Unhealthy(_("the database can't be used ({reason})", reason=say(message_of(error)).rstrip("."))
                        ) from None
    try:
        async with asyncio.timeout(DATABASE_SECONDS), db.sessions() as session:
            await session.execute(text("SELECT 1"))
    except TimeoutError:
        raise Unhealthy(_("the database doesn't answer (no answer within {seconds} s)",
                          seconds=format(DATABASE_SECONDS, "g"))) from None
    except (SQLAlchemyError, OSError) as error:
        raise Unhealthy(_("the database doesn't answer ({reason})", reason=_reason(error))) from None
    finally:
        await db.dispose()


def _reason(error: BaseException) -> str:
    """The first line of what the driver said, without SQLAlchemy's wrapping."""
    cause = getattr(error, "orig", None) or error
    if isinstance(cause, OSError) and cause.errno:
        return os.strerror(cause.errno).lower()
    lines = str(cause).strip().splitlines()
    return lines[0].rstrip(".") if lines else type(cause).__name__
