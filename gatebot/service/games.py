"""The one place that changes a stored game: load it, apply a request, save it, reply.

Every request runs as one unit of work in one transaction. Requests of one player are
serialised inside the process (a lock per player), and writes are guarded by the row's
version (optimistic locking), so two processes sharing a database can't lose a move
either: a write that lost the race is retried on the fresh row.

Hints, the Auto button's endgame and winnable deals ask the solver, which runs in a worker
process (:mod:`gatebot.service.thinking`) while no lock or transaction is held: a request
reads the game, thinks, then writes in a second short transaction guarded by the version
it read. A hint never changes the version, so the board it was asked from stays usable.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import CursorResult, Table, bindparam, delete, literal_column, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from gatebot.errors import UserError
from gatebot.rules import MAX_DEAL, Game, Move, RulesError, describe_move, find_variant
from gatebot.rules.autoplay import autoplay
from gatebot.service import saved
from gatebot.service.advice import hint_message, no_win_message, sentence
from gatebot.service.attempts import AttemptRules
from gatebot.service.lines import MAX_MOVES, line_refusal, too_many_moves
from gatebot.service.replies import Actor, Reply, ReplyKind
from gatebot.service.thinking import Superseded, Thinker, ThinkingFailed
from gatebot.solver import HINT_SECONDS, Hint, Outlook, Verdict, registry
from gatebot.solver.deals import pick_winnable, winnable_deals
from gatebot.store.database import Database
from gatebot.store.models import Challenge, GameRecord, GameStatus, Player, Rule, utcnow

log = logging.getLogger(__name__)

UNDO_TOKEN = "u"
_RETRIES = 8
_KNOWN_GAMES = 4096
T = TypeVar("T")
#: What a request does to a game: the tokens it played (``u`` for an undo) and its sentence, if
#: any (what stopped it; for an undo, what was taken back). It is given the attempt's challenge
#: rules, None outside challenges.
Apply = Callable[[Game, AttemptRules | None], tuple[list[str], str | None]]

#: The solver's budget for finishing a game with nothing hidden (Auto) or proving it lost.
ENDGAME_NODES = 500_000
ENDGAME_SECONDS = 1.0
#: Random deals tried, each with this budget, before a winnable deal comes from the shipped list.
WINNABLE_TRIES = 3
WINNABLE_NODES = 50_000
WINNABLE_SECONDS = 0.5
#: A hint asked while the game changed is worked out again this many times at most.
_HINT_TRIES = 2
_FOREVER = float("inf")


class PreferenceError(UserError):
    """A board preference gatebot doesn't have."""


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
        return self.lookup(key)[1]

    def lookup(self, key: K) -> tuple[bool, V | None]:
        """Whether ``key`` has a fresh answer, and the answer (which may itself be None)."""
        item = self._items.get(key)
        if item is None or time.monotonic() - item[0] > self._ttl:
            return False, None
        return True, item[1]

    def put(self, key: K, value: V) -> None:
        self._items[key] = (time.monotonic(), value)
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def drop(self, key: K) -> None:
        self._items.pop(key, None)

    def drop_where(self, doomed: Callable[[K, V], bool]) -> None:
        for key in [key for key, (_, value) in self._items.items() if doomed(key, value)]:
            del self._items[key]


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
    game: Game
    attempt: AttemptRules | None = None
    #: The solver proved no win is left from this position (stored: see :func:`record_progress`).
    lost: bool = False


