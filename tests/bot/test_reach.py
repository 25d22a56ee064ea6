"""Where Discord is: /gate for a server's install and a player's own, in DMs and group DMs; challenges in servers.

A player who adds gatebot to their account plays it wherever they chat. In a group DM the bot
is not a member (bots can't be): the fake Discord refuses its every channel call there with 403
Missing Access and delivers it no message, so a game there must go through interaction answers
alone — and these tests assert the bot never even tried the channel.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import discord
import pytest

from gatebot.bot.reach import bot_is_in, invite_links
from tests.bot.gatebots import Running, resign
from tests.bot.test_gatebot import button
from tests.fake_discord import FakeChannel, FakeDiscord, InteractionRefused, StoredMessage
from tests.lines import NO_WIN_DEAL_1

SYNC = "PUT /applications/{app_id}/commands"
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


def channel_calls(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    """Every REST call the bot made on ``channel`` by channel (posts, edits, reactions, typing)."""
    return [str(r) for r in fake.requests if r.path.startswith(f"/channels/{channel.id}")]


def refused(fake: FakeDiscord) -> list[str]:
    return [str(r) for r in fake.requests if r.status == 403]


def components(message: StoredMessage) -> list[dict]:
    return [c for row in message.components for c in row["components"]]


def newest_board(fake: FakeDiscord, channel: FakeChannel) -> StoredMessage:
    return next(m for m in reversed(fake.messages(channel)) if any(c.startswith("gate:draw:") for c in m.custom_ids()))


async def user_installed(run: Running) -> None:
    """Global commands (``gatebot sync``), and alice has added the app to her account."""
    await run.bot.tree.sync()
    run.fake.install_for_user(run.fake.user("alice"))


async def test_the_synced_commands_say_which_installs_and_contexts_offer_them(gatebot: Callable) -> None:
    run: Running = await gatebot()
    await run.bot.tree.sync()
    sent = {command["name"]: command for command in run.fake.requests_to(SYNC)[-1].json}
    assert sent["gate"]["integration_types"] == [GUILD_INSTALL, USER_INSTALL]
    assert sent["gate"]["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL]
    for name in ("challenge", "challenge-admin"):
        assert sent[name]["integration_types"] == [GUILD_INSTALL], name
        assert sent[name]["contexts"] == [GUILD], name
    stored = {command["name"]: command for command in run.fake.commands()}
    assert stored["gate"]["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL]


async def test_a_user_installed_bot_plays_a_game_in_a_group_dm_through_interactions_only(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice = fake.user("alice")
    group = fake.group_dm(alice, fake.user("bob"))

    new = await fake.send_command("gate new", {"deal": 1}, user=alice, channel=group)
    posted = await new.response()
    assert posted.type == 4 and not posted.ephemeral and "deal 1" in posted.content
    assert new.payload["context"] == PRIVATE_CHANNEL
    assert new.payload["authorizing_integration_owners"] == {str(USER_INSTALL): str(alice.id)}
    board = newest_board(fake, group)

    pressed = await fake.click(board, button(board, "draw"), user=alice)
    assert (await pressed.response()).type == 7  # the pressed board, edited by the answer itself
    assert fake.message(board.id).history
    assert (await run.game_row()).log == "d"

    asked = await fake.send_command("gate hint", user=alice, channel=group)
    assert (await asked.original_edited()).content.startswith("Hint: ")
    board = fake.message(board.id)
    hinted = await fake.click(board, button(board, "hint"), user=alice)
    assert (await hinted.original_edited()).content.startswith("Hint: ")

    moved = await fake.send_command("gate move", {"moves": "3f"}, user=alice, channel=group)
    fresh = await moved.response()
    assert not fresh.ephemeral and fresh.components, "a command's board there is a fresh answer"
    assert (await run.game_row()).log == "d 3f"

    styled = await (await fake.send_command("gate settings", {"style": "emoji"}, user=alice, channel=group)).response()
    assert styled.ephemeral and "emoji" in styled.content
    shown = await (await fake.send_command("gate board", user=alice, channel=group)).response()
    assert not shown.ephemeral and shown.components

    assert channel_calls(fake, group) == [], "the bot tried the group DM's channel"
    assert refused(fake) == []
    assert fake.unexpected_requests == []


async def test_in_a_group_dm_the_end_game_offer_edits_the_board_the_command_answered_with(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice = fake.user("alice")
    group = fake.group_dm(alice, fake.user("bob"))
    await (await fake.send_command("gate new", {"deal": 1}, user=alice, channel=group)).response()
    played = await fake.send_command("gate move", {"moves": " ".join(NO_WIN_DEAL_1)}, user=alice, channel=group)
    await played.response()

    def offered() -> str | None:
        board = played.original
        return None if board is None else next((c for c in board.custom_ids() if c.startswith("gate:end:")), None)

    end = await fake.wait_for(offered, timeout=10, what="the End game button on the answer's board")
    assert played.original is not None
    ended = await fake.click(played.original, end, user=alice)
    assert (await ended.response()).type == 7
    assert (await run.game_row()).status == "resigned"
    assert channel_calls(fake, group) == [] and refused(fake) == []


async def test_play_again_in_a_group_dm_answers_the_press_with_the_new_board(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice = fake.user("alice")
    group = fake.group_dm(alice, fake.user("bob"))
    await (await fake.send_command("gate new", {"deal": 1}, user=alice, channel=group)).response()
    finished = await resign(fake, user=alice, channel=group)
    assert finished.components
    again = next(c for c in finished.custom_ids() if c.startswith("gate:again:"))
    dealt = await (await fake.click(finished, again, user=alice)).response()
    assert dealt.type == 4 and not dealt.ephemeral and dealt.components
    assert len(await run.games()) == 2
    assert channel_calls(fake, group) == [] and refused(fake) == []


async def test_a_user_installed_bot_plays_a_game_in_its_dm(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice = fake.user("alice")
    new = await fake.send_command("gate new", {"deal": 1}, user=alice, dm=True)
    assert (await new.response()).type == 4
    assert new.payload["context"] == BOT_DM
    board = newest_board(fake, fake.dm_channel(alice))
    assert (await (await fake.click(board, button(board, "draw"), user=alice)).response()).type == 7
    assert (await (await fake.send_command("gate hint", user=alice, dm=True)).original_edited()).content
    styled = await (await fake.send_command("gate settings", {"compact": True}, user=alice, dm=True)).response()
    assert styled.ephemeral and "compact" in styled.content
    assert (await run.game_row()).log == "d"
    assert refused(fake) == [] and fake.unexpected_requests == []


async def test_typed_moves_in_a_group_dm_never_reach_the_bot(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice = fake.user("alice")
    group = fake.group_dm(alice, fake.user("bob"))
    await (await fake.send_command("gate new", {"deal": 1}, user=alice, channel=group)).response()
    typed = await fake.send_message(f"{fake.bot.mention} d", author=alice, channel=group)
    assert not typed.delivered
    assert (await run.game_row()).log == ""


async def test_challenges_are_offered_only_in_servers(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice = fake.user("alice")
    group = fake.group_dm(alice, fake.user("bob"))
    with pytest.raises(InteractionRefused, match="context"):
        await fake.send_command("challenge list", user=alice, channel=group)
    with pytest.raises(InteractionRefused, match="context"):
        await fake.send_command("challenge-admin daily off", user=alice, dm=True)
    listed = await (await fake.send_command("challenge list", user=alice)).response()
    assert listed.ephemeral  # in the server, as ever


async def test_the_bot_counts_itself_in_its_dm_and_its_servers_not_in_group_dms(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice = fake.user("alice")
    seen: list[bool] = []

    async def note(interaction: discord.Interaction) -> None:
        seen.append(bot_is_in(interaction))

    run.bot.add_listener(note, "on_interaction")
    for where in ({"channel": fake.group_dm(alice)}, {"dm": True}, {}):
        await (await fake.send_command("gate rules", user=alice, **where)).response()
    assert seen == [False, True, True]


def test_the_operators_page_gives_the_same_two_install_links_as_gatebot_invite() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "running.md").read_text(encoding="utf-8")
    documented = re.findall(r"`(https://discord\.com/oauth2/authorize\?client_id=YOUR_APP_ID[^`]*)`", page)
    assert len(documented) == 2
    assert tuple(link.replace("YOUR_APP_ID", "123") for link in documented) == invite_links(123)
    assert "User Install" in page and "Guild Install" in page and "Discord Provided Link" in page


async def test_in_a_group_dm_refusals_questions_stats_share_and_replay_are_all_answers(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice, bob = fake.user("alice"), fake.user("bob")
    group = fake.group_dm(alice, bob)
    await (await fake.send_command("gate new", {"deal": 1}, user=alice, channel=group)).response()
    board = newest_board(fake, group)

    mistyped = await (await fake.send_command("gate move", {"moves": "zz"}, user=alice, channel=group)).response()
    assert mistyped.ephemeral and mistyped.content
    fake.install_for_user(bob)
    other = await (await fake.click(board, button(board, "draw"), user=bob)).response()
    assert other.ephemeral and "Alice" in other.content
    assert (await run.game_row()).log == ""

    asked = await fake.send_command("gate new", {"deal": 2}, user=alice, channel=group)
    assert (await asked.response()).ephemeral and asked.original is not None
    [yes] = [c["custom_id"] for c in components(asked.original) if c.get("label") == "Start the new game"]
    confirmed = await fake.click(asked.original, yes, user=alice)
    await confirmed.response()
    dealt = await confirmed.followup(0, timeout=10)
    assert "deal 2" in dealt.content and not dealt.ephemeral

    await (await fake.send_command("gate draw", user=alice, channel=group)).response()
    await resign(fake, user=alice, channel=group)
    stats = await (await fake.send_command("gate stats", user=alice, channel=group)).response()
    assert stats.ephemeral and stats.content
    shared = await (await fake.send_command("gate share", user=alice, channel=group)).response()
    assert not shared.ephemeral and shared.files
    replay = await fake.send_command("gate replay", user=alice, channel=group)
    assert (await replay.response()).components and replay.original is not None
    [step, *_] = [c["custom_id"] for c in components(replay.original)
                  if not c.get("disabled") and not c["custom_id"].endswith(":gif")]
    assert (await (await fake.click(replay.original, step, user=alice)).response()).type == 7
    [gif] = [c["custom_id"] for c in components(replay.original) if c["custom_id"].endswith(":gif")]
    animation = await fake.click(fake.message(replay.original.id), gif, user=alice)
    assert (await animation.followup(0, timeout=10)).files

    assert channel_calls(fake, group) == [] and refused(fake) == []


async def test_a_user_installed_bot_plays_in_a_server_that_never_added_it_through_interactions_only(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await user_installed(run)
    alice = fake.user("alice")
    other = fake.world.add_guild("Elsewhere", owner=alice, with_bot=False)
    channel = other.text_channels[0]
    new = await fake.send_command("gate new", {"deal": 1}, user=alice, channel=channel)
    assert (await new.response()).components
    assert new.payload["context"] == GUILD
    assert new.payload["authorizing_integration_owners"] == {str(USER_INSTALL): str(alice.id)}
    board = newest_board(fake, channel)
    assert (await (await fake.click(board, button(board, "draw"), user=alice)).response()).type == 7
    moved = await (await fake.send_command("gate move", {"moves": "3f"}, user=alice, channel=channel)).response()
    assert not moved.ephemeral and moved.components
    assert (await run.game_row()).log == "d 3f"
    with pytest.raises(InteractionRefused, match="installable"):
        await fake.send_command("challenge list", user=alice, channel=channel)
    assert channel_calls(fake, channel) == [] and refused(fake) == []
