"""How every command talks back, in the terminal's language: a one-sentence refusal, UTF-8 streams, closed pipes, logs.

A refusal is one sentence on stderr and exit code 2; output cut short by its reader
(``| head``) ends a command with :data:`BROKEN_PIPE`, its descriptor pointed at /dev/null.
Every sentence printed to a person is marked where it arises and said through
:func:`terminal_language`, the catalogue ``gatebot play`` uses too; log lines stay English.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TextIO

from gatebot.locale import terminal_language
from gatebot.messages import _

#: The exit code when the output's reader went away early (``| head``): 128 + SIGPIPE, as a
#: shell reports for a program that SIGPIPE stopped. It differs from every code a command
#: returns on its own (``solve``'s 1 means "out of budget").
BROKEN_PIPE = 141
#: The longest refusal printed; longer ones (a rule quoting a huge line back) are cut.
MAX_REFUSAL = 400


def say(message: str) -> str:
    """``message`` (a marked sentence, or one built of them) in the terminal's language."""
    return terminal_language().say(message)


def refuse(reason: str) -> int:
    """Say on stderr, in one sentence in the terminal's language, why the command can't run; exit code 2.

    A sentence longer than :data:`MAX_REFUSAL` (one quoting a huge input back) is cut short.
    """
    reason = " ".join(say(reason).split()).rstrip(".")
    if len(reason) > MAX_REFUSAL:
        reason = reason[: MAX_REFUSAL - 1] + "…"
    sys.stderr.write(f"gatebot: {reason}.\n")
    return 2


def utf8(stream: TextIO) -> TextIO:
    """Switch a console stream that cannot carry card suits (♠) to UTF-8; others are left alone."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "♣♦♥♠·".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")
    return stream


def silence(stream: TextIO) -> None:
    """Point a closed pipe's file descriptor at /dev/null, so flushing it at exit raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        pass


def quiet_service_logs() -> None:
    """Keep the service's log lines (meant for a bot's operator) off the player's terminal.

    The player already gets the one sentence the service puts in its reply; without a
    handler, Python would print the log record to stderr as well.
    """
    logger = logging.getLogger("gatebot")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())


def finished_game_choice(game: str | None, user: str | None) -> tuple[int | None, str] | str:
    """``--game`` and ``--user`` of a command that shows a finished game, or the sentence refusing them.

    The game's number (None: the player's last finished game) and the player, as ``gatebot card``
    and ``gatebot replay`` both take them.
    """
    from gatebot.digits import parse_whole, shown
    from gatebot.terminal.request import MAX_USER_LENGTH, default_user

    game_id = None
    if game is not None:
        game_id = parse_whole(game.removeprefix("#"))
        if game_id is None or game_id < 1:
            return _("--game takes a game's number, like 12, not {typed}", typed=shown(game))
    player = default_user() if user is None else user.strip()
    if not 1 <= len(player) <= MAX_USER_LENGTH:
        return _("--user takes a name of 1 to {most} characters", most=MAX_USER_LENGTH)
    return game_id, player


def folder_refusal(out: Path | None, typed: str | None) -> str | None:
    """The sentence refusing ``--out`` when it names a folder rather than a file to write, else None."""
    from gatebot.digits import shown

    if out is not None and out.is_dir():
        return _("--out names a file to write, and {typed} is a folder", typed=shown(typed or str(out)))
    return None


def png_out(typed: str | None) -> Path | str | None:
    """``--out`` of a command that writes a picture as PNG: its path (None without it), or the sentence refusing it."""
    from gatebot.digits import shown

    if typed is None:
        return None
    out = Path(typed)
    if out.suffix.lower() != ".png":
        return _("--out names a .png file, not {typed}", typed=shown(typed))
    return folder_refusal(out, typed) or out


def print_written(work: Coroutine[Any, Any, str], out: Path | None) -> int:
    """Run ``work`` (a command's reading and writing), print what it says; the exit code.

    0 when it finished; 2 with one sentence when the player asked for something there is not,
    the database can't be used, or the file ``out`` can't be written.
    """
    from gatebot.errors import UserError
    from gatebot.messages import message_of
    from gatebot.store.database import DatabaseError

    quiet_service_logs()
    try:
        print(say(asyncio.run(work)))
    except (UserError, DatabaseError) as error:
        return refuse(message_of(error))
    except OSError as error:
        return refuse(_("{file} can't be written: {reason}", file=str(error.filename or out),
                        reason=error.strerror or str(error)))
    return 0