#: The games table for Core statements (``__table__`` is typed as any FROM clause).
_GAMES_TABLE = cast(Table, GameRecord.__table__)
_GAMES = _GAMES_TABLE.c
#: A hint is counted by one UPDATE that leaves the version (the position's) alone.
_COUNT_HINT = (
    update(_GAMES_TABLE)
    .where(
        _GAMES.id == bindparam("b_id"),
        _GAMES.version == bindparam("b_version"),
        _GAMES.status == literal_column("'active'"),
    )
    .values(hint_count=_GAMES.hint_count + 1)
)
#: The solver's proof that no win is left, stored on the position it was proved for (the
#: version that was read, which it leaves as it is: the position didn't change).
_PROVE_LOST = (
    update(_GAMES_TABLE)
    .where(
        _GAMES.id == bindparam("b_id"),
        _GAMES.version == bindparam("b_version"),
        _GAMES.status == literal_column("'active'"),
    )
    .values(proved_lost=True)
)
#: The fast path's single statement, built once (SQLAlchemy caches its compiled form).
_FAST_UPDATE = (
    update(_GAMES_TABLE)
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
        move_count=bindparam("b_moves"),
        undo_count=_GAMES.undo_count + bindparam("b_undos"),
        proved_lost=bindparam("b_lost"),
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
    game: Game


class GameService:
    """Loads, changes and saves players' games; front ends only translate to and from it."""

    def __init__(
        self,
        db: Database,
        *,
        deal_picker: Callable[[], int] | None = None,
        new_command: str = "new",
        end_prompt: str = "Type end to finish",
        solver: Executor | None = None,
        rng: random.Random | None = None,
        winnable_tries: int = WINNABLE_TRIES,
        hint_seconds: float = HINT_SECONDS,
        clock: Callable[[], datetime] = utcnow,
        hint_workers: int = 1,
    ) -> None:
        """Front ends word two messages: ``new_command`` starts a game, ``end_prompt`` ends a lost one.

        ``solver`` runs the solver and the hint engine (default: one worker process, started
        when first needed and stopped by :meth:`close`); ``rng`` picks listed winnable
        deals; ``winnable_tries`` random deals are checked before the list is used; a hint
        thinks for ``hint_seconds`` at most; ``clock`` tells the time challenges close by.
        ``hint_workers`` questions are worked out at once (processes of the default pool),
        shared fairly between players (:class:`~gatebot.service.thinking.Thinker`).
        """
        self._db = db
        self._new_command = new_command
        self._end_prompt = end_prompt
        self._pick_deal = deal_picker or (lambda: random.randint(1, MAX_DEAL))
        self._rng = rng or random.Random()
        self._winnable_tries = winnable_tries
        self._hint_seconds = hint_seconds
        self._thinker = Thinker(solver, workers=hint_workers)
        #: Hints by the position their player sees: the same for every game that shows it.
        self._hints: _Recent[str, Hint] = _Recent(ttl=_FOREVER, size=1024)
        #: (game id, visible position) of the hints already counted on their game.
        self._hinted: _Recent[tuple[int, str], bool] = _Recent(ttl=_FOREVER, size=8192)
        #: Hint requests under way by (platform, user id, game id, board version): a repeat joins.
        self._hinting: dict[tuple[str, str, int | None, int | None], asyncio.Future[Reply]] = {}
        #: Counts under way, so the askers of one shared hint count it once.
        self._counting: dict[tuple[int, int, str], asyncio.Future[bool]] = {}
        #: The solver's verdicts by full position text (a decided one never changes): the
        #: verdict, the winning line, and the node budget it was given.
        self._verdicts: _Recent[str, tuple[Verdict, tuple[str, ...], int]] = _Recent(ttl=_FOREVER, size=4096)
        self._locks: weakref.WeakValueDictionary[tuple[str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._players: dict[tuple[str, str], int] = {}
        self._known: OrderedDict[int, _Known] = OrderedDict()
        self._current: dict[tuple[str, str], _Current] = {}
        self._preferences: _Recent[tuple[str, str], Preferences] = _Recent()
        self._board_messages: _Recent[int, tuple[int | None, int | None]] = _Recent()
        #: Each game's challenge rules (None for an ordinary game): a challenge's never change.
        self._attempts: _Recent[int, AttemptRules | None] = _Recent(ttl=_FOREVER, size=_KNOWN_GAMES)
        self._clock = clock

    @property
    def database(self) -> Database:
        """The database this service stores games in (shared with the challenge and statistics services)."""
        return self._db

    def now(self) -> datetime:
        """The time by this service's clock (challenges open and close by it)."""
        return self._clock()

    # -- requests -------------------------------------------------------------------------

    async def show(self, actor: Actor) -> Reply:
        """The player's game in progress, as it stands; with none, their latest game as it ended.

        A finished game's board has its final status, so front ends draw it finished (with
        its result to share) and know there is nothing to play; with no game at all, or a
        latest game set aside as unreadable, the reply is the refusal of a move.
        """

        async def work(session: AsyncSession) -> Reply:
            record = await self._active(session, actor)
            if record is None:
                return await self._last_game(session, actor)
            closed = await self._close_if_over(session, record)
            if closed is not None:
                return closed
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
        winnable: bool = False,
        attempt: AttemptRules | None = None,
    ) -> Reply:
        """Deal a new game; with one in progress, ask first (``confirm``) and then abandon it.

        ``winnable`` deals one the solver proved winnable: a random deal it can prove so
        quickly, else one from the shipped list (Gate and Little Gate without options; for
        any other variant or with options only a deal proved on the spot will do, and the
        request may be refused). A variant the solver doesn't play yet is refused at once.

        With ``attempt`` the game is the player's one attempt at that challenge (its deal
        given): refused if they made one already, which the database enforces too. A deal
        asked for by number is refused while an open challenge plays it, so nobody can
        practise a challenge before their attempt.
        """
        try:
            cls = find_variant(variant)
            chosen_options = cls.check_options(options)
            if winnable and deal is not None:
                raise UserError("Choose a deal number or a winnable deal, not both.")
            if deal is not None:
                cls.new(deal=deal, options=chosen_options)  # checks the number before any work
            if winnable:
                refusal = no_winnable_deals(cls.name, chosen_options)
                if refusal is not None:
                    raise UserError(refusal)
        except UserError as error:
            return Reply(ReplyKind.ERROR, sentence(str(error)))
        if winnable:
            if not confirm:
                running = await self._running_game(actor)
                if running is not None:
                    return running
            number = await self._winnable_deal(cls.name, chosen_options)
            if number is None:
                with_options = " with " + " and ".join(chosen_options) if chosen_options else ""
                return Reply(
                    ReplyKind.ERROR,
                    f"I couldn't find a winnable deal of {cls.title}{with_options} just now: "
                    "try again, or ask for any deal.",
                )
        else:
            number = self._pick_deal() if deal is None else deal
        try:
            game = cls.new(deal=number, options=chosen_options)
        except UserError as error:
            return Reply(ReplyKind.ERROR, sentence(str(error)))

        async def work(session: AsyncSession) -> Reply:
            player = await self._player(session, actor)
            if attempt is not None:
                tried = await session.scalar(
                    select(GameRecord.id).where(
                        GameRecord.challenge_id == attempt.challenge_id, GameRecord.player_id == player.id
                    )
                )
                if tried is not None:
                    return Reply(ReplyKind.ERROR, attempt.played_already())
            elif deal is not None and await _in_open_challenge(session, game, self._clock()):
                return Reply(
                    ReplyKind.ERROR,
                    f"Deal {number} is a challenge being played right now: join it with /challenge play, "
                    "or pick another deal.",
                )
            current = await self._active_of(session, player.id)
            set_aside = None
            if current is not None and await self._load(session, current) is None:
                # It can't be played (it is set aside now): there is nothing to abandon.
                set_aside, current = current, None
            if current is not None:
                if not confirm:
                    return await self._ask_to_abandon(session, current)
                _finish(current, GameStatus.ABANDONED, self._clock())
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
                challenge_id=None if attempt is None else attempt.challenge_id,
                started_at=self._clock(),
                updated_at=self._clock(),
            )
            session.add(record)
            await session.flush()
            self._attempts.put(record.id, attempt)
            self._remember(record, game)
            self._note_current(actor, record, game)
            first = f"Dealt {game.title} deal {game.deal}." if attempt is None else attempt.began(self._clock())
            message = _dealt(first, abandoned=current)
            if set_aside is not None:
                message = f"{message} {_set_aside_note(set_aside)}"
            return self._board(record, game.copy(), message=message, saved=True)

        return await self._run(actor, work)

    async def _running_game(self, actor: Actor) -> Reply | None:
        """The question to ask before a new game abandons the running one, or None with none running."""
        async with self._db.sessions() as session:
            current = await self._active(session, actor)
            if current is None or saved.problem(current.status, current.variant, current.options) is not None:
                return None  # a game from another gatebot version is set aside when the new one is dealt
            return await self._ask_to_abandon(session, current)

    async def _winnable_deal(self, variant: str, options: tuple[str, ...]) -> int | None:
        """A deal the solver proves winnable now, else one from the list (no options only), else None."""
        for _ in range(self._winnable_tries):
            number = self._pick_deal()
            game = Game.new(variant, deal=number, options=options)
            found = await self._solution(game.to_text(), max_nodes=WINNABLE_NODES, max_seconds=WINNABLE_SECONDS)
            if found is not None and found[0] is Verdict.WINNABLE:
                return number
        if options or not winnable_deals(variant):
            return None
        return pick_winnable(variant, self._rng)

    async def play(self, actor: Actor, text: str, *, expected_version: int | None = None) -> Reply:
        """Play a line of typed moves in order, stopping at the first that fails.

        A line over :mod:`gatebot.service.lines`' bounds is refused before it is read.
        """
        refusal = line_refusal(text)
        if refusal is not None:
            return Reply(ReplyKind.ERROR, refusal)

        def apply(game: Game, _attempt: AttemptRules | None) -> tuple[list[str], str | None]:
            return _play(game, text)

        return await self._change(actor, apply, expected_version)

    async def act(
        self, actor: Actor, action: str, *, expected_version: int | None = None, game_id: int | None = None
    ) -> Reply:
        """A button's action on the board of game ``game_id`` (default: the player's own game).

        ``action`` is ``draw``, ``undo``, ``auto``, ``hint``, ``resign``, ``end`` (the
        resignation, offered once no win is left) or a canonical move token. A press on
        someone else's board, on a finished game's board or on an out-of-date board
        (``expected_version``) changes nothing and says so.
        """
        if action in ("resign", "end"):
            return await self.resign(actor, expected_version=expected_version, game_id=game_id,
                                     ending=action == "end")
        if action == "auto":
            return await self.auto(actor, expected_version=expected_version, game_id=game_id)
        if action == "hint":
            return await self.hint(actor, expected_version=expected_version, game_id=game_id)
        if action == "undo":
            apply = _undo(1)
        else:
            move = "d" if action == "draw" else action

            def apply(game: Game, _attempt: AttemptRules | None) -> tuple[list[str], str | None]:
                return _play(game, move)

        return await self._change(actor, apply, expected_version, game_id)

    async def auto(
        self, actor: Actor, *, expected_version: int | None = None, game_id: int | None = None
    ) -> Reply:
        """Play every card that can safely go to the foundations; once nothing is hidden, finish the game.

        Once every card is known (Gate's stock out; in Archway from the deal), the solver of
        the game's variant, if it has one (:mod:`gatebot.solver.registry`), can decide the rest: when it
        finds a win, the whole winning line is played (each move logged as if typed) and the
        game ends won; when it proves there is none, the reply says so and offers ``end``.
        """
        safe = await self._change(actor, _auto, expected_version, game_id)
        game = safe.game
        nothing_safe = safe.kind is ReplyKind.ERROR and game is not None
        if not (safe.ok or nothing_safe) or game is None or safe.status is not GameStatus.ACTIVE:
            return safe
        attempt = None if safe.game_id is None else await self._attempt_of(safe.game_id)
        if attempt is not None and not attempt.hints_allowed:
            return safe  # finishing with the solver would be a hint
        if not registry.thinks_about(game) or game.hidden_count or safe.game_id is None:
            return safe
        text = game.to_text()
        found = await self._solution(text)
        if found is None or found[0] is Verdict.UNRESOLVED:
            return safe
        verdict, line = found
        if verdict is Verdict.LOST:
            return await self._offer_end(replace(safe, kind=ReplyKind.BOARD, message=None), game)

        def finish(current: Game, _attempt: AttemptRules | None) -> tuple[list[str], str | None]:
            if current.to_text() != text:
                return [], "Your game changed while I was working out the rest, so nothing more was played."
            for token in line:
                current.play(Move.from_text(token))
            return list(line), None

        done = await self._change(actor, finish, safe.version, safe.game_id)
        if not done.ok:
            return replace(done, saved=safe.saved or done.saved)
        if attempt is not None and attempt.hints is Rule.COUNTED and done.game_id is not None:
            await self._charge_hint(done.game_id)
            done = replace(done, message=_join(done.message, attempt.finish_counted()))
        return replace(done, played=safe.played + done.played, saved=True)

    async def hint(
        self, actor: Actor, *, game_id: int | None = None, expected_version: int | None = None
    ) -> Reply:
        """The move the hint engine suggests for the player's game, in a sentence; nothing is played.

        The engine sees only what the player sees (``to_text(hide_stock=True)``). The reply is private
        (:attr:`ReplyKind.HINT`) and keeps the board's version: its buttons stay usable. Each
        position a player asks about counts once on the game's ``hint_count``: asking again
        about the same position (a repeat press, or after an undo back to it) reuses the
        hint and is not counted again. Hints and counts are remembered in this process, so
        with several processes a repeat ask served by another one counts again.

        A player has one hint worked out at a time: presses while it is being worked out
        share it (and its reply: the same press again doesn't even read the game again), and
        one about a newer position takes the place of one still waiting.
        """
        key = (actor.platform, actor.user_id, game_id, expected_version)
        pending = self._hinting.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._hint(actor, game_id, expected_version))
            self._hinting[key] = pending

            def done(_: object) -> None:
                if self._hinting.get(key) is pending:
                    del self._hinting[key]

            pending.add_done_callback(done)
        return await asyncio.shield(pending)

    async def _hint(self, actor: Actor, game_id: int | None, expected_version: int | None) -> Reply:
        """One hint request, worked out (see :meth:`hint`)."""
        for tried in range(_HINT_TRIES):
            # First from the game this process last saved or read, as a move starts (no wait for the
            # database's writer behind other players' moves); a second look reads the database.
            seen = (self._look_in_memory(actor, game_id, expected_version) if tried == 0 else None) or (
                await self._look(actor, game_id, expected_version)
            )
            if seen.kind is not ReplyKind.BOARD or seen.game is None or seen.game_id is None:
                return seen
            attempt = await self._attempt_of(seen.game_id)
            if attempt is not None and not attempt.hints_allowed:
                return replace(seen, kind=ReplyKind.ERROR, message=attempt.no_hints())
            game = seen.game
            if not registry.thinks_about(game):
                return replace(seen, kind=ReplyKind.ERROR, message=no_hints(game))
            visible = game.to_text(hide_stock=True)
            behind = registry.positions_behind(game)
            # A hint depends on the way the game came since the last draw (it leads forward).
            known = visible + "\n#" + hashlib.blake2b("\n".join(behind).encode(), digest_size=16).hexdigest()
            try:
                found = self._hints.get(known) or await self._think_of_hint(
                    game, visible, behind, asker=(actor.platform, actor.user_id)
                )
            except Superseded:
                continue  # the player asked about a newer position meanwhile: look again
            if found is None:
                return Reply(ReplyKind.ERROR, "I couldn't work out a hint just now: please try again.")
            self._hints.put(known, found)
            if not await self._count_hint(seen.game_id, seen.version, visible):
                self._current.pop((actor.platform, actor.user_id), None)
                continue  # the game changed while the hint was worked out (here or elsewhere): look again
            message = hint_message(game, found, self._end_prompt)
            if attempt is not None and attempt.hints is Rule.COUNTED:
                message = f"{message} {attempt.hint_counted()}"
            reply = replace(seen, kind=ReplyKind.HINT, message=message,
                            suggestion=None if found.move is None else str(found.move))
            if found.outlook is Outlook.LOST and not game.hidden_count and game.has_legal_move():
                self._verdicts.put(game.to_text(), (Verdict.LOST, (), ENDGAME_NODES))
                if "end" not in reply.actions and await self._prove_lost(reply):
                    reply = replace(reply, actions=(*reply.actions, "end"))
            return reply
        return Reply(ReplyKind.ERROR, "Your game changed while I was thinking: ask again for a hint.")

    async def end_offer(self, reply: Reply) -> Reply | None:
        """After a change that left nothing hidden: the offer to end the game if no win is left, else None.

        For front ends to ask once they have answered the change, so the solver (up to
        about a second, usually milliseconds, remembered per position) never delays a
        move. The offer is ``reply`` with the sentence and the ``end`` action added; the
        proof is stored with the game first, so every later board of that position (after
        a restart too) offers it without asking the solver again. None when the game
        changed meanwhile.
        """
        game = reply.game
        if (
            not reply.ok or game is None or reply.status is not GameStatus.ACTIVE or not registry.thinks_about(game)
            or game.hidden_count or "end" in reply.actions or not await self._may_think(reply.game_id)
        ):
            return None
        found = await self._solution(game.to_text())
        if found is None or found[0] is not Verdict.LOST:
            return None
        offer = await self._offer_end(reply, game)
        return offer if "end" in offer.actions else None

    def close(self) -> None:
        """Stop the solver's worker process, if one was started; the database is its owner's to close."""
        self._thinker.close()

    async def undo(self, actor: Actor, count: int = 1, *, expected_version: int | None = None) -> Reply:
        """Take back ``count`` moves (all there are, if fewer)."""
        return await self._change(actor, _undo(count), expected_version)

    async def resign(
        self, actor: Actor, *, expected_version: int | None = None, game_id: int | None = None,
        ending: bool = False,
    ) -> Reply:
        """End the game in progress now, keeping its score (``ending``: the End game offer was taken)."""

        async def work(session: AsyncSession) -> Reply:
            opened = await self._open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            _finish(record, GameStatus.RESIGNED, self._clock())
            await session.flush()
            self._note_current(actor, record, game)
            said = "You ended the game" if ending else "You resigned"
            return self._board(record, game, message=f"{said} with a score of {record.score}.", saved=True)

        return await self._run(actor, work)

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
            rules = await self._attempt_rules(session, record)
        try:
            game = replay(record)
        except GameDamaged:
            return None
        assert owner is not None
        message = rules.has_closed(record.score) if rules is not None and record.status == GameStatus.EXPIRED else None
        actor = Actor(owner.platform, owner.platform_user_id, owner.display_name)
        return actor, self._board(record, game, message=message)

    async def owner_of(self, game_id: int) -> Actor | None:
        """Whose game ``game_id`` is (for telling someone they replied to another player's board); None if none's.

        One read of the game's player, without replaying the game: it is asked on every reply
        to a board. A game set aside as unreadable has no owner here, as in :meth:`board_of`.
        """
        async with self._db.sessions() as session:
            found = (await session.execute(
                select(GameRecord.status, GameRecord.variant, GameRecord.options, Player)
                .join(Player, Player.id == GameRecord.player_id)
                .where(GameRecord.id == game_id)
            )).first()
        if found is None:
            return None
        status, variant, options, owner = found
        if status == GameStatus.QUARANTINED or not saved.readable(game_id, status, variant, options):
            return None
        return Actor(owner.platform, owner.platform_user_id, owner.display_name)

    async def set_board_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember which message shows a game's board, so it can be edited in place.

        A plain UPDATE that leaves the version alone: the board's buttons carry the version,
        and pointing at a new message must not make them out of date.
        """
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            result = cast(CursorResult[Any], await session.execute(  # an UPDATE's result has a rowcount
                update(GameRecord)
                .where(GameRecord.id == game_id)
                .values(channel_id=channel_id, board_message_id=message_id)
                .execution_options(synchronize_session=False)
            ))
        if result.rowcount == 1:  # a game that is gone has no board to remember
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
            raise PreferenceError(f"Board styles are {', '.join(BOARD_STYLES)}; choose one of them.")

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

    # -- asking the solver ----------------------------------------------------------------

    def _remembered(self, actor: Actor, game_id: int | None, expected_version: int | None) -> _Current | None:
        """The player's active game as this process last saved or read it, if a request may start from it.

        Only when it is the game and version the request names and no challenge has closed on
        it; the guarded UPDATE of whatever the request then writes catches another process's change.
        """
        current = self._current.get((actor.platform, actor.user_id))
        if current is None or game_id not in (None, current.game_id):
            return None
        if expected_version not in (None, current.version):
            return None
        if current.attempt is not None and current.attempt.closed(self._clock()):
            return None
        return current

    def _look_in_memory(self, actor: Actor, game_id: int | None, expected_version: int | None) -> Reply | None:
        """The player's active game as this process last saw it, as a board reply; None when not sure.

        Trusted as far as a move's fast path trusts it: the same game and version as asked, and
        no challenge that has closed. A hint counted from it is one UPDATE guarded by that
        version, so a game another process changed is noticed there and looked at again.
        """
        current = self._remembered(actor, game_id, expected_version)
        if current is None:
            return None
        return self._reply(current.game_id, current.version, GameStatus.ACTIVE, current.game.copy(), lost=current.lost)

    async def _look(self, actor: Actor, game_id: int | None, expected_version: int | None) -> Reply:
        """The game a request would act on, as a board reply, with the same refusals as a change."""

        async def work(session: AsyncSession) -> Reply:
            opened = await self._open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            self._note_current(actor, record, game)
            return self._board(record, game)

        return await self._run(actor, work)

    async def _may_think(self, game_id: int | None) -> bool:
        """Whether the solver may help with this game: not in a challenge that forbids hints."""
        attempt = None if game_id is None else await self._attempt_of(game_id)
        return attempt is None or attempt.hints_allowed

    async def _attempt_of(self, game_id: int) -> AttemptRules | None:
        """A game's challenge rules by its id, from memory or else from the database (None outside challenges)."""
        known, rules = self._attempts.lookup(game_id)
        if known:
            return rules
        async with self._db.sessions() as session:
            record = await session.get(GameRecord, game_id)
            return None if record is None else await self._attempt_rules(session, record)

    async def _charge_hint(self, game_id: int) -> None:
        """Count one hint on a game whatever its state (the solver finished it for the player)."""
        async with self._db.writer(), self._db.engine.begin() as connection:
            await connection.execute(
                update(_GAMES_TABLE).where(_GAMES.id == game_id).values(hint_count=_GAMES.hint_count + 1)
            )

    async def _count_hint(self, game_id: int, version: int | None, visible: str) -> bool:
        """Count a hint on its game unless this position's hint was counted already; False if the game moved on.

        One UPDATE guarded by the version that was read, which it leaves as it is: the
        version stands for the position, and a hint changes only a counter. Askers who
        shared one hint share its count too.
        """
        if version is None:
            return False
        if self._hinted.get((game_id, visible)):
            return True
        key = (game_id, version, visible)
        counting = self._counting.get(key)
        if counting is None:
            counting = asyncio.ensure_future(self._count_once(game_id, version, visible))
            self._counting[key] = counting
            counting.add_done_callback(lambda _: self._counting.pop(key, None))
        return await asyncio.shield(counting)

    async def _count_once(self, game_id: int, version: int, visible: str) -> bool:
        """The UPDATE that counts a hint, and the note that it was counted."""
        async with self._db.writer(), self._db.engine.begin() as connection:
            result = await connection.execute(_COUNT_HINT, {"b_id": game_id, "b_version": version})
        if result.rowcount != 1:
            return False
        self._hinted.put((game_id, visible), True)
        return True

    async def _solution(
        self, text: str, *, max_nodes: int = ENDGAME_NODES, max_seconds: float = ENDGAME_SECONDS,
        asker: tuple[str, str] | None = None,
    ) -> tuple[Verdict, tuple[str, ...]] | None:
        """The solver's verdict on a full position and its winning line; None if the solver can't be reached.

        Remembered per position: a decided verdict never changes, and an undecided one is
        reused for budgets no larger than the one that failed.
        """
        cached = self._verdicts.get(text)
        if cached is not None and (cached[0] is not Verdict.UNRESOLVED or cached[2] >= max_nodes):
            return cached[0], cached[1]
        try:
            verdict, line = await self._thinker.solve(text, max_nodes=max_nodes, max_seconds=max_seconds,
                                                      asker=asker)
        except ThinkingFailed:
            return None
        self._verdicts.put(text, (verdict, line, max_nodes))
        return verdict, line

    async def _think_of_hint(
        self, game: Game, visible: str, behind: tuple[str, ...], *, asker: tuple[str, str]
    ) -> Hint | None:
        """The hint engine's answer; once nothing is hidden, the solver's if the engine fails; None if neither.

        Raises :class:`Superseded` when ``asker`` asked about another position meanwhile.
        """
        try:
            return await self._thinker.hint(visible, self._hint_seconds, behind, asker=asker)
        except Superseded:
            raise
        except ThinkingFailed:
            if game.hidden_count:
                return None
        found = await self._solution(game.to_text(), asker=asker)  # nothing is hidden: the full text is the visible one
        if found is None or found[0] is Verdict.UNRESOLVED:
            return None
        verdict, line = found
        if verdict is Verdict.LOST:
            return Hint(None, "No win is left from here", Outlook.LOST)
        move = Move.from_text(line[0])
        return Hint(move, describe_move(game, move), Outlook.WINNABLE)

    def _proof_known(self, game: Game, text: str | None = None) -> bool:
        """Whether this process's solver already proved the position (nothing hidden) can't be won.

        A change that reaches such a position (an undo back to it, say) stores the proof at
        once, so its board offers End game without asking the solver again.
        """
        if not registry.thinks_about(game) or game.hidden_count:
            return False
        cached = self._verdicts.get(game.to_text() if text is None else text)
        return cached is not None and cached[0] is Verdict.LOST

    async def _prove_lost(self, reply: Reply) -> bool:
        """Store on the reply's game that no win is left from the position it shows; False if the game moved on.

        The End-game offer is drawn from this stored proof, so it outlives the process
        (a restart, or another process serving the player). Later plays keep it, since a
        position played on from a lost one is lost too; an undo clears it.
        """
        if reply.game_id is None or reply.version is None:
            return False
        async with self._db.writer(), self._db.engine.begin() as connection:
            result = await connection.execute(_PROVE_LOST, {"b_id": reply.game_id, "b_version": reply.version})
        if result.rowcount != 1:
            return False
        for current in self._current.values():
            if (current.game_id, current.version) == (reply.game_id, reply.version):
                current.lost = True
        return True

    async def _offer_end(self, reply: Reply, game: Game) -> Reply:
        """``reply`` with the End-game offer, once the proof is stored (unchanged if the game moved on meanwhile)."""
        if not await self._prove_lost(reply):
            return reply
        actions = reply.actions if "end" in reply.actions else (*reply.actions, "end")
        message = _join(reply.message, no_win_message(game.score, self._end_prompt))
        return replace(reply, message=message, actions=actions)

    # -- the shared path of a change ------------------------------------------------------

    async def _change(
        self,
        actor: Actor,
        apply: Apply,
        expected_version: int | None,
        game_id: int | None = None,
    ) -> Reply:
        async def work(session: AsyncSession) -> Reply:
            opened = await self._open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            tokens, error = apply(game, await self._attempt_rules(session, record))
            if not tokens:
                return self._board(record, game, kind=ReplyKind.ERROR, message=error)
            record_progress(record, game, tokens, self._clock())
            record.proved_lost = record.proved_lost or self._proof_known(game, record.position)
            await session.flush()
            self._remember(record, game)
            self._note_current(actor, record, game)
            status = GameStatus(record.status)
            return self._reply(
                record.id, record.version, status, game.copy(),
                message=_outcome_message(status, error, record.move_count, record.score),
                played=tuple(token for token in tokens if token != UNDO_TOKEN), lost=record.proved_lost,
                saved=True,
            )

        async with self._lock(actor):
            fast = await self._fast_change(actor, apply, expected_version, game_id)
        if fast is not None:
            return fast
        return await self._run(actor, work)

    async def _fast_change(
        self,
        actor: Actor,
        apply: Apply,
        expected_version: int | None,
        game_id: int | None,
    ) -> Reply | None:
        """A change as one guarded UPDATE from the game this process last saw; None to take the full path.

        The full path (read, check, write) is taken whenever this shortcut can't be sure:
        no game in memory, a board for another game or version, a request that changes
        nothing (its answer should come from a fresh read), a challenge that has closed, or
        another writer got there first.
        """
        current = self._remembered(actor, game_id, expected_version)
        if current is None:
            return None
        game = current.game.copy()
        tokens, error = apply(game, current.attempt)
        if not tokens:
            return None
        status = GameStatus.WON if game.is_won else GameStatus.ACTIVE if game.has_legal_move() else GameStatus.LOST
        undos = tokens.count(UNDO_TOKEN)
        now = self._clock()
        new_log = f"{current.log} {' '.join(tokens)}".strip()
        position = game.to_text()
        lost = (current.lost and not undos) or self._proof_known(game, position)
        params = {
            "b_id": current.game_id, "b_version": current.version, "b_old_log": current.log,
            "b_log": new_log, "b_position": position,
            "b_score": game.score, "b_status": status.value, "b_moves": move_count(game), "b_undos": undos,
            "b_lost": lost,
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
        moves = move_count(game)
        if status is GameStatus.ACTIVE:
            self._current[key] = _Current(
                current.game_id, current.version + 1, new_log, moves, game.copy(), current.attempt, lost
            )
        else:
            self._current.pop(key, None)
        known = self._known.get(current.game_id)
        if known is not None:
            known.log, known.position, known.game = new_log, position, game.copy()
        return self._reply(
            current.game_id, current.version + 1, status, game,
            message=_outcome_message(status, error, moves, game.score),
            played=tuple(token for token in tokens if token != UNDO_TOKEN), lost=lost, saved=True,
        )

    def _note_current(self, actor: Actor, record: GameRecord, game: Game) -> None:
        """Remember (or forget) the player's active game after a full-path read or write."""
        key = (actor.platform, actor.user_id)
        attempt = None if record.challenge_id is None else self._attempts.get(record.id)
        if record.status == GameStatus.ACTIVE and (record.challenge_id is None or attempt is not None):
            self._current[key] = _Current(
                record.id, record.version, record.log, record.move_count, game.copy(), attempt, record.proved_lost
            )
        else:
            self._current.pop(key, None)

    async def _ask_to_abandon(self, session: AsyncSession, current: GameRecord) -> Reply:
        rules = await self._attempt_rules(session, current)
        if rules is not None:
            question = (
                f"You are playing {rules.name} (score {current.score}): start a new game and end "
                "your attempt? It keeps its score, and there is no second attempt."
            )
        else:
            question = (
                f"You have a game of {_title(current)} in progress (deal {current.deal}, "
                f"score {current.score}): start a new one and abandon it?"
            )
        return Reply(
            ReplyKind.CONFIRM, question, game_id=current.id, version=current.version, status=GameStatus.ACTIVE
        )

    async def _attempt_rules(self, session: AsyncSession, record: GameRecord) -> AttemptRules | None:
        """The challenge rules of a game (None outside challenges), remembered per game."""
        if record.challenge_id is None:
            self._attempts.put(record.id, None)
            return None
        rules = self._attempts.get(record.id)
        if rules is None or rules.challenge_id != record.challenge_id:
            challenge = await session.get(Challenge, record.challenge_id)
            rules = None if challenge is None else AttemptRules.of(challenge)
            self._attempts.put(record.id, rules)
        return rules

    async def _close_if_over(self, session: AsyncSession, record: GameRecord) -> Reply | None:
        """End an attempt whose challenge has closed, saying so; None for a game that goes on."""
        rules = await self._attempt_rules(session, record)
        if rules is None or not rules.closed(self._clock()):
            return None
        _finish(record, GameStatus.EXPIRED, self._clock())
        await session.flush()
        self._current = {key: c for key, c in self._current.items() if c.game_id != record.id}
        game = await self._load(session, record)
        return Reply(
            ReplyKind.ERROR, rules.has_closed(record.score), game=game, game_id=record.id,
            version=record.version, status=GameStatus.EXPIRED,
        )

    async def forget(self, actor: Actor) -> bool:
        """Delete everything stored about the player: games, challenge results, preferences.

        Challenges they created stay for their servers, without their name. False when
        nothing was stored about them.
        """
        key = (actor.platform, actor.user_id)
        async with self._lock(actor):
            async with self._db.writer(), self._db.sessions() as session, session.begin():
                player_id = await session.scalar(
                    select(Player.id).where(Player.platform == actor.platform, Player.platform_user_id == actor.user_id)
                )
                if player_id is None:
                    game_ids: list[int] = []
                else:
                    owned = select(GameRecord.id).where(GameRecord.player_id == player_id)
                    game_ids = list(await session.scalars(owned))
                    await session.execute(delete(GameRecord).where(GameRecord.player_id == player_id))
                    await session.execute(delete(Player).where(Player.id == player_id))
            self._players.pop(key, None)
            self._current.pop(key, None)
            self._preferences.drop(key)
            for game_id in game_ids:
                self._known.pop(game_id, None)
                self._attempts.drop(game_id)
                self._board_messages.drop(game_id)
            gone = set(game_ids)
            self._hinted.drop_where(lambda hinted, _: hinted[0] in gone)
        return player_id is not None

    def forget_attempts(self, challenge_id: int) -> None:
        """Drop what this process remembers of a challenge's attempts (it closed, or was removed)."""
        self._attempts.drop_where(lambda _, rules: rules is not None and rules.challenge_id == challenge_id)
        self._current = {
            key: current for key, current in self._current.items()
            if current.attempt is None or current.attempt.challenge_id != challenge_id
        }

    async def find_winnable_deal(self, variant: str, options: tuple[str, ...] = ()) -> int | None:
        """A deal the solver proves winnable now, else one from the shipped list (no options), else None.

        Callers check :func:`no_winnable_deals` first: for a variant the solver doesn't play
        this is always None.
        """
        if no_winnable_deals(variant, options) is not None:
            return None
        return await self._winnable_deal(variant, options)

    def _lock(self, actor: Actor) -> asyncio.Lock:
        key = (actor.platform, actor.user_id)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def _nothing_to_play(self, session: AsyncSession, actor: Actor) -> Reply:
        """The answer to a player without a game: their challenge closed on them, or start one."""
        player_id = self._players.get((actor.platform, actor.user_id))
        if player_id is not None:
            latest = await session.scalar(
                select(GameRecord).where(GameRecord.player_id == player_id).order_by(GameRecord.id.desc()).limit(1)
            )
            if latest is not None and saved.problem(latest.status, latest.variant, latest.options) is not None:
                return self._damaged(latest)
            if latest is not None and latest.status == GameStatus.EXPIRED:
                rules = await self._attempt_rules(session, latest)
                if rules is not None:
                    return Reply(ReplyKind.ERROR, rules.has_closed(latest.score), game_id=latest.id,
                                 status=GameStatus.EXPIRED)
        return self._no_game()

    async def _last_game(self, session: AsyncSession, actor: Actor) -> Reply:
        """The board of the player's most recent game, finished; the refusal of a move when there is none to show."""
        player_id = self._players.get((actor.platform, actor.user_id))
        latest = None if player_id is None else await session.scalar(
            select(GameRecord).where(GameRecord.player_id == player_id).order_by(GameRecord.id.desc()).limit(1)
        )
        if latest is None or latest.status in (GameStatus.ACTIVE, GameStatus.QUARANTINED):
            return await self._nothing_to_play(session, actor)
        if saved.problem(latest.status, latest.variant, latest.options) is not None:
            return self._damaged(latest)  # saved by another gatebot version: its owner is told so
        try:
            game = replay(latest)
        except GameDamaged as error:
            log.warning("game %s can't be replayed to show how it ended: %s", latest.id, error)
            return self._no_game()
        rules = await self._attempt_rules(session, latest) if latest.status == GameStatus.EXPIRED else None
        message = (
            rules.has_closed(latest.score) if rules is not None
            else f"That game is over: start a new one with {self._new_command}."
        )
        return self._board(latest, game, message=message)

    def _no_game(self) -> Reply:
        return Reply(ReplyKind.ERROR, f"You have no game in progress: start one with {self._new_command}.")

    def _damaged(self, record: GameRecord) -> Reply:
        """The answer about a game that can't be loaded: another gatebot version saved it, or its log is damaged."""
        if saved.problem(record.status, record.variant, record.options) is not None:
            message = saved.set_aside(record.id, new_command=self._new_command)
        else:
            message = (
                f"Your saved game (deal {record.deal}) couldn't be read back, so it has been set aside "
                f"unchanged: start a new one with {self._new_command}."
            )
        return Reply(ReplyKind.ERROR, message, game_id=record.id, status=GameStatus.QUARANTINED)

    async def _open(
        self, session: AsyncSession, actor: Actor, game_id: int | None, expected_version: int | None
    ) -> tuple[GameRecord, Game] | Reply:
        """The player's active game, loaded and checked, ready to change; or the reply saying why not."""
        record = await self._active(session, actor)
        refusal = await self._refuse_target(session, actor, record, game_id)
        if refusal is not None:
            return refusal
        assert record is not None
        closed = await self._close_if_over(session, record)
        if closed is not None:
            return closed
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
            return None if record is not None else await self._nothing_to_play(session, actor)
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
        if saved.problem(target.status, target.variant, target.options) is not None:
            return self._damaged(target)
        try:
            game = None if target.status == GameStatus.QUARANTINED else replay(target)
        except GameDamaged as error:
            log.warning("game %s can't be replayed for its board: %s", target.id, error)
            return self._damaged(target)  # a finished game keeps its result: nothing is changed
        rules = await self._attempt_rules(session, target) if target.status == GameStatus.EXPIRED else None
        return Reply(
            ReplyKind.STALE,
            rules.has_closed(target.score) if rules is not None
            else "That board belongs to a game that is over: here is where it ended.",
            game=game,
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

    async def _load(self, session: AsyncSession, record: GameRecord) -> Game | None:
        """The record's game, checked against a replay of its log; None if it was set aside.

        A stale position cache is repaired (and logged); a game that can't be loaded -- its
        variant or an option unknown to this gatebot (another version saved it), or its log
        impossible to replay -- is set aside (status ``quarantined``) so its owner can start
        afresh, with the row kept as it was for inspection and the reason in ``problem``.
        """
        known = self._known.get(record.id)
        if known is not None and (known.variant, known.options, known.deal, known.log, known.position) == (
            record.variant, record.options, record.deal, record.log, record.position
        ):
            self._known.move_to_end(record.id)
            return known.game.copy()
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
            record.score = game.score
        self._remember(record, game)
        return game.copy()

    def _remember(self, record: GameRecord, game: Game) -> None:
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

    def _board(
        self,
        record: GameRecord,
        game: Game,
        *,
        kind: ReplyKind = ReplyKind.BOARD,
        message: str | None = None,
        played: tuple[str, ...] = (),
        saved: bool = False,
    ) -> Reply:
        return self._reply(record.id, record.version, GameStatus(record.status), game, kind=kind,
                           message=message, played=played, lost=record.proved_lost, saved=saved)

    def _reply(
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
    ) -> Reply:
        """A board reply; ``lost``: the stored proof that no win is left, which offers End game."""
        moves = tuple(str(move) for move in game.legal_moves()) if status is GameStatus.ACTIVE else ()
        actions: list[str] = []
        attempt = self._attempts.get(game_id)
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
                message = _join(message, no_win_message(game.score, self._end_prompt))
        return Reply(kind, message, game, game_id, version, status, played, tuple(actions), moves, saved=saved)


def no_hints(game: Game) -> str:
    """The sentence refusing a hint for a variant the hint engine doesn't play yet."""
    return f"Hints don't exist for {game.title} yet."


def no_winnable_deals(variant: str, options: Iterable[str] = ()) -> str | None:
    """Why no winnable deal of this variant can be found (its solver doesn't exist yet), or None if one can.

    A deal is proved on the spot by the variant's solver; Gate and Little Gate without
    options also have a shipped list of proven deals to fall back on.
    """
    game = Game.new(variant, deal=1, options=options)
    if registry.thinks_about(game):
        return None
    return f"Winnable deals don't exist for {game.title} yet."


async def _in_open_challenge(session: AsyncSession, game: Game, now: datetime) -> bool:
    """Whether a challenge open now or still to open plays this deal (in any server)."""
    found = await session.scalar(
        select(Challenge.id)
        .where(
            Challenge.deal == game.deal, Challenge.variant == game.name, Challenge.closed_at.is_(None),
            Challenge.closes_at > now,
        )
        .limit(1)
    )
    return found is not None


def _play(game: Game, text: str) -> tuple[list[str], str | None]:
    """Play a typed line, at most :data:`~gatebot.service.lines.MAX_MOVES` of its moves."""
    result = game.play_line(text)
    played = [str(move) for move in result.played]
    error = None if result.error is None else sentence(str(result.error))
    if len(played) > MAX_MOVES:
        for _ in range(len(played) - MAX_MOVES):
            game.undo()
        played, error = played[:MAX_MOVES], too_many_moves()
    return played, error


def _undo(count: int) -> Apply:
    """Take back up to ``count`` moves, saying which; in a challenge, none that turned up a stock card."""

    def apply(game: Game, attempt: AttemptRules | None) -> tuple[list[str], str | None]:
        if not game.moves:
            return [], "There is no move to take back."
        if attempt is not None and not attempt.undo_allowed:
            return [], attempt.no_undo()
        taken: list[str] = []
        while len(taken) < count and game.moves:
            if attempt is not None and not attempt.can_undo(game):
                return [UNDO_TOKEN] * len(taken), _join(took_back(taken) if taken else None, attempt.undo_stops())
            taken.append(str(game.undo()))
        every = len(taken) < count
        return [UNDO_TOKEN] * len(taken), took_back(taken, every=every)

    return apply


def took_back(taken: list[str], *, every: bool = False) -> str:
    """``Took back 3f and d.``: the moves an undo took back, last first (``every``: that was all of them)."""
    named = taken[0] if len(taken) == 1 else f"{', '.join(taken[:-1])} and {taken[-1]}"
    return f"Took back {named}{' (that was every move)' if every else ''}."


def _auto(game: Game, _attempt: AttemptRules | None) -> tuple[list[str], str | None]:
    played = [str(move) for move in autoplay(game)]
    return played, None if played else "No card can go to the foundations safely right now."


def move_count(game: Game) -> int:
    """The one move count a player reads: the moves of the game's line as it stands.

    A move taken back no longer counts (it is gone from the board's line), and a draw is a
    move like any other. The board's header counts the same (``len(game.moves)``); the win
    sentence, the stored ``move_count`` and so the result card, the statistics and the
    challenge leaderboards all come from here. A challenge that counts undos or hints adds
    one per use for its ranking only (:func:`gatebot.service.attempts.penalty`).
    """
    return len(game.moves)


def record_progress(record: GameRecord, game: Game, tokens: list[str], now: datetime | None = None) -> None:
    """Write what was done to the row: the log, the position cache, the counters, the end.

    A stored proof that no win is left stays through plays (a position played on from a
    lost one is lost too) and goes with an undo.
    """
    record.log = f"{record.log} {' '.join(tokens)}".strip()
    record.position = game.to_text()
    record.score = game.score
    undos = tokens.count(UNDO_TOKEN)
    record.undo_count += undos
    record.move_count = move_count(game)
    record.proved_lost = record.proved_lost and not undos
    record.updated_at = now = now or utcnow()
    if game.is_won:
        _finish(record, GameStatus.WON, now)
    elif not game.has_legal_move():
        _finish(record, GameStatus.LOST, now)


def _finish(record: GameRecord, status: GameStatus, now: datetime) -> None:
    record.status = status
    record.finished_at = record.updated_at = now


def replay(record: GameRecord) -> Game:
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
    return game


def _outcome_message(status: GameStatus, message: str | None, move_count: int, score: int) -> str | None:
    """The reply's line after a change: the error that stopped a line of moves, or how the game ended."""
    if status is GameStatus.WON:
        return f"You won! Every card is home: score {score}/{score} in {move_count} moves."
    if status is GameStatus.LOST:
        return _join(message, f"No legal move is left: the game ends with a score of {score}.")
    return message


def _set_aside_note(record: GameRecord) -> str:
    """The line under a new board about the running game that couldn't be loaded, and was set aside."""
    if saved.problem(record.status, record.variant, record.options) is not None:
        return f"Your game #{record.id} was saved by a different version of gatebot, so it is set aside unchanged."
    return f"Your previous game (deal {record.deal}) couldn't be read back, so it is set aside unchanged."


def _dealt(first: str, abandoned: GameRecord | None) -> str:
    """The line under a new board: what was dealt, and which game was abandoned for it."""
    if abandoned is None:
        return first
    return f"{first} Your previous game (deal {abandoned.deal}) was abandoned with a score of {abandoned.score}."


def _title(record: GameRecord) -> str:
    try:
        return find_variant(record.variant).title
    except RulesError:
        return record.variant


def _join(first: str | None, second: str) -> str:
    return second if first is None else f"{first} {second}"
