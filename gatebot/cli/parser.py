"""The ``gatebot`` command's arguments: every subcommand with its options, help and exit codes, and its handler.

A subcommand's handler (``args.handler``) takes the parsed arguments and returns the exit code.
"""

from __future__ import annotations

import argparse
import importlib.metadata
from collections.abc import Callable

from gatebot.cli.cards import card_command
from gatebot.cli.database import db_current_command, db_forget_server_command, db_stamp_command, db_upgrade_command
from gatebot.cli.front_ends import play_command, run_command, sync_command, web_command
from gatebot.cli.health import health_command
from gatebot.cli.invite import invite_command
from gatebot.cli.replays import replay_command
from gatebot.cli.solving import analyse_command, solve_command
from gatebot.cli.stats import games_command, stats_command
from gatebot.digits import parse_whole, shown
from gatebot.locale import Translator, terminal_language
from gatebot.messages import Text, _, message_of
from gatebot.rules import DEFAULT_VARIANT, MAX_DEAL, RulesError, find_variant, variant_names

Handler = Callable[[argparse.Namespace], int]


def version() -> str:
    """The installed gatebot's version (``importlib.metadata``), or "unknown" run from an uninstalled tree."""
    try:
        return importlib.metadata.version("gatebot")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def build_parser(language: Translator | None = None) -> argparse.ArgumentParser:
    """The ``gatebot`` command's parser, its descriptions, help and converters' refusals in ``language``.

    By default the terminal's language (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``);
    argparse's own words ("usage:", "error:") are Python's and stay as Python says them.
    """
    language = language or terminal_language()
    say = language.say
    variant = _variant_type(language)
    parser = argparse.ArgumentParser(prog="gatebot", description=say(_("Play the solitaire Gate.")))
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(title=say(_("commands")), metavar="COMMAND")
    play = commands.add_parser(
        "play", help=say(_("play a game in the terminal, saved as you play")),
        description=say(_("Play Gate in the terminal. Moves are read one line at a time; pipe them "
        "in (printf 'd\\n3f\\n' | gatebot play --deal 1) or type them at the prompt. Every move "
        "is saved in the database named by DATABASE_URL (default: a SQLite file in "
        "$XDG_DATA_HOME/gatebot, else ~/.local/share/gatebot), so running gatebot play again "
        "resumes your game where you left it. Exit codes: 0 when the game ends, you quit or input "
        "ends; 1 if the database fails mid-game; 2 for bad arguments or a database that can't be "
        "used; 130 on Ctrl-C; 141 when the output was closed.")),
    )
    play.add_argument("--deal", metavar="N",
                      help=say(_("deal number, 1 to {most}, for a new game (default: a random one)", most=MAX_DEAL)))
    play.add_argument("--variant", type=variant, metavar="VARIANT",
                      help=say(_("the variant of a new game, by name or alias in any case: {variants} (default: gate)",
                                 variants=_variants_help())))
    play.add_argument("--option", action="append", type=str.lower, choices=_all_options(), metavar="OPTION",
                      help=say(_("a rule option of a new game, one its variant has ({options}); repeat for more "
                                 "than one", options=_options_help(language))))
    play.add_argument("--new", action="store_true",
                      help=say(_("abandon the game in progress, if any, and deal a new one")))
    play.add_argument("--user", metavar="NAME",
                      help=say(_("whose game to play, for several players on one machine (default: your login name)")))
    play.add_argument("--compact", action="store_true", help=say(_("a narrow board (36 columns), for phones")))
    play.add_argument("--words", action="store_true",
                      help=say(_("the board in words, a pile a line, for screen readers")))
    colour = play.add_mutually_exclusive_group()
    colour.add_argument("--colour", "--color", dest="colour", action="store_true", default=None,
                        help=say(_("red cards in red (default: when output is a terminal and NO_COLOR is unset)")))
    colour.add_argument("--no-colour", "--no-color", dest="colour", action="store_false")
    play.set_defaults(handler=play_command)

    replay = commands.add_parser(
        "replay", help=say(_("write a finished game as an animated picture, to watch or share")),
        description=say(_("Write your last finished gatebot play game (or the one --game names) as an "
        "animated picture, every move and undo as it happened, from the same database and player as "
        "gatebot play. A game still running is refused: finish it first. Exit codes: 0 when the "
        "file is written; 2 for bad arguments, a game that can't be shown, or a database or file "
        "that can't be used.")),
    )
    replay.add_argument("--out", metavar="FILE",
                        help=say(_("the file to write, a .gif or a .webp (default: gatebot-replay-ID.gif here)")))
    replay.add_argument("--game", metavar="ID", help=say(_("the game's number (default: your last finished game)")))
    replay.add_argument("--user", metavar="NAME",
                        help=say(_("whose game, as for gatebot play (default: your login name)")))
    replay.set_defaults(handler=replay_command)

    card = commands.add_parser(
        "card", help=say(_("print a finished game's spoiler-free result card, and write it as a picture")),
        description=say(_("Print the result card of your last finished gatebot play game (or the one --game "
        "names), the way the Share button posts it; with --out, also write the card as a small PNG. "
        "Exit codes: 0 when the card is printed; 2 for bad arguments, no finished game, or a database "
        "or file that can't be used.")),
    )
    card.add_argument("--out", metavar="FILE", help=say(_("also write the card as a picture to this .png file")))
    card.add_argument("--game", metavar="ID", help=say(_("the game's number (default: your last finished game)")))
    card.add_argument("--user", metavar="NAME",
                      help=say(_("whose game, as for gatebot play (default: your login name)")))
    card.set_defaults(handler=card_command)

    stats = commands.add_parser(
        "stats", help=say(_("print your statistics, and write them as a picture")),
        description=say(_("Print the statistics of your gatebot play games: per variant the games, wins, "
        "win streaks, scores and the deals you played more than once. With --out, also write a picture "
        "of one variant's results: the cards home of your last games and how often each score came. "
        "Exit codes: 0 when printed; 2 for bad arguments, nothing to draw, or a database or file that "
        "can't be used.")),
    )
    stats.add_argument("--out", metavar="FILE", help=say(_("also write the picture to this .png file")))
    stats.add_argument("--variant", type=variant, metavar="VARIANT",
                       help=say(_("the variant the picture shows (default: the one you played most)")))
    stats.add_argument("--user", metavar="NAME",
                       help=say(_("whose statistics, as for gatebot play (default: your login name)")))
    stats.set_defaults(handler=stats_command)

    games = commands.add_parser(
        "games", help=say(_("list your finished games with their numbers, newest first")),
        description=say(_("List your finished gatebot play games, ten a page, newest first: each game's "
        "number, variant, deal, result, cards home, moves and the day it ended. The number is what "
        "gatebot replay --game and gatebot card --game take. Exit codes: 0 when listed; 2 for bad "
        "arguments or a database that can't be used.")),
    )
    games.add_argument("--page", metavar="N", help=say(_("which page, from 1 (default: 1, the newest games)")))
    games.add_argument("--user", metavar="NAME",
                       help=say(_("whose games, as for gatebot play (default: your login name)")))
    games.set_defaults(handler=games_command)

    solve = commands.add_parser(
        "solve", help=say(_("decide whether a deal or a position can be won, and how")),
        description=say(_("Solve a deal or a position with the whole stock order known: print whether it can be "
        "won, the winning line in canonical notation, and what the search cost. Exit codes: 0 when "
        "decided (winnable or not), 1 when the budget ran out first, 2 for bad arguments or a position "
        "that can't be read or solved, 141 when the output was closed (| head).")),
    )
    solve.add_argument("target", metavar="DEAL|FILE",
                       help=say(_("a deal number (1 to {most}); or a file holding a position in the text form "
                       "of docs/rules.md, which names its own variant and options; or - to read the position "
                       "from standard input", most=MAX_DEAL)))
    _add_game_arguments(
        solve, variant, language,
        _("the variant of a deal number, by name or alias in any case: {variants} (default: gate)",
          variants=_variants_help()),
        _("a rule option of a deal number, one its variant has ({options}); repeat for more than one",
          options=_options_help(language)),
    )
    _add_budget_arguments(solve, language)
    solve.set_defaults(handler=solve_command)

    analyse = commands.add_parser(
        "analyse", aliases=["analyze"], help=say(_("solve a range of deals in parallel and sum up the figures")),
        description=say(_("Solve every deal of a range in parallel processes, with a progress line on stderr, "
        "then print how many were decided within the budget, the winnable share with its 95% Wilson "
        "interval (deals left unresolved counted both ways), the median and 95th-percentile time, the "
        "nodes searched per second and the peak memory of a process. Exit codes: 0 when every deal "
        "was tried, 2 for bad arguments, 130 when interrupted (the deals finished by then are still "
        "summed up and written), 141 when the output was closed.")),
    )
    analyse.add_argument("--deals", metavar="RANGE", required=True,
                         help=say(_("the deals: a number (5), a range (1-1000) or a list of both (1-10,20,30-40)")))
    _add_game_arguments(
        analyse, variant, language,
        _("the variant of the deals, by name or alias in any case: {variants} (default: gate)",
          variants=_variants_help()),
        _("a rule option of the deals, one its variant has ({options}); repeat for more than one",
          options=_options_help(language)),
    )
    _add_budget_arguments(analyse, language)
    analyse.add_argument("--jobs", metavar="N",
                         help=say(_("processes to solve in (default: one per CPU)")))
    analyse.add_argument("--csv", metavar="FILE",
                         help=say(_("write one row per deal, sorted by deal, to FILE (deal, variant, options, "
                         "verdict, moves, nodes, seconds, peak_kib)")))
    analyse.set_defaults(handler=analyse_command)

    db = commands.add_parser(
        "db", help=say(_("look after the database of saved games")),
        description=say(_("Look after the database named by DATABASE_URL (default: a SQLite file in "
        "$XDG_DATA_HOME/gatebot, else ~/.local/share/gatebot). The bot upgrades it by itself "
        "at start-up; these commands do it by hand.")),
    )
    db_commands = db.add_subparsers(title=say(_("commands")), metavar="COMMAND", required=True)
    db_commands.add_parser(
        "upgrade", help=say(_("bring the database's tables up to this gatebot's schema")),
    ).set_defaults(handler=db_upgrade_command)
    db_commands.add_parser(
        "current", help=say(_("show the schema revision the database is at")),
    ).set_defaults(handler=db_current_command)
    stamp = db_commands.add_parser(
        "stamp", help=say(_("record the revision the database's tables are at, changing no table")),
    )
    stamp.add_argument("revision", metavar="REVISION", help=say(_("the revision its tables are at, e.g. 0002")))
    stamp.set_defaults(handler=db_stamp_command)
    forget = db_commands.add_parser(
        "forget-server", help=say(_("delete a Discord server's challenges and daily schedule")),
        description=say(_("Delete everything stored about one Discord server's challenges (its daily "
        "schedule too), e.g. after the bot left it or on its admins' request. Attempts at them stay "
        "their players' games. In the server itself, /challenge-admin forget-server does the same.")),
    )
    forget.add_argument("guild_id", type=int, metavar="SERVER_ID", help=say(_("the server's id (a snowflake)")))
    forget.set_defaults(handler=db_forget_server_command)

    web = commands.add_parser(
        "web", help=say(_("serve the web table, to play in a browser")),
        description=say(_("Serve gatebot's table as a web page on this machine and print its address: every "
        "visitor plays as a guest, saved in the same database as gatebot play. Reads WEB_HOST, WEB_PORT, "
        "WEB_SECRET_KEY and WEB_SECURE_COOKIES (docs/web.md). Exit codes: 0 when stopped with Ctrl-C; 2 for "
        "a setting, an address or a database to fix first.")),
    )
    web.add_argument("--host", metavar="HOST",
                     help=say(_("the address to listen on (default: 127.0.0.1, this machine only)")))
    web.add_argument("--port", type=_port_type(language), metavar="PORT",
                     help=say(_("the port to listen on (default: 8080; 0 picks a free one)")))
    web.set_defaults(handler=web_command)

    commands.add_parser(
        "run", help=say(_("run the Discord bot")),
        description=say(_("Run gatebot on Discord. Needs DISCORD_TOKEN (or DISCORD_TOKEN_FILE); reads "
        "DATABASE_URL, GATEBOT_DEV_GUILD_ID, LOG_LEVEL, SHARD_COUNT, SHARD_IDS and "
        "GATEBOT_MOVE_CHANNELS from the environment or a .env file, and checks them all before "
        "connecting. Exit codes: 0 when stopped by SIGINT or SIGTERM; 1 for a bug (logged with "
        "its traceback); 2 for a setting, token or database to fix first (one sentence says "
        "which); 75 when Discord can't be reached (refused, no such host, no answer, a dropped "
        "connection, an outage): try again later; 130 for Ctrl-C during start-up.")),
    ).set_defaults(handler=run_command)
    commands.add_parser(
        "sync", help=say(_("register the slash commands with Discord globally")),
        description=say(_("Register the /gate commands for every server and DM (Discord may take up "
        "to an hour to show them). `gatebot run` only syncs to GATEBOT_DEV_GUILD_ID. Exit codes "
        "as for gatebot run: 0 done, 2 to fix first, 75 Discord can't be reached.")),
    ).set_defaults(handler=sync_command)
    commands.add_parser(
        "health", help=say(_("check that the running bot is connected and its database answers")),
        description=say(_("Check the bot that gatebot run runs with the same environment: its last gateway "
        "heartbeat, which it writes to HEALTH_FILE (default: gatebot.health beside the default database), "
        "is under 90 s old, and the database named by DATABASE_URL answers SELECT 1. For a container's "
        "HEALTHCHECK. Exit codes: 0 healthy; 1 unhealthy, with one line saying which check failed.")),
    ).set_defaults(handler=health_command)
    invite = commands.add_parser(
        "invite", help=say(_("print the links that add gatebot to a server and to a user's account")),
        description=say(_("Print the two install links of your gatebot application: one adds the bot to a "
        "server (scopes bot and applications.commands, with the permissions it needs), one adds the "
        "app to a user's account (applications.commands), for playing in DMs and group DMs. "
        "docs/running.md says how to switch both installs on in the developer portal. Exit codes: 0 "
        "printed; 2 for an id that is no application id.")),
    )
    invite.add_argument("application_id", metavar="APPLICATION_ID",
                        help=say(_("the application's id (the developer portal's General Information page)")))
    invite.set_defaults(handler=invite_command)
    return parser


