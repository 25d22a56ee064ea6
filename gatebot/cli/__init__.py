"""The ``gatebot`` command: one subcommand per front end or tool (``play``, ``solve``, ``analyse``, ``db``).

``main`` parses arguments and hands over to the part that does the work; it returns the
exit code instead of exiting, so tests call it directly.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import logging
import math
import os
import sys
import textwrap
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TextIO

from gatebot.digits import parse_whole, shown
from gatebot.errors import UserError
from gatebot.rules import MAX_DEAL, Game, RulesError, find_variant, variant_names

if TYPE_CHECKING:
    from gatebot.analyse import Summary
    from gatebot.settings import Settings
    from gatebot.store.database import Database

Handler = Callable[[argparse.Namespace], int]

#: The most worker processes ``gatebot analyse`` starts.
MAX_JOBS = 256
#: The exit code when the output's reader went away early (``| head``): 128 + SIGPIPE, as a
#: shell reports for a program that SIGPIPE stopped. It differs from every code a command
#: returns on its own (``solve``'s 1 means "out of budget").
BROKEN_PIPE = 141
#: The most of a position file ``gatebot solve`` reads: a position is a few hundred bytes.
MAX_POSITION_BYTES = 64 * 1024
#: The longest refusal printed; longer ones (a rule quoting a huge line back) are cut.
MAX_REFUSAL = 400


def main(argv: list[str] | None = None) -> int:
    """Run ``gatebot`` with ``argv`` (default: the command line); return the exit code.

    Output cut short by its reader (``gatebot solve 1 | head -1``) ends the command quietly
    with :data:`BROKEN_PIPE`, as the Python docs recommend: the closed pipe's descriptor is
    pointed at /dev/null so that flushing it at exit raises nothing more.
    """
    try:
        parser = _parser()
        args = parser.parse_args(argv)
        handler: Handler | None = getattr(args, "handler", None)
        if handler is None:
            parser.print_help()
            code = 0
        else:
            code = handler(args)
        sys.stdout.flush()  # inside the try: a reader gone early shows here, not at exit
    except BrokenPipeError:
        _silence(sys.stdout)
        return BROKEN_PIPE
    return code


def version() -> str:
    """The installed gatebot's version (``importlib.metadata``), or "unknown" run from an uninstalled tree."""
    try:
        return importlib.metadata.version("gatebot")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gatebot", description="Play the solitaire Gate.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    play = commands.add_parser(
        "play", help="play a game in the terminal, saved as you play",
        description="Play Gate in the terminal. Moves are read one line at a time; pipe them "
        "in (printf 'd\\n3f\\n' | gatebot play --deal 1) or type them at the prompt. Every move "
        "is saved in the database named by DATABASE_URL (default: a SQLite file in "
        "$XDG_DATA_HOME/gatebot, else ~/.local/share/gatebot), so running gatebot play again "
        "resumes your game where you left it. Exit codes: 0 when the game ends, you quit or input "
        "ends; 1 if the database fails mid-game; 2 for bad arguments or a database that can't be "
        "used; 130 on Ctrl-C; 141 when the output was closed.",
    )
    play.add_argument("--deal", metavar="N",
                      help=f"deal number, 1 to {MAX_DEAL}, for a new game (default: a random one)")
    play.add_argument("--variant", choices=variant_names(), help="the variant of a new game (default: gate)")
    play.add_argument("--option", action="append", choices=_all_options(), metavar="OPTION",
                      help="a rule option of a new game, one its variant has (" + _options_help()
                      + "); repeat for more than one")
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

    solve = commands.add_parser(
        "solve", help="decide whether a deal or a position can be won, and how",
        description="Solve a deal or a position with the whole stock order known: print whether it can be "
        "won, the winning line in canonical notation, and what the search cost. Exit codes: 0 when "
        "decided (winnable or not), 1 when the budget ran out first, 2 for bad arguments or a position "
        "that can't be read or solved, 141 when the output was closed (| head).",
    )
    solve.add_argument("target", metavar="DEAL|FILE",
                       help=f"a deal number (1 to {MAX_DEAL}); or a file holding a position in the text form "
                       "of the README, which names its own variant and options; or - to read the position "
                       "from standard input")
    _add_game_arguments(solve, "of a deal number")
    _add_budget_arguments(solve)
    solve.set_defaults(handler=_solve)

    analyse = commands.add_parser(
        "analyse", aliases=["analyze"], help="solve a range of deals in parallel and sum up the figures",
        description="Solve every deal of a range in parallel processes, with a progress line on stderr, "
        "then print how many were decided within the budget, the winnable share with its 95% Wilson "
        "interval (deals left unresolved counted both ways), the median and 95th-percentile time, the "
        "nodes searched per second and the peak memory of a process. Exit codes: 0 when every deal "
        "was tried, 2 for bad arguments, 130 when interrupted (the deals finished by then are still "
        "summed up and written), 141 when the output was closed.",
    )
    analyse.add_argument("--deals", metavar="RANGE", required=True,
                         help="the deals: a number (5), a range (1-1000) or a list of both (1-10,20,30-40)")
    _add_game_arguments(analyse, "of the deals")
    _add_budget_arguments(analyse)
    analyse.add_argument("--jobs", metavar="N",
                         help="processes to solve in (default: one per CPU)")
    analyse.add_argument("--csv", metavar="FILE",
                         help="write one row per deal, sorted by deal, to FILE (deal, variant, options, "
                         "verdict, moves, nodes, seconds, peak_kib)")
    analyse.set_defaults(handler=_analyse)

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
    stamp = db_commands.add_parser(
        "stamp", help="record the revision the database's tables are at, changing no table",
    )
    stamp.add_argument("revision", metavar="REVISION", help="the revision its tables are at, e.g. 0002")
    stamp.set_defaults(handler=_db_stamp)
    forget = db_commands.add_parser(
        "forget-server", help="delete a Discord server's challenges and daily schedule",
        description="Delete everything stored about one Discord server's challenges (its daily "
        "schedule too), e.g. after the bot left it or on its admins' request. Attempts at them stay "
        "their players' games. In the server itself, /challenge-admin forget-server does the same.",
    )
    forget.add_argument("guild_id", type=int, metavar="SERVER_ID", help="the server's id (a snowflake)")
    forget.set_defaults(handler=_db_forget_server)

    commands.add_parser(
        "run", help="run the Discord bot",
        description="Run gatebot on Discord. Needs DISCORD_TOKEN (or DISCORD_TOKEN_FILE); reads "
        "DATABASE_URL, GATEBOT_DEV_GUILD_ID, LOG_LEVEL, SHARD_COUNT, SHARD_IDS and "
        "GATEBOT_MOVE_CHANNELS from the environment or a .env file, and checks them all before "
        "connecting. Exit codes: 0 when stopped by SIGINT or SIGTERM; 1 for a bug (logged with "
        "its traceback); 2 for a setting, token or database to fix first (one sentence says "
        "which); 75 when Discord can't be reached (refused, no such host, no answer, a dropped "
        "connection, an outage): try again later; 130 for Ctrl-C during start-up.",
    ).set_defaults(handler=_run)
    commands.add_parser(
        "sync", help="register the slash commands with Discord globally",
        description="Register the /gate commands for every server and DM (Discord may take up "
        "to an hour to show them). `gatebot run` only syncs to GATEBOT_DEV_GUILD_ID. Exit codes "
        "as for gatebot run: 0 done, 2 to fix first, 75 Discord can't be reached.",
    ).set_defaults(handler=_sync)
    return parser


