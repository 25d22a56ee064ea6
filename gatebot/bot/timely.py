"""Answering on time, and once: an interaction still being worked on is acknowledged before Discord gives up.

Discord waits 3 seconds for the first answer to an interaction and then shows the person
"The application did not respond", however good the answer that arrives later. Every
interaction the bot answers has one :class:`FirstAnswer`, which sends that first answer (the
callback) exactly once, whoever sends it: the work's own answer, or the safety net that defers
after ``after`` seconds. Its lock is held across each callback, so the safety net waits for an
answer already in flight rather than sending a second one. Whether Discord holds an answer is
decided by what Discord says: a callback whose connection broke before Discord's answer is
sent again, and "already acknowledged" (40060) to that means the first had arrived.

A deferral's visibility is the answer's: a private answer is deferred privately, and whatever
was deferred is replaced by the answer (a "thinking…" message is edited into it), never left
behind. :class:`OnTime` is that safety net for every command and button outside a game's table
(:class:`gatebot.bot.table.Table` keeps its own timer over the same :class:`FirstAnswer`): if the
answer isn't sent within ``after`` seconds, the interaction is deferred (a command shows
"gatebot is thinking…", a button keeps its message as it is), and the answer then arrives as an
edit of that acknowledgement. The answer is sent the same way either way, through
:meth:`OnTime.send` or :meth:`OnTime.update`, so a handler never needs to know which happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any

import aiohttp
import discord
from discord.utils import MISSING

from gatebot.bot.errors import ALREADY_ANSWERED, DELIVERY_ERRORS

log = logging.getLogger(__name__)

#: Seconds after which an interaction still being worked on is acknowledged (Discord allows 3).
SAFETY_DEFER = 2.0
#: Failures after which only Discord knows whether it took the request: the connection broke before its answer.
UNCERTAIN: tuple[type[BaseException], ...] = (aiohttp.ClientError, OSError, asyncio.TimeoutError)


class FirstAnswer:
    """The first answer to one interaction (its callback): sent once, by whichever of its senders comes first.

    Every callback goes through :meth:`respond` or :meth:`defer`, which hold :attr:`lock` until
    Discord has answered, so a second sender waits and then finds the first answer given.
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.lock = asyncio.Lock()
        #: Discord said it holds an answer that discord.py saw fail (it acknowledged it: 40060).
        self.taken = False
        #: A deferral still showing "thinking…": True when it is private, False when public, None when there is none.
        self.thinking: bool | None = None

    def is_done(self) -> bool:
        """Whether Discord holds the first answer (so the rest goes by follow-ups and edits)."""
        return self.taken or self.interaction.response.is_done()

    async def respond(self, first: Callable[[], Awaitable[Any]], later: Callable[[], Awaitable[Any]]) -> None:
        """Send ``first`` as the interaction's callback, or ``later`` once it has one."""
        async with self.lock:
            if self.is_done():
                await later()
            else:
                await self._callback(first)

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        """Acknowledge the interaction now unless it was answered: privately when ``ephemeral``.

        ``thinking`` shows "thinking…" until the answer takes its place (a command's answer, or a
        button's new message); without it a button's message simply stays as it is.
        """
        async with self.lock:
            if self.is_done():
                return
            response = self.interaction.response
            try:
                await self._callback(lambda: response.defer(ephemeral=ephemeral, thinking=thinking))
            except DELIVERY_ERRORS as error:
                log.warning("could not defer interaction %s: %s", self.interaction.id, error)
                return
            if thinking:
                self.thinking = ephemeral

    async def _callback(self, send: Callable[[], Awaitable[Any]]) -> None:
        """Send a callback (the lock held): again after a broken connection; Discord's 40060 means it arrived."""
        try:
            await self._refused_if_taken(send)
        except UNCERTAIN as error:
            log.warning("interaction %s: the answer's connection broke (%s): sending it again",
                        self.interaction.id, type(error).__name__)
            await self._refused_if_taken(send)

    async def _refused_if_taken(self, send: Callable[[], Awaitable[Any]]) -> None:
        try:
            await send()
        except discord.HTTPException as error:
            if error.code != ALREADY_ANSWERED:
                raise
            # Discord acted on an attempt whose answer was lost (a dropped socket, or a 500 discord.py retried).
            log.info("interaction %s: Discord already had the answer", self.interaction.id)
            self.taken = True

    async def resolved(
        self, *, public: bool, edit: Callable[[], Awaitable[Any]], follow: Callable[[], Awaitable[Any]]
    ) -> None:
        """After the first answer: ``edit`` the "thinking…" into the answer, or ``follow`` it up.

        ``public``: whether the answer is for everyone. A deferral of the other visibility is
        deleted and the answer follows up instead, so no "thinking…" is left behind (the lock held).
        """
        thinking, self.thinking = self.thinking, None
        if thinking is None:
            await follow()
            return
        if thinking is not public:  # private "thinking…" for a private answer, or public for a public one
            await edit()
            return
        with contextlib.suppress(*DELIVERY_ERRORS):
            await self.interaction.delete_original_response()
        await follow()


