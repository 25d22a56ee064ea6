"""The queries of players' games and the one way a change is written: an UPDATE guarded by the version.

Every change a player makes to a game — a move, a line of them, an undo, Auto — is stored
by :func:`save_progress`, whether the service starts from the game it holds in memory or
from a fresh read in a transaction: one statement, built once, that matches only the
version (and log) the change was worked out from. When another writer got there first it
matches nothing and the caller starts again from a fresh read, so no move is ever lost.

The other small writes leave the version alone, because the version stands for the position
the board's buttons were drawn from: counting a hint, storing the solver's proof that no win
is left, and pointing at the message that shows the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, cast

from sqlalchemy import CursorResult, Executable, Table, bindparam, delete, literal_column, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.store.models import Challenge, GameRecord, GameStatus, Player


class Executor(Protocol):
    """A connection or a session: whatever runs a statement in the caller's transaction."""

    async def execute(self, statement: Executable, parameters: Any = None) -> Any: ...


#: The games table for Core statements (``__table__`` is typed as any FROM clause).
GAMES_TABLE = cast(Table, GameRecord.__table__)
_GAMES = GAMES_TABLE.c
#: The rows a statement may touch: this game, at the version it was read at, still being played.
_AT_VERSION = (
    _GAMES.id == bindparam("b_id"),
    _GAMES.version == bindparam("b_version"),
    _GAMES.status == literal_column("'active'"),
)
#: A hint is counted by one UPDATE that leaves the version (the position's) alone.
_COUNT_HINT = update(GAMES_TABLE).where(*_AT_VERSION).values(hint_count=_GAMES.hint_count + 1)
#: The solver's proof that no win is left, stored on the position it was proved for (the
#: version that was read, which it leaves as it is: the position didn't change).
_PROVE_LOST = update(GAMES_TABLE).where(*_AT_VERSION).values(proved_lost=True)
#: The write of a change, built once (SQLAlchemy caches its compiled form).
_SAVE = (
    update(GAMES_TABLE)
    .where(*_AT_VERSION, _GAMES.log == bindparam("b_old_log"))  # a log changed behind our back is replayed
    .values(
        log=bindparam("b_log"),
        position=bindparam("b_position"),
        score=bindparam("b_score"),
        status=bindparam("b_status"),
        move_count=bindparam("b_moves"),
        undo_count=_GAMES.undo_count + bindparam("b_undos"),
        proved_lost=bindparam("b_lost"),
        updated_at=bindparam("b_now", type_=_GAMES.updated_at.type),
        finished_at=bindparam("b_finished", type_=_GAMES.finished_at.type),
        version=bindparam("b_new_version"),
    )
)


@dataclass(frozen=True, slots=True)
class Progress:
    """What a change leaves in a game's row: the new log and position cache, its counters and its end."""

    log: str
    position: str
    score: int
    status: GameStatus
    move_count: int
    #: Moves taken back by this change (added to the row's count).
    undos: int
    #: The solver's proof that no win is left from the new position.
    proved_lost: bool
    now: datetime


async def save_progress(executor: Executor, game_id: int, version: int, old_log: str, progress: Progress) -> bool:
    """Store a change worked out from ``version`` (whose log was ``old_log``); False if the row moved on.

    The version becomes ``version + 1``. False means another writer changed the game (or it
    ended) since it was read: nothing was written, and the change must be worked out again.
    """
    finished = None if progress.status is GameStatus.ACTIVE else progress.now
    result = await executor.execute(_SAVE, {
        "b_id": game_id, "b_version": version, "b_old_log": old_log,
        "b_log": progress.log, "b_position": progress.position, "b_score": progress.score,
        "b_status": progress.status.value, "b_moves": progress.move_count, "b_undos": progress.undos,
        "b_lost": progress.proved_lost, "b_now": progress.now, "b_finished": finished,
        "b_new_version": version + 1,
    })
    return cast(CursorResult[Any], result).rowcount == 1


async def count_hint(executor: Executor, game_id: int, version: int) -> bool:
    """Add one to a game's hint count if it is still at ``version``; False if it moved on."""
    result = await executor.execute(_COUNT_HINT, {"b_id": game_id, "b_version": version})
    return cast(CursorResult[Any], result).rowcount == 1


async def charge_hint(executor: Executor, game_id: int) -> None:
    """Add one to a game's hint count whatever its state (the solver finished it for its player)."""
    await executor.execute(update(GAMES_TABLE).where(_GAMES.id == game_id).values(hint_count=_GAMES.hint_count + 1))


async def prove_lost(executor: Executor, game_id: int, version: int) -> bool:
    """Store that no win is left from the position at ``version``; False if the game moved on."""
    result = await executor.execute(_PROVE_LOST, {"b_id": game_id, "b_version": version})
    return cast(CursorResult[Any], result).rowcount == 1


