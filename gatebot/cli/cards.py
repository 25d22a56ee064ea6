"""``gatebot card``: check the arguments, then print a finished terminal game's result card (and write its picture).

Arguments are checked before the database is opened, so a mistake is one sentence and
writes nothing.
"""

from __future__ import annotations

import argparse

from gatebot.cli.output import finished_game_choice, png_out, print_written, refuse


def card_command(args: argparse.Namespace) -> int:
    """``gatebot card``: the exit code, 0 when the card is printed (and its picture written).

    2 for bad arguments, a game with no card, or a database or a file that can't be used;
    each is one sentence on stderr, and nothing is written.
    """
    from gatebot.store.database import database_url_from_env
    from gatebot.terminal.card import CardRequest, share_card

    chosen = finished_game_choice(args.game, args.user)
    if isinstance(chosen, str):
        return refuse(chosen)
    game_id, user = chosen
    out = png_out(args.out)
    if isinstance(out, str):
        return refuse(out)
    request = CardRequest(database_url=database_url_from_env(), user=user, out=out, game_id=game_id)
    return print_written(share_card(request), request.out)
