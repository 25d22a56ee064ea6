"""The fake Discord works with the real discord.py: login, gateway, commands, components, files, messages."""

from __future__ import annotations

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.bot.running import StartBot, run_until_ready
from tests.bot.sample_bot import SampleBot, tiny_png
from tests.fake_discord import (
    FakeDiscord,
    Intent,
    InteractionRefused,
    Overwrite,
    Permission,
    StoredMessage,
    pointed_at,
)
from tests.fake_discord.records import EPHEMERAL, LOADING


@pytest.fixture
async def bot(fake: FakeDiscord, start_bot: StartBot[SampleBot]) -> SampleBot:
    """The sample bot, ready, with its commands synced globally and (copied) to the test guild."""
    bot = await start_bot(SampleBot())
    guild = discord.Object(fake.guild.id)
    bot.tree.copy_global_to(guild=guild)
    await bot.tree.sync(guild=guild)
    await bot.tree.sync()
    return bot


async def test_bot_logs_in_connects_and_sees_the_guild(fake: FakeDiscord, bot: SampleBot) -> None:
    assert bot.user is not None and bot.user.id == fake.bot.id
    assert bot.application_id == fake.application_id
    [guild] = bot.guilds
    assert (guild.id, guild.name, guild.member_count) == (fake.guild.id, "Test Guild", 3)
    assert [channel.name for channel in guild.text_channels] == ["general", "games"]
    assert guild.me is not None and guild.me.id == fake.bot.id
    assert guild.get_member(fake.user("bob").id) is None  # no GUILD_MEMBERS intent: only the bot is listed
    [session] = fake.gateway.sessions.values()
    assert session.intents == discord.Intents.default().value
    [connection] = fake.gateway.connections
    assert connection.compression == discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE  # zlib- or zstd-stream
    assert connection.heartbeats >= 1  # discord.py beats as soon as HELLO arrives, and the fake ACKs (op 11)
    assert any(frame.payload["op"] == 11 for frame in fake.gateway.log if frame.direction == "out")
    identify = next(frame.payload for frame in fake.gateway.log if frame.payload.get("op") == 2)
    assert identify["d"]["token"] == fake.token
    assert [request.route for request in fake.requests[:2]] == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert fake.unexpected_requests == []


async def test_sync_stores_commands_and_echoes_ids(fake: FakeDiscord, bot: SampleBot) -> None:
    guild = discord.Object(fake.guild.id)
    synced = await bot.tree.sync(guild=guild)
    stored = fake.commands(fake.guild)
    assert sorted(command["name"] for command in stored) == ["board", "game", "ping", "slow", "upload"]
    assert {command.name: command.id for command in synced} == {c["name"]: int(c["id"]) for c in stored}
    ping = next(command for command in stored if command["name"] == "ping")
    assert ping["guild_id"] == str(fake.guild.id)
    [text] = ping["options"]
    assert (text["type"], text["name"], text["required"], text["autocomplete"]) == (3, "text", True, True)
    fetched = await bot.tree.fetch_commands(guild=guild)
    assert {command.id for command in fetched} == {command.id for command in synced}
    assert len(fake.commands()) == 5  # the global sync
    assert fake.unexpected_requests == []


async def test_slash_command_is_answered(fake: FakeDiscord, bot: SampleBot) -> None:
    handle = await fake.send_command("ping", {"text": "hi"})
    callback = await handle.response()
    assert (callback.type, callback.content, callback.ephemeral) == (4, "pong hi (Test Guild)", False)
    assert 0 < callback.latency == handle.latency < 3
    assert handle.payload["data"]["guild_id"] == str(fake.guild.id)  # the guild copy of the command
    [interaction] = bot.interactions
    assert isinstance(interaction.user, discord.Member) and interaction.user.name == "alice"
    assert interaction.channel is not None and interaction.channel.id == fake.channel.id
    assert interaction.app_permissions.send_messages
    original = handle.original
    assert original is not None and original.content == "pong hi (Test Guild)"
    assert original.payload["interaction_metadata"]["id"] == str(handle.id)
    assert fake.messages(fake.channel) == [original]


