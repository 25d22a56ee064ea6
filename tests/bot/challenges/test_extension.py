"""The challenges feature is an extension that owns its parts: loaded, it ticks and answers; unloaded, it is gone.

The games go on without it, and the client never knew its herald or scheduler.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from gatebot.bot.errors import UNKNOWN_COMPONENT
from tests.bot.challenges.test_challenges import create, play_button
from tests.bot.gatebots import Running

SCHEDULER_TASK = "gatebot challenge scheduler"


def scheduler_running() -> bool:
    return any(task.get_name() == SCHEDULER_TASK and not task.done() for task in asyncio.all_tasks())


async def test_unloading_the_challenges_stops_their_clock_and_buttons_and_leaves_the_games(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    announcement = await create(run, name="Friday Gate", deal=1)
    assert scheduler_running(), "the cog starts its scheduler once the bot is ready"
    scheduler = run.scheduler

    await run.bot.unload_extension("gatebot.bot.challenges")

    assert not scheduler_running()
    scheduler.start()
    assert not scheduler_running(), "a stopped scheduler stays stopped"
    assert run.bot.get_cog("Challenges") is None and run.bot.get_cog("ChallengeAdmin") is None
    pressed = await fake.click(announcement, play_button(announcement), user=fake.user("bob"))
    answer = await pressed.response()
    assert answer.ephemeral and answer.content == UNKNOWN_COMPONENT
    assert [game.player_id for game in await run.games()] == [], "no attempt began"

    dealt = await (await fake.send_command("gate new", {"deal": 3})).response()
    assert not dealt.ephemeral and "```" in dealt.content
    assert [game.deal for game in await run.games()] == [3]


async def test_loading_the_challenges_again_brings_back_their_clock_and_buttons(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    announcement = await create(run, name="Friday Gate", deal=1)
    await run.bot.unload_extension("gatebot.bot.challenges")
    await run.bot.load_extension("gatebot.bot.challenges")
    assert scheduler_running() and run.scheduler.every == 3600

    pressed = await fake.click(announcement, play_button(announcement), user=fake.user("bob"))
    board = await pressed.response()
    assert not board.ephemeral and "Your attempt at Friday Gate has begun" in board.content
    assert [game.deal for game in await run.games()] == [1]
