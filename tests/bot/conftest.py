"""Fixtures for end-to-end bot tests: a started fake Discord, and a way to run a bot against it.

``fake`` is a fresh :class:`FakeDiscord` per test; ``start_bot(bot)`` points discord.py at it,
starts ``bot`` in a task and returns once ``on_ready`` has fired; teardown closes the bot (and
re-raises anything its task died of), restores discord.py's URLs, then stops the fake.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest

from tests.bot.running import BotT, StartBot, run_until_ready
from tests.fake_discord import FakeDiscord, use_base_url


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord listening on 127.0.0.1 (default world: "Test Guild", alice and bob)."""
    async with FakeDiscord() as running:
        yield running


@pytest.fixture
async def start_bot(fake: FakeDiscord) -> AsyncIterator[StartBot[discord.Client]]:
    """``await start_bot(bot)``: run ``bot`` against ``fake`` until the test ends."""
    restore = use_base_url(fake.api_base)
    running: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def start(bot: BotT) -> BotT:
        task = await run_until_ready(bot, fake.token)
        running.append((bot, task))
        return bot

    try:
        yield start  # type: ignore[misc]
    finally:
        try:
            for bot, task in running:
                await bot.close()
                await task
        finally:
            restore()
