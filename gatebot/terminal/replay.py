"""``gatebot replay``: a player's finished terminal game as an animated picture, written to a file.

The same database and player as ``gatebot play``: the service finds the game (the player's
last finished one, or one by id) and says in one sentence why not, when it can't be shown;
the picture is drawn off the event loop and written to the file asked for.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from gatebot.locale import terminal_language
from gatebot.messages import _, n_
from gatebot.render.replay import Animation, animate
from gatebot.service import Actor, GameService
from gatebot.service.replays import GameReplay
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.terminal.request import describe_game
from gatebot.terminal.session import PLATFORM

#: How a game ended, as the line saying what was written words it (a status it doesn't know: as stored).
_ENDINGS = {"won": _("won"), "lost": _("lost"), "resigned": _("resigned"), "abandoned": _("abandoned"),
            "expired": _("expired")}


@dataclass(frozen=True, slots=True)
class ReplayRequest:
    """Where the games are, whose game, which one (None: the last finished), and where the picture goes.

    ``out`` None writes ``gatebot-replay-<game id>.gif`` in the working directory.
    """

    database_url: str
    user: str
    out: Path | None
    image_format: str
    game_id: int | None = None


async def write_replay(request: ReplayRequest) -> str:
    """Write the requested game's animation to its file; the sentence saying what was written.

    Raises :class:`~gatebot.service.replays.ReplayRefused` (one sentence, nothing written)
    for a game that can't be shown, :class:`~gatebot.store.DatabaseError` for a database that
    can't be used, and ``OSError`` when the file can't be written.
    """
    db = Database(request.database_url)
    service: GameService | None = None
    try:
        await ensure_schema(db)
        service = GameService(db)
        replay = await service.replays.replay(Actor(PLATFORM, request.user, request.user), request.game_id)
    finally:
        if service is not None:
            service.close()
        await db.dispose()
    language = terminal_language()  # the boards in the terminal's language, as gatebot play's
    animation = await asyncio.to_thread(animate, replay.positions, image_format=request.image_format,
                                        language=language, label=replay.secret)
    out = request.out or Path(f"gatebot-replay-{replay.game_id}.{animation.extension}")
    out.write_bytes(animation.data)
    return wrote(replay, animation, out)


def wrote(replay: GameReplay, animation: Animation, out: Path) -> str:
    """What was written: ``Wrote game #3, Gate deal 1 (won in 118 moves), to x.gif: 119 frames, 212 KB.``.

    A marked sentence, said in the reader's language where it is printed.
    """
    ending = n_("{ending} in {n} move", "{ending} in {n} moves", replay.moves,
                ending=_ENDINGS.get(replay.status.value, replay.status.value))
    # An attempt at a challenge still open is named by its challenge: its deal is a secret until then.
    game = replay.secret if replay.secret is not None else describe_game(replay.variant, replay.deal, replay.options)
    size = max(1, round(len(animation.data) / 1024))
    return _("Wrote game #{game_id}, {game} ({ending}), to {out}: {frames} frames, {size} KB.",
             game_id=replay.game_id, game=game, ending=ending, out=str(out), frames=animation.frames, size=size)
