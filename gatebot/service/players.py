"""Who the players are to the service: their rows, how they like boards drawn, where their boards are.

Each answer is kept in memory for a while, in caches of a stated size, because it is asked
for on almost every request and changes rarely. On PostgreSQL several processes may serve
one player (one per group of shards), so a change is told to all of them: the transaction
that writes a preference or a board's place also sends a notice on
:data:`~gatebot.store.notices.PLAYERS_CHANNEL`, delivered when it commits, and every
process drops what it kept about that player or game when it hears it. While a process
can't hear notices (its listening connection dropped, stopped answering, or isn't up yet) it
keeps nothing, so a change made elsewhere is honoured on the very next request either way.
A forget-me is told the same way, and every process then drops all it holds about the player.

SQLite sends no notices, yet several processes may share its file. There a process re-reads
the player's row (one read by its unique key) before it answers about them: each request
that reads the player's game reads their row in the same transaction, and asking for the
preferences alone reads them. Only a reply to a change written from memory carries
preferences kept from before (within :data:`PREFERENCES_SECONDS`): its guarded write proved
the player's game, and so the player, is still there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from cachetools import LRUCache, TTLCache
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.errors import UserError
from gatebot.messages import _
from gatebot.service.replies import BOARD_STYLES, Actor, Preferences, Reply
from gatebot.store import games as stored
from gatebot.store.database import Database
from gatebot.store.models import Player
from gatebot.store.notices import PLAYERS_CHANNEL, Listener, notify

#: Players whose row id is kept; a player's id never changes (a forgotten player's is never reused).
PLAYER_IDS = 65_536
#: Players whose preferences are kept, and for how many seconds.
PREFERENCES = 4096
PREFERENCES_SECONDS = 60.0
#: Games whose board message is kept, and for how many seconds.
BOARD_MESSAGES = 4096
BOARD_MESSAGE_SECONDS = 60.0

PlayerKey = tuple[str, str]
#: Told where a game's board message now is: (game id, channel id, message id); None, None: it has none.
BoardMoved = Callable[[int, int | None, int | None], None]
#: Told that another process forgot a player: drop everything held about them.
Forgotten = Callable[[PlayerKey], None]


class PreferenceError(UserError):
    """A board preference gatebot doesn't have."""


def player_key(actor: Actor) -> PlayerKey:
    """The cache key of a platform user: their platform and their id on it."""
    return actor.platform, actor.user_id


def preferences_notice(key: PlayerKey) -> str:
    """The notice that a player's preferences changed: ``player:<platform>:<user id>``."""
    return f"player:{key[0]}:{key[1]}"


def forgotten_notice(key: PlayerKey) -> str:
    """The notice that a player was forgotten: ``forgot:<platform>:<user id>``."""
    return f"forgot:{key[0]}:{key[1]}"


def board_notice(game_id: int, channel_id: int, message_id: int) -> str:
    """The notice that a game's board message moved: ``board:<game id>:<channel id>:<message id>``."""
    return f"board:{game_id}:{channel_id}:{message_id}"


