"""Playing one's own game on Discord: the ``/gate`` commands and typed moves.

The extension's :func:`setup` adds the ``/gate`` cog, which registers the boards' components
(the bot's table's, :mod:`gatebot.bot.table`) while it is loaded, and the reader of typed
moves, both handed the bot's services.
"""

from __future__ import annotations

from gatebot.bot.games._cog import Games
from gatebot.bot.games._typed import TypedMoves
from gatebot.bot.services import ServedBot

__all__ = ["setup"]


async def setup(bot: ServedBot) -> None:
    """Add ``/gate`` and the typed moves, over the bot's services."""
    await bot.add_cog(Games(bot, bot.services))
    await bot.add_cog(TypedMoves(bot, bot.services))
