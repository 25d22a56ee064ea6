"""Answering on time: an interaction still being worked on is acknowledged before Discord gives up.

Discord waits 3 seconds for the first answer to an interaction and then shows the person
"The application did not respond", however good the answer that arrives later. A game's
requests are covered by the game table's own deferral (:class:`gatebot.bot.table.Table`);
:class:`OnTime` gives every other command and button the same safety net: if the answer
isn't sent within ``after`` seconds, the interaction is deferred (a command shows "gatebot
is thinking…", a button keeps its message as it is), and the answer then arrives as an
edit of that acknowledgement. The answer is sent the same way either way, through
:meth:`OnTime.send` or :meth:`OnTime.update`, so a handler never needs to know which
happened; one lock keeps the deferral and the answer from both responding.
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from typing import Any

import discord
from discord.utils import MISSING

from gatebot.bot.errors import DELIVERY_ERRORS

#: Seconds after which an interaction still being worked on is acknowledged (Discord allows 3).
SAFETY_DEFER = 2.0


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
        self._lock = asyncio.Lock()
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
        async with self._lock:
            response = self.interaction.response
            if response.is_done():
                return
            with contextlib.suppress(*DELIVERY_ERRORS):
                if self.edits:
                    await response.defer()
                else:
                    await response.defer(ephemeral=self.ephemeral, thinking=True)

    async def send(
        self, content: str | None, *, view: discord.ui.View | None = None, file: discord.File | None = None,
        embed: discord.Embed | None = None,
    ) -> None:
        """Answer a command with a message (``ephemeral`` as given).

        After a deferral this is the acknowledgement edited into the answer, so the person sees
        one message either way; ``interaction.original_response()`` is that message.
        """
        async with self._lock:
            interaction = self.interaction
            if interaction.response.is_done():
                await interaction.edit_original_response(
                    content=content, view=view, embed=embed, attachments=[file] if file is not None else MISSING
                )
                return
            extra: dict[str, Any] = {"ephemeral": self.ephemeral}
            if view is not None:
                extra["view"] = view
            if file is not None:
                extra["file"] = file
            if embed is not None:
                extra["embed"] = embed
            await interaction.response.send_message(content, **extra)

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
        async with self._lock:
            interaction = self.interaction
            if not interaction.response.is_done():
                await interaction.response.send_message(content, **extra)
            elif self.ephemeral:
                await interaction.edit_original_response(
                    content=content, view=view, embed=embed, attachments=[file] if file is not None else MISSING
                )
            else:
                await interaction.edit_original_response(content=note)
                await interaction.followup.send(content or MISSING, **extra)

    async def refuse(self, content: str) -> None:
        """Answer with a short refusal: privately while nothing is shown yet, else in the acknowledgement's place.

        A deferral has already fixed whether the answer is private (for a card to share, it
        isn't); the sentence then takes the "thinking…" message's place rather than leave it
        hanging beside a private reply.
        """
        async with self._lock:
            interaction = self.interaction
            if interaction.response.is_done():
                await interaction.edit_original_response(content=content)
            else:
                await interaction.response.send_message(content, ephemeral=True)

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
        async with self._lock:
            interaction = self.interaction
            if interaction.response.is_done():
                await interaction.edit_original_response(**edits)
            else:
                await interaction.response.edit_message(**edits)
