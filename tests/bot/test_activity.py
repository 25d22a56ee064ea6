"""The table as a Discord Activity, from chat: the board's Open the table button and the app's entry-point command.

Every request the bot sends is checked against Discord's API description by the fake's referee,
the LAUNCH_ACTIVITY callback (type 12) and the entry point's registration included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.bot.gatebots import Running
from tests.bot.test_gatebot import button
from tests.fake_discord import FakeDiscord, StoredMessage

SYNC = "PUT /applications/{app_id}/commands"
LAUNCH_ACTIVITY = 12
PRIMARY_ENTRY_POINT, DISCORD_LAUNCH_ACTIVITY = 4, 2
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


@pytest.fixture
def settings_options() -> dict[str, Any]:
    return {"activities": True}


def newest_board(fake: FakeDiscord, channel: Any) -> StoredMessage:
    return next(m for m in reversed(fake.messages(channel)) if any(c.startswith("gate:draw:") for c in m.custom_ids()))


def launch_button(board: StoredMessage) -> dict:
    found = [c for row in board.components for c in row["components"]
             if c.get("custom_id", "").startswith("gate:launch:")]
    assert len(found) == 1, board.components
    return found[0]


async def test_a_global_sync_registers_the_entry_point_beside_the_commands(gatebot: Callable) -> None:
    run: Running = await gatebot()
    run.fake.enable_activities()  # Discord made its default Launch command
    default = next(c for c in run.fake.commands() if c["type"] == PRIMARY_ENTRY_POINT)
    await run.bot.tree.sync()
    sent = [c for c in run.fake.requests_to(SYNC)[-1].json if c.get("type") == PRIMARY_ENTRY_POINT]
    assert len(sent) == 1
    entry = sent[0]
    assert entry["name"] == "launch" and entry["handler"] == DISCORD_LAUNCH_ACTIVITY
    assert entry["integration_types"] == [GUILD_INSTALL, USER_INSTALL]
    assert entry["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL]
    stored = {c["name"]: c for c in run.fake.commands()}
    assert stored["launch"]["id"] == default["id"]  # Discord's own Launch, kept
    assert {"gate", "challenge", "launch"} <= set(stored)
    guild_sync = run.fake.requests_to("PUT /applications/{app_id}/guilds/{guild_id}/commands")
    assert guild_sync and all(c.get("type") != PRIMARY_ENTRY_POINT for c in guild_sync[-1].json)


@pytest.mark.parametrize("settings_options", [{}])
async def test_without_activities_enabled_boards_have_no_launch_and_no_entry_point_is_sent(gatebot: Callable) -> None:
    run: Running = await gatebot()
    await run.bot.tree.sync()
    assert all(c.get("type", 1) != PRIMARY_ENTRY_POINT for c in run.fake.requests_to(SYNC)[-1].json)
    await (await run.fake.send_command("gate new", {"deal": 1})).settled()
    board = newest_board(run.fake, run.fake.channel)
    assert not any(c.startswith("gate:launch:") for c in board.custom_ids())
    run.fake.enable_activities()  # enabled in the Developer Portal but not in gatebot's settings:
    with pytest.raises(Exception, match="50240"):  # Discord refuses a sync that would drop its Launch command
        await run.bot.tree.sync()


async def test_open_the_table_launches_the_activity_in_a_server_and_a_group_dm(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).settled()
    board = newest_board(fake, fake.channel)
    launch = launch_button(board)
    assert launch["label"] == "Open the table" and launch["style"] == 2
    pressed = await fake.click(board, launch["custom_id"])
    assert (await pressed.response()).type == LAUNCH_ACTIVITY
    assert fake.messages(fake.channel)[-1].id == board.id  # nothing said, nothing posted

    drawn = await fake.click(board, button(board, "draw"))
    await drawn.settled()
    redrawn = fake.message(board.id)
    launch_button(redrawn)  # the board drawn again keeps it

    await run.bot.tree.sync()  # a user's install: the board in a group DM, where the bot is no member
    bob = fake.user("bob")
    fake.install_for_user(bob)
    group = fake.group_dm(bob, fake.user("alice"))
    await (await fake.send_command("gate new", {"deal": 2}, user=bob, channel=group)).settled()
    group_board = newest_board(fake, group)
    pressed = await fake.click(group_board, launch_button(group_board)["custom_id"], user=bob)
    assert (await pressed.response()).type == LAUNCH_ACTIVITY
