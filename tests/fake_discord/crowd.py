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
is woken once, when the fake records that interaction's callback (or refuses it as late), and
``feed.followed_up(handle)`` when a follow-up arrives. Install it before sending interactions.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

from tests.fake_discord.handles import InteractionHandle
from tests.fake_discord.model import FakeChannel, FakeGuild, FakeMember, FakeUser, World
from tests.fake_discord.records import ChangeFeed
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
    """A change feed that also wakes exactly the tasks whose own condition became true."""

    def __init__(self) -> None:
        super().__init__()
        self._pending: dict[int, tuple[Callable[[], bool], asyncio.Future[None]]] = {}
        self._keys = itertools.count()

    def notify(self) -> None:
        """Wake the general waiters, then each task whose condition now holds."""
        super().notify()
        if not self._pending:
            return
        for key, (check, future) in list(self._pending.items()):
            if check():
                del self._pending[key]
                if not future.done():
                    future.set_result(None)

    async def until(self, check: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``check()`` is true (re-checked when the fake records something); False after ``timeout`` s."""
        if check():
            return True
        key = next(self._keys)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending[key] = (check, future)
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return False
        finally:
            self._pending.pop(key, None)
        return True

    async def answered(self, handle: InteractionHandle, timeout: float) -> bool:
        """Wait until the bot has answered ``handle`` (in time or late); False after ``timeout`` s."""
        record = handle.record
        return await self.until(lambda: record.callback is not None or bool(record.rejected), timeout)

    async def followed_up(self, handle: InteractionHandle, timeout: float, count: int = 1) -> bool:
        """Wait until ``handle`` has ``count`` follow-up messages; False after ``timeout`` s."""
        record = handle.record
        return await self.until(lambda: len(record.followup_ids) >= count, timeout)


def watch_answers(fake: FakeDiscord) -> AnswerFeed:
    """Replace ``fake``'s change feed with an :class:`AnswerFeed` (before any waiting starts)."""
    feed = AnswerFeed()
    feed.describe_recent = fake.state.changes.describe_recent
    fake.state.changes = feed
    return feed