def _port_type(language: Translator) -> Callable[[str], int]:
    """``--port``'s converter: a TCP port, 0 (any free one) to 65535; refused in ``language``."""

    def port(text: str) -> int:
        number = parse_whole(text)
        if number is None or not 0 <= number <= 65535:
            refusal = _("a port is a whole number from 0 to 65535, not {typed}", typed=shown(text))
            raise argparse.ArgumentTypeError(language.say(refusal))
        return number

    return port


def _all_options() -> tuple[str, ...]:
    """Every variant's option names, each once, in the order the variants list them."""
    return tuple(dict.fromkeys(option for name in variant_names() for option in find_variant(name).known_options))


def _options_help(language: Translator) -> str:
    """Each variant's options with what they change, for ``--help``: ``gate: single-moves (...), ...; ...``."""
    return "; ".join(
        f"{name}: " + ", ".join(f"{option.name} ({language.say(option.help)})"
                                for option in find_variant(name).rule_options)
        for name in variant_names() if find_variant(name).rule_options
    )


def _variants_help() -> str:
    """The variants and their aliases, for ``--help``: ``gate, little-gate (little), ...``."""
    return ", ".join(
        name + (f" ({', '.join(find_variant(name).aliases)})" if find_variant(name).aliases else "")
        for name in variant_names()
    )