def _all_options() -> tuple[str, ...]:
    """Every variant's option names, each once, in the order the variants list them."""
    return tuple(dict.fromkeys(option for name in variant_names() for option in find_variant(name).known_options))


def _options_help() -> str:
    """Each variant's options, for ``--help``: ``gate: single-moves, stock-fill; ...``."""
    return "; ".join(
        f"{name}: {', '.join(find_variant(name).known_options)}"
        for name in variant_names() if find_variant(name).known_options
    )


def _add_game_arguments(parser: argparse.ArgumentParser, whose: str) -> None:
    parser.add_argument("--variant", choices=variant_names(), default="gate",
                        help=f"the variant {whose} (default: gate)")
    parser.add_argument("--option", action="append", choices=_all_options(),
                        help=f"a rule option {whose}; repeat for more than one")


def _add_budget_arguments(parser: argparse.ArgumentParser) -> None:
    from gatebot.solver import DEFAULT_NODES, DEFAULT_SECONDS

    parser.add_argument("--nodes", metavar="N", default=str(DEFAULT_NODES),
                        help=f"give up on a deal after searching N positions (default: {DEFAULT_NODES:_})")
    parser.add_argument("--seconds", metavar="S", default=str(DEFAULT_SECONDS),
                        help=f"give up on a deal after S seconds (default: {DEFAULT_SECONDS:g})")


