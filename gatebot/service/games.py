"""The one place that changes a stored game: load it, apply a request, save it, reply.

Every request runs as one unit of work in one transaction. Requests of one player are
serialised inside the process (a lock per player), and writes are guarded by the row's
version (optimistic locking), so two processes sharing a database can't lose a move
either: a write that lost the race is retried on the fresh row.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import bindparam, literal_column, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from gatebot.rules import MAX_DEAL, Game, GateGame, Move, RulesError
from gatebot.rules.autoplay import autoplay
from gatebot.service.replies import Actor, Reply, ReplyKind
from gatebot.store.database import Database
from gatebot.store.models import GameRecord, GameStatus, Player, utcnow

log = logging.getLogger(__name__)

UNDO_TOKEN = "u"
_RETRIES = 8
_KNOWN_GAMES = 4096
T = TypeVar("T")


class GameDamaged(Exception):
    """A stored game that can't be replayed from its deal and log."""


BOARD_STYLES = ("text", "emoji", "image")


@dataclass(frozen=True, slots=True)
class Preferences:
    """How a player likes the board drawn."""

    board_style: str = "text"
    compact: bool = False


K = TypeVar("K")
V = TypeVar("V")


class _Recent(Generic[K, V]):
    """A small cache whose answers expire after ``ttl`` seconds (for data other processes may change)."""

    def __init__(self, ttl: float = 60.0, size: int = 4096) -> None:
        self._ttl, self._size = ttl, size
        self._items: OrderedDict[K, tuple[float, V]] = OrderedDict()

    def get(self, key: K) -> V | None:
        item = self._items.get(key)
        if item is None or time.monotonic() - item[0] > self._ttl:
            return None
        return item[1]

    def put(self, key: K, value: V) -> None:
        self._items[key] = (time.monotonic(), value)
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def drop(self, key: K) -> None:
        self._items.pop(key, None)


@dataclass(slots=True)
class _Current:
    """A player's active game as this process last saved or read it: where a move starts.

    A move from here is one UPDATE guarded by the version; if another process changed the
    game meanwhile, the UPDATE matches nothing and the request takes the full path.
    """

    game_id: int
    version: int
    log: str
    move_count: int
    game: GateGame


_GAMES = GameRecord.__table__.c
#: The fast path's single statement, built once (SQLAlchemy caches its compiled form).
_FAST_UPDATE = (
    update(GameRecord.__table__)
    .where(
        _GAMES.id == bindparam("b_id"),
        _GAMES.version == bindparam("b_version"),
        _GAMES.status == literal_column("'active'"),
        _GAMES.log == bindparam("b_old_log"),  # a log changed behind our back is replayed, not overwritten
    )
    .values(
        log=bindparam("b_log"),
        position=bindparam("b_position"),
        score=bindparam("b_score"),
        status=bindparam("b_status"),
        move_count=_GAMES.move_count + bindparam("b_moves"),
        undo_count=_GAMES.undo_count + bindparam("b_undos"),
        updated_at=bindparam("b_now", type_=_GAMES.updated_at.type),
        finished_at=bindparam("b_finished", type_=_GAMES.finished_at.type),
        version=bindparam("b_new_version"),
    )
)


@dataclass(slots=True)
class _Known:
    """A game already replayed and checked, by the row fields that decide its position."""

    variant: str
    options: str
    deal: int
    log: str
    position: str
    game: GateGame


