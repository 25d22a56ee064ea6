"""Moves typed in chat: in DMs, after a mention of the bot, and in replies to one's own board.

A message of these that has the word "hint" in it (``@Gate hint``, ``@Gate what now? hint
please``) asks for a hint instead: no move is ever called "hint". ``undo`` (or ``undo 3``)
takes moves back, as ``/gate undo`` does. The German words do the same (``tipp``,
``zurück 3``, also ``zurueck``): every word :mod:`gatebot.locale.commands` has for them.

None of these needs the privileged message-content intent: Discord delivers the content of
DMs, of messages that mention the bot and of replies to it. Servers that grant the intent
can also name channels where bare moves are read (``GATEBOT_MOVE_CHANNELS``).
"""

from __future__ import annotations

import re

import discord
from discord.ext import commands

from gatebot.bot.services import ServedBot, Services
from gatebot.locale.commands import words_for

_MENTION = re.compile(r"<@!?\d+>")


def _any_of(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


#: "hint", "hints", "tipp", "tipps" anywhere in the message (a word of its own).
_HINT = re.compile(rf"\b(?:{_any_of(words_for({'hint'}))})s?\b", re.IGNORECASE)
#: "undo" or "undo 3" (German "zurück 3"): take moves back, as /gate undo does.
_UNDO = re.compile(rf"(?:{_any_of(words_for({'undo'}))})(?:\s+(?P<count>\d{{1,3}}))?", re.IGNORECASE)


class TypedMoves(commands.Cog):
    """Reads typed moves and hands them to the table."""

    def __init__(self, bot: ServedBot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.table = services.table

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        text = self.moves_in(message)
        if not text:
            return
        if text.lower() == "sync" and await self.bot.is_owner(message.author):
            synced = await self.bot.tree.sync()
            await message.reply(f"Synced {len(synced)} commands globally.", mention_author=False)
            return
        if asks_for_hint(text):
            await self.table.typed_hint(message)
            return
        undo = _UNDO.fullmatch(text)
        if undo is not None:
            count = max(1, min(100, int(undo["count"] or 1)))
            await self.table.typed(message, text, lambda actor: self.services.games.undo(actor, count))
            return
        await self.table.typed(message, text)

    def moves_in(self, message: discord.Message) -> str | None:
        """The move text of a message meant for the bot, or None if it isn't one."""
        me = self.bot.user
        if me is None or message.author.bot or message.author.id == me.id:
            return None
        content = message.content.strip()
        if not content:
            return None
        if message.guild is None:
            return content
        if me in message.mentions:
            text = _MENTION.sub(" ", content).strip()
            return text or None
        reference = message.reference
        replied_to = reference.resolved if reference is not None else None
        if isinstance(replied_to, discord.Message) and replied_to.author.id == me.id:
            return content
        if message.channel.id in self.services.settings.move_channel_ids:
            return content
        return None


def asks_for_hint(text: str) -> bool:
    """Whether a message meant for the bot asks for a hint (it has the word "hint" or "tipp" in it)."""
    return _HINT.search(text) is not None