class OnTime:
    """One interaction's answer, acknowledged first if it takes longer than ``after`` seconds.

    ``ephemeral``: whether the answer is a message only its reader sees. Discord fixes that
    when the interaction is deferred, so it must be said before the work begins.
    ``edits``: the answer rewrites the message the pressed button is on (:meth:`update`);
    the acknowledgement then leaves that message as it is. Otherwise the answer is a new
    message (:meth:`send`) and the acknowledgement shows "thinking…" in its place.

    Use as ``async with OnTime(interaction, after=…) as answer: … await answer.send(…)``.
    """

    def __init__(
        self, interaction: discord.Interaction, *, after: float = SAFETY_DEFER, ephemeral: bool = False,
        edits: bool = False,
    ) -> None:
        self.interaction = interaction
        self.after = after
        self.ephemeral = ephemeral
        self.edits = edits
        #: The interaction's one first answer, which the safety deferral and the answer share.
        self.first = FirstAnswer(interaction)
        self._timer: asyncio.Task[None] | None = None

    async def __aenter__(self) -> OnTime:
        self._timer = asyncio.create_task(self._defer_later())
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._timer is not None:
            self._timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer

    async def _defer_later(self) -> None:
        await asyncio.sleep(self.after)
        await self.first.defer(ephemeral=self.ephemeral and not self.edits, thinking=not self.edits)

    async def send(
        self, content: str | None, *, view: discord.ui.View | None = None, file: discord.File | None = None,
        embed: discord.Embed | None = None,
    ) -> None:
        """Answer a command with a message (``ephemeral`` as given).

        After a deferral this is the acknowledgement edited into the answer, so the person sees
        one message either way; ``interaction.original_response()`` is that message.
        """
        interaction = self.interaction
        extra: dict[str, Any] = {"ephemeral": self.ephemeral}
        if view is not None:
            extra["view"] = view
        if file is not None:
            extra["file"] = file
        if embed is not None:
            extra["embed"] = embed
        await self.first.respond(
            lambda: interaction.response.send_message(content, **extra),
            lambda: interaction.edit_original_response(
                content=content, view=view, embed=embed, attachments=[file] if file is not None else MISSING
            ),
        )

    async def send_privately(
        self, content: str | None, *, note: str, view: discord.ui.View | None = None,
        file: discord.File | None = None, embed: discord.Embed | None = None,
    ) -> None:
        """Answer a command with a message only its reader sees, whatever a deferral fixed.

        A public "thinking…" already shown becomes ``note`` (a sentence that reveals nothing)
        and the answer follows it privately.
        """
        extra: dict[str, Any] = {"ephemeral": True}
        for key, value in (("view", view), ("file", file), ("embed", embed)):
            if value is not None:
                extra[key] = value
        interaction = self.interaction

        async def later() -> None:
            if self.ephemeral:
                await interaction.edit_original_response(
                    content=content, view=view, embed=embed, attachments=[file] if file is not None else MISSING
                )
            else:
                await interaction.edit_original_response(content=note)
                await interaction.followup.send(content or MISSING, **extra)

        await self.first.respond(lambda: interaction.response.send_message(content, **extra), later)

    async def refuse(self, content: str) -> None:
        """Answer with a short refusal: privately while nothing is shown yet, else in the acknowledgement's place.

        A deferral has already fixed whether the answer is private (for a card to share, it
        isn't); the sentence then takes the "thinking…" message's place rather than leave it
        hanging beside a private reply.
        """
        interaction = self.interaction
        await self.first.respond(
            lambda: interaction.response.send_message(content, ephemeral=True),
            lambda: interaction.edit_original_response(content=content),
        )

    async def update(
        self, content: str | None, *, view: discord.ui.View | None = None, embed: discord.Embed | None = None,
        attachments: list[discord.File] | None = None,
    ) -> None:
        """Answer a button by rewriting the message it is on (``view`` None: no buttons left).

        ``attachments`` None keeps the message's pictures; a list replaces them.
        """
        edits: dict[str, Any] = {"content": content, "view": view, "embed": embed}
        if attachments is not None:
            edits["attachments"] = attachments
        interaction = self.interaction
        await self.first.respond(
            lambda: interaction.response.edit_message(**edits),
            lambda: interaction.edit_original_response(**edits),
        )
