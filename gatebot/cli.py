"""The ``gatebot`` command: one subcommand per front end or tool (``play``, ``db``).

``main`` parses arguments and hands over to the part that does the work; it returns the
exit code instead of exiting, so tests call it directly.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TextIO

from gatebot.rules import MAX_DEAL, Game, GateGame, RulesError
from gatebot.terminal import run_game

if TYPE_CHECKING:
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
        "play", help="play a game in the terminal",
        description="Play Gate in the terminal. Moves are read one line at a time; pipe them "
        "in (printf 'd\\n3f\\n' | gatebot play --deal 1) or type them at the prompt.",
    )
    play.add_argument("--deal", metavar="N", help=f"deal number, 1 to {MAX_DEAL} (default: a random one)")
    play.add_argument("--variant", choices=Game.variants(), default="gate", help="default: gate")
    play.add_argument("--option", action="append", default=[], choices=GateGame.known_options,
                      help="a rule option; repeat for more than one")
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
    return parser


def _play(args: argparse.Namespace) -> int:
    """``gatebot play``: deal the game asked for and run the terminal loop on stdin/stdout."""
    stdin, stdout = _utf8(sys.stdin), _utf8(sys.stdout)
    if args.deal is None:
        deal = random.randint(1, MAX_DEAL)
        stdout.write(f"Dealing deal {deal} (play it again with --deal {deal}).\n")
    else:
        parsed = _deal_number(args.deal)
        if parsed is None:
            sys.stderr.write(
                f"gatebot: --deal takes a whole number from 1 to {MAX_DEAL}, not {args.deal!r}.\n"
            )
            return 2
        deal = parsed
    try:
        game = Game.new(args.variant, deal=deal, options=args.option)
    except RulesError as error:
        sys.stderr.write(f"gatebot: {error}.\n")
        return 2
    assert isinstance(game, GateGame)
    colour = args.colour if args.colour is not None else stdout.isatty() and not os.environ.get("NO_COLOR")
    try:
        return run_game(game, stdin, stdout, interactive=stdin.isatty(), colour=colour, compact=args.compact)
    except KeyboardInterrupt:
        stdout.write("\n")
        return 130


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

    SQLAlchemy and Alembic are imported here, not at the top, so ``gatebot play`` starts without them.
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
        sys.stderr.write(f"gatebot: {str(error).rstrip('.')}.\n")
        return 2
    sys.stdout.write(line + "\n")
    return 0


def _deal_number(text: str) -> int | None:
    """The deal number ``text`` names, or None if it is not one (RULES.md §2: 1 to 2^32 − 1)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if 1 <= number <= MAX_DEAL else None


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
