"""Where a game meets a channel: turns service replies into board messages, edited in place.

Every front door of the bot — slash commands, button presses, typed moves — ends here,
so one game keeps one board message, and the rules for answering within Discord's
three seconds (answer or defer first, draw images in a thread) live in one place.

It is also the error boundary of those doors (:mod:`gatebot.bot.errors` says the order). Each
request is followed in an :class:`Answer`: the service's reply once it came (so whether a change
was committed), whether the board shows it and whether the person was answered. When Discord
fails a request, or a bug breaks one, the person gets exactly one answer that tells the truth:
"your move was saved, but I couldn't update the board" when it was saved, the apology that
nothing changed only when nothing did, and nothing more once they were answered.

Hints are private: a slash command or a button press is deferred ephemerally at once (the
hint engine thinks for up to a second) and answered by editing that private reply; a hint
asked in chat is a reply to the asking message. Once a change leaves nothing hidden, the
solver is asked, after the answer has gone, whether a win is left; when none is, the board
is redrawn with the offer and an End game button.

Where the bot is not a member of the channel — a group DM, or a server reached only through a
player's own install of the app (:mod:`gatebot.bot.reach`) — it can only answer the interaction:
a command's board is always a fresh answer there (the old one can't be edited by channel, and is
not recorded as the game's board), a press edits the pressed board through its interaction, and
the End-game offer edits the board that interaction just showed (a hint, answered privately,
leaves the board as it is). No channel call is tried there.

Typed moves get one reaction, ✅ when something was saved and ❌ when nothing was, and at most
one reply: the refusal; the board's note when that board was edited further up the channel and
the game goes on (why the rest of a line wasn't played; the end of a game is said once, on the
board); or the sentence about a board that
couldn't be updated. A refusal never touches the public board. Where the bot may not post, that
reply goes to the author's DM, and a message without a reaction yet (a hint asked for) gets 📨,
or ❌ when the DM failed too, so no message goes without a sign.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import discord
from cachetools import LRUCache
from discord.ui import DynamicItem

from gatebot.bot import metrics
from gatebot.bot.actors import PLATFORM, interaction_actor, message_actor
from gatebot.bot.boards import BoardMessage, board_message
from gatebot.bot.errors import (
    APOLOGY,
    DELIVERY_ERRORS,
    apology,
    expired,
    log_failure,
)
from gatebot.bot.follow import Follower
from gatebot.bot.language import reader, speaker
from gatebot.bot.questions import ConfirmNewGame
from gatebot.bot.reach import bot_is_in
from gatebot.bot.replays import ReplayScreen
from gatebot.bot.timely import SAFETY_DEFER, FirstAnswer
from gatebot.bot.views import BoardComponents, board_components, board_game_id
from gatebot.errors import UserError
from gatebot.locale import Translator
from gatebot.messages import N_, _, joined, message_of
from gatebot.service import Actor, GameService, GameStatus, Reply, ReplyKind
from gatebot.service.players import PlayerKey
from gatebot.service.stats import Statistics

log = logging.getLogger(__name__)

NO_HINT = N_("I have no hint for you right now.")
#: Moves an acknowledgement names one by one; a longer line is counted instead.
ACK_MOVES = 8
#: Games whose last board drawn here is remembered (its version), so a change the bot drew itself isn't redrawn.
DRAWN_BOARDS = 16_384
#: Channels this process has no copy of whose shard is remembered (looked up once each: a channel never moves).
CHANNEL_SHARDS = 4_096


@dataclass(slots=True)
class Answer:
    """What is known about answering one request, for the error boundary."""

    reply: Reply | None = None
    #: The board message shows the reply's game (edited or posted).
    board_shown: bool = False
    #: The person has had their answer; a later failure (the End-game offer, say) is only logged.
    answered: bool = False
    #: Where the bot is not in the channel: edits the board this interaction showed, through the interaction.
    edit_shown: Callable[..., Awaitable[Any]] | None = None
    #: Whether the answer will be for the person alone, so a safety deferral is private too (known once the
    #: reply is; until then the request's kind guesses).
    private: bool = True

    def failure_text(self) -> str:
        """The one sentence for a person whose answer failed, true to what was saved and shown."""
        if self.reply is not None and self.board_shown:
            return _ack(self.reply)
        return apology(self.reply)


class Table:
    """Answers players with boards, through the service.

    Its boards' components are its own (:attr:`components`): a press comes back to this table,
    and Share result reads ``statistics``.
    """

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        statistics: Statistics,
        *,
        safety_defer: float = SAFETY_DEFER,
        launch: bool = False,
    ) -> None:
        """``safety_defer``: seconds before a request still being worked on is acknowledged.

        ``launch``: boards have Open the table (the app's Activity is enabled).
        """
        self.client = client
        self.service = service
        self._safety_defer = safety_defer
        self.components: BoardComponents = board_components(self, statistics, safety_defer=safety_defer,
                                                            launch=launch)
        self.replays = ReplayScreen(service, safety_defer=safety_defer)
        self._turns: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._answering: dict[int, FirstAnswer] = {}
        #: The version of each game's board as this table last drew it.
        self._drawn: LRUCache[int, int] = LRUCache(maxsize=DRAWN_BOARDS)
        #: The shard of each board channel not in discord.py's cache, as Discord told it (None: not to be seen).
        self._channel_shards: LRUCache[int, int | None] = LRUCache(maxsize=CHANNEL_SHARDS)
        #: Where the board of a game won with no board in chat is posted (its challenge's channel), if anywhere.
        self.home: Callable[[int], Awaitable[int | None]] | None = None
        #: Redraws the count of players on the announcement of the challenge a game is an attempt at (the herald's).
        self.recount: Callable[[int], Awaitable[None]] | None = None
        #: Attempts with no board in chat whose challenge's count this process redrew once already.
        self._counted: LRUCache[int, bool] = LRUCache(maxsize=DRAWN_BOARDS)
        #: Games with no board in chat found to be no challenge attempt (or one without a channel): not asked again.
        self._not_attempts: LRUCache[int, bool] = LRUCache(maxsize=DRAWN_BOARDS)
        #: Redraws boards after changes made elsewhere (the web table, another process); started by the bot.
        self.follower = Follower(service, self.follow, platform=PLATFORM)

    @property
    def safety_defer(self) -> float:
        """Seconds before a request still being worked on is acknowledged, for every answer of this bot."""
        return self._safety_defer

    def dynamic_items(self) -> tuple[type[DynamicItem[Any]], ...]:
        """The classes of this table's board and replay components, for ``add_dynamic_items``."""
        return (*self.components.items, *self.replays.items)

    def _first(self, interaction: discord.Interaction) -> FirstAnswer:
        """The interaction's first answer, shared by the safety deferral and the answer, so only one is sent."""
        first = self._answering.get(interaction.id)
        if first is None:
            first = self._answering[interaction.id] = FirstAnswer(interaction)
        return first

    async def _on_time(
        self, interaction: discord.Interaction, answer: Answer, work: Awaitable[None], *, thinking: bool
    ) -> None:
        """Run ``work``, which answers ``interaction``; acknowledge first if it runs long.

        Under load a request can wait for the player's turn or for the database; after
        ``safety_defer`` seconds (:data:`SAFETY_DEFER` by default) the interaction is deferred (Discord then
        waits 15 minutes), privately when the answer will be private, and the work's answer takes the
        deferral's place. An answer already on its way is waited for, never doubled.
        """
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=self._safety_defer)
        if not done:
            await self._first(interaction).defer(ephemeral=thinking and answer.private, thinking=thinking)
        await task

    async def _bounded(
        self, interaction: discord.Interaction, answer: Answer, work: Awaitable[None], *, thinking: bool, what: str
    ) -> None:
        """Run ``work`` on time, and give the person one true answer if it fails."""
        try:
            await self._on_time(interaction, answer, work, thinking=thinking)
            if interaction.type is discord.InteractionType.component:  # slash commands: GateBot counts them
                metrics.served(metrics.PRESS)
        except Exception as error:
            if expired(error):
                log.warning("interaction %s expired before it was answered", interaction.id)
                return
            if isinstance(error, UserError) and str(error) and not answer.answered:
                await self._tell(interaction, message_of(error))
                return
            log_failure(error, "%s for user %s in guild %s channel %s",
                        what, interaction.user.id, interaction.guild_id, interaction.channel_id)
            if not answer.answered:
                await self._tell(interaction, answer.failure_text())
        finally:
            self._answering.pop(interaction.id, None)

    async def _tell(self, interaction: discord.Interaction, text: str) -> None:
        """The error boundary's one private sentence, in a deferral's place if there is one."""
        try:
            await self._ephemeral(interaction, text)
        except DELIVERY_ERRORS as error:
            log.warning("could not tell user %s: %s", interaction.user.id, error)

    @contextlib.asynccontextmanager
    async def _turn(self, actor: Actor) -> AsyncIterator[None]:
        """One player's requests are answered one after another, board message included.

        Otherwise a fast second command could look for the board message before the first
        one has recorded it, and post a second board.
        """
        lock = self._turns.get(actor.user_id)
        if lock is None:
            lock = self._turns[actor.user_id] = asyncio.Lock()
        async with lock:
            yield

    # -- interactions ---------------------------------------------------------------------

    async def command(
        self,
        interaction: discord.Interaction,
        request: Callable[[Actor], Awaitable[Reply]],
        *,
        new_board: bool = False,
        confirm: Callable[[], discord.ui.View] | None = None,
    ) -> None:
        """Run a slash command's service request and answer it, in the player's turn.

        ``confirm`` makes the buttons under the question of a request that needs a yes first.
        """
        actor = interaction_actor(interaction)
        answer = Answer(private=not new_board)

        async def work() -> None:
            async with self._turn(actor):
                answer.reply = await request(actor)
                await self.answer(interaction, answer.reply, new_board=new_board, confirm=confirm, answer=answer)
                await self._interaction_end_offer(interaction, actor, answer)

        command = interaction.command.qualified_name if interaction.command else "a command"
        await self._bounded(interaction, answer, work(), thinking=True, what=f"/{command}")

    async def answer(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        *,
        new_board: bool = False,
        confirm: Callable[[], discord.ui.View] | None = None,
        answer: Answer | None = None,
    ) -> None:
        """Answer an interaction with ``reply`` (in the player's turn: see :meth:`command`).

        An error is one ephemeral sentence, and a question one with ``confirm``'s buttons. A
        changed game updates its board message in place when it is in this channel (the
        command gets a short ephemeral line); otherwise, or with ``new_board``, the answer is
        a fresh board, which becomes the game's board. A board the bot may no longer edit
        (deleted, or a channel it lost access to) is replaced by a fresh one: the interaction's
        answer needs no channel permission. Where the bot is not in the channel the answer is
        always a fresh board, and it is not recorded: the bot could not edit it there by channel.
        """
        answer = answer or Answer(reply)
        present = bot_is_in(interaction)
        answer.private = (
            reply.private or reply.game is None or (reply.kind is ReplyKind.CONFIRM and confirm is not None)
            or (not new_board and present and reply.board_message_id is not None
                and reply.board_channel_id == interaction.channel_id)
        )
        if reply.kind is ReplyKind.CONFIRM and confirm is not None:
            await self._ephemeral(interaction, reply.message or N_("Are you sure?"), view=confirm())
            answer.answered = True
            return
        if reply.private or reply.game is None:
            await self._ephemeral(interaction, reply.message or N_("That can't be done."))
            answer.answered = True
            return
        actor = interaction_actor(interaction)
        message = await self._draw(actor, reply)
        if not new_board and present and await self._edit_board(interaction.channel_id, reply, message):
            answer.board_shown = True
            await self._ephemeral(interaction, _ack(reply))
            answer.answered = True
            return
        first = self._first(interaction)
        followed: list[discord.Message] = []

        async def follow() -> None:
            followed.append(await interaction.followup.send(wait=True, **message.send_kwargs()))

        await first.respond(
            lambda: interaction.response.send_message(**message.send_kwargs()),
            lambda: first.resolved(public=True, edit=lambda: interaction.edit_original_response(
                **message.edit_kwargs()), follow=follow),
        )
        answer.board_shown = answer.answered = True
        sent = followed[0] if followed else await interaction.original_response()
        if not present:
            answer.edit_shown = sent.edit
            return
        if reply.game_id is not None and interaction.channel_id is not None:
            await self.service.set_board_message(reply.game_id, interaction.channel_id, sent.id)
            answer.reply = replace(reply, board_channel_id=interaction.channel_id, board_message_id=sent.id)

    async def press(self, interaction: discord.Interaction, action: str, game_id: int, version: int) -> None:
        """A board component was used: act on that board's game and redraw that message."""
        if action == "hint":
            await self.hint(interaction, game_id=game_id, version=version)
            return
        actor = interaction_actor(interaction)
        answer = Answer()

        async def work() -> None:
            async with self._turn(actor):
                answer.reply = await self.service.act(actor, action, expected_version=version, game_id=game_id)
                await self._redraw(interaction, actor, answer, game_id)
                await self._interaction_end_offer(interaction, actor, answer)

        await self._bounded(interaction, answer, work(), thinking=False, what=f"the {action} button of game {game_id}")

    async def deal_again(
        self, interaction: discord.Interaction, game_id: int, variant: str | None, *, confirm: bool = False,
        winnable: bool = False,
    ) -> None:
        """Play again (``variant`` None: the finished game's variant and options) or New deal (``variant``'s rules).

        Only the game's player may: anyone else is told so privately. A random deal is dealt
        through the service, which asks first when a game is running (``confirm`` is the yes),
        and the new board is the answer to the press, so the finished board stays as it was.
        ``winnable``: Proven winnable deal under a fresh deal, a proven deal of its variant and
        options in its place (nothing was played, so the service doesn't ask).
        """
        actor = interaction_actor(interaction)
        answer = Answer()

        async def work() -> None:
            async with self._turn(actor):
                found = await self.service.board_of(game_id)
                owner, game = (None, None) if found is None else (found[0], found[1].game)
                if owner is None or game is None:
                    gone = _("That game is no longer stored: start a new one with /gate new.")
                    await self._ephemeral(interaction, gone)
                    answer.answered = True
                    return
                if (owner.platform, owner.user_id) != (actor.platform, actor.user_id):
                    await self._ephemeral(interaction, _("That's {name}'s game: start one of your own with /gate new.",
                                                         name=owner.display_name))
                    answer.answered = True
                    return
                name, options = (game.name, game.options) if variant is None else (variant, ())
                answer.reply = await self.service.new_game(actor, name, options=options, confirm=confirm,
                                                           winnable=winnable)

                def ask() -> discord.ui.View:
                    return ConfirmNewGame(
                        actor.user_id,
                        lambda yes: self.deal_again(yes, game_id, variant, confirm=True, winnable=winnable),
                        speaker(interaction),
                    )

                await self.answer(interaction, answer.reply, new_board=True, confirm=ask, answer=answer)

        what = "Proven winnable deal" if winnable else "Play again" if variant is None else "New deal"
        await self._bounded(interaction, answer, work(), thinking=False, what=f"{what} under game {game_id}")

    async def replay(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """``/gate replay`` or a board's Replay button: the game's replay as a new message (see ``bot.replays``)."""
        await self.replays.open(interaction, game_id)

    async def hint(self, interaction: discord.Interaction, *, game_id: int | None = None,
                   version: int | None = None) -> None:
        """A hint for the asker only: ``/gate hint``, or the Hint button of the board ``game_id`` at ``version``.

        Deferred ephemerally before the service is asked, then answered by editing that
        private reply. A press on an out-of-date board also redraws the board as it is now.
        """
        actor = interaction_actor(interaction)
        answer = Answer()

        async def work() -> None:
            await self._first(interaction).defer(ephemeral=True, thinking=True)
            async with self._turn(actor):
                with metrics.HINT_SECONDS.time():
                    reply = await self.service.hint(actor, game_id=game_id, expected_version=version)
                await self._ephemeral(interaction, reply.message or NO_HINT)  # in the private "thinking…"'s place
                answer.answered = True
                if bot_is_in(interaction):  # elsewhere the board can't be edited from a hint's private answer
                    await self._show_board_change(actor, reply, interaction.channel_id)

        await self._bounded(interaction, answer, work(), thinking=True, what="a hint")

    async def _show_board_change(self, actor: Actor, reply: Reply, channel_id: int | None) -> None:
        """After a hint: redraw a board that was out of date, or one that should now offer End game."""
        if reply.game is None or not (reply.kind is ReplyKind.STALE or "end" in reply.actions):
            return
        board = await self._draw(actor, reply, note="")  # the hint itself is the asker's alone
        await self._edit_board(channel_id, reply, board)

    async def _offer_end(
        self, actor: Actor, reply: Reply, channel_id: int | None, *, edit: Callable[..., Awaitable[Any]] | None = None
    ) -> None:
        """After a change has been answered: if the solver proves no win is left, redraw the board with the offer.

        ``edit`` edits the board through the interaction that showed it, where the bot is not in the channel.
        """
        if reply.game is None or reply.game.stock_count or not reply.ok:
            return
        offer = await self.service.end_offer(reply)
        if offer is None:
            return
        board = await self._draw(actor, offer)
        if edit is not None:
            await edit(**board.edit_kwargs())
        else:
            await self._edit_board(channel_id, offer, board)

    async def _interaction_end_offer(self, interaction: discord.Interaction, actor: Actor, answer: Answer) -> None:
        """The End-game offer after an interaction's answer, where the bot can show it.

        By channel on the game's board; where the bot isn't in the channel, through the
        interaction that showed the board, and not at all when that interaction showed none.
        """
        assert answer.reply is not None
        if answer.edit_shown is not None or bot_is_in(interaction):
            await self._offer_end(actor, answer.reply, interaction.channel_id, edit=answer.edit_shown)

    async def _redraw(self, interaction: discord.Interaction, actor: Actor, answer: Answer, game_id: int) -> None:
        """Answer a press: the pressed board redrawn, or a private sentence when nothing is to be redrawn.

        A refusal goes to the presser alone and leaves the public board as it is. A press on an
        out-of-date board (a double click) redraws the board as it is now, with no note on it,
        and tells the presser privately why nothing was played.
        """
        reply = answer.reply
        assert reply is not None
        if reply.kind is ReplyKind.ERROR or reply.game is None or reply.game_id != game_id:
            await self._ephemeral(interaction, reply.message or N_("That can't be done."))
            answer.answered = True
            return
        stale = reply.kind is ReplyKind.STALE
        message = await self._draw(actor, reply, note="" if stale else None)
        await self._first(interaction).respond(
            lambda: interaction.response.edit_message(**message.edit_kwargs()),
            lambda: interaction.edit_original_response(**message.edit_kwargs()),  # deferred by the safety timer
        )
        answer.board_shown = True
        if not bot_is_in(interaction):
            answer.edit_shown = interaction.edit_original_response
        answer.answered = not stale
        if stale:
            out_of_date = speaker(interaction).say(reply.message or N_("That board was out of date."))
            await interaction.followup.send(out_of_date, ephemeral=True)
            answer.answered = True

    async def _ephemeral(
        self, interaction: discord.Interaction, text: str, *, view: discord.ui.View | None = None
    ) -> None:
        """A private sentence: the first answer, or in a private deferral's place, or a private follow-up."""
        shown = view if view is not None else discord.utils.MISSING
        text = speaker(interaction).say(text)
        first = self._first(interaction)
        await first.respond(
            lambda: interaction.response.send_message(text, ephemeral=True, view=shown),
            lambda: first.resolved(
                public=False, edit=lambda: interaction.edit_original_response(content=text, view=view),
                follow=lambda: interaction.followup.send(text, ephemeral=True, view=shown),
            ),
        )

    async def show_ended(self, game_id: int) -> None:
        """Redraw the board of a game that ended without its player (its challenge closed), if it has one."""
        found = await self.service.board_of(game_id)
        if found is None:
            return
        owner, reply = found
        await self._edit_board(reply.board_channel_id, reply, await self._draw(owner, reply))

    async def follow(self, game_id: int, owner: PlayerKey) -> None:
        """Redraw a game's board message after a change made outside this table's answers (:mod:`gatebot.bot.follow`).

        In the owner's turn, so an answer under way draws first; then nothing is done when this
        table drew that version already, when the game has no board message (unless it is a challenge
        attempt: :meth:`_unboarded_attempt` counts it, and posts it once won), or when its channel belongs to
        another process's shards. A deleted board (404) is forgotten, so the next
        command posts a fresh one; a board the bot may no longer edit (403) is left. Other
        failures are raised, for the follower to try again.
        """
        async with self._turn(Actor(owner[0], owner[1], "")):
            found = await self.service.board_of(game_id)
            if found is None:
                return
            player, reply = found
            channel_id, message_id = reply.board_channel_id, reply.board_message_id
            if self._drawn.get(game_id) == reply.version:
                return
            if channel_id is None or message_id is None:
                await self._unboarded_attempt(game_id, player, reply)
                return
            if not await self._runs_shard_of(channel_id):
                return  # another process runs the shard of that channel's server
            board = await self._draw(player, reply)
            try:
                await board.edit(self.client, channel_id, message_id)
            except discord.NotFound:
                log.info("board %s of game %s was deleted: the next command posts a fresh one", message_id, game_id)
                self._drawn.pop(game_id, None)
                await self.service.forget_board_message(game_id, message_id)
            except discord.Forbidden as error:
                log.info("board %s of game %s can't be edited (%s)", message_id, game_id, error.code)
            except BaseException:
                self._drawn.pop(game_id, None)  # not shown: the next try draws it again
                raise

    async def _unboarded_attempt(self, game_id: int, player: Actor, reply: Reply) -> None:
        """A game with no board in chat changed elsewhere: if it is a challenge attempt, count it, and post it once won.

        Such an attempt was begun away from chat (the Activity's Play). The first change this process
        sees of it redraws its challenge's announcement with the count of players, as chat's Play does.
        Once won, its board is posted as a win in chat shows (the board at its end, with the win message,
        Share result, Play again and Replay) where chat would show it: in the channel of its challenge's
        announcement (the server's record, never one a page names), by the process running that channel's
        shard. Recorded as the game's board, it is not posted again. A channel the bot may not post in is
        logged and skipped; other failures are raised, for the follower to try again. Another game with no
        board has no channel of its own, and nothing is posted for it.
        """
        if self.home is None:
            return
        if game_id in self._not_attempts:
            return
        channel_id = await self.home(game_id)  # read each time: a server's challenges may be deleted
        if channel_id is None:
            self._not_attempts[game_id] = True  # a game never becomes an attempt later
            return
        if not await self._runs_shard_of(channel_id):
            return
        if game_id not in self._counted and self.recount is not None:
            # Begun away from chat (the Activity's Play): its announcement counts it, as chat's Play does.
            self._counted[game_id] = True
            await self.recount(game_id)
        if reply.status is not GameStatus.WON:
            return
        board = await self._draw(player, reply)
        try:
            sent = await self.client.get_partial_messageable(channel_id).send(**board.send_kwargs())
        except (discord.NotFound, discord.Forbidden) as error:
            log.info("the won board of game %s can't be posted in channel %s (%s)", game_id, channel_id, error.code)
            return
        except BaseException:
            self._drawn.pop(game_id, None)  # not shown: the next try draws it again
            raise
        await self.service.set_board_message(game_id, channel_id, sent.id)

    async def _runs_shard_of(self, channel_id: int) -> bool:
        """Whether this process runs the shard that a channel's events come through, so its boards are ours to edit.

        Always, when it runs every shard. Else a channel in discord.py's cache is ours; one that is
        not may still be: a direct message (shard 0's) that only interactions came from is never
        cached, nor is a thread the bot was not shown. Such a channel is looked up once (GET
        /channels/{id}) and its shard remembered: its server's by Discord's ``(id >> 22) % shards``,
        shard 0 for a direct message. A channel the bot can't see is nobody's.
        """
        shard_ids = getattr(self.client, "shard_ids", None)
        if shard_ids is None or self.client.get_channel(channel_id) is not None:
            return True
        if channel_id in self._channel_shards:
            shard = self._channel_shards[channel_id]
        else:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                shard = None
            else:
                guild = getattr(channel, "guild", None)
                shard = 0 if guild is None else (guild.id >> 22) % (getattr(self.client, "shard_count", None) or 1)
            self._channel_shards[channel_id] = shard
        return shard is not None and shard in shard_ids

    # -- typed moves ----------------------------------------------------------------------

    async def typed(
        self, message: discord.Message, text: str, request: Callable[[Actor], Awaitable[Reply]] | None = None
    ) -> None:
        """Moves typed in a message: play them, update the board, mark the message ✅ or ❌.

        ``request`` is the service request the message makes when it is not a line of moves
        (``@Gate undo``).
        """
        actor = message_actor(message)
        said = _Said(message, reader(actor.locale))
        try:
            owner = await self._replied_board_owner(message)
            if owner is not None and owner.user_id != actor.user_id:
                await said.refuse(_("That's {name}'s board: reply to your own board, "
                                    "or start a game of your own with /gate new.", name=owner.display_name))
                return
            async with self._turn(actor):
                said.reply = await (request(actor) if request is not None else self.service.play(actor, text))
                await self._typed_answer(said, actor, said.reply)
                await self._offer_end(actor, said.reply, message.channel.id)
            metrics.served("typed moves")
        except Exception as error:
            await said.failed(error, "typed moves")

    async def typed_hint(self, message: discord.Message) -> None:
        """A hint asked for in chat: answered as a reply to the asking message (in a DM, privately)."""
        actor = message_actor(message)
        said = _Said(message, reader(actor.locale))
        try:
            async with self._turn(actor), _typing(message.channel):
                with metrics.HINT_SECONDS.time():
                    reply = await self.service.hint(actor)
            await said.say(reply.message or NO_HINT)
            async with self._turn(actor):
                await self._show_board_change(actor, reply, message.channel.id)
            metrics.served("typed hint")
        except Exception as error:
            await said.failed(error, "a typed hint")

    async def _typed_answer(self, said: _Said, actor: Actor, reply: Reply) -> None:
        """✅ and the board updated when something was saved; otherwise ❌ and the refusal, and no board edit."""
        if not reply.saved:
            await said.refuse(reply.message or N_("That can't be played."))
            return
        await said.react("✅")
        if reply.game is None:
            return
        board = await self._draw(actor, reply)
        channel = said.message.channel
        try:
            edited = await self._edit_board(channel.id, reply, board)
            if not edited:
                sent = await channel.send(**board.send_kwargs())
                if reply.game_id is not None:
                    await self.service.set_board_message(reply.game_id, channel.id, sent.id)
                    said.reply = replace(reply, board_channel_id=channel.id, board_message_id=sent.id)
        except DELIVERY_ERRORS as error:
            log_failure(error, "the board of game %s in channel %s", reply.game_id, channel.id)
            await said.say(apology(reply))
            return
        if edited and reply.message and reply.status is not None and not reply.status.finished:
            # The board may be far up the channel: why the rest of a line wasn't played goes next to the
            # message too. The end of a game is said once, on the board.
            await said.say(reply.message)

    async def _replied_board_owner(self, message: discord.Message) -> Actor | None:
        """The owner of the board a message replies to, if it replies to one of gatebot's boards."""
        reference = message.reference
        replied = reference.resolved if reference is not None else None
        if not isinstance(replied, discord.Message):
            return None
        game_id = board_game_id(replied)
        if game_id is None:
            return None
        return await self.service.owner_of(game_id)

    # -- drawing --------------------------------------------------------------------------

    async def _draw(self, actor: Actor, reply: Reply, *, note: str | None = None) -> BoardMessage:
        """The reply's board in its player's style and language (a reply made by hand asks for them).

        A board is its player's message: said in their own language whoever's message edits it.
        """
        preferences = reply.preferences or await self.service.preferences(actor)
        language = reader(preferences.locale or actor.locale)
        drawn = await board_message(reply, preferences, self.components, note=note, language=language)
        if reply.game_id is not None and reply.version is not None:
            self._drawn[reply.game_id] = reply.version  # a change the table draws itself needs no redraw (follow)
        return drawn

    async def _edit_board(self, channel_id: int | None, reply: Reply, board: BoardMessage) -> bool:
        """Edit the game's board message if it is in ``channel_id``; False if there is none the bot may edit.

        The reply says where the board message is. A board deleted meanwhile (404) or in a
        channel the bot lost access to (403) is not an error: the caller posts a fresh board
        instead. Other failures are raised.
        """
        if reply.game_id is None or channel_id is None:
            return False
        board_channel, message_id = reply.board_channel_id, reply.board_message_id
        if board_channel != channel_id or message_id is None:
            return False
        try:
            await board.edit(self.client, channel_id, message_id)
        except (discord.NotFound, discord.Forbidden) as error:
            log.info("board %s of game %s can't be edited (%s): posting a fresh one", message_id, reply.game_id,
                     error.status)
            return False
        return True


class _Said:
    """What the bot has said about one typed message: one reaction and at most one reply."""

    def __init__(self, message: discord.Message, language: Translator) -> None:
        self.message = message
        #: Everything said about the message is said in this language (its server's).
        self.language = language
        self.reply: Reply | None = None
        self.reacted: str | None = None
        self.replied = False

    async def react(self, emoji: str) -> None:
        if self.reacted is not None:
            return
        self.reacted = emoji
        try:
            await self.message.add_reaction(emoji)
        except DELIVERY_ERRORS as error:
            log.info("could not react to message %s: %s", self.message.id, error)

    async def say(self, text: str) -> None:
        """Reply once; a second sentence for the same message is dropped (and logged)."""
        if self.replied:
            log.info("not replying twice to message %s: %r", self.message.id, text)
            return
        self.replied = True
        try:
            await self.message.reply(self.language.say(text), mention_author=False)
        except discord.Forbidden as error:
            log.info("may not reply in channel %s (%s): answering in the author's DM", self.message.channel.id,
                     error.code)
            await self._by_dm(text)
        except DELIVERY_ERRORS as error:
            log.warning("could not reply to message %s: %s", self.message.id, error)

    async def _by_dm(self, text: str) -> None:
        """Where the bot may not post: the answer in the author's DM, and a reaction that says where it went.

        📨 when the DM arrived; ❌ when it didn't either (the author's DMs are closed), so the
        message never goes without a sign. A typed move already has its ✅ or ❌, which stays.
        """
        channel = getattr(self.message.channel, "mention", None) or _("that channel")
        note = self.language.say(_("I may not post in {channel}, so here is my answer: {answer}",
                                   channel=channel, answer=self.language.say(text)))
        try:
            await self.message.author.send(note)
        except DELIVERY_ERRORS as error:
            log.info("could not answer user %s by DM either: %s", self.message.author.id, error)
            await self.react("❌")
            return
        await self.react("📨")

    async def refuse(self, text: str) -> None:
        await self.react("❌")
        await self.say(text)

    async def failed(self, error: Exception, what: str) -> None:
        """The boundary for a typed message: the user's mistake, or the truth about a failure."""
        if isinstance(error, UserError) and str(error):
            await self.refuse(message_of(error))
            return
        log_failure(error, "%s from user %s in channel %s", what, self.message.author.id, self.message.channel.id)
        saved = self.reply is not None and self.reply.saved
        if saved:
            await self.react("✅")
            await self.say(apology(self.reply))
        else:
            await self.refuse(APOLOGY)


@contextlib.asynccontextmanager
async def _typing(channel: discord.abc.Messageable) -> AsyncIterator[None]:
    """Show "typing…" while a hint is worked out, where the bot may; the hint comes either way."""
    typing = channel.typing()
    entered = False
    try:
        await typing.__aenter__()
        entered = True
    except DELIVERY_ERRORS as error:
        log.info("could not show typing in channel %s: %s", getattr(channel, "id", "?"), error)
    try:
        yield
    finally:
        if entered:
            with contextlib.suppress(*DELIVERY_ERRORS):
                await typing.__aexit__(None, None, None)


def _ack(reply: Reply) -> str:
    """The private line for a command whose board was edited in place.

    It carries the reply's sentence while the game goes on ("Took back 3f and d."); the end of a
    game is said once, on the board, so then it only points there.
    """
    over = reply.status is not None and reply.status.finished
    head: str
    if len(reply.played) > ACK_MOVES:
        head = _("Played {count} moves.", count=len(reply.played))
        shown = _("Played {count} moves: the board shows it.", count=len(reply.played))
    elif reply.played:
        head = _("Played {moves}.", moves=", ".join(reply.played))
        shown = _("Played {moves}: the board shows it.", moves=", ".join(reply.played))
    else:
        head, shown = "", _("Done: the board shows it.")
    if reply.message and not over:
        return joined(head, reply.message)
    return shown
