"""A server's challenges on Discord: ``/challenge``, ``/challenge-admin``, their buttons and announcements.

The extension's :func:`setup` makes the herald (which posts and updates the challenges'
messages) over the bot's services and adds both groups of commands; the ``/challenge`` cog
owns the scheduler that lets time pass for challenges, started once the bot is ready and
stopped when the cog is unloaded.
"""

from __future__ import annotations

from gatebot.bot.challenges._cog import ChallengeAdmin, Challenges
from gatebot.bot.challenges._herald import Herald
from gatebot.bot.services import ServedBot

__all__ = ["setup"]


async def setup(bot: ServedBot) -> None:
    """Add ``/challenge`` (with the scheduler and the buttons) and ``/challenge-admin``, sharing one herald."""
    herald = Herald(bot, bot.services)
    await bot.add_cog(Challenges(bot, bot.services, herald))
    await bot.add_cog(ChallengeAdmin(bot.services, herald))