async def test_subcommands_typed_options_and_choices(fake: FakeDiscord, bot: SampleBot) -> None:
    bob = fake.user("bob")
    handle = await fake.send_command("game new", {"seed": 42, "opponent": bob})
    assert (await handle.response()).content == "deal 42 vs bob"
    [new] = handle.payload["data"]["options"]
    assert new["type"] == 1 and new["options"][0] == {"type": 4, "name": "seed", "value": 42}
    assert handle.payload["data"]["resolved"]["users"][str(bob.id)]["username"] == "bob"
    handle = await fake.send_command("game settings theme", {"name": "light"})
    assert (await handle.response()).content == "theme light"
    [group] = handle.payload["data"]["options"]
    assert (group["type"], group["name"], group["options"][0]["type"]) == (2, "settings", 1)
    with pytest.raises(InteractionRefused, match="not a choice"):
        await fake.send_command("game settings theme", {"name": "blue"})
    with pytest.raises(InteractionRefused, match="outside"):
        await fake.send_command("game new", {"seed": 0})
    with pytest.raises(InteractionRefused, match="needs option"):
        await fake.send_command("game new")


async def test_deferred_command_with_followup_and_edit(fake: FakeDiscord, bot: SampleBot) -> None:
    handle = await fake.send_command("slow")
    callback = await handle.response()
    assert callback.type == 5
    followup = await handle.followup(0)
    assert followup.content == "step 1" and followup.origin == "followup"
    original = await handle.original_edited()
    assert original.content == "done"
    assert original.history[0]["flags"] & LOADING and not original.flags & LOADING
    routes = [request.route for request in fake.requests[-3:]]
    assert routes == [
        "POST /interactions/{interaction_id}/{token}/callback",
        "POST /webhooks/{app_id}/{token}",
        "PATCH /webhooks/{app_id}/{token}/messages/{message_id}",
    ]
    assert fake.requests[-2].query["wait"] == "1"


async def board_message(fake: FakeDiscord) -> StoredMessage:
    """Run /board and return the message with its buttons and select."""
    handle = await fake.send_command("board")
    await handle.response()
    assert handle.original is not None
    return handle.original


async def test_button_with_data_in_custom_id_answers_ephemerally(fake: FakeDiscord, bot: SampleBot) -> None:
    board = await board_message(fake)
    assert board.custom_ids() == ["gate:move:7", "gate:bump:1", "gate:pick"]
    handle = await fake.click(board, "gate:move:7", user=fake.user("bob"))
    callback = await handle.response()
    assert (callback.type, callback.content, callback.flags) == (4, "moved 7", EPHEMERAL)
    assert handle.payload["data"] == {"custom_id": "gate:move:7", "component_type": 2}
    assert handle.payload["message"]["id"] == str(board.id)
    assert handle.original is not None and handle.original.ephemeral


async def test_button_edits_its_message(fake: FakeDiscord, bot: SampleBot) -> None:
    board = await board_message(fake)
    handle = await fake.click(board, "gate:bump:1")
    callback = await handle.response()
    assert (callback.type, callback.content) == (7, "count 2")
    stored = fake.message(board.id)
    assert stored.content == "count 2" and stored.history[0]["content"] == "count 1"
    assert "gate:bump:2" in stored.custom_ids()
    again = await fake.click(stored, "gate:bump:2")
    assert (await again.response()).content == "count 3"


async def test_select_menu(fake: FakeDiscord, bot: SampleBot) -> None:
    board = await board_message(fake)
    handle = await fake.select(board, "gate:pick", ["a", "c"])
    assert (await handle.response()).content == "picked a,c"
    assert handle.payload["data"]["values"] == ["a", "c"]
    with pytest.raises(InteractionRefused, match="offers"):
        await fake.select(board, "gate:pick", ["z"])
    with pytest.raises(InteractionRefused, match="no component"):
        await fake.click(board, "gate:nope")


async def test_autocomplete_answers_with_choices(fake: FakeDiscord, bot: SampleBot) -> None:
    handle = await fake.send_autocomplete("ping", {"text": "hel"}, focused="text")
    callback = await handle.response()
    assert callback.type == 8
    assert callback.choices == [{"name": word, "value": word} for word in ("hello", "help", "helium")]
    assert handle.payload["data"]["options"] == [{"type": 3, "name": "text", "value": "hel", "focused": True}]


