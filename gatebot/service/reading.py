"""Reading a player's game for a request: the game in progress loaded and checked, or the reply saying why not.

A request acts on the player's one active game. Before it does, the game is found, an attempt
whose challenge has closed is ended, a board that is out of date or someone else's is refused,
and the game is replayed from its log (or taken from :mod:`gatebot.service.memory` when the
row is exactly the one checked before). The board replies every request answers with are made
here too, with the buttons the game allows now.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.messages import _, joined
from gatebot.rules import Game, RulesError, find_variant
from gatebot.service import saved
from gatebot.service.advice import join, no_win_message
from gatebot.service.attempts import AttemptRules, Attempts
from gatebot.service.changes import GameDamaged, finish, replay
from gatebot.service.memory import Memory
from gatebot.service.players import Players
from gatebot.service.replies import Actor, Reply, ReplyKind
from gatebot.service.variants import score_words
from gatebot.solver import registry
from gatebot.store import games as stored
from gatebot.store.database import Database
from gatebot.store.models import GameRecord, GameStatus, Player

log = logging.getLogger(__name__)

#: :meth:`Reader.reply`'s default: the game's challenge rules as this process keeps them.
_KNOWN = object()


class Reader:
    """Finds and checks the game a request acts on, and words the replies about it."""

    def __init__(
        self, db: Database, players: Players, memory: Memory, attempts: Attempts, *, new_command: str, end_prompt: str,
        clock: Callable[[], datetime],
    ) -> None:
        """``new_command`` and ``end_prompt`` word the refusals and offers as the front end's (see GameService)."""
        self._db = db
        self._players = players
        self._memory = memory
        self._attempts = attempts
        self._new_command = new_command
        self._end_prompt = end_prompt
        self._clock = clock

    async def active(self, session: AsyncSession, actor: Actor) -> GameRecord | None:
        """The player's game in progress, if they have one."""
        player_id = await self._players.id_of(session, actor)
        return None if player_id is None else await stored.active_game(session, player_id)

    async def open(
        self, session: AsyncSession, actor: Actor, game_id: int | None, expected_version: int | None
    ) -> tuple[GameRecord, Game] | Reply:
        """The player's active game, loaded and checked, ready to change; or the reply saying why not."""
        record = await self.active(session, actor)
        refusal = await self._refuse_target(session, actor, record, game_id)
        if refusal is not None:
            return refusal
        assert record is not None
        closed = await self.close_if_over(session, record)
        if closed is not None:
            return closed
        if expected_version is not None and record.version != expected_version:
            return await self._stale(session, record)
        game = await self.load(session, record)
        if game is None:
            return self.damaged(record)
        return record, game

    async def load(self, session: AsyncSession, record: GameRecord) -> Game | None:
        """The record's game, checked against a replay of its log; None if it was set aside.

        A stale position cache is repaired (and logged); a game that can't be loaded -- its
        variant or an option unknown to this gatebot (another version saved it), or its log
        impossible to replay -- is set aside (status ``quarantined``) so its owner can start
        afresh, with the row kept as it was for inspection and the reason in ``problem``.
        """
        known = self._memory.replayed(record)
        if known is not None:
            return known
        problem = saved.problem(record.status, record.variant, record.options)
        game = None
        if problem is None:
            try:
                game = replay(record)
            except GameDamaged as error:
                problem = f"its log can't be replayed: {error}"
        if game is None:
            log.error("game %s of player %s can't be loaded (%s); setting it aside",
                      record.id, record.player_id, problem)
            record.status = GameStatus.QUARANTINED
            record.problem = problem
            record.finished_at = self._clock()
            await session.flush()
            return None
        text = game.to_text()
        if text != record.position:
            log.warning("game %s: stored position differs from its replayed log; repaired", record.id)
            record.position = text
        if record.score != game.score:
            record.score = game.score  # kept from before scores were stored at the deal (Archway's 8 bases)
        self._memory.remember(record, game)
        return game.copy()

    async def close_if_over(self, session: AsyncSession, record: GameRecord) -> Reply | None:
        """End an attempt whose challenge has closed, saying so; None for a game that goes on."""
        rules = await self._attempts.of_record(session, record)
        if rules is None or not rules.closed(self._clock()):
            return None
        finish(record, GameStatus.EXPIRED, self._clock())
        await session.flush()
        self._memory.drop_game(record.id)
        game = await self.load(session, record)
        return Reply(
            ReplyKind.ERROR, rules.has_closed(score_words(record.score, record.variant)), game=game, game_id=record.id,
            version=record.version, status=GameStatus.EXPIRED,
        )

    async def running_game(self, actor: Actor, *, unless_untouched: bool = False) -> Reply | None:
        """The question to ask before a new game abandons the running one, or None with none running.

        ``unless_untouched``: None too when nothing was played in the running game (:func:`untouched`).
        """
        async with self._db.sessions() as session:
            current = await self.active(session, actor)
            if current is None or saved.problem(current.status, current.variant, current.options) is not None:
                return None  # a game from another gatebot version is set aside when the new one is dealt
            if unless_untouched and untouched(current):
                return None
            return await self.ask_to_abandon(session, current)

    async def ask_to_abandon(self, session: AsyncSession, current: GameRecord) -> Reply:
        """The question before a new game abandons the one in progress (or ends a challenge attempt)."""
        rules = await self._attempts.of_record(session, current)
        if rules is not None:
            question = _(
                "You are playing {name} (score {score}): start a new game and end "
                "your attempt? It keeps its score, and there is no second attempt.",
                name=rules.name, score=score_words(current.score, current.variant),
            )
        else:
            question = _(
                "You have a game of {game} in progress (deal {deal}, score {score}): start a new one and abandon it?",
                game=_title(current), deal=current.deal, score=score_words(current.score, current.variant),
            )
        return Reply(
            ReplyKind.CONFIRM, question, game_id=current.id, version=current.version, status=GameStatus.ACTIVE
        )

    async def ask_to_resign(self, session: AsyncSession, current: GameRecord, game: Game) -> Reply:
        """The question before the game in progress is resigned (or an attempt ended), with the board's score."""
        rules = await self._attempts.of_record(session, current)
        score = score_words(game.score, game.name)
        if rules is not None:
            question = _("End your attempt at {name} now, with a score of {score}? There is no second attempt.",
                         name=rules.name, score=score)
        else:
            question = _("Resign your game of {game} (deal {deal})? It ends now, with a score of {score}.",
                         game=_title(current), deal=current.deal, score=score)
        return Reply(
            ReplyKind.CONFIRM, question, game_id=current.id, version=current.version, status=GameStatus.ACTIVE
        )

    async def last_game(self, session: AsyncSession, actor: Actor) -> Reply:
        """The board of the player's most recent game, finished; the refusal of a move when there is none to show."""
        player_id = self._players.known_id(actor)
        latest = None if player_id is None else await stored.latest_game(session, player_id)
        if latest is None or latest.status in (GameStatus.ACTIVE, GameStatus.QUARANTINED):
            return await self._nothing_to_play(session, actor)
        if saved.problem(latest.status, latest.variant, latest.options) is not None:
            return self.damaged(latest)  # saved by another gatebot version: its owner is told so
        try:
            game = replay(latest)
        except GameDamaged as error:
            log.warning("game %s can't be replayed to show how it ended: %s", latest.id, error)
            return self.no_game()
        rules = await self._attempts.of_record(session, latest) if latest.status == GameStatus.EXPIRED else None
        message = (
            rules.has_closed(score_words(latest.score, latest.variant)) if rules is not None
            else _("That game is over: start a new one with {command}.", command=self._new_command)
        )
        return await self.board(session, latest, game, message=message)

    async def _nothing_to_play(self, session: AsyncSession, actor: Actor) -> Reply:
        """The answer to a player without a game: their challenge closed on them, or start one."""
        player_id = self._players.known_id(actor)
        if player_id is not None:
            latest = await stored.latest_game(session, player_id)
            if latest is not None and saved.problem(latest.status, latest.variant, latest.options) is not None:
                return self.damaged(latest)
            if latest is not None and latest.status == GameStatus.EXPIRED:
                rules = await self._attempts.of_record(session, latest)
                if rules is not None:
                    closed = rules.has_closed(score_words(latest.score, latest.variant))
                    return Reply(ReplyKind.ERROR, closed, game_id=latest.id, status=GameStatus.EXPIRED)
        return self.no_game()

    def no_game(self) -> Reply:
        """The refusal of a request by a player with no game in progress."""
        return Reply(ReplyKind.ERROR, _("You have no game in progress: start one with {command}.",
                                        command=self._new_command))

    def damaged(self, record: GameRecord) -> Reply:
        """The answer about a game that can't be loaded: another gatebot version saved it, or its log is damaged."""
        if saved.problem(record.status, record.variant, record.options) is not None:
            message = saved.set_aside(record.id, new_command=self._new_command)
        else:
            message = _(
                "Your saved game (deal {deal}) couldn't be read back, so it has been set aside "
                "unchanged: start a new one with {command}.", deal=record.deal, command=self._new_command,
            )
        return Reply(ReplyKind.ERROR, message, game_id=record.id, status=GameStatus.QUARANTINED)

    async def _refuse_target(
        self, session: AsyncSession, actor: Actor, record: GameRecord | None, game_id: int | None
    ) -> Reply | None:
        """Why a request can't act on the game it names (a button's game), or None when it can."""
        if game_id is None or (record is not None and record.id == game_id):
            return None if record is not None else await self._nothing_to_play(session, actor)
        target = await session.get(GameRecord, game_id)
        if target is None:
            return Reply(ReplyKind.ERROR, _("That game no longer exists: start one with {command}.",
                                            command=self._new_command))
        owner = await session.get(Player, target.player_id)
        assert owner is not None
        if (owner.platform, owner.platform_user_id) != (actor.platform, actor.user_id):
            return Reply(
                ReplyKind.ERROR,
                _("This is {name}'s game: start your own with {command}.", name=owner.display_name,
                  command=self._new_command),
                game_id=target.id,
            )
        if saved.problem(target.status, target.variant, target.options) is not None:
            return self.damaged(target)
        try:
            game = None if target.status == GameStatus.QUARANTINED else replay(target)
        except GameDamaged as error:
            log.warning("game %s can't be replayed for its board: %s", target.id, error)
            return self.damaged(target)  # a finished game keeps its result: nothing is changed
        attempt = await self._attempts.of_record(session, target)
        rules = attempt if target.status == GameStatus.EXPIRED else None
        return Reply(
            ReplyKind.STALE,
            rules.has_closed(score_words(target.score, target.variant)) if rules is not None
            else _("That board belongs to a game that is over: here is where it ended."),
            game=game,
            game_id=target.id,
            version=target.version,
            status=GameStatus(target.status),
            board_channel_id=target.channel_id,
            board_message_id=target.board_message_id,
            label=self.label(attempt),
        )

    async def _stale(self, session: AsyncSession, record: GameRecord) -> Reply:
        game = await self.load(session, record)
        if game is None:
            return self.damaged(record)
        return await self.board(session, record, game, kind=ReplyKind.STALE,
                          message=_("That board was out of date, so nothing was played: here is your game now."))

    async def board_of(self, game_id: int) -> tuple[Actor, Reply] | None:
        """A game's board as its owner sees it, with the owner: for redrawing a game that ended by itself.

        A challenge's closing ends the attempts still running; their boards are redrawn from
        this. None when the game is gone or can't be replayed.
        """
        async with self._db.sessions() as session:
            record = await session.get(GameRecord, game_id)
            if record is None or record.status == GameStatus.QUARANTINED or not saved.readable(
                record.id, record.status, record.variant, record.options
            ):
                return None
            owner = await session.get(Player, record.player_id)
            rules = await self._attempts.of_record(session, record)
            try:
                game = replay(record)
            except GameDamaged:
                return None
            assert owner is not None
            message = None
            if rules is not None and record.status == GameStatus.EXPIRED:
                message = rules.has_closed(score_words(record.score, record.variant))
            actor = Actor(owner.platform, owner.platform_user_id, owner.display_name)
            return actor, await self.board(session, record, game, message=message)

    async def owner_of(self, game_id: int) -> Actor | None:
        """Whose game ``game_id`` is (for telling someone they replied to another player's board); None if none's.

        One read of the game's player, without replaying the game: it is asked on every reply
        to a board. A game set aside as unreadable has no owner here, as in :meth:`board_of`.
        """
        async with self._db.sessions() as session:
            found = await stored.owner(session, game_id)
        if found is None:
            return None
        status, variant, options, owner = found
        if status == GameStatus.QUARANTINED or not saved.readable(game_id, status, variant, options):
            return None
        return Actor(owner.platform, owner.platform_user_id, owner.display_name)

    # -- board replies ---------------------------------------------------------------------

    async def board(
        self,
        session: AsyncSession,
        record: GameRecord,
        game: Game,
        *,
        kind: ReplyKind = ReplyKind.BOARD,
        message: str | None = None,
        saved: bool = False,
    ) -> Reply:
        """A board reply for a row as read or written in this transaction, with where its board is.

        The row's challenge rules are read first (once per game), so an attempt's board never
        names the deal of a challenge still open.
        """
        attempt = await self._attempts.of_record(session, record)
        return self.reply(record.id, record.version, GameStatus(record.status), game, kind=kind,
                          message=message, lost=record.proved_lost, saved=saved,
                          place=(record.channel_id, record.board_message_id), attempt=attempt)

    def label(self, attempt: AttemptRules | None) -> str | None:
        """What a board calls an attempt at a challenge still open (its name: the deal stays a secret); else None."""
        return attempt.name if attempt is not None and not attempt.closed(self._clock()) else None

    def reply(
        self,
        game_id: int,
        version: int,
        status: GameStatus,
        game: Game,
        *,
        kind: ReplyKind = ReplyKind.BOARD,
        message: str | None = None,
        played: tuple[str, ...] = (),
        lost: bool = False,
        saved: bool = False,
        place: tuple[int | None, int | None] = (None, None),
        attempt: AttemptRules | object | None = _KNOWN,
    ) -> Reply:
        """A board reply; ``lost``: the stored proof that no win is left, which offers End game.

        ``place`` is the (channel id, message id) of the game's board message; ``attempt`` the
        game's challenge rules as the caller read them (by default, as this process keeps them).
        """
        moves = tuple(str(move) for move in game.legal_moves()) if status is GameStatus.ACTIVE else ()
        actions: list[str] = []
        rules = self._attempts.known(game_id) if attempt is _KNOWN else attempt
        assert rules is None or isinstance(rules, AttemptRules)
        attempt = rules
        if status is GameStatus.ACTIVE:
            if "d" in moves:
                actions.append("draw")
            if game.moves and (attempt is None or attempt.can_undo(game)):
                actions.append("undo")
            if (attempt is None or attempt.hints_allowed) and registry.thinks_about(game):
                actions.append("hint")
            actions.append("resign")
            if (attempt is None or attempt.hints_allowed) and lost:
                actions.append("end")
                message = join(message, no_win_message(game.score, self._end_prompt))
        return Reply(kind, message, game, game_id, version, status, played, tuple(actions), moves, saved=saved,
                     board_channel_id=place[0], board_message_id=place[1], label=self.label(rules))


