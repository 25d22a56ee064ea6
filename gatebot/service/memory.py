"""What this process remembers of players' games: where their next move starts, and replays already checked.

Both are caches of a stated size, and neither can serve a game another process changed:
a move that starts from a remembered game is written by one UPDATE guarded by the version it
remembers, which matches nothing once the row moved on (or was deleted by a forget-me), and
the request then starts again from a fresh read; a hint, which writes nothing first, reads the
game's stored version before it starts from memory; a checked replay is used only for a row
whose variant, options, deal, log and position are exactly those it was checked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from cachetools import LRUCache

from gatebot.rules import Game
from gatebot.service.attempts import AttemptRules
from gatebot.service.players import PlayerKey
from gatebot.store.models import GameRecord, GameStatus

#: Players whose active game is remembered (each is a copy of a game: a few kilobytes).
CURRENT_GAMES = 16_384
#: Games whose replay from their log is remembered as checked.
KNOWN_GAMES = 4096


@dataclass(slots=True)
class Current:
    """A player's active game as this process last saved or read it: where a move starts.

    A move from here is one UPDATE guarded by the version; if another process changed the
    game meanwhile, the UPDATE matches nothing and the request takes the full path.
    """

    game_id: int
    version: int
    log: str
    move_count: int
    game: Game
    attempt: AttemptRules | None = None
    #: The solver proved no win is left from this position (stored with the game).
    lost: bool = False
    #: Where the game's board message is, as the row last said (or this process last set).
    board_channel_id: int | None = None
    board_message_id: int | None = None


@dataclass(slots=True)
class _Known:
    """A game already replayed and checked, by the row fields that decide its position."""

    variant: str
    options: str
    deal: int
    log: str
    position: str
    game: Game


class Memory:
    """Players' active games and checked replays, each in an LRU cache of a stated size."""

    def __init__(self) -> None:
        self._current: LRUCache[PlayerKey, Current] = LRUCache(maxsize=CURRENT_GAMES)
        self._known: LRUCache[int, _Known] = LRUCache(maxsize=KNOWN_GAMES)

    # -- where a move starts ---------------------------------------------------------------

    def current(self, key: PlayerKey, game_id: int | None, version: int | None, now: datetime) -> Current | None:
        """The player's active game, if a request naming ``game_id`` at ``version`` may start from it.

        Only when it is the game and version the request names and no challenge has closed on
        it; the guarded UPDATE of whatever the request then writes catches another process's change.
        """
        current = self._current.get(key)
        if current is None or game_id not in (None, current.game_id):
            return None
        if version not in (None, current.version):
            return None
        if current.attempt is not None and current.attempt.closed(now):
            return None
        return current

    def note(self, key: PlayerKey, record: GameRecord, game: Game, attempt: AttemptRules | None) -> None:
        """Remember (or forget) the player's active game after a full-path read or write.

        ``attempt`` is the game's challenge rules as known here; an attempt whose rules aren't
        known isn't remembered (its next request reads them).
        """
        if record.status == GameStatus.ACTIVE and (record.challenge_id is None or attempt is not None):
            self._current[key] = Current(
                record.id, record.version, record.log, record.move_count, game.copy(), attempt,
                record.proved_lost, record.channel_id, record.board_message_id,
            )
        else:
            self._current.pop(key, None)

    def keep(self, key: PlayerKey, current: Current) -> None:
        """Remember the player's active game as a change from memory left it."""
        self._current[key] = current

    def drop(self, key: PlayerKey) -> None:
        """Forget the player's active game (it ended, or changed elsewhere)."""
        self._current.pop(key, None)

    def drop_game(self, game_id: int) -> None:
        """Forget a game wherever it is remembered as someone's active one (it ended without them)."""
        for key in [key for key, current in self._current.items() if current.game_id == game_id]:
            self._current.pop(key, None)

    def drop_challenge(self, challenge_id: int) -> None:
        """Forget the active games that are attempts at a challenge (it closed, or was removed)."""
        for key in [key for key, current in self._current.items()
                    if current.attempt is not None and current.attempt.challenge_id == challenge_id]:
            self._current.pop(key, None)

    def proved_lost(self, game_id: int, version: int) -> None:
        """Note on the remembered game that no win is left from its position at ``version``."""
        for current in self._current.values():
            if (current.game_id, current.version) == (game_id, version):
                current.lost = True

    def board_moved(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        """Note where a remembered game's board message is now (None, None: it has none)."""
        for current in self._current.values():
            if current.game_id == game_id:
                current.board_channel_id, current.board_message_id = channel_id, message_id

    # -- checked replays -------------------------------------------------------------------

    def replayed(self, record: GameRecord) -> Game | None:
        """A copy of the record's game if it was replayed and checked from exactly these fields."""
        known = self._known.get(record.id)
        if known is None or (known.variant, known.options, known.deal, known.log, known.position) != (
            record.variant, record.options, record.deal, record.log, record.position
        ):
            return None
        return known.game.copy()

    def remember(self, record: GameRecord, game: Game) -> None:
        """Keep a game checked against the row it was read from or written to."""
        self._known[record.id] = _Known(record.variant, record.options, record.deal, record.log,
                                        record.position, game.copy())

    def moved(self, game_id: int, log: str, position: str, game: Game) -> None:
        """Follow a change written from memory: the checked replay now ends at ``log``."""
        known = self._known.get(game_id)
        if known is not None:
            known.log, known.position, known.game = log, position, game.copy()

    def forget_player(self, key: PlayerKey) -> list[int]:
        """Drop the player's active game and its checked replay (another process forgot them): its id, if one."""
        current = self._current.pop(key, None)
        if current is None:
            return []
        self._known.pop(current.game_id, None)
        return [current.game_id]

    def forget(self, key: PlayerKey, game_ids: Iterable[int]) -> None:
        """Drop everything remembered about a player who was deleted, and about their games."""
        self._current.pop(key, None)
        for game_id in game_ids:
            self._known.pop(game_id, None)
