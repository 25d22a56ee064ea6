"""The game lifecycle: deal, show, play, act, undo, resign and Auto, each one checked, saved and answered.

Every request runs as one unit of work in one transaction. Requests of one player are
serialised inside the process (a lock per player), and writes are guarded by the row's
version (optimistic locking), so two processes sharing a database can't lose a move
either: a write that lost the race is retried on the fresh row. A move usually starts
from the game this process holds (:mod:`gatebot.service.memory`) and is one guarded UPDATE;
whichever way it starts, it is written by the store's one write path
(:func:`gatebot.store.games.save_progress`).

:class:`GameService` is what the bot and the terminal talk to. Its parts each do one
thing: :attr:`~GameService.advice` asks the solver (hints, Auto's finish, the end offer,
winnable deals), :attr:`~GameService.players` keeps players' preferences and where their
boards are, :attr:`~GameService.privacy` forgets a player, :attr:`~GameService.replays` plays a
finished game back. Every reply carries the asker's preferences and the board message's
place, so a front end answers a press with one request.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import weakref
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from gatebot.errors import UserError
from gatebot.messages import _, joined, message_of
from gatebot.rules import DEFAULT_VARIANT, MAX_DEAL, Game, Move, find_variant
from gatebot.service.advice import (
    HINT_BURST,
    HINTS_PER_SECOND,
    WINNABLE_TRIES,
    Advice,
    DealCommand,
    join,
    no_hints,
    no_winnable_deals,
    sentence,
    typed_deal_command,
)
from gatebot.service.attempts import AttemptRules, Attempts
from gatebot.service.changes import (
    UNDO_TOKEN,
    Apply,
    GameDamaged,
    auto,
    cannot_restart,
    finish,
    move_count,
    outcome_message,
    play_line,
    progress,
    replay,
    restart,
    restart_question,
    took_back,
    undo,
)
from gatebot.service.lines import line_refusal
from gatebot.service.memory import Current, Memory
from gatebot.service.odds import odds_note, proven_sentence
from gatebot.service.players import PlayerKey, Players, PreferenceError, player_key
from gatebot.service.privacy import Privacy
from gatebot.service.reading import Reader, dealt, set_aside_note, untouched
from gatebot.service.replays import Replays
from gatebot.service.replies import BOARD_STYLES, Actor, Preferences, Reply, ReplyKind
from gatebot.service.stats import win_message, won_game
from gatebot.service.variants import score_words
from gatebot.solver import HINT_SECONDS, Verdict, registry
from gatebot.solver.deals import winnable_deals
from gatebot.store import games as stored
from gatebot.store.database import Database, DiskFull
from gatebot.store.games import Executor as Statements
from gatebot.store.models import GameRecord, GameStatus, Rule, utcnow
from gatebot.store.notices import GAMES_CHANNEL, Listener, notice

__all__ = [
    "BOARD_STYLES",
    "UNDO_TOKEN",
    "GameChange",
    "GameDamaged",
    "GameService",
    "PreferenceError",
    "Preferences",
    "move_count",
    "no_hints",
    "no_winnable_deals",
    "replay",
    "took_back",
]

log = logging.getLogger(__name__)

_RETRIES = 8


#: Seconds a warm-up waits for the hint workers to have started (a loaded host may take longer).
WORKERS_WITHIN = 5.0


class _LostRace(Exception):
    """A guarded write matched nothing: another writer changed the game since it was read."""


@dataclass(frozen=True, slots=True)
class GameChange:
    """A committed change to a game, as told to the service's watchers: which game, whose, and its version now."""

    game_id: int
    owner: PlayerKey
    version: int | None


#: A watcher of committed changes (:meth:`GameService.watch`): called at once, so it must not block.
Watcher = Callable[[GameChange], None]