def _budget(args: argparse.Namespace) -> tuple[int, float] | None:
    """``--nodes`` and ``--seconds`` as numbers above zero, or None (after saying why) if they aren't."""
    try:
        nodes = int(args.nodes)
        if nodes < 1:
            raise ValueError(nodes)
    except ValueError:
        _refuse(f"--nodes takes a whole number of positions, 1 or more, not {shown(args.nodes)}")
        return None
    try:
        seconds = float(args.seconds)
        if not 0 < seconds < math.inf:
            raise ValueError(seconds)
    except ValueError:
        _refuse(f"--seconds takes a number of seconds above 0, like 10 or 0.5, not {shown(args.seconds)}")
        return None
    return nodes, seconds


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
    from gatebot.bot.run import StartError, refuse, sync_commands
    from gatebot.store.database import DatabaseError

    try:
        count = asyncio.run(sync_commands(settings))
    except StartError as error:
        return refuse(str(error), error.exit_code)
    except DatabaseError as error:
        return _refuse(str(error))
    print(f"Synced {count} commands globally; Discord may take up to an hour to show them everywhere.")
    return 0


def _play(args: argparse.Namespace) -> int:
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
            return _refuse(f"--deal takes a whole number from 1 to {MAX_DEAL}, not {shown(args.deal)}")
    try:
        find_variant(args.variant or "gate").check_options(args.option or ())
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
    except KeyboardInterrupt:  # at the prompt, or while a request (a hint) was under way
        stdout.write("\n")
        stdout.flush()
        sys.stderr.write("gatebot: interrupted; every move shown was saved, and gatebot play resumes the game.\n")
        return 130
    except BrokenPipeError:  # the output was closed, as by `gatebot play | head`: stop quietly
        _silence(stdout)
        return BROKEN_PIPE
    except (SQLAlchemyError, ConnectionError, TimeoutError) as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines() or [type(error).__name__]
        sys.stderr.write(f"gatebot: the database failed during the game ({reason[0].rstrip('.')}); "
                         "every move shown before this was saved.\n")
        return 1


def _solve(args: argparse.Namespace) -> int:
    """``gatebot solve``: decide a deal or a position; print the verdict, the line and the cost.

    Exit codes: 0 decided, 1 out of budget, 2 bad arguments or a position that can't be solved.
    """
    from gatebot.analyse import format_seconds
    from gatebot.solver import Verdict, family

    budget = _budget(args)
    if budget is None:
        return 2
    target: str = args.target
    digits = target.strip()
    if digits.isascii() and digits.isdigit():
        deal = parse_whole(digits) or 0
        if not 1 <= deal <= MAX_DEAL:
            named = digits if len(digits) <= 20 else f"of {len(digits):,} digits"
            return _refuse(f"Deal numbers run from 1 to {MAX_DEAL}, so there is no deal {named}")
        try:
            game = Game.new(args.variant, deal=deal, options=args.option or ())
        except RulesError as error:
            return _refuse(str(error))
        name = f"Deal {deal} of {game.title}" + (f" ({' '.join(game.options)})" if game.options else "")
    else:
        if args.option or args.variant != "gate":
            return _refuse("--variant and --option go with a deal number: a position names its variant "
                           "and options on its first line")
        game_or_code = _read_position(target)
        if isinstance(game_or_code, int):
            return game_or_code
        game, name = game_or_code, "The position"
    if not family.thinks_about(game):
        return _refuse(f"The solver doesn't play {game.title} yet")
    if not game.stock_known and game.stock_count:
        return _refuse(f"The stock's order is hidden in this position (S: ?{game.stock_count}), so it can't be "
                       "solved: list the stock's cards in drawing order on the S: line")
    try:
        solution = family.solve(game, max_nodes=budget[0], max_seconds=budget[1])
    except ValueError as error:  # a position with cards hidden elsewhere (Canfield's reserve)
        return _refuse(str(error))
    stdout = _utf8(sys.stdout)
    if solution.verdict is Verdict.WINNABLE and not solution.line:
        stdout.write(f"{name} is already won.\n")
    elif solution.verdict is Verdict.WINNABLE:
        plural = "s" if len(solution.line) != 1 else ""
        stdout.write(f"{name} is winnable: a win in {len(solution.line)} move{plural}.\n")
        stdout.write(textwrap.fill(" ".join(str(move) for move in solution.line), width=72) + "\n")
    elif solution.verdict is Verdict.LOST:
        stdout.write(f"{name} can't be won.\n")
    else:
        stdout.write(f"{name} is undecided after {solution.nodes:,} nodes ({format_seconds(solution.seconds)}): "
                     "try a bigger budget.\n")
    speed = solution.nodes / solution.seconds if solution.seconds > 0 else 0.0
    stdout.write(f"{solution.nodes:,} nodes in {format_seconds(solution.seconds)} ({speed:,.0f} nodes/s).\n")
    return 0 if solution.decided else 1