def _variant_type(language: Translator) -> Callable[[str], str]:
    """``--variant``'s converter: a variant's name, title or alias in any case, as its name; refused in ``language``."""

    def variant(text: str) -> str:
        try:
            return find_variant(text).name
        except RulesError as error:
            raise argparse.ArgumentTypeError(language.say(message_of(error))) from None

    return variant


def _add_game_arguments(parser: argparse.ArgumentParser, variant: Callable[[str], str], language: Translator,
                        variant_help: Text, option_help: Text) -> None:
    parser.add_argument("--variant", type=variant, default=DEFAULT_VARIANT, metavar="VARIANT",
                        help=language.say(variant_help))
    parser.add_argument("--option", action="append", type=str.lower, choices=_all_options(), metavar="OPTION",
                        help=language.say(option_help))


def _add_budget_arguments(parser: argparse.ArgumentParser, language: Translator) -> None:
    from gatebot.solver import DEFAULT_NODES, DEFAULT_SECONDS

    parser.add_argument("--nodes", metavar="N", default=str(DEFAULT_NODES),
                        help=language.say(_("give up on a deal after searching N positions (default: {nodes})",
                                            nodes=format(DEFAULT_NODES, "_"))))
    parser.add_argument("--seconds", metavar="S", default=str(DEFAULT_SECONDS),
                        help=language.say(_("give up on a deal after S seconds (default: {seconds})",
                                            seconds=format(DEFAULT_SECONDS, "g"))))
