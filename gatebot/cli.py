"""The ``gatebot`` command: one subcommand per front end or tool (``play`` for now).

``main`` parses arguments and hands over to the part that does the work; it returns the
exit code instead of exiting, so tests call it directly.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from typing import TextIO

from gatebot.rules import MAX_DEAL, Game, GateGame, RulesError
from gatebot.terminal import run_game

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
