"""Game rows this gatebot can't read: what is wrong with them, said once in the log.

A row names its status, variant and options as plain text (see
:class:`~gatebot.store.models.GameStatus`), and another gatebot version, or a hand edit,
may have written a status, a variant or an option this one doesn't know. Such a row is its
owner's business alone: the game service tells its owner it is set aside, while every
reader of many rows (leaderboards, statistics) skips it and logs a warning, once per row in
a process, instead of failing for every member of a server.

Setting aside changes as little as it can. A running game with an unknown variant or
option is marked ``quarantined`` (its other columns kept), which frees its player's one
active-game slot for a fresh game. A row whose status is unknown is left exactly as it is:
it holds no active slot, and its status is the one thing this gatebot can't rewrite
without losing what the version that wrote it meant.

A row whose names are all known but whose log can't be replayed is another matter (the
game service's ``GameDamaged``): its cached score and counters still count.
"""

from __future__ import annotations

import functools
import logging

from gatebot.messages import _
from gatebot.rules import RulesError, find_variant
from gatebot.store.models import GameStatus

log = logging.getLogger(__name__)

#: Rows already logged as skipped in this process, so a busy leaderboard logs each once.
_logged: set[int] = set()


def problem(status: str, variant: str, options: str) -> str | None:
    """Why this gatebot can't read a row with this status, variant and options; None if it can."""
    if GameStatus.read(status) is None:
        return f"its status {status!r} is unknown to this gatebot"
    return _names_problem(variant, options)


@functools.lru_cache(maxsize=256)
def _names_problem(variant: str, options: str) -> str | None:
    try:
        find_variant(variant).check_options(options.split())
    except RulesError as error:
        return str(error)
    return None


def readable(game_id: int, status: str, variant: str, options: str) -> bool:
    """Whether a reader of many rows can use this one; if not, say why in the log (once per row)."""
    found = problem(status, variant, options)
    if found is None:
        return True
    if game_id not in _logged:
        _logged.add(game_id)
        log.warning("game %s was saved by a different version of gatebot and is skipped: %s", game_id, found)
    return False


def set_aside(game_id: int, *, new_command: str) -> str:
    """The sentence telling a player their game from another gatebot version can't be loaded."""
    return _(
        "Your game #{game} was saved by a different version of gatebot and can't be loaded; "
        "it is set aside, and {command} starts a fresh one.", game=game_id, command=new_command,
    )