def set_aside_note(record: GameRecord, *, secret: bool = False) -> str:
    """The line under a new board about the running game that couldn't be loaded, and was set aside.

    ``secret``: the game was a challenge attempt, whose deal the board's line never names.
    """
    if saved.problem(record.status, record.variant, record.options) is not None:
        return _("Your game #{game} was saved by a different version of gatebot, so it is set aside unchanged.",
                 game=record.id)
    if secret:
        return _("Your previous game #{game} couldn't be read back, so it is set aside unchanged.", game=record.id)
    return _("Your previous game (deal {deal}) couldn't be read back, so it is set aside unchanged.", deal=record.deal)


def untouched(record: GameRecord) -> bool:
    """Whether a proven deal may replace this game in progress without asking: nothing was ever played in it.

    It is what a player who asks for a proven deal right after a deal seldom won means (the deal's
    note offers one, and Discord's Proven winnable deal button): one step, nothing lost. Any other
    new deal still asks, and a challenge's attempt always does, since ending it ends the one attempt.
    """
    return not record.log and record.challenge_id is None


def dealt(first: str, abandoned: GameRecord | None, *, challenge: str | None = None) -> str:
    """The line under a new board: what was dealt, and which game was abandoned for it.

    ``challenge``: the open challenge the abandoned game was an attempt at, named in its deal's place.
    """
    if abandoned is None:
        return first
    if challenge is not None:
        return joined(first, _("Your attempt at {name} ended with a score of {score}.",
                               name=challenge, score=score_words(abandoned.score, abandoned.variant)))
    if not abandoned.log:  # never played: it doesn't count (gatebot.service.stats.counted)
        return joined(first, _("Your previous game (deal {deal}) had no move played, so it doesn't count in your "
                               "statistics.", deal=abandoned.deal))
    return joined(first, _("Your previous game (deal {deal}) was abandoned with a score of {score}.",
                           deal=abandoned.deal, score=score_words(abandoned.score, abandoned.variant)))


def _title(record: GameRecord) -> str:
    try:
        return find_variant(record.variant).title
    except RulesError:
        return record.variant
