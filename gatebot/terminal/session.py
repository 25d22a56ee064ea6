"""A whole ``gatebot play``: open the database, resume or deal the player's game, play it, close.

The game lives in the database named by the request, not in this process: every line is
saved by the service as it is played, so the next run finds the game where this one left
it, on any terminal the player uses, and Ctrl-C loses nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TextIO

from gatebot.messages import _, n_
from gatebot.rules import Game
from gatebot.service import Actor, GameService, Reply, ReplyKind
from gatebot.store import Database, GameStatus
from gatebot.store.database import saved_where
from gatebot.store.migrate import upgrade
from gatebot.terminal.console import LineReader
from gatebot.terminal.play import TerminalGame
from gatebot.terminal.request import PlayRequest, Screen, describe_game, replay_command
from gatebot.terminal.text import plain, wrap

log = logging.getLogger(__name__)

PLATFORM = "terminal"
Say = Callable[[str], None]


async def play_in_terminal(request: PlayRequest, stdin: TextIO, stdout: TextIO, screen: Screen) -> int:
    """Play the requested game on ``stdin``/``stdout``, saved in the request's database; the exit code.

    Raises :class:`~gatebot.store.DatabaseError` (one sentence, nothing changed) when the
    database can't be opened or was written by a newer gatebot. A database that was empty is
    made ready and the player told, once, in words, which file their games are saved in; how
    it was upgraded is for the log, not the player. The solver's worker process
    (started by the first hint, if any) is stopped and the engine disposed however this ends,
    Ctrl-C included.
    """

    def say(text: str) -> None:
        stdout.write(wrap(plain(screen.language.say(text)), screen.width) + "\n")
        stdout.flush()

    db = Database(request.database_url)
    service: GameService | None = None
    try:
        before, after = await upgrade(db)
        if before != after:
            log.info("Upgraded the database %s from %s to %s.", db.safe_url, before or "empty", after)
            if before is None:
                where = saved_where(db)
                if where is not None:
                    say(_("Your games are saved in {file}.", file=where))
        service = GameService(db)
        actor = Actor(PLATFORM, request.user, request.user)
        first = await start_game(service, actor, request, say)
        if first.kind is ReplyKind.ERROR:
            say(first.message or _("No game could be started."))
            return 1
        reader = LineReader(stdin, stdout, interactive=screen.interactive)
        game = TerminalGame(service, actor, reader, stdout, screen,
                            variant=request.variant_or_default, options=request.options_or_default)
        return await game.run(first)
    finally:
        if service is not None:
            service.close()
        await _to_the_end(db.dispose())


async def _to_the_end(cleanup: Coroutine[Any, Any, None]) -> None:
    """Await ``cleanup`` to its end even when Ctrl-C cancels this task meanwhile, then pass the cancel on.

    Disposing of the engine must finish: SQLite's connection thread would otherwise keep the
    process from exiting. A cancel that Ctrl-C asked for but that is still pending (see
    :mod:`gatebot.terminal.console`) would otherwise land on its first await.
    """
    work = asyncio.ensure_future(cleanup)
    cancelled = False
    while not work.done():
        try:
            await asyncio.shield(work)
        except asyncio.CancelledError:
            cancelled = True
    work.result()
    if cancelled:
        raise asyncio.CancelledError


async def start_game(service: GameService, actor: Actor, request: PlayRequest, say: Say) -> Reply:
    """The game to play: the player's running game, or a new one; says which, in a line or two.

    A running game is never given up unasked: with ``--new`` it is abandoned (the service
    says so, with its score); without, it is resumed even when other flags ask for another
    game, and the player is told how to get that one instead.
    """
    if request.new:
        return await _deal(service, actor, request, say, confirm=True)
    shown = await service.show(actor)
    if shown.ok and shown.game is not None and shown.status is GameStatus.ACTIVE:  # not the last one ended
        say(_resuming(shown.game))
        asked = _asked_for_another(request, shown.game)
        if asked:
            say(_("You asked for {game}, but your game in progress continues: run the same command "
                  "with --new to start that one instead (abandoning this one).", game=asked))
        return shown
    if shown.status is GameStatus.QUARANTINED and shown.message:
        say(shown.message)
    reply = await _deal(service, actor, request, say, confirm=False)
    if reply.kind is ReplyKind.CONFIRM:
        # Another terminal of this player dealt a game since we looked: resume that one.
        return await start_game(service, actor, request, say)
    return reply


async def _deal(service: GameService, actor: Actor, request: PlayRequest, say: Say, *, confirm: bool) -> Reply:
    """Deal the requested game; name a random deal so that it can be played again."""
    reply = await service.new_game(actor, request.variant_or_default, deal=request.deal,
                                   options=request.options_or_default, confirm=confirm)
    if reply.ok and reply.game is not None:
        if reply.message:
            say(reply.message)
        game = reply.game
        if request.deal is None and game.deal is not None:
            say(_("To play this deal again: {command}", command=replay_command(game.name, game.deal, game.options)))
    return reply


def _resuming(game: Game) -> str:
    played = len(game.moves)
    progress = n_("{n} move played", "{n} moves played", played) if played else _("no move played yet")
    return _("Resuming your game of {game} ({progress}).", game=describe_game(game.name, game.deal, game.options),
             progress=progress)


def _asked_for_another(request: PlayRequest, game: Game) -> str | None:
    """The game the flags ask for, in words, if it differs from ``game`` in what was typed; else None."""
    differs = (
        (request.variant is not None and request.variant != game.name)
        or (request.deal is not None and request.deal != game.deal)
        or (request.options is not None and set(request.options) != set(game.options))
    )
    if not differs:
        return None
    return describe_game(request.variant_or_default, request.deal, request.options_or_default)