async def test_file_upload_is_recorded_with_its_bytes(fake: FakeDiscord, bot: SampleBot) -> None:
    handle = await fake.send_command("upload")
    callback = await handle.response()
    [file] = callback.files
    assert (file.field, file.filename, file.data) == ("files[0]", "board.png", tiny_png())
    assert callback.request.headers["Content-Type"].startswith("multipart/form-data")
    original = handle.original
    assert original is not None and original.file("board.png").data == tiny_png()
    [attachment] = original.attachments
    assert (attachment["width"], attachment["height"], attachment["description"]) == (3, 2, "the board")
    assert attachment["content_type"] == "image/png"
    async with aiohttp.ClientSession() as session, session.get(attachment["url"]) as response:
        assert await response.read() == tiny_png()  # served at the URL the attachment gives


async def test_mention_is_delivered_with_content_and_answered(fake: FakeDiscord, bot: SampleBot) -> None:
    sent = await fake.send_message(f"{fake.bot.mention} hello there")
    reply = await sent.reply()
    assert reply.content == f"you said: {fake.bot.mention} hello there"
    assert reply.payload["message_reference"]["message_id"] == str(sent.id)
    assert reply.file("reply.png").data == tiny_png()
    request = fake.requests_to("POST /channels/{channel_id}/messages")[-1]
    assert request.json["content"] == reply.content and request.files[0].filename == "reply.png"
    assert sent.latency(reply) > 0
    [received] = bot.messages
    assert received.content == f"{fake.bot.mention} hello there"


async def test_plain_guild_message_is_blanked_but_dm_is_not(fake: FakeDiscord, bot: SampleBot) -> None:
    await fake.send_message("no mention here")
    await fake.send_message("a private word", dm=True)
    await fake.wait_for(lambda: bot.messages[1:] or None, what="both messages at the bot")
    guild_message, dm_message = bot.messages
    assert guild_message.content == "" and guild_message.guild is not None
    assert dm_message.content == "a private word" and isinstance(dm_message.channel, discord.DMChannel)


async def test_message_content_intent_when_the_app_has_it() -> None:
    intents = discord.Intents.default()
    intents.message_content = True
    async with FakeDiscord(privileged_intents=Intent.MESSAGE_CONTENT) as fake:
        with pointed_at(fake.api_base):
            bot = SampleBot(intents=intents)
            task = await run_until_ready(bot, fake.token)
            try:
                await fake.send_message("no mention here")
                await fake.wait_for(lambda: bot.messages or None, what="the message at the bot")
                assert bot.messages[0].content == "no mention here"
            finally:
                await bot.close()
                await task


async def test_privileged_intent_not_enabled_is_refused(fake: FakeDiscord, start_bot: StartBot[SampleBot]) -> None:
    intents = discord.Intents.default()
    intents.message_content = True
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await start_bot(SampleBot(intents=intents))
    assert fake.gateway.close_codes == [4014]


async def test_dm_interaction(fake: FakeDiscord, bot: SampleBot) -> None:
    bob = fake.user("bob")
    handle = await fake.send_command("ping", {"text": "psst"}, user=bob, dm=True)
    assert (await handle.response()).content == "pong psst (dm)"
    assert "member" not in handle.payload and handle.payload["user"]["id"] == str(bob.id)
    assert handle.payload["context"] == 1
    [interaction] = bot.interactions
    assert interaction.guild is None and isinstance(interaction.user, discord.User)
    assert handle.original is not None and handle.original.channel_id == fake.dm_channel(bob).id


async def test_unknown_routes_are_recorded(fake: FakeDiscord, bot: SampleBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.fetch_guild(fake.guild.id)
    [request] = fake.unexpected_requests
    assert (request.method, request.path, request.status) == ("GET", f"/guilds/{fake.guild.id}", 404)
    assert request.response == {"message": "404: Not Found", "code": 0}


async def test_late_callback_is_refused(fake: FakeDiscord, bot: SampleBot) -> None:
    fake.ack_deadline = 1e-9  # every answer is late (Discord allows 3 s)
    handle = await fake.send_command("ping", {"text": "late"})
    [rejected] = await fake.wait_for(lambda: handle.record.rejected or None, what="the late callback")
    assert rejected.status == 404 and rejected.response["code"] == 10062
    assert handle.callback is None
    [error] = await fake.wait_for(lambda: bot.errors or None, what="the bot's error handler")
    assert isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, discord.NotFound)


async def test_resume_after_reconnect(fake: FakeDiscord, bot: SampleBot) -> None:
    session = await fake.reconnect()
    assert session.resumes == 1
    assert fake.gateway.connections[-1].path == "/gateway-resume"  # READY's resume_gateway_url
    handle = await fake.send_command("ping", {"text": "again"})
    assert (await handle.response()).content == "pong again (Test Guild)"


