"""The ``gatebot`` command: one subcommand per front end or tool (``play``, ``db``).

``main`` parses arguments and hands over to the part that does the work; it returns the
exit code instead of exiting, so tests call it directly.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TextIO

from gatebot.rules import MAX_DEAL, Game, GateGame, RulesError

if TYPE_CHECKING:
    from gatebot.settings import Settings
    from gatebot.store.database import Database

Handler = Callable[[argparse.Namespace], int]


def main(argv: list[str] | None = None) -> int:
    """Run ``gatebot`` with ``argv`` (default: the command line); return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    return handler(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gatebot", description="Play the solitaire Gate.")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    play = commands.add_parser(
        "play", help="play a game in the terminal, saved as you play",
        description="Play Gate in the terminal. Moves are read one line at a time; pipe them "
        "in (printf 'd\\n3f\\n' | gatebot play --deal 1) or type them at the prompt. Every move "
        "is saved in the database named by DATABASE_URL (default: a SQLite file in "
        "$XDG_DATA_HOME/gatebot, else ~/.local/share/gatebot), so running gatebot play again "
        "resumes your game where you left it.",
    )
    play.add_argument("--deal", metavar="N",
                      help=f"deal number, 1 to {MAX_DEAL}, for a new game (default: a random one)")
    play.add_argument("--variant", choices=Game.variants(), help="the variant of a new game (default: gate)")
    play.add_argument("--option", action="append", choices=GateGame.known_options,
                      help="a rule option of a new game; repeat for more than one")
    play.add_argument("--new", action="store_true",
                      help="abandon the game in progress, if any, and deal a new one")
    play.add_argument("--user", metavar="NAME",
                      help="whose game to play, for several players on one machine (default: your login name)")
    play.add_argument("--compact", action="store_true", help="a narrow board (40 columns), for phones")
    colour = play.add_mutually_exclusive_group()
    colour.add_argument("--colour", "--color", dest="colour", action="store_true", default=None,
                        help="red cards in red (default: when output is a terminal and NO_COLOR is unset)")
    colour.add_argument("--no-colour", "--no-color", dest="colour", action="store_false")
    play.set_defaults(handler=_play)

    db = commands.add_parser(
        "db", help="look after the database of saved games",
        description="Look after the database named by DATABASE_URL (default: a SQLite file in "
        "$XDG_DATA_HOME/gatebot, else ~/.local/share/gatebot). The bot upgrades it by itself "
        "at start-up; these commands do it by hand.",
    )
    db_commands = db.add_subparsers(title="commands", metavar="COMMAND", required=True)
    db_commands.add_parser(
        "upgrade", help="bring the database's tables up to this gatebot's schema",
    ).set_defaults(handler=_db_upgrade)
    db_commands.add_parser(
        "current", help="show the schema revision the database is at",
    ).set_defaults(handler=_db_current)

    commands.add_parser(
        "run", help="run the Discord bot",
        description="Run gatebot on Discord. Needs DISCORD_TOKEN (or DISCORD_TOKEN_FILE); reads "
        "DATABASE_URL, GATEBOT_DEV_GUILD_ID, LOG_LEVEL, SHARD_COUNT, SHARD_IDS and "
        "GATEBOT_MOVE_CHANNELS from the environment or a .env file.",
    ).set_defaults(handler=_run)
    commands.add_parser(
        "sync", help="register the slash commands with Discord globally",
        description="Register the /gate commands for every server and DM (Discord may take up "
        "to an hour to show them). `gatebot run` only syncs to GATEBOT_DEV_GUILD_ID.",
    ).set_defaults(handler=_sync)
    return parser


def _settings() -> Settings | int:
    from gatebot.settings import Settings, SettingsError

    try:
        return Settings.from_env()
    except SettingsError as error:
        return _refuse(str(error))


def _run(args: argparse.Namespace) -> int:
    """``gatebot run``: the bot, until SIGINT or SIGTERM."""
    settings = _settings()
    if isinstance(settings, int):
        return settings
    from gatebot.bot.run import run

    return run(settings)


def _sync(args: argparse.Namespace) -> int:
    """``gatebot sync``: register the slash commands globally, then exit."""
    settings = _settings()
    if isinstance(settings, int):
        return settings
    import discord

    from gatebot.bot.run import sync_commands
    from gatebot.store.database import DatabaseError

    try:
        count = asyncio.run(sync_commands(settings))
    except discord.LoginFailure:
        return _refuse("Discord refused the token: check DISCORD_TOKEN")
    except DatabaseError as error:
        return _refuse(str(error))
    print(f"Synced {count} commands globally; Discord may take up to an hour to show them everywhere.")
    return 0


