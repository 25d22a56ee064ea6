"""Fixtures for end-to-end bot tests: a started fake Discord, and a way to run a bot against it.

``fake`` is a fresh :class:`FakeDiscord` per test; ``start_bot(bot)`` points discord.py at it,
starts ``bot`` in a task and returns once ``on_ready`` has fired; teardown closes the bot (and
re-raises anything its task died of), restores discord.py's URLs, then stops the fake.

``gatebot`` starts the real gatebot on a SQLite file against ``fake`` (``await gatebot()``;
call it again to "restart" it on the same database). It goes by real time unless a module
overrides the ``clock`` fixture with a :class:`~tests.bot.gatebots.Clock`, and takes extra
:class:`GameService` options from ``service_options``. Its challenge scheduler ticks once at
start (awaited) and then only when a test calls ``run.scheduler.run_once()``. The solver and
the hint engine run in a thread of the test's own (a worker process takes seconds to start on
a busy machine, longer than the fake Discord waits for an answer); the service's own worker
process is tested in tests/service/test_hints.py.

``discord_referee`` (autouse) fails a test after every other teardown if any fake Discord it
started saw a request Discord's API description rejects, or answered in a shape it does not
allow (:mod:`tests.fake_discord.referee`); with ``GATEBOT_REFEREE_REPORT=path`` it also appends
what was checked to ``path``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import discord
import pytest

from gatebot.bot.client import GateBot
from gatebot.bot.games.wording import slash_deal_command
from gatebot.service import GameService
from gatebot.settings import Settings
from gatebot.store import Database
from tests.bot.gatebots import Clock, Running
from tests.bot.running import BotT, StartBot, run_until_ready
from tests.fake_discord import FakeDiscord, use_base_url
from tests.fake_discord.referee import REPORT_VARIABLE, Tally, append_report
from tests.fake_discord.server import STARTED


@pytest.fixture(autouse=True)
def discord_referee() -> Iterator[None]:
    """Fail the test if Discord's API description rejected anything a fake it started saw.

    Autouse, so it is set up first and torn down last: requests the bot makes while closing count too.
    """
    STARTED.clear()
    yield
    fakes = list(STARTED)
    STARTED.clear()
    report = os.environ.get(REPORT_VARIABLE)
    if report:
        tally = Tally()
        for fake in fakes:
            tally.requests += fake.state.referee.tally.requests
            tally.responses += fake.state.referee.tally.responses
            tally.operations |= fake.state.referee.tally.operations
        append_report(Path(report), tally)
    problems = [str(violation) for fake in fakes for violation in fake.violations]
    if problems:
        pytest.fail(
            f"{len(problems)} request(s) or answer(s) Discord's API description rejects:\n" + "\n".join(problems),
            pytrace=False,
        )


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


@pytest.fixture
def clock() -> Clock | None:
    """The service's clock: None for real time (modules about time override this)."""
    return None


@pytest.fixture
def service_options() -> dict[str, Any]:
    """Extra options for the game service of ``gatebot`` (modules may override this)."""
    return {}


@pytest.fixture
def settings_options() -> dict[str, Any]:
    """Extra settings of ``gatebot`` (modules may override this: the web table's link, say)."""
    return {}


@pytest.fixture
async def gatebot(
    fake: FakeDiscord, start_bot: StartBot[discord.Client], tmp_path: Path, clock: Clock | None,
    service_options: dict[str, Any], settings_options: dict[str, Any], migrated_sqlite: Path,
) -> AsyncIterator[Callable[[], Awaitable[Running]]]:
    """``await gatebot()`` starts a gatebot on the shared database; call again to 'restart' it.

    Keywords are the bot's own options (``await gatebot(safety_defer=0.1)``). The database
    starts as a copy of one gatebot's migrations made (``migrated_sqlite``); a restart finds it
    up to date, as ``gatebot run`` would.
    """
    file = tmp_path / "gatebot.db"
    url = f"sqlite+aiosqlite:///{file}"
    databases: list[Database] = []
    services: list[GameService] = []
    bots: list[GateBot] = []
    solver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="solver")

    async def start(**bot_options: Any) -> Running:
        if not file.exists():
            shutil.copyfile(migrated_sqlite, file)
        db = Database(url)
        databases.append(db)
        settings = Settings(token=fake.token, database_url=url, dev_guild_id=fake.guild.id, **settings_options)
        timing = {} if clock is None else {"clock": clock}
        # The wording as in run.py.
        service = GameService(db, new_command="/gate new", end_prompt="Press End game to finish",
                              deal_command=slash_deal_command, **timing, **{"solver": solver, **service_options})
        services.append(service)
        bot = GateBot(settings, service, tick_every=3600, guild_ready_timeout=0.05, **bot_options)
        bots.append(bot)
        await start_bot(bot)
        await fake.wait_for_commands(fake.guild)
        running = Running(bot, db, fake)
        await running.scheduler.started()
        return running

    yield start
    for bot in bots:  # the database closes before the bot does (start_bot's teardown): no board redraw may be left
        await bot.table.follower.close()
    for service in services:
        service.close()
    solver.shutdown(wait=True, cancel_futures=True)
    for db in databases:
        await db.dispose()
