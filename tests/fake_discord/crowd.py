"""Many users at once, for load measurements: a crowd of guild members, and cheap waits for many answers.

``add_crowd(world, guild, 500, channels=20)`` adds 500 users as members of ``guild`` and
spreads them over text channels (new ones are created as needed); call it before the bot
connects so its GUILD_CREATE counts them. Users need no further setup: an interaction carries
its member, as on Discord.

``watch_answers(fake)`` swaps the fake's change feed for an :class:`AnswerFeed`, which does
everything a :class:`~tests.fake_discord.records.ChangeFeed` does and also lets many tasks
wait for their own interaction's answer at once. ``handle.response()`` re-checks every waiter
on every change and every 10 ms, which is fine for a test but costs a load generator more CPU
than the bot it measures when hundreds of users wait together; ``await feed.answered(handle)``
is woken once, when the fake records that interaction's callback (or refuses it as late).
Install it before sending interactions.
"""

from __future__ import annotations

import asyncio

from tests.fake_discord.handles import InteractionHandle
from tests.fake_discord.model import FakeChannel, FakeGuild, FakeMember, FakeUser, World
from tests.fake_discord.records import ChangeFeed, InteractionRecord
from tests.fake_discord.server import FakeDiscord


def add_crowd(
    world: World, guild: FakeGuild, count: int, *, prefix: str = "player", channels: int = 1
) -> list[tuple[FakeUser, FakeChannel]]:
    """Add ``count`` members named ``{prefix}{i}`` to ``guild``, each with a text channel to play in.

    Users are spread round-robin over ``channels`` text channels: the guild's existing ones
    first, then new ones named ``{prefix}s-{n}``. Returns (user, channel) pairs in order.
    """
    texts = list(guild.text_channels)
    while len(texts) < channels:
        channel = FakeChannel(
            id=world.ids(), name=f"{prefix}s-{len(texts)}", guild_id=guild.id, position=len(guild.channels)
        )
        guild.channels.append(channel)
        texts.append(channel)
    crowd = []
    for index in range(count):
        user = world.add_user(f"{prefix}{index}")
        guild.members[user.id] = FakeMember(user=user)
        crowd.append((user, texts[index % max(1, channels)]))
    return crowd


class AnswerFeed(ChangeFeed):
    """A change feed that also wakes exactly the task waiting for an interaction that was answered."""

    def __init__(self) -> None:
        super().__init__()
        self._pending: dict[int, tuple[InteractionRecord, asyncio.Future[None]]] = {}

    def notify(self) -> None:
        """Wake the general waiters, then the tasks whose interaction got a callback or a refusal."""
        super().notify()
        if not self._pending:
            return
        for record_id, (record, future) in list(self._pending.items()):
            if record.callback is not None or record.rejected:
                del self._pending[record_id]
                if not future.done():
                    future.set_result(None)

    async def answered(self, handle: InteractionHandle, timeout: float) -> bool:
        """Wait until the bot has answered ``handle`` (in time or late); False after ``timeout`` s."""
        record = handle.record
        if record.callback is not None or record.rejected:
            return True
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending[record.id] = (record, future)
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return False
        finally:
            self._pending.pop(record.id, None)
        return True


def watch_answers(fake: FakeDiscord) -> AnswerFeed:
    """Replace ``fake``'s change feed with an :class:`AnswerFeed` (before any waiting starts)."""
    feed = AnswerFeed()
    feed.describe_recent = fake.state.changes.describe_recent
    fake.state.changes = feed
    return feed