class Players:
    """Players' rows, board preferences and board messages, read through small caches."""

    def __init__(self, db: Database) -> None:
        self._db = db
        #: Player row ids. Stale-safe: an id outlives its row only after a forget-me in another
        #: process, and a query by a gone id finds nothing (the row is made again on the next game).
        self._ids: LRUCache[PlayerKey, int] = LRUCache(maxsize=PLAYER_IDS)
        #: Board preferences. A change made in this process is seen at once; one made in another
        #: is heard as a notice (PostgreSQL), else within :data:`PREFERENCES_SECONDS`.
        self._preferences: TTLCache[PlayerKey, Preferences] = TTLCache(
            maxsize=PREFERENCES, ttl=PREFERENCES_SECONDS
        )
        #: (channel id, message id) of games' board messages. A board posted by another process
        #: is heard as a notice (PostgreSQL), else found within :data:`BOARD_MESSAGE_SECONDS`.
        self._boards: TTLCache[int, tuple[int | None, int | None]] = TTLCache(
            maxsize=BOARD_MESSAGES, ttl=BOARD_MESSAGE_SECONDS
        )
        #: The connection hearing other processes' changes (PostgreSQL), started on first use.
        self._notices: Listener | None = None
        #: Counts the notices heard and the connections lost: an answer read while it moved may be
        #: older than the change just heard, so it is not kept.
        self._heard = 0
        self._board_moved: BoardMoved | None = None
        self._forgotten: Forgotten | None = None

    # -- other processes' changes ----------------------------------------------------------

    def follow_boards(self, board_moved: BoardMoved) -> None:
        """Tell ``board_moved`` when another process says a game's board message moved."""
        self._board_moved = board_moved

    def follow_forgets(self, forgotten: Forgotten) -> None:
        """Tell ``forgotten`` when another process forgot a player."""
        self._forgotten = forgotten

    @property
    def hears_changes(self) -> bool:
        """Whether changes made by other processes are heard now (PostgreSQL, once listening); False on SQLite."""
        return self._notices is not None and self._notices.listening

    def _may_keep(self) -> bool:
        """Whether an answer read now may be kept: on SQLite always; on PostgreSQL while notices are heard."""
        if self._db.is_sqlite:
            return True
        if self._notices is None:
            self._notices = self._db.listen(PLAYERS_CHANNEL, on_notice=self._heard_notice, on_lost=self._lost_notices)
        return self._notices is not None and self._notices.listening

    def _heard_notice(self, payload: str) -> None:
        """Drop what is kept about the player or game a notice names."""
        self._heard += 1
        kind, _, rest = payload.partition(":")
        if kind == "player":
            platform, _, user_id = rest.partition(":")
            self._preferences.pop((platform, user_id), None)
        elif kind == "forgot":
            platform, _, user_id = rest.partition(":")
            key = (platform, user_id)
            self._ids.pop(key, None)
            self._preferences.pop(key, None)
            if self._forgotten is not None:
                self._forgotten(key)
        elif kind == "board":
            game, channel, message = (int(part) for part in rest.split(":"))
            self._boards.pop(game, None)
            if self._board_moved is not None:
                self._board_moved(game, channel, message)
        elif kind == "noboard":
            game = int(rest)
            self._boards.pop(game, None)
            if self._board_moved is not None:
                self._board_moved(game, None, None)

    def _lost_notices(self) -> None:
        """Notices may have been missed (a forget-me among them): keep nothing from before."""
        self._heard += 1
        self._ids.clear()
        self._preferences.clear()
        self._boards.clear()

    # -- rows ------------------------------------------------------------------------------

    def known_id(self, actor: Actor) -> int | None:
        """The player's row id if this process knows it."""
        return self._ids.get(player_key(actor))

    async def id_of(self, session: AsyncSession, actor: Actor) -> int | None:
        """The player's row id, from memory or the database; None for someone gatebot hasn't met.

        On SQLite always from the database, with their preferences (one read by the row's unique
        key): no notice tells this process that another one forgot the player.
        """
        key = player_key(actor)
        if self._db.is_sqlite:
            return self._fresh(key, await stored.player(session, actor.platform, actor.user_id))
        found = self._ids.get(key)
        if found is None:
            found = await stored.player_id(session, actor.platform, actor.user_id)
            if found is not None:
                self._ids[key] = found
        return found

    async def row(self, session: AsyncSession, actor: Actor) -> Player:
        """The actor's player row, made on first contact; the display name follows the platform's."""
        found = await stored.player(session, actor.platform, actor.user_id)
        if found is None:
            found = Player(platform=actor.platform, platform_user_id=actor.user_id, display_name=actor.display_name,
                           locale=None if actor.guessed_locale else actor.locale)
            session.add(found)
            await session.flush()
        elif found.display_name != actor.display_name and actor.display_name:
            found.display_name = actor.display_name
        self._ids[player_key(actor)] = found.id
        return found

    async def stored_id(self, actor: Actor) -> int | None:
        """The player's row id as the database says now (one read by its unique key); None for none."""
        async with self._db.sessions() as session:
            return await stored.player_id(session, actor.platform, actor.user_id)

    def lost_race(self, actor: Actor) -> None:
        """Forget the player's id after a write that lost a race (their row may be new)."""
        self._ids.pop(player_key(actor), None)

    # -- preferences -----------------------------------------------------------------------

    def _fresh(self, key: PlayerKey, found: Player | None) -> int | None:
        """Keep what a read of the player's row in this request says (SQLite); their id, None if gone."""
        if found is None:
            self._ids.pop(key, None)
            self._preferences.pop(key, None)
            return None
        self._ids[key] = found.id
        self._preferences[key] = _as_preferences(found)
        return found.id

    async def preferences(self, actor: Actor) -> Preferences:
        """The player's board preferences (defaults for someone new); on SQLite read afresh each time."""
        return await self._preferences_of(actor, kept=not self._db.is_sqlite)

    async def _preferences_of(self, actor: Actor, *, kept: bool) -> Preferences:
        """The player's preferences: ``kept`` from memory when they are there, else read (and kept)."""
        key = player_key(actor)
        cached = self._preferences.get(key) if kept else None
        if cached is not None:
            return cached
        heard, keep = self._heard, self._may_keep()
        async with self._db.sessions() as session:
            found = await stored.player(session, actor.platform, actor.user_id)
        preferences = Preferences() if found is None else _as_preferences(found)
        if keep and heard == self._heard:
            self._preferences[key] = preferences
        return preferences

    @staticmethod
    def check(board_style: str | None) -> None:
        """Refuse a board style gatebot doesn't have, before anything is written."""
        if board_style is not None and board_style not in BOARD_STYLES:
            raise PreferenceError(_("Board styles are {styles}; choose one of them.", styles=", ".join(BOARD_STYLES)))

    async def change(
        self, session: AsyncSession, actor: Actor, *, board_style: str | None, compact: bool | None,
        four_colour: bool | None = None,
    ) -> None:
        """Write new preferences in the caller's transaction (see :meth:`changed` once it is committed)."""
        row = await self.row(session, actor)
        if board_style is not None:
            row.board_style = board_style
        if compact is not None:
            row.compact_board = compact
        if four_colour is not None:
            row.four_colour = four_colour
        await notify(session, PLAYERS_CHANNEL, preferences_notice(player_key(actor)))

    def changed(self, actor: Actor) -> None:
        """Drop the kept preferences of a player whose new ones were committed."""
        self._preferences.pop(player_key(actor), None)

    async def with_preferences(self, actor: Actor, reply: Reply) -> Reply:
        """``reply`` carrying the asker's preferences, so a front end draws it without asking again."""
        if reply.preferences is not None:
            return reply
        return replace(reply, preferences=await self.note_locale(actor, await self._preferences_of(actor, kept=True)))

    async def note_locale(self, actor: Actor, preferences: Preferences) -> Preferences:
        """Keep the asker's own language as the one their boards are said in; ``preferences`` with it.

        Written only when it changed, and never from a guess (a typed message's server language):
        so a move typed in a server of another language leaves the player's board in theirs.
        """
        if actor.guessed_locale or not actor.locale or preferences.locale == actor.locale:
            return preferences
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            await session.execute(
                update(Player).where(Player.platform == actor.platform, Player.platform_user_id == actor.user_id)
                .values(locale=actor.locale)
            )
            await notify(session, PLAYERS_CHANNEL, preferences_notice(player_key(actor)))
        self._preferences.pop(player_key(actor), None)
        return replace(preferences, locale=actor.locale)

    # -- board messages --------------------------------------------------------------------

    def note_board(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        """Keep where a game's board is, as a row just read or written says."""
        if self._may_keep():
            self._boards[game_id] = (channel_id, message_id)

    async def set_board_message(self, game_id: int, channel_id: int, message_id: int) -> bool:
        """Remember which message shows a game's board; False for a game that is gone.

        A plain UPDATE that leaves the version alone: the board's buttons carry the version,
        and pointing at a new message must not make them out of date.
        """
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            found = await stored.set_board_message(session, game_id, channel_id, message_id)
            if found:
                await notify(session, PLAYERS_CHANNEL, board_notice(game_id, channel_id, message_id))
        if found and self._may_keep():
            self._boards[game_id] = (channel_id, message_id)
        return found

    async def forget_board_message(self, game_id: int, message_id: int) -> bool:
        """Keep no board message for a game whose board ``message_id`` was deleted; False when it has another now."""
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            found = await stored.forget_board_message(session, game_id, message_id)
            if found:
                await notify(session, PLAYERS_CHANNEL, f"noboard:{game_id}")
        if found:
            self._boards.pop(game_id, None)
        return found

    async def board_message(self, game_id: int) -> tuple[int | None, int | None]:
        """The (channel id, message id) of a game's board message, as last set."""
        cached = self._boards.get(game_id)
        if cached is not None:
            return cached
        async with self._db.sessions() as session:
            return await stored.board_message(session, game_id)

    # -- forgetting ------------------------------------------------------------------------

    async def tell_forgotten(self, session: AsyncSession, actor: Actor) -> None:
        """In the deleting transaction: tell other processes to drop everything they hold about the player."""
        await notify(session, PLAYERS_CHANNEL, forgotten_notice(player_key(actor)))

    def forget(self, actor: Actor, game_ids: Iterable[int]) -> None:
        """Drop everything kept about a player who was deleted, and about their games."""
        key = player_key(actor)
        self._ids.pop(key, None)
        self._preferences.pop(key, None)
        for game_id in game_ids:
            self._boards.pop(game_id, None)


def _as_preferences(found: Player) -> Preferences:
    """The board preferences a player's row holds."""
    return Preferences(found.board_style, found.compact_board, found.four_colour, found.locale)