async def version_of(executor: Executor, game_id: int) -> int | None:
    """The version of a game still being played; None once it ended or is gone (one read by its key).

    What a process holds in memory about a game is checked by this before it answers from it
    without writing (a hint): another process may have moved, ended or deleted the game.
    """
    result = await executor.execute(
        select(_GAMES.version).where(_GAMES.id == game_id, _GAMES.status == literal_column("'active'"))
    )
    return cast(int | None, result.scalar())


async def player_id(session: AsyncSession, platform: str, user_id: str) -> int | None:
    """The id of a platform user's player row, None before their first game or preference."""
    return await session.scalar(
        select(Player.id).where(Player.platform == platform, Player.platform_user_id == user_id)
    )


async def player(session: AsyncSession, platform: str, user_id: str) -> Player | None:
    """A platform user's player row, if they have one."""
    return await session.scalar(
        select(Player).where(Player.platform == platform, Player.platform_user_id == user_id)
    )


async def active_game(session: AsyncSession, player_id: int) -> GameRecord | None:
    """The player's game in progress (there is one at most)."""
    return await session.scalar(
        select(GameRecord).where(GameRecord.player_id == player_id, GameRecord.status == GameStatus.ACTIVE)
    )


async def latest_game(session: AsyncSession, player_id: int) -> GameRecord | None:
    """The player's most recent game, whatever its state."""
    return await session.scalar(
        select(GameRecord).where(GameRecord.player_id == player_id).order_by(GameRecord.id.desc()).limit(1)
    )


async def deals_played(session: AsyncSession, player_id: int, variant: str) -> list[int]:
    """The deals of ``variant`` without options the player was dealt, oldest first (a deal dealt twice is twice)."""
    rows = await session.scalars(
        select(GameRecord.deal)
        .where(GameRecord.player_id == player_id, GameRecord.variant == variant, GameRecord.options == "")
        .order_by(GameRecord.id)
    )
    return list(rows)


async def attempt_of(session: AsyncSession, challenge_id: int, player_id: int) -> int | None:
    """The id of the player's attempt at a challenge, if they made one."""
    return await session.scalar(
        select(GameRecord.id).where(GameRecord.challenge_id == challenge_id, GameRecord.player_id == player_id)
    )


async def in_open_challenge(session: AsyncSession, variant: str, deal: int, now: datetime) -> bool:
    """Whether a challenge open now or still to open plays this deal (in any server)."""
    found = await session.scalar(
        select(Challenge.id)
        .where(
            Challenge.deal == deal, Challenge.variant == variant, Challenge.closed_at.is_(None),
            Challenge.closes_at > now,
        )
        .limit(1)
    )
    return found is not None


async def owner(session: AsyncSession, game_id: int) -> tuple[str, str, str, Player] | None:
    """A game's status, variant and options with its player, without its log; None for no such game."""
    found = (await session.execute(
        select(GameRecord.status, GameRecord.variant, GameRecord.options, Player)
        .join(Player, Player.id == GameRecord.player_id)
        .where(GameRecord.id == game_id)
    )).first()
    return None if found is None else (found[0], found[1], found[2], found[3])


async def set_board_message(executor: Executor, game_id: int, channel_id: int, message_id: int) -> bool:
    """Point a game at the message that shows its board, leaving its version alone; False for no such game."""
    result = await executor.execute(
        update(GAMES_TABLE).where(_GAMES.id == game_id).values(channel_id=channel_id, board_message_id=message_id)
    )
    return cast(CursorResult[Any], result).rowcount == 1


async def forget_board_message(executor: Executor, game_id: int, message_id: int) -> bool:
    """Point a game at no board message while ``message_id`` is still its board (version alone); False otherwise."""
    result = await executor.execute(
        update(GAMES_TABLE).where(_GAMES.id == game_id, _GAMES.board_message_id == message_id)
        .values(board_message_id=None)
    )
    return cast(CursorResult[Any], result).rowcount == 1


async def board_message(session: AsyncSession, game_id: int) -> tuple[int | None, int | None]:
    """The (channel id, message id) of a game's board message, as last set; (None, None) for no such game."""
    where = select(GameRecord.channel_id, GameRecord.board_message_id).where(GameRecord.id == game_id)
    row = (await session.execute(where)).first()
    return (row[0], row[1]) if row is not None else (None, None)


async def delete_player(session: AsyncSession, platform: str, user_id: str) -> tuple[int | None, list[int]]:
    """Delete a player's row and their games: the player's id (None if they had none) and their games' ids."""
    found = await player_id(session, platform, user_id)
    if found is None:
        return None, []
    game_ids = list(await session.scalars(select(GameRecord.id).where(GameRecord.player_id == found)))
    await session.execute(delete(GameRecord).where(GameRecord.player_id == found))
    await session.execute(delete(Player).where(Player.id == found))
    return found, game_ids
