"""Slow answers outside a game's table: acknowledged before Discord's 3 s, then given in the acknowledgement's place.

Each test sets the scene with a bot of the usual deferral, then restarts it with a very short
one and holds the service call behind a command or a button until that deferral has arrived,
so how busy the machine is can't decide which comes first; then it lets the call finish and
reads what the person is shown in the end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from gatebot.bot.timely import SAFETY_DEFER
from tests.bot.gatebots import Running
from tests.bot.test_replays import buttons, opened, played, press
from tests.bot.test_stats_commands import ask_to_forget, labelled, rows_of, win_deal_1
from tests.fake_discord import StoredMessage

#: The deferral the bots of these tests are given: far below the default, so a held call outlasts it.
DEFER = 0.05


async def restarted(gatebot: Callable, run: Running | None = None) -> Running:
    """A bot on the same database (``run``'s closed first) that defers after :data:`DEFER`."""
    if run is not None:
        await run.bot.close()
    started: Running = await gatebot(safety_defer=DEFER)
    return started


async def won(gatebot: Callable) -> Running:
    """A bot whose player Alice has won deal 1."""
    run: Running = await gatebot()
    await win_deal_1(run)
    return run


async def with_challenge(gatebot: Callable) -> Running:
    """A bot whose server has one open challenge, "Morning"."""
    run: Running = await gatebot()
    await (await run.fake.send_command("challenge-admin create", {"name": "Morning"})).response()
    return run


def hold(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> asyncio.Event:
    """Make ``owner.name`` wait for the returned event before doing its work."""
    release = asyncio.Event()
    work = getattr(owner, name)

    async def held(*args: Any, **kwargs: Any) -> Any:
        await release.wait()
        return await work(*args, **kwargs)

    monkeypatch.setattr(owner, name, held)
    return release


def acknowledged(callback: Any, *, kind: int, ephemeral: bool) -> None:
    """The first answer is the deferral, in time: ``kind`` 5 "thinking…", 6 "the message stays"."""
    assert callback.type == kind
    assert callback.latency < SAFETY_DEFER  # the bot's deferral, not Discord's deadline, set it off
    if kind == 5:
        assert callback.ephemeral is ephemeral


async def test_a_slow_share_is_acknowledged_in_the_open_and_the_card_takes_its_place(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = await restarted(gatebot, await won(gatebot))
    fake = run.fake
    release = hold(monkeypatch, run.bot.services.statistics, "latest_result")
    shared = await fake.send_command("gate share")
    acknowledged(await shared.response(), kind=5, ephemeral=False)
    release.set()
    card = await shared.original_edited()
    assert card.content.startswith("Gate · deal 1 · won 52/52") and not card.ephemeral
    assert [attachment["filename"] for attachment in card.attachments] == ["result.png"]
    assert not shared.followups, "one message: the acknowledgement became the card"


async def test_a_slow_share_with_nothing_to_share_says_so_in_the_acknowledgements_place(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = await restarted(gatebot)
    fake = run.fake
    release = hold(monkeypatch, run.bot.services.statistics, "latest_result")
    shared = await fake.send_command("gate share")
    acknowledged(await shared.response(), kind=5, ephemeral=False)
    release.set()
    said = await shared.original_edited()
    assert said.content == "You have no finished game to share yet: finish one, then share it."
    assert not shared.followups


async def test_slow_statistics_are_acknowledged_privately_then_shown(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = await restarted(gatebot, await won(gatebot))
    fake = run.fake
    release = hold(monkeypatch, run.bot.services.statistics, "player")
    asked = await fake.send_command("gate stats")
    acknowledged(await asked.response(), kind=5, ephemeral=True)
    release.set()
    shown = await asked.original_edited()
    assert shown.ephemeral and "Gate: 1 game, 1 won (100%)" in shown.content


async def test_a_slow_forget_me_keeps_the_question_until_it_is_done(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = await restarted(gatebot, await won(gatebot))
    fake = run.fake
    question = await ask_to_forget(run)
    release = hold(monkeypatch, run.bot.services.games, "forget")
    pressed = await fake.click(question, labelled(question, "Delete everything"))
    acknowledged(await pressed.response(), kind=6, ephemeral=True)
    assert await rows_of(run, fake.user("alice")) == (1, 1), "nothing deleted while the press waits"
    release.set()

    def done() -> StoredMessage | None:
        message = fake.message(question.id)
        return message if "deleted" in message.content else None

    answered = await fake.wait_for(done, what="the question edited into its answer")
    assert answered.content.startswith("Done: your games") and not answered.components
    assert await rows_of(run, fake.user("alice")) == (0, 0)


async def test_a_slow_challenge_list_is_acknowledged_privately_then_shown(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = await restarted(gatebot, await with_challenge(gatebot))
    fake = run.fake
    release = hold(monkeypatch, run.bot.services.challenges, "listing")
    listed = await fake.send_command("challenge list", user=fake.user("bob"))
    acknowledged(await listed.response(), kind=5, ephemeral=True)
    release.set()
    shown = await listed.original_edited()
    assert shown.ephemeral and "**Open challenges**" in shown.content and "Morning" in shown.content


async def test_a_slow_leaderboard_is_acknowledged_in_the_open_then_shown(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = await restarted(gatebot, await with_challenge(gatebot))
    fake = run.fake
    release = hold(monkeypatch, run.bot.services.challenges, "leaderboard")
    board = await fake.send_command("challenge leaderboard")
    acknowledged(await board.response(), kind=5, ephemeral=False)
    release.set()
    shown = await board.original_edited()
    assert "Morning" in shown.content and not shown.ephemeral


async def test_slow_board_settings_are_acknowledged_privately_then_confirmed(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = await restarted(gatebot)
    fake = run.fake
    release = hold(monkeypatch, run.bot.services.games, "set_preferences")
    asked = await fake.send_command("gate settings", {"style": "emoji"})
    acknowledged(await asked.response(), kind=5, ephemeral=True)
    release.set()
    said = await asked.original_edited()
    assert said.ephemeral and said.content.startswith("Your boards are drawn as emoji")


async def test_a_slow_replay_step_of_pictures_keeps_the_message_then_shows_the_next_picture(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_run: Running = await gatebot()
    fake = first_run.fake
    await played(first_run)
    await (await fake.send_command("gate settings", {"style": "image"})).response()
    _handle, replay = await opened(fake)
    run = await restarted(gatebot, first_run)
    first = replay.file("gate-board.png").data
    release = hold(monkeypatch, run.bot.services.games.replays, "replay")
    stepped = await press(fake, replay, "▶")
    acknowledged(await stepped.response(), kind=6, ephemeral=False)
    assert "Step 0 of 6" in fake.message(replay.id).embeds[0]["description"], "unchanged while the press waits"
    release.set()

    def moved() -> StoredMessage | None:
        message = fake.message(replay.id)
        return message if "Step 1 of 6" in message.embeds[0]["description"] else None

    shown = await fake.wait_for(moved, what="the replay edited to step 1")
    assert [attachment["filename"] for attachment in shown.attachments] == ["gate-board.png"]
    assert shown.file("gate-board.png").data != first
    assert len(buttons(shown)) == 5