class GameService:
    """Loads, changes and saves players' games; front ends only translate to and from it."""

    def __init__(
        self,
        db: Database,
        *,
        deal_picker: Callable[[], int] | None = None,
        new_command: str = _("new"),
        end_prompt: str = _("Type end to finish"),
        deal_command: DealCommand = typed_deal_command,
        solver: Executor | None = None,
        rng: random.Random | None = None,
        winnable_tries: int = WINNABLE_TRIES,
        hint_seconds: float = HINT_SECONDS,
        clock: Callable[[], datetime] = utcnow,
        hint_workers: int = 1,
        hint_pace: tuple[int, float] | None = (HINT_BURST, HINTS_PER_SECOND),
    ) -> None:
        """Front ends word two messages: ``new_command`` starts a game, ``end_prompt`` ends a lost one.

        ``deal_command`` words dealing a given variant and options (the note under a deal that
        is almost surely lost names the command for one that can be won).

        ``solver`` runs the solver and the hint engine (default: one worker process, started
        when first needed and stopped by :meth:`close`); ``rng`` picks listed winnable
        deals; ``winnable_tries`` random deals are checked before the list is used; a hint
        thinks for ``hint_seconds`` at most; ``clock`` tells the time challenges close by.
        ``hint_workers`` questions are worked out at once (processes of the default pool),
        shared fairly between players (:class:`~gatebot.service.thinking.Thinker`).
        ``hint_pace`` is (how many at once, how many a second) of one player's hints that cost
        work — a search or a count's write — before a press waits its turn; None: no pace.
        """
        self._db = db
        self._new_command = new_command
        self._end_prompt = end_prompt
        self._deal_command = deal_command
        self._pick_deal = deal_picker or (lambda: random.randint(1, MAX_DEAL))
        self._clock = clock
        #: One lock per player with a request under way (a lock nobody holds or waits for goes).
        self._locks: weakref.WeakValueDictionary[tuple[str, str], asyncio.Lock] = weakref.WeakValueDictionary()
        self.players = Players(db)
        self.memory = Memory()
        self.players.follow_boards(self.memory.board_moved)
        self.attempts = Attempts(db)
        self.advice = Advice(
            db, self, self.memory, self.attempts, end_prompt=end_prompt, pick_deal=self._pick_deal,
            solver=solver, rng=rng, winnable_tries=winnable_tries, hint_seconds=hint_seconds,
            hint_workers=hint_workers, hint_pace=hint_pace,
        )
        self._reader = Reader(db, self.players, self.memory, self.attempts, new_command=new_command,
                              end_prompt=end_prompt, clock=clock)
        self.privacy = Privacy(db, self._lock, self.players, self.memory, self.attempts, self.advice)
        self.replays = Replays(db, self.players, clock=clock)
        self._watchers: list[Watcher] = []
        #: Names this service in its game notices, so it doesn't hear its own changes twice.
        self._origin = secrets.token_hex(6)
        self._games_heard: Listener | None = None

    @property
    def database(self) -> Database:
        """The database this service stores games in (shared with the challenge and statistics services)."""
        return self._db

    def now(self) -> datetime:
        """The time by this service's clock (challenges open and close by it)."""
        return self._clock()

    def watch(self, watcher: Watcher) -> Callable[[], None]:
        """Call ``watcher`` after each change this service commits to a game; returns what stops it.

        A front end that shows a game live (the web table) redraws it from here whichever front
        end made the change. On PostgreSQL, other processes' changes are told too, as their
        notices arrive (:data:`~gatebot.store.notices.GAMES_CHANNEL`), once :attr:`hears_other_processes`.
        """
        self._watchers.append(watcher)
        if self._games_heard is None:
            self._games_heard = self._db.listen(GAMES_CHANNEL, on_notice=self._heard_game, on_lost=self._missed_games)
        return lambda: self._watchers.remove(watcher) if watcher in self._watchers else None

    @property
    def hears_other_processes(self) -> bool:
        """Whether other processes' changes to games reach the watchers now (PostgreSQL, once listening)."""
        return self._games_heard is not None and self._games_heard.listening

    def _heard_game(self, payload: str) -> None:
        """Another process's change to a game: tell the watchers (this process's own are told already)."""
        origin, game_id, version, platform, user_id = payload.split(":", 4)
        if origin != self._origin:
            self._tell(GameChange(int(game_id), (platform, user_id), int(version)))

    def _missed_games(self) -> None:
        log.warning("changes to games made by other processes may have been missed; live pages catch up on the next")

    async def _announce(self, statements: Statements, actor: Actor, game_id: int, version: int) -> None:
        """Tell other processes, once this transaction commits, that the actor's game is at ``version`` now."""
        if not self._db.is_sqlite:
            await statements.execute(notice(GAMES_CHANNEL, f"{self._origin}:{game_id}:{version}:{actor.platform}:"
                                                           f"{actor.user_id}"))

    def _tell(self, change: GameChange) -> None:
        for watcher in tuple(self._watchers):
            try:
                watcher(change)
            except Exception:
                log.exception("a watcher of game %s failed", change.game_id)

    def _told(self, actor: Actor, reply: Reply) -> Reply:
        """Tell the watchers about ``reply`` if it committed a change to a game; return it."""
        if reply.saved and reply.game_id is not None:
            self._tell(GameChange(reply.game_id, player_key(actor), reply.version))
        return reply

    # -- requests -------------------------------------------------------------------------

    async def show(self, actor: Actor) -> Reply:
        """The player's game in progress, as it stands; with none, their latest game as it ended.

        A finished game's board has its final status, so front ends draw it finished (with
        its result to share) and know there is nothing to play; with no game at all, or a
        latest game set aside as unreadable, the reply is the refusal of a move.
        """

        async def work(session: AsyncSession) -> Reply:
            record = await self._reader.active(session, actor)
            if record is None:
                return await self._reader.last_game(session, actor)
            closed = await self._reader.close_if_over(session, record)
            if closed is not None:
                return closed
            game = await self._reader.load(session, record)
            if game is None:
                return self._reader.damaged(record)
            self._note_current(actor, record, game)
            return await self._reader.board(session, record, game)

        return await self._serve(actor, work)

    async def new_game(
        self,
        actor: Actor,
        variant: str = DEFAULT_VARIANT,
        *,
        deal: int | None = None,
        options: Iterable[str] = (),
        confirm: bool = False,
        winnable: bool = False,
        attempt: AttemptRules | None = None,
    ) -> Reply:
        """Deal a new game; with one in progress, ask first (``confirm``) and then abandon it.

        ``winnable`` deals one the solver proved winnable (in place of a game nothing was played in,
        without asking: see :func:`~gatebot.service.reading.untouched`): a random deal it can prove so
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
                raise UserError(_("Choose a deal number or a winnable deal, not both."))
            if deal is not None:
                cls.new(deal=deal, options=chosen_options)  # checks the number before any work
            if winnable:
                refusal = no_winnable_deals(cls.name, chosen_options)
                if refusal is not None:
                    raise UserError(refusal)
        except UserError as error:
            return Reply(ReplyKind.ERROR, sentence(message_of(error)))
        if winnable:
            if not confirm:
                running = await self._reader.running_game(actor, unless_untouched=True)
                if running is not None:
                    return running
            number = await self.advice.winnable_deal(cls.name, chosen_options, actor)
            if number is None:
                if chosen_options:
                    missing = _("I couldn't find a winnable deal of {game} with {options} just now: "
                                "try again, or ask for any deal.", game=cls.title, options=" and ".join(chosen_options))
                else:
                    missing = _("I couldn't find a winnable deal of {game} just now: try again, or ask for any deal.",
                                game=cls.title)
                return Reply(ReplyKind.ERROR, missing)
        else:
            number = self._pick_deal() if deal is None else deal
        try:
            game = cls.new(deal=number, options=chosen_options)
        except UserError as error:
            return Reply(ReplyKind.ERROR, sentence(message_of(error)))

        async def work(session: AsyncSession) -> Reply:
            player = await self.players.row(session, actor)
            if attempt is not None:
                tried = await stored.attempt_of(session, attempt.challenge_id, player.id)
                if tried is not None:
                    return Reply(ReplyKind.ERROR, attempt.played_already())
            elif deal is not None and await stored.in_open_challenge(session, game.name, number, self._clock()):
                return Reply(
                    ReplyKind.ERROR,
                    _("Deal {deal} is a challenge being played right now: join it with /challenge play, "
                      "or pick another deal.", deal=number),
                )
            current = await stored.active_game(session, player.id)
            set_aside = None
            if current is not None and await self._reader.load(session, current) is None:
                # It can't be played (it is set aside now): there is nothing to abandon.
                set_aside, current = current, None
            ended: str | None = None  # the open challenge an abandoned attempt was at: its deal stays secret
            if current is not None:
                if not confirm and not (winnable and untouched(current)):
                    return await self._reader.ask_to_abandon(session, current)
                ended = self._reader.label(await self.attempts.of_record(session, current))
                finish(current, GameStatus.ABANDONED, self._clock())
                await session.flush()  # frees the one-active-game slot before the insert
            record = GameRecord(
                player_id=player.id,
                variant=game.name,
                options=" ".join(game.options),
                deal=number,
                log="",
                position=game.to_text(),
                score=game.score,  # the cards home at the deal: Archway's eight bases, Canfield's base card
                guild_id=actor.guild_id,
                channel_id=actor.channel_id,
                challenge_id=None if attempt is None else attempt.challenge_id,
                started_at=self._clock(),
                updated_at=self._clock(),
            )
            session.add(record)
            await session.flush()
            await self._announce(session, actor, record.id, record.version)
            self.attempts.note(record.id, attempt)
            self.memory.remember(record, game)
            self._note_current(actor, record, game)
            first: str
            if attempt is None:
                first = _("Dealt {game} deal {deal}.", game=game.title, deal=game.deal)
            else:
                first = attempt.began(self._clock())
            message = dealt(first, abandoned=current, challenge=ended)
            actions: tuple[str, ...] = ()
            if winnable:
                message = joined(message, proven_sentence())
            elif attempt is None:  # a challenge's deal is what it is: no advice on how often it is won
                proven_offered = no_winnable_deals(game.name, game.options) is None
                note = odds_note(game, self._deal_command, proven_offered=proven_offered)
                if note is not None and not game.options and number in winnable_deals(game.name):
                    message = joined(message, proven_sentence())  # one of the listed proven deals, asked by number
                elif note is not None:
                    message = joined(message, note)
                    if proven_offered:
                        actions = ("winnable",)
            if set_aside is not None:
                message = joined(message, set_aside_note(set_aside, secret=set_aside.challenge_id is not None))
            reply = await self._reader.board(session, record, game.copy(), message=message, saved=True)
            return replace(reply, actions=(*reply.actions, *actions)) if actions else reply

        return self._told(actor, await self._serve(actor, work))

    async def play(self, actor: Actor, text: str, *, expected_version: int | None = None) -> Reply:
        """Play a line of typed moves in order, stopping at the first that fails.

        A line over :mod:`gatebot.service.lines`' bounds is refused before it is read.
        """
        refusal = line_refusal(text)
        if refusal is not None:
            return Reply(ReplyKind.ERROR, refusal)
        return await self._change(actor, play_line(text), expected_version)

    async def act(
        self, actor: Actor, action: str, *, expected_version: int | None = None, game_id: int | None = None
    ) -> Reply:
        """A button's action on the board of game ``game_id`` (default: the player's own game).

        ``action`` is ``draw``, ``undo``, ``auto``, ``hint``, ``resign``, ``end`` (the
        resignation, offered once no win is left) or a canonical move token. A press on
        someone else's board, on a finished game's board or on an out-of-date board
        (``expected_version``) changes nothing and says so. The reply carries all a front
        end needs to redraw the board: its player's preferences and where it is.
        """
        if action in ("resign", "end"):
            return await self.resign(actor, expected_version=expected_version, game_id=game_id,
                                     ending=action == "end")
        if action == "auto":
            return await self.auto(actor, expected_version=expected_version, game_id=game_id)
        if action == "hint":
            return await self.hint(actor, expected_version=expected_version, game_id=game_id)
        apply = undo(1) if action == "undo" else play_line("d" if action == "draw" else action)
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
        safe = await self._change(actor, auto, expected_version, game_id)
        game = safe.game
        nothing_safe = safe.kind is ReplyKind.ERROR and game is not None
        if not (safe.ok or nothing_safe) or game is None or safe.status is not GameStatus.ACTIVE:
            return safe
        attempt = None if safe.game_id is None else await self.attempts.of_game(safe.game_id)
        if attempt is not None and not attempt.hints_allowed:
            return safe  # finishing with the solver would be a hint
        if not registry.thinks_about(game) or game.hidden_count or safe.game_id is None:
            return safe
        text = game.to_text()
        found = await self.advice.solution(text)
        if found is None or found[0] is Verdict.UNRESOLVED:
            return safe
        verdict, line = found
        if verdict is Verdict.LOST:
            return await self.advice.offer_end(replace(safe, kind=ReplyKind.BOARD, message=None), game)

        def finish_line(current: Game, _attempt: AttemptRules | None) -> tuple[list[str], str | None]:
            if current.to_text() != text:
                return [], _("Your game changed while I was working out the rest, so nothing more was played.")
            for token in line:
                current.play(Move.from_text(token))
            return list(line), None

        done = await self._change(actor, finish_line, safe.version, safe.game_id)
        if not done.ok:
            return replace(done, saved=safe.saved or done.saved)
        if attempt is not None and attempt.hints is Rule.COUNTED and done.game_id is not None:
            await self.advice.charge_hint(done.game_id)
            done = replace(done, message=join(done.message, attempt.finish_counted()))
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
        one about a newer position takes the place of one still waiting. A player's hints that
        cost work come at a person's pace at most (``hint_pace``): a few at once, then a couple
        a second; one pressing faster waits a moment for each, so the hint workers and the
        database are left to everyone else.
        """
        return await self.advice.hint(actor, game_id, expected_version)

    async def end_offer(self, reply: Reply) -> Reply | None:
        """After a change that left nothing hidden: the offer to end the game if no win is left, else None.

        See :meth:`Advice.end_offer <gatebot.service.advice.Advice.end_offer>`.
        """
        return await self.advice.end_offer(reply)

    def close(self) -> None:
        """Stop the solver's worker process, if one was started; the database is its owner's to close."""
        self.advice.close()

    async def warm_up(self, workers_within: float = WORKERS_WITHIN) -> None:
        """Open the first database connection and start the hint workers, so a first request waits for neither.

        The workers are waited for up to ``workers_within`` seconds; any still starting then go on
        doing so in their own processes.
        """
        async with self._db.sessions() as session:
            await session.execute(text("SELECT 1"))
        await self.advice.thinker.warm_up(workers_within)

    async def undo(self, actor: Actor, count: int = 1, *, expected_version: int | None = None) -> Reply:
        """Take back ``count`` moves (all there are, if fewer)."""
        return await self._change(actor, undo(count), expected_version)

    async def restart(
        self, actor: Actor, *, confirm: bool = False, expected_version: int | None = None,
        game_id: int | None = None,
    ) -> Reply:
        """Start the game in progress over from its deal: the same game, cards and options, every move taken back.

        Without ``confirm`` nothing changes: the reply is the question (:attr:`ReplyKind.CONFIRM`,
        saying how many moves go), or the refusal. It is honest bookkeeping, not a new game:
        each move taken back is logged and counted as an undo, as ``undo`` with that many
        would be, so statistics and leaderboards see it. Refused in a challenge attempt
        (played once, and undo there never goes past a seen card) and with no move played.
        """
        if confirm:
            return await self._change(actor, restart, expected_version, game_id)

        async def ask(session: AsyncSession) -> Reply:
            opened = await self._reader.open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            refusal = cannot_restart(game, await self.attempts.of_record(session, record))
            if refusal is not None:
                return await self._reader.board(session, record, game, kind=ReplyKind.ERROR, message=refusal)
            return Reply(ReplyKind.CONFIRM, restart_question(game), game_id=record.id, version=record.version,
                         status=GameStatus.ACTIVE)

        return await self._serve(actor, ask)

    async def resign(
        self, actor: Actor, *, expected_version: int | None = None, game_id: int | None = None,
        ending: bool = False, confirm: bool = True,
    ) -> Reply:
        """End the game in progress now, keeping its score (``ending``: the End game offer was taken).

        ``confirm=False`` asks first, as a front end does for a player's own ``resign``: nothing
        changes, and the reply is the question (:attr:`ReplyKind.CONFIRM`) when there is a game
        to end, or the refusal when there is none. The End game offer is its own question.
        """

        async def work(session: AsyncSession) -> Reply:
            opened = await self._reader.open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            if not confirm and not ending:
                return await self._reader.ask_to_resign(session, record, game)
            record.score = game.score  # the board's, which a row dealt before it was kept at the deal may lack
            finish(record, GameStatus.RESIGNED, self._clock())
            await session.flush()
            await self._announce(session, actor, record.id, record.version)
            self._note_current(actor, record, game)
            score = score_words(game.score, game.name)
            if ending:
                said = _("You ended the game with a score of {score}.", score=score)
            else:
                said = _("You resigned with a score of {score}.", score=score)
            return await self._reader.board(session, record, game, message=said, saved=True)

        return self._told(actor, await self._serve(actor, work))

    async def board_of(self, game_id: int) -> tuple[Actor, Reply] | None:
        """A game's board as its owner sees it, with the owner: for redrawing a game that ended by itself.

        A challenge's closing ends the attempts still running; their boards are redrawn from
        this, in the owner's board style, as is a chat board after a change made elsewhere. A won
        game's board carries its one win message, as the winning move's answer did, so a win made
        on the web table reads in chat as one made there. None when the game is gone or can't be
        replayed.
        """
        found = await self._reader.board_of(game_id)
        if found is None:
            return None
        owner, reply = found
        reply = await self.players.with_preferences(owner, reply)
        if reply.status is GameStatus.WON and reply.game_id is not None:
            win = await won_game(self._db, reply.game_id)
            if win is not None:
                reply = replace(reply, message=win_message(win))
        return owner, reply

    async def owner_of(self, game_id: int) -> Actor | None:
        """Whose game ``game_id`` is (for telling someone they replied to another player's board); None if none's.

        One read of the game's player, without replaying the game: it is asked on every reply
        to a board. A game set aside as unreadable has no owner here, as in :meth:`board_of`.
        """
        return await self._reader.owner_of(game_id)

    async def set_board_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember which message shows a game's board, so it can be edited in place (the version stays)."""
        if await self.players.set_board_message(game_id, channel_id, message_id):
            self.memory.board_moved(game_id, channel_id, message_id)

    async def board_message(self, game_id: int) -> tuple[int | None, int | None]:
        """The (channel id, message id) of a game's board message, as last set."""
        return await self.players.board_message(game_id)

    async def forget_board_message(self, game_id: int, message_id: int) -> None:
        """The game's board message ``message_id`` is gone (deleted): keep no board for it, so the next is posted anew.

        Only while it is still the game's board: one posted since is kept.
        """
        if await self.players.forget_board_message(game_id, message_id):
            self.memory.board_moved(game_id, None, None)

    async def sign_in(self, actor: Actor) -> int:
        """The id of the player's row, made now if they have none: what a sign-in link names (service/links)."""
        async with (self._lock(actor), self._db.writer(player_key(actor)), self._db.sessions() as session,
                    session.begin()):
            return (await self.players.row(session, actor)).id

    async def bring_over(self, source: Actor, target: Actor) -> bool:
        """Make ``source``'s game in progress ``target``'s: a web guest's game taken along when they sign in.

        ``target``'s own game in progress, if any, is abandoned first, exactly as a new deal
        abandons it (it stays in their history with its score). The game moved keeps its deal,
        moves and replay; its version moves on, so a page or process still holding it as the
        guest's refreshes before it plays. False (nothing changed) when ``source`` has no game in
        progress, or theirs is a challenge's attempt (which belongs to whoever made it).
        """
        first, second = sorted((source, target), key=player_key)
        async with self._lock(first), self._lock(second), self._db.writer(player_key(target)), \
                self._db.sessions() as session, session.begin():
            source_id = await self.players.id_of(session, source)
            moved = None if source_id is None else await stored.active_game(session, source_id)
            if moved is None or moved.challenge_id is not None:
                return False
            player = await self.players.row(session, target)
            current = await stored.active_game(session, player.id)
            if current is not None:
                finish(current, GameStatus.ABANDONED, self._clock())
                await session.flush()  # frees the one-active-game slot before the move
            moved.player_id = player.id
            moved.updated_at = self._clock()
            await session.flush()
            await self._announce(session, target, moved.id, moved.version)
            await self._announce(session, source, moved.id, moved.version)
            game_id, version = moved.id, moved.version
            abandoned = None if current is None else (current.id, current.version)
        self.memory.drop(player_key(source))
        self.memory.drop(player_key(target))
        if abandoned is not None:
            self.memory.drop_game(abandoned[0])
        self._tell(GameChange(game_id, player_key(source), version))
        self._tell(GameChange(game_id, player_key(target), version))
        return True

    async def player_id(self, actor: Actor) -> int | None:
        """The id of the player's row as stored now (never from memory); None when they have none (forgotten)."""
        return await self.players.stored_id(actor)

    async def preferences(self, actor: Actor) -> Preferences:
        """The player's board preferences (defaults for someone new); every reply carries them too."""
        return await self.players.preferences(actor)

    async def set_preferences(
        self, actor: Actor, *, board_style: str | None = None, compact: bool | None = None,
        four_colour: bool | None = None,
    ) -> Preferences:
        """Change how the player's boards are drawn; return the preferences now in force."""
        self.players.check(board_style)

        async def work(session: AsyncSession) -> Reply:
            await self.players.change(session, actor, board_style=board_style, compact=compact, four_colour=four_colour)
            return Reply(ReplyKind.BOARD)

        await self._run(actor, work)
        self.players.changed(actor)
        return await self.players.preferences(actor)

    async def forget(self, actor: Actor) -> bool:
        """Delete everything stored about the player (see :meth:`gatebot.service.privacy.Privacy.forget`)."""
        return await self.privacy.forget(actor)

    def forget_attempts(self, challenge_id: int) -> None:
        """Drop what this process remembers of a challenge's attempts (it closed, or was removed)."""
        self.attempts.forget_challenge(challenge_id)
        self.memory.drop_challenge(challenge_id)

    async def find_winnable_deal(self, variant: str, options: tuple[str, ...] = ()) -> int | None:
        """A deal the solver proves winnable now, else one from the shipped list (no options), else None.

        Callers check :func:`no_winnable_deals` first: for a variant the solver doesn't play
        this is always None.
        """
        if no_winnable_deals(variant, options) is not None:
            return None
        return await self.advice.winnable_deal(variant, options)

    async def look(
        self, actor: Actor, game_id: int | None, expected_version: int | None, *, remembered: bool
    ) -> Reply:
        """The game a request would act on, as a board reply, with the same refusals as a change.

        ``remembered``: from the game this process last saw, when it may (as a move's fast path
        trusts it: the same game and version as asked, no challenge that has closed), without
        reading the database. Another process may have moved, ended or deleted it since (a
        forgotten player's), so the caller checks the stored version before it answers: a hint's
        count is one write guarded by the version, and a hint counted already reads the version
        once (:meth:`Advice._count_hint <gatebot.service.advice.Advice._count_hint>`).
        """
        if remembered:
            current = self.memory.current(player_key(actor), game_id, expected_version, self._clock())
            if current is not None:
                return await self.players.with_preferences(actor, self._reader.reply(
                    current.game_id, current.version, GameStatus.ACTIVE, current.game.copy(), lost=current.lost,
                    place=(current.board_channel_id, current.board_message_id), attempt=current.attempt,
                ))

        async def work(session: AsyncSession) -> Reply:
            opened = await self._reader.open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            self._note_current(actor, record, game)
            return await self._reader.board(session, record, game)

        return await self._serve(actor, work)

    # -- the shared path of a change ------------------------------------------------------

    async def _change(
        self,
        actor: Actor,
        apply: Apply,
        expected_version: int | None,
        game_id: int | None = None,
    ) -> Reply:
        """Apply a change: from the game in memory when it may, else from a fresh read; saved the same way."""

        async def work(session: AsyncSession) -> Reply:
            opened = await self._reader.open(session, actor, game_id, expected_version)
            if isinstance(opened, Reply):
                return opened
            record, game = opened
            attempt = await self.attempts.of_record(session, record)
            tokens, error = apply(game, attempt)
            if not tokens:
                return await self._reader.board(session, record, game, kind=ReplyKind.ERROR, message=error)
            await session.flush()  # a repaired position cache is written first (it takes a version)
            start = Current(record.id, record.version, record.log, record.move_count, game, attempt,
                            record.proved_lost, record.channel_id, record.board_message_id)
            reply = await self._save(session, actor, start, game, tokens, error)
            if reply is None:
                raise _LostRace(record.id)
            return reply

        async with self._lock(actor):
            fast = await self._fast_change(actor, apply, expected_version, game_id)
        if fast is not None:
            return self._told(actor, await self._won(await self.players.with_preferences(actor, fast)))
        return self._told(actor, await self._won(await self._serve(actor, work)))

    async def _won(self, reply: Reply) -> Reply:
        """A change that won the game carries the one win message: result, time, moves, streak and bests.

        Read once the win is saved, so the streak and the personal bests count it.
        """
        if reply.status is not GameStatus.WON or not reply.saved or reply.game_id is None:
            return reply
        win = await won_game(self._db, reply.game_id)
        return reply if win is None else replace(reply, message=win_message(win))

    async def _fast_change(
        self,
        actor: Actor,
        apply: Apply,
        expected_version: int | None,
        game_id: int | None,
    ) -> Reply | None:
        """A change from the game this process last saw, in one short transaction; None to take the full path.

        The full path (read, check, write) is taken whenever this shortcut can't be sure:
        no game in memory, a board for another game or version, a request that changes
        nothing (its answer should come from a fresh read), a challenge that has closed, or
        another writer got there first.
        """
        key = player_key(actor)
        current = self.memory.current(key, game_id, expected_version, self._clock())
        if current is None:
            return None
        game = current.game.copy()
        tokens, error = apply(game, current.attempt)
        if not tokens:
            return None
        try:
            async with self._db.writer(key), self._db.engine.begin() as connection:
                reply = await self._save(connection, actor, current, game, tokens, error)
        except DiskFull:
            self.memory.drop(key)  # it may hold the change whose commit was refused
            raise
        except (OperationalError, DBAPIError):
            log.info("fast update of game %s failed; taking the full path", current.game_id, exc_info=True)
            reply = None
        if reply is None:
            self.memory.drop(key)
        return reply

    async def _save(
        self, statements: Statements, actor: Actor, start: Current, game: Game, tokens: list[str], error: str | None
    ) -> Reply | None:
        """Write a change worked out from ``start`` (the one write path) and answer it; None if the game moved on."""
        position = game.to_text()
        change = progress(start.log, start.lost, game, tokens, self._clock(),
                          proved=self.advice.proof_known(game, position), position=position)
        if not await stored.save_progress(statements, start.game_id, start.version, start.log, change):
            return None
        key, version = player_key(actor), start.version + 1
        await self._announce(statements, actor, start.game_id, version)
        if change.status is GameStatus.ACTIVE:
            self.memory.keep(key, Current(
                start.game_id, version, change.log, change.move_count, game.copy(), start.attempt,
                change.proved_lost, start.board_channel_id, start.board_message_id,
            ))
        else:
            self.memory.drop(key)
        self.memory.moved(start.game_id, change.log, change.position, game)
        return self._reader.reply(
            start.game_id, version, change.status, game,
            message=outcome_message(change.status, error, change.move_count, score_words(change.score, game.name)),
            played=tuple(token for token in tokens if token != UNDO_TOKEN), lost=change.proved_lost,
            saved=True, place=(start.board_channel_id, start.board_message_id), attempt=start.attempt,
        )

    def _note_current(self, actor: Actor, record: GameRecord, game: Game) -> None:
        """Remember (or forget) the player's active game after a full-path read or write."""
        attempt = None if record.challenge_id is None else self.attempts.known(record.id)
        self.memory.note(player_key(actor), record, game, attempt)
        self.players.note_board(record.id, record.channel_id, record.board_message_id)

    def _lock(self, actor: Actor) -> asyncio.Lock:
        key = player_key(actor)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def _serve(self, actor: Actor, work: Callable[[AsyncSession], Awaitable[Reply]]) -> Reply:
        """:meth:`_run`'s reply, carrying the asker's preferences for drawing it."""
        return await self.players.with_preferences(actor, await self._run(actor, work))

    async def _run(self, actor: Actor, work: Callable[[AsyncSession], Awaitable[Reply]]) -> Reply:
        """Run ``work`` in one transaction, under the player's lock, retrying lost races.

        A full disk (:class:`~gatebot.store.database.DiskFull`) is not retried: its sentence is
        the answer, the transaction rolled back, and the next request starts from the database.
        """
        async with self._lock(actor):
            for attempt in range(_RETRIES):
                try:
                    async with self._db.writer(player_key(actor)), self._db.sessions() as session, session.begin():
                        return await work(session)
                except DiskFull:
                    self.memory.drop(player_key(actor))
                    raise
                except (StaleDataError, IntegrityError, _LostRace) as error:
                    log.info("retrying a request of %s/%s after %s", actor.platform, actor.user_id,
                             type(error).__name__)
                    self.players.lost_race(actor)
                    await asyncio.sleep(0.005 * attempt * random.random())
        return Reply(
            ReplyKind.ERROR,
            _("Your game changed several times while I was saving, so nothing was changed: please try again."),
        )
