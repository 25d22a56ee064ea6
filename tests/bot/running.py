"""Running a discord.py client against the fake until on_ready, and stopping it cleanly."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

BotT = TypeVar("BotT", bound=discord.Client)
#: The ``start_bot`` fixture: ``await start_bot(bot)`` returns ``bot`` once it is ready.
StartBot = Callable[[BotT], Awaitable[BotT]]
READY_TIMEOUT = 5.0


async def run_until_ready(bot: discord.Client, token: str) -> asyncio.Task[None]:
    """Start ``bot`` in a task and wait for on_ready; if it dies or stalls first, close it and raise.

    discord.py must already point at the fake (``use_base_url``). The caller owns the returned
    task: ``await bot.close()`` then ``await task`` (which re-raises anything the bot died of).
    """
    task = asyncio.create_task(bot.start(token), name=f"bot {bot!r}")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        await bot.close()
        await task  # re-raises what the bot died of, if anything
        raise TimeoutError(f"the bot was not ready within {READY_TIMEOUT}s")
    return task