async def test_events_missed_while_disconnected_are_replayed(fake: FakeDiscord, bot: SampleBot) -> None:
    [session] = fake.gateway.sessions.values()
    await fake.gateway.drop_connections()  # 4000: resumable
    handle = await fake.send_command("ping", {"text": "missed"})  # buffered if the bot is still away
    assert (await handle.response()).content == "pong missed (Test Guild)"
    await fake.wait_for(lambda: session.live or None, what="the resumed connection")
    assert session.resumes == 1 and len(fake.gateway.sessions) == 1


async def test_channel_messages_reactions_dms_and_permissions(fake: FakeDiscord, bot: SampleBot) -> None:
    channel = await bot.fetch_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "general"
    message = await channel.send("hello", embed=discord.Embed(title="Board"))
    await message.add_reaction("\N{WHITE HEAVY CHECK MARK}")
    await message.edit(content="hello again")
    stored = fake.message(message.id)
    assert (stored.content, stored.embeds[0]["title"], stored.reactions) == ("hello again", "Board", ["\u2705"])
    assert [version["content"] for version in stored.history] == ["hello"]
    assert (await channel.fetch_message(message.id)).content == "hello again"
    await message.delete()
    assert stored.deleted and fake.messages(fake.channel) == []

    bob = fake.user("bob")
    user = await bot.fetch_user(bob.id)
    dm = await user.send("a secret")
    assert fake.messages(fake.dm_channel(bob))[0].content == "a secret" and dm.channel.id == fake.dm_channel(bob).id

    games = fake.guild.channel("games")
    bot_role = fake.guild.roles[1]
    games.overwrites.append(Overwrite(id=bot_role.id, type=0, deny=Permission.SEND_MESSAGES))
    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_partial_messageable(games.id).send("blocked")
    assert refused.value.code == 50013
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.code == 50035
    assert fake.unexpected_requests == []


async def test_auto_sharded_bot_finds_the_gateway_by_asking(fake: FakeDiscord) -> None:
    with pointed_at(fake.api_base, gateway_url="ws://127.0.0.1:9/not-here"):  # must not be used
        bot = commands.AutoShardedBot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        task = await run_until_ready(bot, fake.token)
        try:
            assert [guild.id for guild in bot.guilds] == [fake.guild.id]
        finally:
            await bot.close()
            await task
    assert fake.requests_to("GET /gateway/bot")
    [session] = fake.gateway.sessions.values()
    assert session.shard == (0, 1)


async def test_a_group_dm_reaches_a_user_installed_bot_only_through_interactions(
    fake: FakeDiscord, bot: SampleBot
) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    group = fake.group_dm(alice, bob)
    seen: list[discord.Interaction] = []

    @app_commands.command(description="Wave")
    @app_commands.allowed_installs(guilds=False, users=True)
    @app_commands.allowed_contexts(guilds=False, dms=True, private_channels=True)
    async def wave(interaction: discord.Interaction) -> None:
        seen.append(interaction)
        await interaction.response.send_message("👋")

    bot.tree.add_command(wave)
    await bot.tree.sync()
    with pytest.raises(InteractionRefused, match=r"has only \[\]"):  # nobody has added the app to their account
        await fake.send_command("wave", user=alice, channel=group)
    fake.install_for_user(alice)
    with pytest.raises(InteractionRefused, match="installable"):  # /ping is for servers' installs only
        await fake.send_command("ping", {"text": "hi"}, user=alice, channel=group)
    with pytest.raises(InteractionRefused, match="context"):
        await fake.send_command("wave", user=alice)  # not offered in servers

    handle = await fake.send_command("wave", user=alice, channel=group)
    assert (await handle.response()).content == "👋"
    [interaction] = seen
    assert isinstance(interaction.channel, discord.GroupChannel)
    assert interaction.context.private_channel and interaction.is_user_integration()
    assert not interaction.is_guild_integration()
    assert handle.original is not None and handle.original.channel_id == group.id

    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_partial_messageable(group.id).send("hello?")
    assert refused.value.code == 50001  # Missing Access: the bot is not in the group DM
    typed = await fake.send_message(f"{fake.bot.mention} hi", author=bob, channel=group)
    assert not typed.delivered
