"""``gatebot stats`` and ``gatebot games``: check the arguments, then print a terminal player's statistics or games.

Arguments are checked before the database is opened, so a mistake is one sentence and
writes nothing.
"""

from __future__ import annotations

import argparse
import asyncio

from gatebot.cli.output import finished_game_choice, png_out, print_written, quiet_service_logs, refuse, say
from gatebot.digits import parse_whole, shown
from gatebot.messages import _, message_of


def stats_command(args: argparse.Namespace) -> int:
    """``gatebot stats``: the exit code, 0 when the statistics are printed (and the picture written).

    2 for bad arguments, a picture of nothing, or a database or a file that can't be used;
    each is one sentence on stderr, and nothing is written.
    """
    from gatebot.store.database import database_url_from_env
    from gatebot.terminal.stats import StatsRequest, show_stats

    chosen = finished_game_choice(None, args.user)
    if isinstance(chosen, str):
        return refuse(chosen)
    _game, user = chosen
    out = png_out(args.out)
    if isinstance(out, str):
        return refuse(out)
    request = StatsRequest(database_url=database_url_from_env(), user=user, out=out, variant=args.variant)
    return print_written(show_stats(request), request.out)


def games_command(args: argparse.Namespace) -> int:
    """``gatebot games``: the exit code, 0 when the page is printed; 2 for bad arguments or an unusable database."""
    from gatebot.store.database import DatabaseError, database_url_from_env
    from gatebot.terminal.stats import GamesRequest, show_games

    chosen = finished_game_choice(None, args.user)
    if isinstance(chosen, str):
        return refuse(chosen)
    _game, user = chosen
    page = 1
    if args.page is not None:
        number = parse_whole(args.page)
        if number is None or number < 1:
            return refuse(_("--page takes a page's number, like 2, not {typed}", typed=shown(args.page)))
        page = number
    quiet_service_logs()
    try:
        print(say(asyncio.run(show_games(GamesRequest(database_url_from_env(), user, page)))))
    except DatabaseError as error:
        return refuse(message_of(error))
    return 0
