"""``gatebot replay``: check the arguments, then write a finished terminal game's animation to a file.

The picture's format follows the file's name: ``.gif`` (the default) or ``.webp``. Arguments
are checked before the database is opened, so a mistake is one sentence and writes nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gatebot.cli.output import finished_game_choice, folder_refusal, print_written, refuse
from gatebot.digits import shown
from gatebot.messages import _

#: The picture formats ``--out`` may name, by the file name's ending.
FORMATS = {".gif": "gif", ".webp": "webp"}


def replay_command(args: argparse.Namespace) -> int:
    """``gatebot replay``: the exit code, 0 when the file is written.

    2 for bad arguments, a game that can't be shown, or a database or a file that can't be
    used; each is one sentence on stderr, and nothing is written.
    """
    from gatebot.store.database import database_url_from_env
    from gatebot.terminal.replay import ReplayRequest, write_replay

    chosen = finished_game_choice(args.game, args.user)
    if isinstance(chosen, str):
        return refuse(chosen)
    game_id, user = chosen
    out = Path(args.out) if args.out is not None else None
    if out is not None and out.suffix.lower() not in FORMATS:
        return refuse(_("--out names a .gif or .webp file, not {typed}", typed=shown(args.out)))
    folder = folder_refusal(out, args.out)
    if folder is not None:
        return refuse(folder)
    image_format = "gif" if out is None else FORMATS[out.suffix.lower()]
    request = ReplayRequest(database_url=database_url_from_env(), user=user, out=out, image_format=image_format,
                            game_id=game_id)
    return print_written(write_replay(request), request.out)
