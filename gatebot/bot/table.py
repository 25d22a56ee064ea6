"""Where a game meets a channel: turns service replies into board messages, edited in place.

Every front door of the bot — slash commands, button presses, typed moves — ends here,
so one game keeps one board message, and the rules for answering within Discord's
three seconds (answer or defer first, draw images in a thread) live in one place.

Hints are private: a slash command or a button press is deferred ephemerally at once (the
hint engine thinks for up to a second) and answered by editing that private reply; a hint
asked in chat is a reply to the asking message. Once a change leaves the stock out, the
solver is asked, after the answer has gone, whether a win is left; when none is, the board
is redrawn with the offer and an End game button.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable

import discord

from gatebot.bot.actors import interaction_actor, message_actor
from gatebot.bot.boards import BoardMessage, board_message
from gatebot.service import Actor, GameService, Reply, ReplyKind

log = logging.getLogger(__name__)

#: Seconds after which an interaction still being worked on is acknowledged (Discord allows 3).
SAFETY_DEFER = 2.0


class Table:
    """Answers players with boards, through the service."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        self._turns: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._answering: dict[int, asyncio.Lock] = {}

    def _guard(self, interaction: discord.Interaction) -> asyncio.Lock:
        """Held while answering an interaction, so the safety defer and the answer never both respond."""
        return self._answering.setdefault(interaction.id, asyncio.Lock())

    async def _on_time(self, interaction: discord.Interaction, work: Awaitable[None], *, thinking: bool) -> None:
        """Run ``work``, which answers ``interaction``; acknowledge first if it runs long.

        Under load a request can wait for the player's turn or for the database; after
        :data:`SAFETY_DEFER` seconds the interaction is deferred (Discord then waits 15
        minutes), and the work's answer arrives as a follow-up or an edit.
        """
        task = asyncio.ensure_future(work)
        try:
            done, _ = await asyncio.wait({task}, timeout=SAFETY_DEFER)
            if not done:
                async with self._guard(interaction):
                    if not interaction.response.is_done():
                        with contextlib.suppress(discord.HTTPException):
                            await interaction.response.defer(thinking=thinking)
            await task
        finally:
            self._answering.pop(interaction.id, None)

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

        async def work() -> None:
            async with self._turn(actor):
                reply = await request(actor)
                await self.answer(interaction, reply, new_board=new_board, confirm=confirm)
                await self._offer_end(actor, reply, interaction.channel_id)

        await self._on_time(interaction, work(), thinking=True)

    async def answer(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        *,
        new_board: bool = False,
        confirm: Callable[[], discord.ui.View] | None = None,
    ) -> None:
        """Answer an interaction with ``reply`` (in the player's turn: see :meth:`command`).

        An error is one ephemeral sentence, and a question one with ``confirm``'s buttons. A
        changed game updates its board message in place when it is in this channel (the
        command gets a short ephemeral line); otherwise, or with ``new_board``, the answer is
        a fresh board, which becomes the game's board.
        """
        if reply.kind is ReplyKind.CONFIRM and confirm is not None:
            await self._ephemeral(interaction, reply.message or "Are you sure?", view=confirm())
            return
        if reply.private or reply.game is None:
            await self._ephemeral(interaction, reply.message or "That can't be done.")
            return
        actor = interaction_actor(interaction)
        message = await self._draw(actor, reply)
        if not new_board and await self._edit_board(interaction.channel_id, reply, message):
            await self._ephemeral(interaction, _ack(reply))
            return
        async with self._guard(interaction):
            if interaction.response.is_done():
                sent = await interaction.followup.send(wait=True, **message.send_kwargs())
            else:
                await interaction.response.send_message(**message.send_kwargs())
                sent = await interaction.original_response()
        if reply.game_id is not None and interaction.channel_id is not None:
            await self.service.set_board_message(reply.game_id, interaction.channel_id, sent.id)

    async def press(self, interaction: discord.Interaction, action: str, game_id: int, version: int) -> None:
        """A board component was used: act on that board's game and redraw that message."""
        if action == "hint":
            await self.hint(interaction, game_id=game_id, version=version)
            return
        actor = interaction_actor(interaction)

        async def work() -> None:
            async with self._turn(actor):
                reply = await self.service.act(actor, action, expected_version=version, game_id=game_id)
                await self._redraw(interaction, actor, reply, game_id)
                await self._offer_end(actor, reply, interaction.channel_id)

        await self._on_time(interaction, work(), thinking=False)

    async def hint(self, interaction: discord.Interaction, *, game_id: int | None = None,
                   version: int | None = None) -> None:
        """A hint for the asker only: ``/gate hint``, or the Hint button of the board ``game_id`` at ``version``.

        Deferred ephemerally before the service is asked, then answered by editing that
        private reply. A press on an out-of-date board also redraws the board as it is now.
        """
        actor = interaction_actor(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self._turn(actor):
            reply = await self.service.hint(actor, game_id=game_id, expected_version=version)
            await self._show_board_change(actor, reply, interaction.channel_id)
        await interaction.edit_original_response(content=reply.message or "I have no hint for you right now.")

    async def _show_board_change(self, actor: Actor, reply: Reply, channel_id: int | None) -> None:
        """After a hint: redraw a board that was out of date, or one that should now offer End game."""
        if reply.game is None or not (reply.kind is ReplyKind.STALE or "end" in reply.actions):
            return
        board = await self._draw(actor, reply, note="")  # the hint itself is the asker's alone
        await self._edit_board(channel_id, reply, board)

    async def _offer_end(self, actor: Actor, reply: Reply, channel_id: int | None) -> None:
        """After a change has been answered: if the solver proves no win is left, redraw the board with the offer."""
        if reply.game is None or reply.game.stock_count or not reply.ok:
            return
        offer = await self.service.end_offer(reply)
        if offer is not None:
            await self._edit_board(channel_id, offer, await self._draw(actor, offer))

    async def _redraw(self, interaction: discord.Interaction, actor: Actor, reply: Reply, game_id: int) -> None:
        if reply.kind is ReplyKind.ERROR and (reply.game is None or reply.game_id != game_id):
            await self._ephemeral(interaction, reply.message or "That can't be done.")
            return
        if reply.game is None:
            await self._ephemeral(interaction, reply.message or "That board can't be shown.")
            return
        note = None if reply.kind is ReplyKind.STALE else reply.message
        message = await self._draw(actor, reply, note=note)
        async with self._guard(interaction):
            if interaction.response.is_done():  # deferred by the safety timer
                await interaction.edit_original_response(**message.edit_kwargs())
            else:
                await interaction.response.edit_message(**message.edit_kwargs())
        if reply.kind is ReplyKind.STALE and reply.message:
            await interaction.followup.send(reply.message, ephemeral=True)

    async def _ephemeral(
        self, interaction: discord.Interaction, text: str, *, view: discord.ui.View | None = None
    ) -> None:
        extra = {} if view is None else {"view": view}
        async with self._guard(interaction):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, **extra)
            else:
                await interaction.response.send_message(text, ephemeral=True, **extra)

    async def show_ended(self, game_id: int) -> None:
        """Redraw the board of a game that ended without its player (its challenge closed), if it has one."""
        found = await self.service.board_of(game_id)
        if found is None:
            return
        owner, reply = found
        channel_id, _ = await self.service.board_message(game_id)
        await self._edit_board(channel_id, reply, await self._draw(owner, reply))

    # -- typed moves ----------------------------------------------------------------------

    async def typed(self, message: discord.Message, text: str) -> None:
        """Moves typed in a message: play them, update the board, mark the message ✅ or ❌."""
        actor = message_actor(message)
        async with self._turn(actor):
            reply = await self.service.play(actor, text)
            await self._typed_answer(message, actor, reply)
            await self._offer_end(actor, reply, message.channel.id)

    async def typed_hint(self, message: discord.Message) -> None:
        """A hint asked for in chat: answered as a reply to the asking message (in a DM, privately)."""
        actor = message_actor(message)
        async with self._turn(actor), message.channel.typing():
            reply = await self.service.hint(actor)
            await self._show_board_change(actor, reply, message.channel.id)
        await message.reply(reply.message or "I have no hint for you right now.", mention_author=False)

    async def _typed_answer(self, message: discord.Message, actor: Actor, reply: Reply) -> None:
        if reply.game is None:
            await _react(message, "❌")
            await message.reply(reply.message or "That can't be played.", mention_author=False)
            return
        board = await self._draw(actor, reply, note=None)
        if not await self._edit_board(message.channel.id, reply, board):
            sent = await message.channel.send(**board.send_kwargs())
            if reply.game_id is not None:
                await self.service.set_board_message(reply.game_id, message.channel.id, sent.id)
        if reply.played:
            await _react(message, "✅")
        if reply.message:
            if not reply.played:
                await _react(message, "❌")
            await message.reply(reply.message, mention_author=False)

    # -- drawing --------------------------------------------------------------------------

    async def _draw(self, actor: Actor, reply: Reply, *, note: str | None = None) -> BoardMessage:
        preferences = await self.service.preferences(actor)
        return await board_message(reply, preferences, note=note)

    async def _edit_board(self, channel_id: int | None, reply: Reply, board: BoardMessage) -> bool:
        """Edit the game's board message if it is in ``channel_id``; False if there is none to edit."""
        if reply.game_id is None or channel_id is None:
            return False
        board_channel, message_id = await self.service.board_message(reply.game_id)
        if board_channel != channel_id or message_id is None:
            return False
        channel = self.client.get_partial_messageable(channel_id)
        try:
            await channel.get_partial_message(message_id).edit(**board.edit_kwargs())
        except discord.NotFound:
            return False
        return True


def _ack(reply: Reply) -> str:
    if reply.played:
        line = "Played " + ", ".join(reply.played) + "."
        return f"{line} {reply.message}" if reply.message else line
    return reply.message or "Done."




async def _react(message: discord.Message, emoji: str) -> None:
    try:
        await message.add_reaction(emoji)
    except discord.HTTPException:
        log.debug("could not react to message %s", message.id)
