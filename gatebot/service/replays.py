"""Replays: a finished game played back from its deal and log, for its owner, or for anyone once its challenge closed.

A game row keeps every action in order, undos included, so a finished game can be watched
again exactly as it went (:func:`gatebot.render.replay.positions`). Who may watch it:

- its owner, once it is over (a game still running is refused: finish it first, so a replay
  never shows a position the player could still use, nor a hint of the stock's order);
- anyone else only for a challenge attempt whose challenge has closed, when every attempt
  is over and the deal is no longer a secret worth keeping.

An attempt at a challenge still open is its owner's secret too: every position of the replay
shows the deal that others are yet to play. Its replay carries the challenge's name
(:attr:`GameReplay.secret`), and a front end shows it to its owner alone, naming the
challenge rather than the deal, until the challenge closes.

A refusal is a :class:`ReplayRefused`, one sentence for the asker. Only reads: nothing here
changes a game, so no player lock is taken and no version moves.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.errors import UserError
from gatebot.messages import Name, _, n_
from gatebot.render.replay import positions
from gatebot.rules import Game, RulesError, describe_move
from gatebot.service import saved
from gatebot.service.changes import UNDO_TOKEN
from gatebot.service.players import Players
from gatebot.service.replies import Actor
from gatebot.store import games as stored
from gatebot.store.database import Database
from gatebot.store.models import Challenge, GameRecord, GameStatus, Player

log = logging.getLogger(__name__)

#: The statuses of a game that is over and can be played back.
FINISHED = tuple(status for status in GameStatus if status.finished)


class ReplayRefused(UserError):
    """A replay that can't be shown to its asker; the message says why, in one sentence."""


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A finished game to watch: whose it is, how it ended, and every position in order (the deal first)."""

    game_id: int
    owner: str
    variant: str
    deal: int
    options: tuple[str, ...]
    status: GameStatus
    positions: tuple[Game, ...]
    #: The name of the challenge still open that this game is an attempt at: the replay is then
    #: for its owner's eyes only and names the challenge, never the deal. None: anyone may see it.
    secret: str | None = None

    @property
    def moves(self) -> int:
        """The moves of the game's line as it ended (taken-back moves don't count, as on the board)."""
        return len(self.positions[-1].moves)


class Replays:
    """Finds a finished game the asker may watch and plays it back from its log."""

    def __init__(self, db: Database, players: Players, *, clock: Callable[[], datetime]) -> None:
        """``clock`` tells whether a challenge has closed (the game service's clock)."""
        self._db = db
        self._players = players
        self._clock = clock

    async def replay(self, actor: Actor | None, game_id: int | None = None) -> GameReplay:
        """The replay of game ``game_id``, or of the asker's last finished game.

        ``actor`` None is anyone at all (a public page's visitor, who is nobody's player): only
        games anyone may watch. :class:`ReplayRefused` when there is no such game, it is still
        running, or it is another player's and not an attempt at a challenge that has closed.
        """
        async with self._db.sessions() as session:
            if game_id is None:
                if actor is None:
                    raise ReplayRefused(_("Say which game to watch: give its number."))
                record = await self._last_finished(session, actor)
            else:
                record = await self._chosen(session, actor, game_id)
            owner = await session.get(Player, record.player_id)
            secret = await self._secret(session, record)
        assert owner is not None
        status = GameStatus.read(record.status)
        assert status is not None  # _check refused an unknown one
        options = tuple(record.options.split())
        try:
            start = Game.new(record.variant, deal=record.deal, options=options)
            seen = positions(start, record.log.split(), undo_token=UNDO_TOKEN)
        except (RulesError, ValueError) as error:
            log.warning("game %s can't be replayed from its log: %s", record.id, error)
            raise ReplayRefused(
                _("Game #{game} can't be played back: its stored moves don't replay.", game=record.id)
            ) from None
        return GameReplay(
            record.id, Name(owner.display_name), record.variant, record.deal, options, status, tuple(seen), secret
        )

    async def _secret(self, session: AsyncSession, record: GameRecord) -> str | None:
        """The name of the open challenge ``record`` is an attempt at, or None (no challenge, or it has closed)."""
        if record.challenge_id is None:
            return None
        challenge = await session.get(Challenge, record.challenge_id)
        if challenge is None or self._closed(challenge):
            return None
        return Name(challenge.name)

    def _closed(self, challenge: Challenge) -> bool:
        return challenge.closed_at is not None or challenge.closes_at <= self._clock()

    async def _last_finished(self, session: AsyncSession, actor: Actor) -> GameRecord:
        player_id = await self._players.id_of(session, actor)
        if player_id is None:
            raise ReplayRefused(_("You have no finished game to watch yet: play one first."))
        record = await session.scalar(
            select(GameRecord).where(GameRecord.player_id == player_id, GameRecord.status.in_(FINISHED))
            .order_by(GameRecord.id.desc()).limit(1)
        )
        if record is None:
            running = await stored.active_game(session, player_id)
            if running is not None:
                raise ReplayRefused(_("Your game is still running: finish it first, then watch it back."))
            raise ReplayRefused(_("You have no finished game to watch yet: play one first."))
        self._check(record)
        return record

    async def _chosen(self, session: AsyncSession, actor: Actor | None, game_id: int) -> GameRecord:
        record = await session.get(GameRecord, game_id)
        if record is None:
            raise ReplayRefused(_("There is no game #{game}.", game=game_id))
        self._check(record)
        if actor is not None and record.player_id == await self._players.id_of(session, actor):
            if record.status == GameStatus.ACTIVE:
                raise ReplayRefused(
                    _("Game #{game} is still running: finish it first, then watch it back.", game=game_id)
                )
            return record
        if record.challenge_id is None:
            raise ReplayRefused(_("Game #{game} is another player's, and only challenge attempts can be watched "
                                  "by others, once their challenge has closed.", game=game_id))
        challenge = await session.get(Challenge, record.challenge_id)
        closed = challenge is not None and self._closed(challenge)
        if not closed or record.status == GameStatus.ACTIVE:
            raise ReplayRefused(_("Game #{game} is another player's attempt at a challenge still open: "
                                  "you can watch it once the challenge has closed.", game=game_id))
        return record

    @staticmethod
    def _check(record: GameRecord) -> None:
        """Refuse a row set aside as unreadable, or one another gatebot version wrote that this one can't read."""
        if record.status == GameStatus.QUARANTINED or not saved.readable(
            record.id, record.status, record.variant, record.options
        ):
            raise ReplayRefused(
                _("Game #{game} is set aside as unreadable, so it can't be played back.", game=record.id)
            )


#: How a replayed game ended, as its heading says it.
ENDINGS = {"won": _("won"), "lost": _("lost"), "resigned": _("resigned"), "abandoned": _("abandoned"),
           "expired": _("expired")}


def step_line(replay: GameReplay, step: int) -> str:
    """Where the replay is and what led there: ``Step 12 of 119 · 3f — 7♣ from column 3 to the foundation``.

    Step 0 is the deal; a step that took a move back says which move. Chat's replay and the web's say the same.
    """
    last = len(replay.positions) - 1
    if step == 0:
        return _("Step {step} of {last} · the deal", step=step, last=last)
    before, after = replay.positions[step - 1], replay.positions[step]
    if len(after.moves) < len(before.moves):
        return _("Step {step} of {last} · undo: took back {move}", step=step, last=last, move=str(before.moves[-1]))
    move = after.moves[-1]
    return _("Step {step} of {last} · {move} — {words}", step=step, last=last, move=str(move),
             words=describe_move(before, move))


def title_line(replay: GameReplay) -> str:
    """The replay's heading: whose game it is, which deal, and how it ended.

    ``Replay of game #3: Alice's Little Gate deal 5 with single-moves, resigned after 12 moves.``
    """
    game = replay.positions[0]
    facts = {"game": replay.game_id, "owner": replay.owner, "title": game.title, "deal": replay.deal,
             "ending": ENDINGS.get(replay.status.value, replay.status.value),
             "after": n_("after {n} move", "after {n} moves", replay.moves)}
    if replay.secret is not None:  # the deal stays a secret while the challenge is open
        return _("Replay of game #{game}: {owner}'s attempt at {challenge}, {ending} {after} (only you see it "
                 "until the challenge closes).", game=replay.game_id, owner=replay.owner, challenge=replay.secret,
                 ending=facts["ending"], after=facts["after"])
    if replay.options:
        return _("Replay of game #{game}: {owner}'s {title} deal {deal} with {options}, {ending} {after}.",
                 **facts, options=" and ".join(replay.options))
    return _("Replay of game #{game}: {owner}'s {title} deal {deal}, {ending} {after}.", **facts)
