"""The solver's part in the service: hints, their counting, Auto's finish, the end-game offer, winnable deals.

The solver and the hint engine run in worker processes (:mod:`gatebot.service.thinking`)
while no lock or transaction is held: a request reads the game, thinks, then writes in a
second short statement guarded by the version it read. A hint never changes the version,
so the board it was asked from stays usable. What the solver said is kept per position, in
caches of a stated size; the sentences a player reads about it are here too. One player's
hints that cost work (a search, or a count's write) come at a person's pace at most, so one
pressing Hint without pause can't keep the workers and the database's writer from the others.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Executor
from dataclasses import replace
from typing import Protocol

from aiolimiter import AsyncLimiter
from cachetools import LRUCache

from gatebot.messages import Text, _, joined, n_
from gatebot.rules import Game, Move, describe_move
from gatebot.service.attempts import Attempts
from gatebot.service.memory import Memory
from gatebot.service.players import player_key
from gatebot.service.replies import Actor, Reply, ReplyKind
from gatebot.service.thinking import Superseded, Thinker, ThinkingFailed
from gatebot.solver import HINT_SECONDS, Hint, Outlook, Verdict, registry
from gatebot.solver.deals import pick_winnable, winnable_deals
from gatebot.store import games as stored
from gatebot.store.database import Database
from gatebot.store.models import GameStatus, Rule

#: The solver's budget for finishing a game with nothing hidden (Auto) or proving it lost.
ENDGAME_NODES = 500_000
ENDGAME_SECONDS = 1.0
#: Random deals tried, each with this budget, before a winnable deal comes from the shipped list.
WINNABLE_TRIES = 3
WINNABLE_NODES = 50_000
WINNABLE_SECONDS = 0.5
#: How a front end words dealing a variant (its class) with these options, or a winnable deal
#: of it: ``new archway kit`` at the terminal.
DealCommand = Callable[[type[Game], tuple[str, ...], bool], str]
#: A hint asked while the game changed is worked out again this many times at most.
_HINT_TRIES = 2
#: Positions whose hint is kept (a hint is the same for every game that shows the position).
HINTS = 1024
#: (game, position) pairs whose hint was counted on the game already.
COUNTED_HINTS = 8192
#: Full positions whose solver verdict is kept.
VERDICTS = 4096
#: A player's hints that cost work (a search, or a count's write) are paced: this many at once,
#: then this many a second; a press beyond that waits its turn (:meth:`Advice._paced`).
HINT_BURST = 4
HINTS_PER_SECOND = 2.0
#: Players whose pace is kept (one forgotten starts afresh, with a whole burst).
PACED_PLAYERS = 4096


class Looks(Protocol):
    """What the advice asks of the game lifecycle: the game a request would act on."""

    async def look(
        self, actor: Actor, game_id: int | None, expected_version: int | None, *, remembered: bool
    ) -> Reply: ...


class Advice:
    """Asks the solver and the hint engine about players' games, and keeps what they said.

    Every cache here holds answers about positions, and a position's answer never changes:
    a hint is worked out from what its player sees, a verdict from the full position. What
    may go stale is only whether a hint was counted on a game: a count is one UPDATE guarded
    by the version it was asked at, so a game changed elsewhere is looked at again.
    """

    def __init__(
        self,
        db: Database,
        games: Looks,
        memory: Memory,
        attempts: Attempts,
        *,
        end_prompt: str,
        pick_deal: Callable[[], int],
        solver: Executor | None = None,
        rng: random.Random | None = None,
        winnable_tries: int = WINNABLE_TRIES,
        hint_seconds: float = HINT_SECONDS,
        hint_workers: int = 1,
        hint_pace: tuple[int, float] | None = (HINT_BURST, HINTS_PER_SECOND),
    ) -> None:
        """See :class:`~gatebot.service.games.GameService` for what each setting does."""
        self._db = db
        self._games = games
        self._memory = memory
        self._attempts = attempts
        self._end_prompt = end_prompt
        self._pick_deal = pick_deal
        self._rng = rng or random.Random()
        self._winnable_tries = winnable_tries
        self._hint_seconds = hint_seconds
        self.thinker = Thinker(solver, workers=hint_workers)
        self._hint_pace = hint_pace
        #: Each player's pace of hints that cost work, by (platform, user id).
        self._paces: LRUCache[tuple[str, str], AsyncLimiter] = LRUCache(maxsize=PACED_PLAYERS)
        #: Hints by the position their player sees (and the way there since the last draw).
        self._hints: LRUCache[str, Hint] = LRUCache(maxsize=HINTS)
        #: (game id, visible position) of the hints already counted on their game.
        self._hinted: LRUCache[tuple[int, str], bool] = LRUCache(maxsize=COUNTED_HINTS)
        #: Hint requests under way by (platform, user id, game id, board version): a repeat joins.
        #: Bounded by the requests in flight: each leaves when it is answered.
        self._hinting: dict[tuple[str, str, int | None, int | None], asyncio.Future[Reply]] = {}
        #: Counts under way, so the askers of one shared hint count it once (each leaves when done).
        self._counting: dict[tuple[int, int, str], asyncio.Future[bool]] = {}
        #: The solver's verdicts by full position text (a decided one never changes): the
        #: verdict, the winning line, and the node budget it was given.
        self._verdicts: LRUCache[str, tuple[Verdict, tuple[str, ...], int]] = LRUCache(maxsize=VERDICTS)

    def close(self) -> None:
        """Stop the solver's worker processes, if any were started, and the hints still being worked out.

        A hint's task outlives its askers (they await it shielded); once the service closes,
        nobody will read its answer, and it must not go on to count the hint in a database
        its owner is closing (Ctrl-C in the terminal while a hint was being worked out).
        """
        self.thinker.close()
        for pending in list(self._hinting.values()):
            pending.cancel()

    # -- hints -----------------------------------------------------------------------------

    async def hint(self, actor: Actor, game_id: int | None, expected_version: int | None) -> Reply:
        """The hint for the player's game (see :meth:`GameService.hint <gatebot.service.games.GameService.hint>`)."""
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
        """One hint request, worked out."""
        asker = (actor.platform, actor.user_id)
        paced = False
        tried = 0
        while tried < _HINT_TRIES:
            # First from the game this process last saved or read, as a move starts (no wait for the
            # database's writer behind other players' moves, no read): the count below checks the
            # stored version, once, before the hint is given; a second look reads the database.
            seen = await self._games.look(actor, game_id, expected_version, remembered=tried == 0)
            if seen.kind is not ReplyKind.BOARD or seen.game is None or seen.game_id is None:
                return seen
            attempt = await self._attempts.of_game(seen.game_id)
            if attempt is not None and not attempt.hints_allowed:
                return replace(seen, kind=ReplyKind.ERROR, message=attempt.no_hints())
            game = seen.game
            if not registry.thinks_about(game):
                return replace(seen, kind=ReplyKind.ERROR, message=no_hints(game))
            visible = game.to_text(hide_stock=True)
            behind = registry.positions_behind(game)
            # A hint depends on the way the game came since the last draw (it leads forward).
            known = visible + "\n#" + hashlib.blake2b("\n".join(behind).encode(), digest_size=16).hexdigest()
            found = self._hints.get(known)
            if not paced and (found is None or not self._hinted.get((seen.game_id, visible))):
                paced = True  # it costs a search or a count's write: once per request, at the player's pace
                if await self._paced(asker):
                    continue  # it waited its turn, and the game may have moved on meanwhile: look again
            try:
                found = found or await self._think_of_hint(game, visible, behind, asker=asker)
            except Superseded:
                tried += 1
                continue  # the player asked about a newer position meanwhile: look again
            if found is None:
                return Reply(ReplyKind.ERROR, _("I couldn't work out a hint just now: please try again."))
            self._hints[known] = found
            if not await self._count_hint(seen.game_id, seen.version, visible, player_key(actor)):
                self._memory.drop(player_key(actor))
                tried += 1
                continue  # the game changed while the hint was worked out (here or elsewhere): look again
            message = hint_message(game, found, self._end_prompt)
            if attempt is not None and attempt.hints is Rule.COUNTED:
                message = joined(message, attempt.hint_counted())
            reply = replace(seen, kind=ReplyKind.HINT, message=message,
                            suggestion=None if found.move is None else str(found.move))
            if found.outlook is Outlook.LOST and not game.hidden_count and game.has_legal_move():
                self._verdicts[game.to_text()] = (Verdict.LOST, (), ENDGAME_NODES)
                if "end" not in reply.actions and await self.prove_lost(reply):
                    reply = replace(reply, actions=(*reply.actions, "end"))
            return reply
        return Reply(ReplyKind.ERROR, _("Your game changed while I was thinking: ask again for a hint."))

    async def _paced(self, asker: tuple[str, str]) -> bool:
        """Take one of ``asker``'s hints that cost work, waiting first if they asked too many lately; True if it waited.

        By default a player may ask :data:`HINT_BURST` such hints at once, and then one each
        1 / :data:`HINTS_PER_SECOND` seconds (a leaky bucket per player): more than a person
        reading each hint asks, so only someone pressing without pause waits, and not much (a
        press waits its turn; it is never refused). The workers and the database's writer are
        then left to everyone else.
        """
        if self._hint_pace is None:
            return False
        limiter = self._paces.get(asker)
        if limiter is None:
            burst, per_second = self._hint_pace
            limiter = self._paces[asker] = AsyncLimiter(burst, burst / per_second)
        waits = not limiter.has_capacity()
        await limiter.acquire()
        return waits

    async def charge_hint(self, game_id: int) -> None:
        """Count one hint on a game whatever its state (the solver finished it for the player)."""
        async with self._db.writer(), self._db.engine.begin() as connection:
            await stored.charge_hint(connection, game_id)

    async def _count_hint(self, game_id: int, version: int | None, visible: str, who: Hashable) -> bool:
        """Count a hint on its game unless this position's hint was counted already; False if the game moved on.

        One UPDATE guarded by the version that was read, which it leaves as it is: the
        version stands for the position, and a hint changes only a counter. Askers who
        shared one hint share its count too. A hint counted already is still checked against
        the stored version (one read): it is given only for the position the game is at.
        """
        if version is None:
            return False
        if self._hinted.get((game_id, visible)):
            async with self._db.engine.connect() as connection:
                return await stored.version_of(connection, game_id) == version
        key = (game_id, version, visible)
        counting = self._counting.get(key)
        if counting is None:
            counting = asyncio.ensure_future(self._count_once(game_id, version, visible, who))
            self._counting[key] = counting
            counting.add_done_callback(lambda _: self._counting.pop(key, None))
        return await asyncio.shield(counting)

    async def _count_once(self, game_id: int, version: int, visible: str, who: Hashable) -> bool:
        """The UPDATE that counts a hint (a write of its asker's), and the note that it was counted."""
        async with self._db.writer(who), self._db.engine.begin() as connection:
            counted = await stored.count_hint(connection, game_id, version)
        if counted:
            self._hinted[(game_id, visible)] = True
        return counted

    async def _think_of_hint(
        self, game: Game, visible: str, behind: tuple[str, ...], *, asker: tuple[str, str]
    ) -> Hint | None:
        """The hint engine's answer; once nothing is hidden, the solver's if the engine fails; None if neither.

        Raises :class:`Superseded` when ``asker`` asked about another position meanwhile.
        """
        try:
            return await self.thinker.hint(visible, self._hint_seconds, behind, asker=asker)
        except Superseded:
            raise
        except ThinkingFailed:
            if game.hidden_count:
                return None
        found = await self.solution(game.to_text(), asker=asker)  # nothing is hidden: the full text is the visible one
        if found is None or found[0] is Verdict.UNRESOLVED:
            return None
        verdict, line = found
        if verdict is Verdict.LOST:
            return Hint(None, _("No win is left from here"), Outlook.LOST)
        move = Move.from_text(line[0])
        return Hint(move, describe_move(game, move), Outlook.WINNABLE)

    # -- the solver's verdict --------------------------------------------------------------

    async def solution(
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
            verdict, line = await self.thinker.solve(text, max_nodes=max_nodes, max_seconds=max_seconds, asker=asker)
        except ThinkingFailed:
            return None
        self._verdicts[text] = (verdict, line, max_nodes)
        return verdict, line

    def proof_known(self, game: Game, text: str | None = None) -> bool:
        """Whether this process's solver already proved the position (nothing hidden) can't be won.

        A change that reaches such a position (an undo back to it, say) stores the proof at
        once, so its board offers End game without asking the solver again.
        """
        if not registry.thinks_about(game) or game.hidden_count:
            return False
        cached = self._verdicts.get(game.to_text() if text is None else text)
        return cached is not None and cached[0] is Verdict.LOST

    async def prove_lost(self, reply: Reply) -> bool:
        """Store on the reply's game that no win is left from the position it shows; False if the game moved on.

        The End-game offer is drawn from this stored proof, so it outlives the process
        (a restart, or another process serving the player). Later plays keep it, since a
        position played on from a lost one is lost too; an undo clears it.
        """
        if reply.game_id is None or reply.version is None:
            return False
        async with self._db.writer(), self._db.engine.begin() as connection:
            proved = await stored.prove_lost(connection, reply.game_id, reply.version)
        if proved:
            self._memory.proved_lost(reply.game_id, reply.version)
        return proved

    # -- the end offer ---------------------------------------------------------------------

    async def end_offer(self, reply: Reply) -> Reply | None:
        """After a change that left nothing hidden: the offer to end the game if no win is left, else None.

        For front ends to ask once they have answered the change, so the solver (up to
        about a second, usually milliseconds, remembered per position) never delays a
        move. The offer is ``reply`` with the sentence and the ``end`` action added; the
        proof is stored with the game first, so every later board of that position (after
        a restart too) offers it without asking the solver again. None when the game
        changed meanwhile, and at the deal: nothing was played yet, and a deal seldom won
        says how seldom already (:func:`~gatebot.service.odds.odds_note`).
        """
        game = reply.game
        if (
            not reply.ok or game is None or reply.status is not GameStatus.ACTIVE or not game.moves
            or not registry.thinks_about(game) or game.hidden_count or "end" in reply.actions
            or not await self._may_think(reply.game_id)
        ):
            return None
        found = await self.solution(game.to_text())
        if found is None or found[0] is not Verdict.LOST:
            return None
        offer = await self.offer_end(reply, game)
        return offer if "end" in offer.actions else None

    async def offer_end(self, reply: Reply, game: Game) -> Reply:
        """``reply`` with the End-game offer, once the proof is stored (unchanged if the game moved on meanwhile)."""
        if not await self.prove_lost(reply):
            return reply
        actions = reply.actions if "end" in reply.actions else (*reply.actions, "end")
        message = join(reply.message, no_win_message(game.score, self._end_prompt))
        return replace(reply, message=message, actions=actions)

    async def _may_think(self, game_id: int | None) -> bool:
        """Whether the solver may help with this game: not in a challenge that forbids hints."""
        attempt = None if game_id is None else await self._attempts.of_game(game_id)
        return attempt is None or attempt.hints_allowed

    # -- winnable deals --------------------------------------------------------------------

    async def winnable_deal(self, variant: str, options: tuple[str, ...], actor: Actor | None = None) -> int | None:
        """A deal the solver proves winnable now, else one from the list (no options only), else None.

        From the list, ``actor`` gets a deal they haven't been dealt yet, or the one dealt them
        longest ago (:func:`~gatebot.solver.deals.pick_winnable`).
        """
        for _try in range(self._winnable_tries):
            number = self._pick_deal()
            game = Game.new(variant, deal=number, options=options)
            found = await self.solution(game.to_text(), max_nodes=WINNABLE_NODES, max_seconds=WINNABLE_SECONDS)
            if found is not None and found[0] is Verdict.WINNABLE:
                return number
        if options or not winnable_deals(variant):
            return None
        played: list[int] = []
        if actor is not None:
            async with self._db.sessions() as session:
                player_id = await stored.player_id(session, actor.platform, actor.user_id)
                if player_id is not None:
                    played = await stored.deals_played(session, player_id, variant)
        return pick_winnable(variant, self._rng, played)

    def forget_games(self, game_ids: set[int]) -> None:
        """Drop the counts kept for games that were deleted."""
        for key in [key for key in self._hinted if key[0] in game_ids]:
            self._hinted.pop(key, None)


def no_hints(game: Game) -> str:
    """The sentence refusing a hint for a variant the hint engine doesn't play yet."""
    return _("Hints don't exist for {game} yet.", game=game.title)


def no_winnable_deals(variant: str, options: Iterable[str] = ()) -> str | None:
    """Why no winnable deal of this variant can be found (its solver doesn't exist yet), or None if one can.

    A deal is proved on the spot by the variant's solver; Gate and Little Gate without
    options also have a shipped list of proven deals to fall back on.
    """
    game = Game.new(variant, deal=1, options=options)
    if registry.thinks_about(game):
        return None
    return _("Winnable deals don't exist for {game} yet.", game=game.title)


def typed_deal_command(variant: type[Game], options: tuple[str, ...], winnable: bool) -> str:
    """The terminal's words for a deal of ``variant``: ``new archway kit``, ``new archway winnable`` (``neu …``)."""
    deal = " ".join([variant.name, *options])
    return _("new {deal} winnable", deal=deal) if winnable else _("new {deal}", deal=deal)


def join(first: str | None, second: str) -> str:
    """Two sentences as one line; the second alone when there is no first."""
    return second if first is None else joined(first, second)


def hint_message(game: Game, found: Hint, end_prompt: str) -> str:
    """The hint as a player reads it: the move, its token and why, then how the game looks after it.

    ``Hint: play A♦ from column 3 to the foundation (`3f`). It won 10 of 12 imagined
    shuffles of the stock.`` ``end_prompt`` says how this front end ends a game
    (``Press End game to finish``), for the sentence of a game that can no longer be won.
    """
    if found.move is None:
        if found.outlook is Outlook.LOST and game.has_legal_move():
            return no_win_message(game.score, end_prompt)
        return sentence(found.reason)
    move = found.move
    lead, why = _lead_and_why(found.reason, describe_move(game, move), draw=move.is_draw)
    if why:
        first = _("Hint: {lead} (`{move}`): {why}.", lead=lead, move=str(move), why=why)
    else:
        first = _("Hint: {lead} (`{move}`).", lead=lead, move=str(move))
    return joined(first, _outlook(game, found, end_prompt))


def no_win_message(score: int, end_prompt: str) -> str:
    """The offer to end a game that can no longer be won, with its score.

    ``No win is left from here — 31 cards are home. Press End game to finish, or play on.``
    """
    return _("No win is left from here — {home}. {prompt}, or play on.", home=cards_home(score), prompt=end_prompt)


def cards_home(score: int) -> str:
    """``31 cards are home``, ``1 card is home``, ``no card is home``."""
    if score == 0:
        return _("no card is home")
    return n_("{n} card is home", "{n} cards are home", score)


def _outlook(game: Game, found: Hint, end_prompt: str) -> str:
    if found.outlook is Outlook.WINNABLE:
        return _("Still winnable.")
    if found.outlook is Outlook.LOST:
        return no_win_message(game.score, end_prompt)
    if found.outlook is Outlook.UNKNOWN:
        return _("Every card is known, but I couldn't settle in time whether a win is left.")
    if found.win_chance is None or found.samples <= 0:
        return ""
    won = round(found.win_chance * found.samples)
    unseen = game.unseen_words
    return _("It won {won} of {samples} imagined {unseen}.", won=won, samples=found.samples, unseen=unseen)


def _lead_and_why(reason: str, described: str, *, draw: bool) -> tuple[str, str]:
    """The hint's reason split into the move in words and why it helps (``Put A♦ up: it empties …``).

    The move part defaults to the move's plain description when the reason doesn't start
    with one of its own.
    """
    plain: str = _("draw from the stock") if draw else _("play {move}", move=described)
    head: str
    why: str
    if isinstance(reason, Text) and reason.parts is not None and len(reason.parts) == 2 and reason.sep == ": ":
        # A solver's reason in two translatable parts: the move in words, and why it helps.
        head, why = reason.parts
        colon = ": "
    else:
        text = reason.strip().rstrip(".")
        head, colon, why = text.partition(": ")
        if not colon:
            head, why = text, ""
    if head.lower() in (described.lower(), plain.lower()) or not colon:
        lead = plain
        if head.lower() not in (described.lower(), plain.lower()):
            why = _lower_first(head)
    else:
        lead = _lower_first(head)
    return lead, why if isinstance(why, Text) else why.strip()


def _lower_first(text: str) -> str:
    """``Put A♦ up`` → ``put A♦ up``; a card name (``A♦ from …``) keeps its capital."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        if isinstance(text, Text):
            return text.recast(text[0].lower() + text[1:])
        return text[0].lower() + text[1:]
    return text


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    if isinstance(text, Text):
        # Its msgid starts as a sentence does; the stop is added as a part of its own, so every language gets it.
        return text if text.endswith((".", "!", "?")) else joined(text, ".", sep="")
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