class GameService:
    """Loads, changes and saves players' games; front ends only translate to and from it."""

    def __init__(
        self, db: Database, *, deal_picker: Callable[[], int] | None = None, new_command: str = "new"
    ) -> None:
        """``new_command`` is how this front end's players start a game, for messages that suggest it."""
        self._db = db
        self._new_command = new_command
        self._pick_deal = deal_picker or (lambda: random.randint(1, MAX_DEAL))
        self._locks: weakref.WeakValueDictionary[tuple[str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._players: dict[tuple[str, str], int] = {}
        self._known: OrderedDict[int, _Known] = OrderedDict()
        self._current: dict[tuple[str, str], _Current] = {}
        self._preferences: _Recent[tuple[str, str], Preferences] = _Recent()
        self._board_messages: _Recent[int, tuple[int | None, int | None]] = _Recent()

    # -- requests -------------------------------------------------------------------------

    async def show(self, actor: Actor) -> Reply:
        """The player's game in progress, as it stands."""

        async def work(session: AsyncSession) -> Reply:
            record = await self._active(session, actor)
            if record is None:
                return self._no_game()
            game = await self._load(session, record)
            if game is None:
                return self._damaged(record)
            self._note_current(actor, record, game)
            return self._board(record, game)

        return await self._run(actor, work)

    async def new_game(
        self,
        actor: Actor,
        variant: str = "gate",
        *,
        deal: int | None = None,
        options: Iterable[str] = (),
        confirm: bool = False,
    ) -> Reply:
        """Deal a new game; with one in progress, ask first (``confirm``) and then abandon it."""
        try:
            cls = Game.variant_class(variant)
            chosen_options = cls.check_options(options)
            number = self._pick_deal() if deal is None else deal
            game = cls.new(deal=number, options=chosen_options)
        except (RulesError, ValueError) as error:
            return Reply(ReplyKind.ERROR, _sentence(str(error)))
        assert isinstance(game, GateGame)

        async def work(session: AsyncSession) -> Reply:
            player = await self._player(session, actor)
            current = await self._active_of(session, player.id)
            if current is not None:
                if not confirm:
                    return Reply(
                        ReplyKind.CONFIRM,
                        f"You have a game of {_title(current)} in progress (deal {current.deal}, "
                        f"score {current.score}): start a new one and abandon it?",
                        game_id=current.id,
                        version=current.version,
                        status=GameStatus.ACTIVE,
                    )
                _finish(current, GameStatus.ABANDONED)
                await session.flush()  # frees the one-active-game slot before the insert
            record = GameRecord(
                player_id=player.id,
                variant=game.name,
                options=" ".join(game.options),
                deal=number,
                log="",
                position=game.to_text(),
                guild_id=actor.guild_id,
                channel_id=actor.channel_id,
            )
            session.add(record)
            await session.flush()
            self._remember(record, game)
            self._note_current(actor, record, game)
            return self._board(record, game.copy(), message=_dealt(game, abandoned=current))

        return await self._run(actor, work)

    async def play(self, actor: Actor, text: str, *, expected_version: int | None = None) -> Reply:
        """Play a line of typed moves in order, stopping at the first that fails."""

        def apply(game: GateGame) -> tuple[list[str], str | None]:
            return _play(game, text)

        return await self._change(actor, apply, expected_version)

    async def act(
        self, actor: Actor, action: str, *, expected_version: int | None = None, game_id: int | None = None
    ) -> Reply:
        """A button's action on the board of game ``game_id`` (default: the player's own game).

        ``action`` is ``draw``, ``undo``, ``auto``, ``resign`` or a canonical move token. A
        press on someone else's board, on a finished game's board or on an out-of-date board
        (``expected_version``) changes nothing and says so.
        """
        if action == "resign":
            return await self.resign(actor, expected_version=expected_version, game_id=game_id)
        if action == "undo":
            apply = _undo(1)
        elif action == "auto":
            apply = _auto
        else:
            move = "d" if action == "draw" else action

            def apply(game: GateGame) -> tuple[list[str], str | None]:
                return _play(game, move)

        return await self._change(actor, apply, expected_version, game_id)

    async def auto(self, actor: Actor, *, expected_version: int | None = None) -> Reply:
        """Play every card that can safely go to the foundations."""
        return await self._change(actor, _auto, expected_version)

    async def undo(self, actor: Actor, count: int = 1, *, expected_version: int | None = None) -> Reply:
        """Take back ``count`` moves (all there are, if fewer)."""
        return await self._change(actor, _undo(count), expected_version)

    async def resign(
        self, actor: Actor, *, expected_version: int | None = None, game_id: int | None = None
    ) -> Reply:
        """End the game in progress now, keeping its score."""

        async def work(session: AsyncSession) -> Reply:
            opened = await self._open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            _finish(record, GameStatus.RESIGNED)
            await session.flush()
            self._note_current(actor, record, game)
            return self._board(record, game, message=f"You resigned with a score of {record.score}.")

        return await self._run(actor, work)

    async def set_board_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember which message shows a game's board, so it can be edited in place.

        A plain UPDATE that leaves the version alone: the board's buttons carry the version,
        and pointing at a new message must not make them out of date.
        """
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            await session.execute(
                update(GameRecord)
                .where(GameRecord.id == game_id)
                .values(channel_id=channel_id, board_message_id=message_id)
                .execution_options(synchronize_session=False)
            )
        self._board_messages.put(game_id, (channel_id, message_id))

    async def board_message(self, game_id: int) -> tuple[int | None, int | None]:
        """The (channel id, message id) of a game's board message, as last set."""
        cached = self._board_messages.get(game_id)
        if cached is not None:
            return cached
        async with self._db.sessions() as session:
            row = (
                await session.execute(
                    select(GameRecord.channel_id, GameRecord.board_message_id).where(GameRecord.id == game_id)
                )
            ).first()
        return (row[0], row[1]) if row is not None else (None, None)

    async def preferences(self, actor: Actor) -> Preferences:
        """The player's board preferences (defaults for someone new).

        Asked for every board drawn, so answers are kept for a short while; a change made
        in this process is seen at once, one made in another process within a minute.
        """
        key = (actor.platform, actor.user_id)
        cached = self._preferences.get(key)
        if cached is not None:
            return cached
        async with self._db.sessions() as session:
            player = await session.scalar(
                select(Player).where(Player.platform == actor.platform, Player.platform_user_id == actor.user_id)
            )
        found = Preferences() if player is None else Preferences(player.board_style, player.compact_board)
        self._preferences.put(key, found)
        return found

    async def set_preferences(
        self, actor: Actor, *, board_style: str | None = None, compact: bool | None = None
    ) -> Preferences:
        """Change how the player's boards are drawn; return the preferences now in force."""
        if board_style is not None and board_style not in BOARD_STYLES:
            raise ValueError(f"board style must be one of {', '.join(BOARD_STYLES)}")

        async def work(session: AsyncSession) -> Reply:
            player = await self._player(session, actor)
            if board_style is not None:
                player.board_style = board_style
            if compact is not None:
                player.compact_board = compact
            return Reply(ReplyKind.BOARD)

        await self._run(actor, work)
        self._preferences.drop((actor.platform, actor.user_id))
        return await self.preferences(actor)

    # -- the shared path of a change ------------------------------------------------------

    async def _change(
        self,
        actor: Actor,
        apply: Callable[[GateGame], tuple[list[str], str | None]],
        expected_version: int | None,
        game_id: int | None = None,
    ) -> Reply:
        async def work(session: AsyncSession) -> Reply:
            opened = await self._open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            tokens, error = apply(game)
            if not tokens:
                return self._board(record, game, kind=ReplyKind.ERROR, message=error)
            record_progress(record, game, tokens)
            await session.flush()
            self._remember(record, game)
            self._note_current(actor, record, game)
            status = GameStatus(record.status)
            return self._reply(
                record.id, record.version, status, game.copy(),
                message=_outcome_message(status, error, record.move_count, record.score),
                played=tuple(token for token in tokens if token != UNDO_TOKEN),
            )

        async with self._lock(actor):
            fast = await self._fast_change(actor, apply, expected_version, game_id)
        if fast is not None:
            return fast
        return await self._run(actor, work)

    async def _fast_change(
        self,
        actor: Actor,
        apply: Callable[[GateGame], tuple[list[str], str | None]],
        expected_version: int | None,
        game_id: int | None,
    ) -> Reply | None:
        """A change as one guarded UPDATE from the game this process last saw; None to take the full path.

        The full path (read, check, write) is taken whenever this shortcut can't be sure:
        no game in memory, a board for another game or version, a request that changes
        nothing (its answer should come from a fresh read), or another writer got there first.
        """
        current = self._current.get((actor.platform, actor.user_id))
        if current is None or game_id not in (None, current.game_id):
            return None
        if expected_version not in (None, current.version):
            return None
        game = current.game.copy()
        tokens, error = apply(game)
        if not tokens:
            return None
        status = GameStatus.WON if game.is_won else GameStatus.ACTIVE if game.has_legal_move() else GameStatus.LOST
        undos = tokens.count(UNDO_TOKEN)
        now = utcnow()
        new_log = f"{current.log} {' '.join(tokens)}".strip()
        position = game.to_text()
        params = {
            "b_id": current.game_id, "b_version": current.version, "b_old_log": current.log,
            "b_log": new_log, "b_position": position,
            "b_score": game.score, "b_status": status.value, "b_moves": len(tokens) - undos, "b_undos": undos,
            "b_now": now, "b_finished": None if status is GameStatus.ACTIVE else now,
            "b_new_version": current.version + 1,
        }
        try:
            async with self._db.writer(), self._db.engine.begin() as connection:
                result = await connection.execute(_FAST_UPDATE, params)
        except (OperationalError, DBAPIError):
            log.info("fast update of game %s failed; taking the full path", current.game_id, exc_info=True)
            result = None
        key = (actor.platform, actor.user_id)
        if result is None or result.rowcount != 1:
            self._current.pop(key, None)
            return None
        move_count = current.move_count + len(tokens) - undos
        if status is GameStatus.ACTIVE:
            self._current[key] = _Current(current.game_id, current.version + 1, new_log, move_count, game.copy())
        else:
            self._current.pop(key, None)
        known = self._known.get(current.game_id)
        if known is not None:
            known.log, known.position, known.game = new_log, position, game.copy()
        return self._reply(
            current.game_id, current.version + 1, status, game,
            message=_outcome_message(status, error, move_count, game.score),
            played=tuple(token for token in tokens if token != UNDO_TOKEN),
        )

    def _note_current(self, actor: Actor, record: GameRecord, game: GateGame) -> None:
        """Remember (or forget) the player's active game after a full-path read or write."""
        key = (actor.platform, actor.user_id)
        if record.status == GameStatus.ACTIVE:
            self._current[key] = _Current(record.id, record.version, record.log, record.move_count, game.copy())
        else:
            self._current.pop(key, None)

    def _lock(self, actor: Actor) -> asyncio.Lock:
        key = (actor.platform, actor.user_id)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def _no_game(self) -> Reply:
        return Reply(ReplyKind.ERROR, f"You have no game in progress: start one with {self._new_command}.")

    def _damaged(self, record: GameRecord) -> Reply:
        return Reply(
            ReplyKind.ERROR,
            f"Your saved game (deal {record.deal}) couldn't be read back, so it has been set aside "
            f"unchanged: start a new one with {self._new_command}.",
            game_id=record.id,
            status=GameStatus.QUARANTINED,
        )

    async def _open(
        self, session: AsyncSession, actor: Actor, game_id: int | None, expected_version: int | None
    ) -> tuple[GameRecord, GateGame] | Reply:
        """The player's active game, loaded and checked, ready to change; or the reply saying why not."""
        record = await self._active(session, actor)
        refusal = await self._refuse_target(session, actor, record, game_id)
        if refusal is not None:
            return refusal
        assert record is not None
        if expected_version is not None and record.version != expected_version:
            return await self._stale(session, record)
        game = await self._load(session, record)
        if game is None:
            return self._damaged(record)
        return record, game

    async def _refuse_target(
        self, session: AsyncSession, actor: Actor, record: GameRecord | None, game_id: int | None
    ) -> Reply | None:
        """Why a request can't act on the game it names (a button's game), or None when it can."""
        if game_id is None or (record is not None and record.id == game_id):
            return None if record is not None else self._no_game()
        target = await session.get(GameRecord, game_id)
        if target is None:
            return Reply(ReplyKind.ERROR, f"That game no longer exists: start one with {self._new_command}.")
        owner = await session.get(Player, target.player_id)
        assert owner is not None
        if (owner.platform, owner.platform_user_id) != (actor.platform, actor.user_id):
            return Reply(
                ReplyKind.ERROR,
                f"This is {owner.display_name}'s game: start your own with {self._new_command}.",
                game_id=target.id,
            )
        return Reply(
            ReplyKind.STALE,
            "That board belongs to a game that is over: here is where it ended.",
            game=None if target.status == GameStatus.QUARANTINED else replay(target),
            game_id=target.id,
            version=target.version,
            status=GameStatus(target.status),
        )

    async def _run(self, actor: Actor, work: Callable[[AsyncSession], Awaitable[Reply]]) -> Reply:
        """Run ``work`` in one transaction, under the player's lock, retrying lost races."""
        key = (actor.platform, actor.user_id)
        async with self._lock(actor):
            for attempt in range(_RETRIES):
                try:
                    async with self._db.writer(), self._db.sessions() as session, session.begin():
                        return await work(session)
                except (StaleDataError, IntegrityError) as error:
                    log.info("retrying a request of %s/%s after %s", *key, type(error).__name__)
                    self._players.pop(key, None)
                    await asyncio.sleep(0.005 * attempt * random.random())
        return Reply(
            ReplyKind.ERROR,
            "Your game changed several times while I was saving, so nothing was changed: please try again.",
        )

    # -- loading and saving ---------------------------------------------------------------

    async def _player(self, session: AsyncSession, actor: Actor) -> Player:
        """The actor's player row, made on first contact; the display name follows the platform's."""
        key = (actor.platform, actor.user_id)
        player = await session.scalar(
            select(Player).where(Player.platform == actor.platform, Player.platform_user_id == actor.user_id)
        )
        if player is None:
            player = Player(platform=actor.platform, platform_user_id=actor.user_id,
                            display_name=actor.display_name)
            session.add(player)
            await session.flush()
        elif player.display_name != actor.display_name and actor.display_name:
            player.display_name = actor.display_name
        self._players[key] = player.id
        return player

    async def _active(self, session: AsyncSession, actor: Actor) -> GameRecord | None:
        key = (actor.platform, actor.user_id)
        player_id = self._players.get(key)
        if player_id is None:
            player_id = await session.scalar(
                select(Player.id).where(Player.platform == actor.platform, Player.platform_user_id == actor.user_id)
            )
            if player_id is None:
                return None
            self._players[key] = player_id
        return await self._active_of(session, player_id)

    @staticmethod
    async def _active_of(session: AsyncSession, player_id: int) -> GameRecord | None:
        return await session.scalar(
            select(GameRecord).where(GameRecord.player_id == player_id, GameRecord.status == GameStatus.ACTIVE)
        )

    async def _load(self, session: AsyncSession, record: GameRecord) -> GateGame | None:
        """The record's game, checked against a replay of its log; None if it was set aside.

        A stale position cache is repaired (and logged); a log that can't be replayed sets
        the game aside (status ``quarantined``) so its owner can start afresh, with the row
        kept as it was for inspection.
        """
        known = self._known.get(record.id)
        if known is not None and (known.variant, known.options, known.deal, known.log, known.position) == (
            record.variant, record.options, record.deal, record.log, record.position
        ):
            self._known.move_to_end(record.id)
            return known.game.copy()
        try:
            game = replay(record)
        except GameDamaged as error:
            log.error("game %s of player %s can't be replayed: %s; setting it aside",
                      record.id, record.player_id, error)
            record.status = GameStatus.QUARANTINED
            record.problem = str(error)
            record.finished_at = utcnow()
            await session.flush()
            return None
        text = game.to_text()
        if text != record.position:
            log.warning("game %s: stored position differs from its replayed log; repaired", record.id)
            record.position = text
            record.score = game.score
        self._remember(record, game)
        return game.copy()

    def _remember(self, record: GameRecord, game: GateGame) -> None:
        self._known[record.id] = _Known(record.variant, record.options, record.deal, record.log,
                                        record.position, game.copy())
        self._known.move_to_end(record.id)
        while len(self._known) > _KNOWN_GAMES:
            self._known.popitem(last=False)

    async def _stale(self, session: AsyncSession, record: GameRecord) -> Reply:
        game = await self._load(session, record)
        if game is None:
            return self._damaged(record)
        return self._board(record, game, kind=ReplyKind.STALE,
                           message="That board was out of date, so nothing was played: here is your game now.")

    @classmethod
    def _board(
        cls,
        record: GameRecord,
        game: GateGame,
        *,
        kind: ReplyKind = ReplyKind.BOARD,
        message: str | None = None,
        played: tuple[str, ...] = (),
    ) -> Reply:
        return cls._reply(record.id, record.version, GameStatus(record.status), game, kind=kind,
                          message=message, played=played)

    @staticmethod
    def _reply(
        game_id: int,
        version: int,
        status: GameStatus,
        game: GateGame,
        *,
        kind: ReplyKind = ReplyKind.BOARD,
        message: str | None = None,
        played: tuple[str, ...] = (),
    ) -> Reply:
        moves = tuple(str(move) for move in game.legal_moves()) if status is GameStatus.ACTIVE else ()
        actions: list[str] = []
        if status is GameStatus.ACTIVE:
            if "d" in moves:
                actions.append("draw")
            if game.moves:
                actions.append("undo")
            actions.append("resign")
        return Reply(kind, message, game, game_id, version, status, played, tuple(actions), moves)


def _play(game: GateGame, text: str) -> tuple[list[str], str | None]:
    result = game.play_line(text)
    error = None if result.error is None else _sentence(str(result.error))
    return [str(move) for move in result.played], error


def _undo(count: int) -> Callable[[GateGame], tuple[list[str], str | None]]:
    def apply(game: GateGame) -> tuple[list[str], str | None]:
        taken = min(count, len(game.moves))
        if taken == 0:
            return [], "There is no move to take back."
        for _ in range(taken):
            game.undo()
        return [UNDO_TOKEN] * taken, None

    return apply


def _auto(game: GateGame) -> tuple[list[str], str | None]:
    played = [str(move) for move in autoplay(game)]
    return played, None if played else "No card can go to the foundations safely right now."


def record_progress(record: GameRecord, game: GateGame, tokens: list[str]) -> None:
    """Write what was done to the row: the log, the position cache, the counters, the end."""
    record.log = f"{record.log} {' '.join(tokens)}".strip()
    record.position = game.to_text()
    record.score = game.score
    undos = tokens.count(UNDO_TOKEN)
    record.undo_count += undos
    record.move_count += len(tokens) - undos
    record.updated_at = utcnow()
    if game.is_won:
        _finish(record, GameStatus.WON)
    elif not game.has_legal_move():
        _finish(record, GameStatus.LOST)


def _finish(record: GameRecord, status: GameStatus) -> None:
    record.status = status
    record.finished_at = record.updated_at = utcnow()


def replay(record: GameRecord) -> GateGame:
    """Rebuild a stored game from its variant, options, deal and log; :class:`GameDamaged` if impossible."""
    try:
        game = Game.new(record.variant, deal=record.deal, options=record.options.split())
        for token in record.log.split():
            if token == UNDO_TOKEN:
                game.undo()
            else:
                game.play(Move.from_text(token))
    except (RulesError, ValueError) as error:
        raise GameDamaged(str(error)) from error
    if not isinstance(game, GateGame):
        raise GameDamaged(f"variant {record.variant!r} is not played by this service")
    return game


def _outcome_message(status: GameStatus, message: str | None, move_count: int, score: int) -> str | None:
    """The reply's line after a change: the error that stopped a line of moves, or how the game ended."""
    if status is GameStatus.WON:
        return f"You won! Every card is home: score 52/52 in {move_count} moves."
    if status is GameStatus.LOST:
        return _join(message, f"No legal move is left: the game ends with a score of {score}.")
    return message


def _dealt(game: GateGame, abandoned: GameRecord | None) -> str:
    first = f"Dealt {game.title} deal {game.deal}."
    if abandoned is None:
        return first
    return f"{first} Your previous game (deal {abandoned.deal}) was abandoned with a score of {abandoned.score}."


def _title(record: GameRecord) -> str:
    try:
        return Game.variant_class(record.variant).title
    except RulesError:
        return record.variant


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _join(first: str | None, second: str) -> str:
    return second if first is None else f"{first} {second}"
