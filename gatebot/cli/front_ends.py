"""``gatebot run``, ``sync``, ``play`` and ``web``: the commands that hand over to a front end.

Settings and arguments are checked first, so a mistake is one sentence and changes nothing;
the front ends themselves are imported only when a command needs them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING

from gatebot.cli.output import BROKEN_PIPE, quiet_service_logs, refuse, say, silence, utf8
from gatebot.digits import shown
from gatebot.errors import UserError
from gatebot.messages import _, message_of
from gatebot.rules import DEFAULT_VARIANT, MAX_DEAL, RulesError, find_variant

if TYPE_CHECKING:
    from gatebot.service import GameService
    from gatebot.settings import Settings, WebSettings


def _settings() -> Settings | int:
    from gatebot.settings import Settings, SettingsError

    try:
        return Settings.from_env()
    except SettingsError as error:
        return refuse(message_of(error))


def run_command(args: argparse.Namespace) -> int:
    """``gatebot run``: the bot, until SIGINT or SIGTERM."""
    settings = _settings()
    if isinstance(settings, int):
        return settings
    from gatebot.bot.run import run

    return run(settings, None if settings.web is None else _beside_the_bot(settings.web))


def _beside_the_bot(web: WebSettings) -> Callable[[GameService], AbstractAsyncContextManager[object]]:
    """The web table on the bot's loop over the bot's service (WEB_PORT set); a port it can't have stops the start."""
    from gatebot.bot.run import EXIT_CONFIG, StartError
    from gatebot.web.serve import ServeError, serving

    @asynccontextmanager
    async def beside(service: GameService) -> AsyncIterator[None]:
        try:
            async with serving(service, web):
                yield
        except ServeError as error:
            raise StartError(str(error), EXIT_CONFIG) from None

    return beside


def sync_command(args: argparse.Namespace) -> int:
    """``gatebot sync``: register the slash commands globally, then exit."""
    settings = _settings()
    if isinstance(settings, int):
        return settings
    from gatebot.bot.run import StartError, sync_commands
    from gatebot.bot.run import refuse as refuse_start
    from gatebot.store.database import DatabaseError

    try:
        count = asyncio.run(sync_commands(settings))
    except StartError as error:
        return refuse_start(str(error), error.exit_code)
    except DatabaseError as error:
        return refuse(message_of(error))
    print(say(_("Synced {count} commands globally; Discord may take up to an hour to show them everywhere.",
                count=count)))
    return 0


def play_command(args: argparse.Namespace) -> int:
    """``gatebot play``: check the arguments, then play in the terminal, saved in the database.

    Arguments are checked before the database is opened, so a mistake changes nothing.
    Exit codes: 0 when the game ends or the player stops, 2 for bad arguments or a database
    that can't be used, 1 if the database fails mid-game, 130 on Ctrl-C, 141 when the output
    was closed (every move played so far is saved either way).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from gatebot.store.database import DatabaseError, database_url_from_env
    from gatebot.terminal import PlayRequest, Screen, play_in_terminal
    from gatebot.terminal.request import MAX_USER_LENGTH, default_user, parse_deal

    deal = None
    if args.deal is not None:
        deal = parse_deal(args.deal)
        if deal is None:
            return refuse(_("--deal takes a whole number from 1 to {most}, not {typed}", most=MAX_DEAL,
                            typed=shown(args.deal)))
    try:
        find_variant(args.variant or DEFAULT_VARIANT).check_options(args.option or ())
    except RulesError as error:
        return refuse(message_of(error))
    user = default_user() if args.user is None else args.user.strip()
    if not 1 <= len(user) <= MAX_USER_LENGTH:
        return refuse(_("--user takes a name of 1 to {most} characters", most=MAX_USER_LENGTH))

    stdin, stdout = utf8(sys.stdin), utf8(sys.stdout)
    colour = args.colour if args.colour is not None else stdout.isatty() and not os.environ.get("NO_COLOR")
    request = PlayRequest(
        database_url=database_url_from_env(), user=user, variant=args.variant, deal=deal,
        options=tuple(args.option) if args.option is not None else None, new=args.new,
    )
    screen = Screen.measured(interactive=stdin.isatty(), colour=colour, compact=args.compact, words=args.words)
    quiet_service_logs()
    try:
        return asyncio.run(play_in_terminal(request, stdin, stdout, screen))
    except (DatabaseError, UserError) as error:  # a UserError here: the first request was refused (a full disk)
        return refuse(message_of(error))
    except KeyboardInterrupt:  # at the prompt, or while a request (a hint) was under way
        stdout.write("\n")
        stdout.flush()
        sys.stderr.write(say(_("gatebot: interrupted; every move shown was saved, and gatebot play resumes the game."))
                         + "\n")
        return 130
    except BrokenPipeError:  # the output was closed, as by `gatebot play | head`: stop quietly
        silence(stdout)
        return BROKEN_PIPE
    except (SQLAlchemyError, ConnectionError, TimeoutError) as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines() or [type(error).__name__]
        sys.stderr.write(say(_("gatebot: the database failed during the game ({reason}); every move shown before "
                               "this was saved.", reason=reason[0].rstrip("."))) + "\n")
        return 1


def web_command(args: argparse.Namespace) -> int:
    """``gatebot web``: the web table alone, on the same database as ``gatebot play``, until Ctrl-C.

    Exit codes: 0 when stopped, 2 for a setting, an address or a database to fix first.
    """
    from gatebot.settings import SettingsError, WebSettings
    from gatebot.store.database import DatabaseError, database_url_from_env
    from gatebot.web.serve import KeyFileError, serve_alone

    try:
        settings = WebSettings.from_env(os.environ, host=args.host, port=args.port)
    except SettingsError as error:
        return refuse(message_of(error))

    def announce(text: str) -> None:
        if text.startswith("http"):
            text = _("The table is at {address} (Ctrl-C stops it).", address=text)
        print(say(text), flush=True)

    quiet_service_logs()
    try:
        asyncio.run(serve_alone(database_url_from_env(), settings, announce))
    except KeyboardInterrupt:
        return 0
    except (DatabaseError, KeyFileError) as error:
        return refuse(message_of(error) if isinstance(error, DatabaseError) else str(error))
    except OSError as error:
        return refuse(_("Can't serve the table on {host} port {port} ({reason}): choose another with --port.",
                        host=settings.host, port=settings.port, reason=error.strerror or error))
    return 0