def _play(args: argparse.Namespace) -> int:
    """``gatebot play``: check the arguments, then play in the terminal, saved in the database.

    Arguments are checked before the database is opened, so a mistake changes nothing.
    Exit codes: 0 when the game ends or the player stops, 2 for bad arguments or a database
    that can't be used, 1 if the database fails mid-game, 130 on Ctrl-C (every move played
    so far is saved either way).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from gatebot.store.database import DatabaseError, database_url_from_env
    from gatebot.terminal import PlayRequest, Screen, play_in_terminal
    from gatebot.terminal.request import MAX_USER_LENGTH, default_user, parse_deal

    deal = None
    if args.deal is not None:
        deal = parse_deal(args.deal)
        if deal is None:
            return _refuse(f"--deal takes a whole number from 1 to {MAX_DEAL}, not {args.deal!r}")
    try:
        Game.variant_class(args.variant or "gate").check_options(args.option or ())
    except RulesError as error:
        return _refuse(str(error))
    user = default_user() if args.user is None else args.user.strip()
    if not 1 <= len(user) <= MAX_USER_LENGTH:
        return _refuse(f"--user takes a name of 1 to {MAX_USER_LENGTH} characters")

    stdin, stdout = _utf8(sys.stdin), _utf8(sys.stdout)
    colour = args.colour if args.colour is not None else stdout.isatty() and not os.environ.get("NO_COLOR")
    request = PlayRequest(
        database_url=database_url_from_env(), user=user, variant=args.variant, deal=deal,
        options=tuple(args.option) if args.option is not None else None, new=args.new,
    )
    screen = Screen(interactive=stdin.isatty(), colour=colour, compact=args.compact)
    _quiet_service_logs()
    try:
        return asyncio.run(play_in_terminal(request, stdin, stdout, screen))
    except DatabaseError as error:
        return _refuse(str(error))
    except KeyboardInterrupt:
        stdout.write("\n")
        return 130
    except BrokenPipeError:  # the output was closed, as by `gatebot play | head`: stop quietly
        _silence(stdout)
        return 1
    except (SQLAlchemyError, ConnectionError, TimeoutError) as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines() or [type(error).__name__]
        sys.stderr.write(f"gatebot: the database failed during the game ({reason[0].rstrip('.')}); "
                         "every move shown before this was saved.\n")
        return 1


def _silence(stream: TextIO) -> None:
    """Point a closed pipe's file descriptor at /dev/null, so flushing it at exit raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        pass


def _quiet_service_logs() -> None:
    """Keep the service's log lines (meant for a bot's operator) off the player's terminal.

    The player already gets the one sentence the service puts in its reply; without a
    handler, Python would print the log record to stderr as well.
    """
    logger = logging.getLogger("gatebot")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())


def _refuse(reason: str) -> int:
    """Say on stderr, in one sentence, why the command can't run; exit code 2."""
    sys.stderr.write(f"gatebot: {reason.rstrip('.')}.\n")
    return 2


def _db_upgrade(args: argparse.Namespace) -> int:
    """``gatebot db upgrade``: upgrade the database to head and say from where to where."""
    from gatebot.store.migrate import upgrade

    async def work(db: Database) -> str:
        before, after = await upgrade(db)
        if before == after:
            return f"The database is up to date (revision {after})."
        return f"Upgraded the database from {before or 'empty'} to {after}."

    return _with_database(work)


def _db_current(args: argparse.Namespace) -> int:
    """``gatebot db current``: print the database's revision and how it compares to this gatebot's."""
    from gatebot.store.migrate import current_revision, head_revision, known_revisions

    async def work(db: Database) -> str:
        revision, head = await current_revision(db), head_revision()
        if revision == head:
            return f"{revision} (head)"
        if revision is None:
            return f"empty (gatebot db upgrade brings it to {head})"
        if revision in known_revisions():
            return f"{revision} (behind head {head}: gatebot db upgrade brings it there)"
        return f"{revision} (newer than this gatebot, whose head is {head})"

    return _with_database(work)


def _with_database(work: Callable[[Database], Awaitable[str]]) -> int:
    """Open the database named by ``DATABASE_URL``, run ``work``, print its line; exit 2 on DatabaseError.

    SQLAlchemy and Alembic are imported here, not at the top, so ``gatebot --help`` and argument
    mistakes answer without loading them.
    """
    from gatebot.store.database import Database, DatabaseError, database_url_from_env

    async def run() -> str:
        db = Database(database_url_from_env())
        try:
            return await work(db)
        finally:
            await db.dispose()

    try:
        line = asyncio.run(run())
    except DatabaseError as error:
        return _refuse(str(error))
    sys.stdout.write(line + "\n")
    return 0


def _utf8(stream: TextIO) -> TextIO:
    """Switch a console stream that cannot carry card suits (♠) to UTF-8; others are left alone."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "♣♦♥♠·".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")
    return stream


if __name__ == "__main__":
    sys.exit(main())
