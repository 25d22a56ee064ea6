"""A service reply as a Discord board message, in the player's chosen style.

The text, emoji and words boards are message content (the words board plain sentences, no
code block, so a screen reader reads it as prose); the image board is a PNG attached to an
embed, drawn in a worker thread so the event loop keeps answering other interactions, with
the position in words as its description (Discord's alt text). A player's compact layout is
the phone board among pictures (large indices, at most eight cards across), as it is the
narrow board among text and emoji boards. A player's four-colour deck paints the image and
emoji boards.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import handle_message_parameters

from gatebot.bot.language import escape_in_code, escape_name, reader
from gatebot.bot.views import BoardComponents
from gatebot.locale import Translator
from gatebot.render import describe_board, render_spoken, render_text
from gatebot.rules import Game
from gatebot.service import Preferences, Reply

MESSAGE_LIMIT = 2000
#: Discord's limit on an embed's description.
DESCRIPTION_LIMIT = 4096
IMAGE_NAME = "gate-board.png"


@dataclass(slots=True)
class BoardMessage:
    """The parts of a board message, ready for ``send``, ``edit`` or an interaction response."""

    content: str | None = None
    embed: discord.Embed | None = None
    file: discord.File | None = None
    view: discord.ui.View | None = None

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content}
        if self.embed is not None:
            kwargs["embed"] = self.embed
        if self.file is not None:
            kwargs["file"] = self.file
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    async def edit(self, client: discord.Client, channel_id: int, message_id: int) -> None:
        """Edit board message ``message_id`` in ``channel_id`` into this one (as ``edit_kwargs`` say).

        As ``PartialMessage.edit`` does, but without building a :class:`discord.Message` of
        Discord's answer: nothing reads it, and a move's board edit paid for it every time.
        Raises as that does (``NotFound``, ``Forbidden``, ...).
        """
        state: Any = client._connection
        if self.view is not None:
            state.prevent_view_updates_for(message_id)
        with handle_message_parameters(
            content=self.content, embed=self.embed, attachments=[self.file] if self.file is not None else [],
            view=self.view, previous_allowed_mentions=state.allowed_mentions,
        ) as params:
            await client.http.edit_message(channel_id, message_id, params=params)
        if self.view is not None and not self.view.is_finished() and self.view.is_dispatchable():
            state.store_view(self.view, message_id)

    def edit_kwargs(self) -> dict[str, Any]:
        """For editing an existing board: replaces content, embed, attachments and components."""
        return {
            "content": self.content,
            "embed": self.embed,
            "attachments": [self.file] if self.file is not None else [],
            "view": self.view,
        }


async def board_message(
    reply: Reply,
    preferences: Preferences,
    components: BoardComponents,
    *,
    note: str | None = None,
    language: Translator | None = None,
) -> BoardMessage:
    """Draw ``reply``'s game as ``preferences`` ask, with ``note`` (one short line) under it, and ``components``."""
    assert reply.game is not None
    line = note if note is not None else reply.message
    view = components.view(reply, language)
    return await game_message(reply.game, preferences, line, view, language=language, label=reply.label)


async def game_message(
    game: Game,
    preferences: Preferences,
    line: str | None,
    view: discord.ui.View | None,
    *,
    language: Translator | None = None,
    label: str | None = None,
) -> BoardMessage:
    """Draw ``game`` as ``preferences`` ask, with ``line`` under it and ``view``'s components.

    The one drawing of a position for Discord: a board message, and each step of a replay.
    The line and every board's words are in ``language`` (English by default). ``label``
    names the game in the header in place of its deal (a challenge still open), escaped so
    a name shows as typed: no markdown, no mention, no early end of a code block.
    """
    language = language or reader()
    line = language.say(line) if line else line
    if preferences.board_style == "image":
        from gatebot.render.image import PHONE_SCALE, render_png

        phone = preferences.compact
        png = await asyncio.to_thread(
            render_png, game, scale=PHONE_SCALE if phone else 1.0, phone=phone, four_colour=preferences.four_colour,
            language=language, label=label,
        )
        embed = discord.Embed(description=_clip(line, DESCRIPTION_LIMIT) or None, colour=discord.Colour.dark_green())
        embed.set_image(url=f"attachment://{IMAGE_NAME}")
        alt = describe_board(game, language, label=label)
        return BoardMessage(None, embed, discord.File(io.BytesIO(png), filename=IMAGE_NAME, description=alt), view)
    if preferences.board_style == "emoji":
        from gatebot.render import render_emoji

        board = render_emoji(
            game, compact=preferences.compact, four_colour=preferences.four_colour, language=language,
            label=None if label is None else escape_name(label),
        )
    elif preferences.board_style == "words":
        board = render_spoken(game, language, label=None if label is None else escape_name(label))
    else:
        text = render_text(
            game, compact=preferences.compact, language=language, label=None if label is None else escape_in_code(label)
        )
        board = f"```\n{text}\n```"
    return BoardMessage(_with_line(board, line), None, None, view)


def _with_line(board: str, line: str | None) -> str:
    """The board, then the line, trimmed so the message stays within Discord's 2000 characters."""
    if not line:
        return board
    room = MESSAGE_LIMIT - len(board) - 1
    if room <= 1:
        return board
    return f"{board}\n{_clip(line, room)}"


def _clip(line: str | None, room: int) -> str | None:
    """``line`` cut to ``room`` characters, ending in "…" when it was longer."""
    if line is None or len(line) <= room:
        return line
    return line[: room - 1] + "…"
