"""The echo of the bot's own edits is left unread, unless discord.py has a cached message or a view to keep in step."""

import asyncio

import discord

from gatebot.bot.client import skip_own_edits


class Watcher(discord.Client):
    """Records the message edits discord.py dispatches (raw: whatever it parsed)."""

    def __init__(self, **options):
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
        self.edited: list[int] = []
        self.seen = asyncio.Event()

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        self.edited.append(payload.message_id)
        self.seen.set()


def button_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Go", custom_id="watch:go"))
    return view


async def edited_after(client: Watcher, channel, plain: discord.Message) -> tuple[list[int], int]:
    """Edit ``plain``, then a message with a view bound to it; the edits discord.py dispatched, once the second came."""
    await plain.edit(content="plain, edited")
    bound = await channel.send("bound", view=button_view())
    client.seen.clear()
    await bound.edit(content="bound, edited")  # its view stays bound (a new view would unbind it during the edit)
    await asyncio.wait_for(client.seen.wait(), 5)  # the gateway delivers in order: the plain edit's echo came first
    return [m for m in client.edited if m in (plain.id, bound.id)], bound.id


async def test_own_edits_are_skipped_but_a_bound_views_edit_is_read(fake, start_bot):
    client = Watcher(max_messages=None)
    skip_own_edits(client)
    await start_bot(client)
    channel = client.get_channel(fake.channel.id)
    plain = await channel.send("plain")
    edited, bound = await edited_after(client, channel, plain)
    assert edited == [bound]


async def test_an_edit_of_a_cached_message_is_read(fake, start_bot):
    client = Watcher()  # discord.py's message cache, on by default
    skip_own_edits(client)
    await start_bot(client)
    channel = client.get_channel(fake.channel.id)
    plain = await channel.send("plain")
    await fake.wait_for(lambda: client._connection._get_message(plain.id), what="the message cached")
    edited, bound = await edited_after(client, channel, plain)
    assert edited == [plain.id, bound]