def _read_position(target: str) -> Game | int:
    """The position in file ``target`` (``-``: standard input), or the exit code of a refusal.

    At most :data:`MAX_POSITION_BYTES` are read, so a huge file (or ``/dev/zero``) is refused
    at once rather than read to its end; the text must be UTF-8. A position the rules refuse
    (any :class:`~gatebot.errors.UserError`) is refused with the rules' sentence; any other
    ``ValueError`` while reading it gets a sentence of its own, since its text is not meant
    for people.
    """
    if target == "-":
        source = "standard input"
        binary = getattr(sys.stdin, "buffer", None)
        data = binary.read(MAX_POSITION_BYTES + 1) if binary is not None else sys.stdin.read().encode()
    else:
        source = shown(target, 200)
        try:
            with open(target, "rb") as file:
                data = file.read(MAX_POSITION_BYTES + 1)
        except FileNotFoundError:
            return _refuse(f"There is no file {source}, and it is not a deal number either")
        except IsADirectoryError:
            return _refuse(f"{source} is a folder, not a position file")
        except (OSError, ValueError) as error:  # ValueError: a name with a NUL character
            return _refuse(f"Can't read {source}: {getattr(error, 'strerror', None) or error}")
    if len(data) > MAX_POSITION_BYTES:
        return _refuse(f"{source[:1].upper()}{source[1:]} is too big to be a position "
                       f"(more than {MAX_POSITION_BYTES // 1024} KiB; a position is a few hundred bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _refuse(f"{source[:1].upper()}{source[1:]} is not text in UTF-8, so it holds no position")
    try:
        return Game.from_text(text)
    except UserError as error:
        reason = str(error)
        return _refuse(f"Can't read the position in {source}: {reason[:1].lower()}{reason[1:]}")
    except ValueError:
        return _refuse(f"Can't read the position in {source}: it is not a position in gatebot's text form "
                       "(the README's \"Deal numbers and position text\" shows it)")


def _analyse(args: argparse.Namespace) -> int:
    """``gatebot analyse``: solve a range of deals in parallel, write the CSV, print the summary.

    Every argument (the CSV file included) is checked before any deal is solved. Exit codes:
    0 done, 2 bad arguments, 130 interrupted (what finished is still summed up and written).
    """
    from gatebot.analyse import DealRangeError, DealResult, Progress, analyse, format_deals, parse_deals, summarise

    try:
        deals = parse_deals(args.deals)
        options = find_variant(args.variant).check_options(args.option or ())
    except (DealRangeError, RulesError) as error:
        return _refuse(str(error))
    budget = _budget(args)
    if budget is None:
        return 2
    max_nodes, max_seconds = budget
    jobs = os.cpu_count() or 1
    if args.jobs is not None:
        jobs = parse_whole(args.jobs) or 0
        if not 1 <= jobs <= MAX_JOBS:
            return _refuse(f"--jobs takes a number of processes from 1 to {MAX_JOBS}, not {shown(args.jobs)}")
    csv_file = None
    if args.csv is not None:
        try:
            csv_file = open(args.csv, "w", encoding="utf-8", newline="")  # noqa: SIM115 (closed below)
        except OSError as error:
            return _refuse(f"Can't write the CSV file {args.csv!r}: {error.strerror or error}")

    rows: list[DealResult] = []
    progress = Progress(len(deals), sys.stderr)
    interrupted = False
    try:
        title = find_variant(args.variant).title + (f" ({' '.join(options)})" if options else "")
        sys.stdout.write(
            f"{title}, deals {format_deals(deals)}: {len(deals):,} deal{'s' if len(deals) != 1 else ''}, "
            f"at most {max_nodes:,} nodes or {max_seconds:g} s each, in {min(jobs, len(deals))} "
            f"process{'es' if min(jobs, len(deals)) != 1 else ''}.\n"
        )
        sys.stdout.flush()
        try:
            for row in analyse(args.variant, deals, options=options, jobs=jobs,
                               max_nodes=max_nodes, max_seconds=max_seconds):
                rows.append(row)
                progress.update(row)
        except KeyboardInterrupt:
            interrupted = True
        progress.finish()
        if interrupted:
            sys.stderr.write(f"gatebot: interrupted after {len(rows):,} of {len(deals):,} deals.\n")
        for line in _summary_lines(summarise(rows)):
            sys.stdout.write(line + "\n")
        if csv_file is not None:
            from gatebot.analyse import write_csv

            count = write_csv(rows, csv_file)
            sys.stdout.write(f"Wrote {count:,} row{'s' if count != 1 else ''} to {args.csv}.\n")
    finally:
        if csv_file is not None:
            csv_file.close()
    return 130 if interrupted else 0


def _summary_lines(summary: Summary) -> list[str]:
    """The summary of ``gatebot analyse``, one figure a line."""
    from gatebot.analyse import format_memory, format_seconds, format_share

    if not summary.deals:
        return ["No deal was finished."]
    lines = [
        f"Decided:     {summary.decided:,} of {summary.deals:,} ({format_share(summary.decided_share)}): "
        f"{summary.winnable:,} winnable, {summary.lost:,} lost, {summary.unresolved:,} unresolved.",
    ]
    interval = f"{format_share(summary.winnable_low)}–{format_share(summary.winnable_high)}"
    if summary.winnable_share is None:
        lines.append(f"Winnable:    unknown; 95% interval {interval}.")
    elif summary.unresolved:
        lines.append(f"Winnable:    {format_share(summary.winnable_share)} of the decided deals; 95% interval "
                     f"{interval} of all deals, counting the unresolved both ways.")
    else:
        lines.append(f"Winnable:    {format_share(summary.winnable_share)}; 95% interval {interval}.")
    lines += [
        f"Time:        median {format_seconds(summary.median_seconds)}, "
        f"95th percentile {format_seconds(summary.p95_seconds)} per deal.",
        f"Speed:       {summary.nodes_per_second:,.0f} nodes/s per process.",
        f"Peak memory: {format_memory(summary.peak_kib)} per process.",
    ]
    return lines


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
    """Say on stderr, in one sentence, why the command can't run; exit code 2.

    A sentence longer than :data:`MAX_REFUSAL` (one quoting a huge input back) is cut short.
    """
    reason = " ".join(reason.split()).rstrip(".")
    if len(reason) > MAX_REFUSAL:
        reason = reason[: MAX_REFUSAL - 1] + "…"
    sys.stderr.write(f"gatebot: {reason}.\n")
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


def _db_stamp(args: argparse.Namespace) -> int:
    """``gatebot db stamp REVISION``: record the database's revision without migrating."""
    from gatebot.store.migrate import stamp

    async def work(db: Database) -> str:
        before = await stamp(db, args.revision)
        return f"The database now says it is at revision {args.revision} (it said {before or 'none'})."

    return _with_database(work)


def _db_forget_server(args: argparse.Namespace) -> int:
    """``gatebot db forget-server ID``: delete a server's challenges, saying how many."""
    from gatebot.service import GameService
    from gatebot.service.challenges import ChallengeService
    from gatebot.store.migrate import ensure_schema

    async def work(db: Database) -> str:
        await ensure_schema(db)
        games = GameService(db)
        try:
            count = await ChallengeService(games).forget_server(args.guild_id)
        finally:
            games.close()
        plural = "" if count == 1 else "s"
        return f"Deleted {count} challenge{plural} and the daily schedule of server {args.guild_id}."

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
