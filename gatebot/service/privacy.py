"""Forget-me: a player's request to delete everything gatebot stored, and everything it keeps in memory, about them.

Other processes sharing the database drop what they hold too: on PostgreSQL they hear the
deleting transaction's notice; on SQLite they re-read before answering about a player
(:mod:`gatebot.service.players`). On SQLite the deleted rows' bytes are overwritten
(``secure_delete``) and the write-ahead log is emptied into the database file afterwards,
so the player's name and id don't linger in the files.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from gatebot.service.advice import Advice
from gatebot.service.attempts import Attempts
from gatebot.service.memory import Memory
from gatebot.service.players import PlayerKey, Players, player_key
from gatebot.service.replies import Actor
from gatebot.store import games as stored
from gatebot.store.database import Database


class Privacy:
    """Deletes a player's rows and drops what the service's parts keep about them."""

    def __init__(
        self, db: Database, lock: Callable[[Actor], asyncio.Lock], players: Players, memory: Memory,
        attempts: Attempts, advice: Advice,
    ) -> None:
        """``lock`` is the player's request lock: a forget waits for their request under way."""
        self._db = db
        self._lock = lock
        self._players = players
        self._memory = memory
        self._attempts = attempts
        self._advice = advice
        players.follow_forgets(self._forgotten_elsewhere)

    async def forget(self, actor: Actor) -> bool:
        """Delete everything stored about the player: games, challenge results, preferences.

        Challenges they created stay for their servers, without their name. False when
        nothing was stored about them.
        """
        async with self._lock(actor):
            async with self._db.writer(), self._db.sessions() as session, session.begin():
                player_id, game_ids = await stored.delete_player(session, actor.platform, actor.user_id)
                await self._players.tell_forgotten(session, actor)
            self._players.forget(actor, game_ids)
            self._memory.forget(player_key(actor), game_ids)
            self._attempts.forget_games(game_ids)
            self._advice.forget_games(set(game_ids))
        if player_id is not None:
            await self._db.wipe_log()
        return player_id is not None

    def _forgotten_elsewhere(self, key: PlayerKey) -> None:
        """Another process forgot the player: drop their game held here, and what is kept about it."""
        game_ids = self._memory.forget_player(key)
        self._attempts.forget_games(game_ids)
        self._advice.forget_games(set(game_ids))
