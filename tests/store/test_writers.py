"""SQLite's one writer at a time: who has written least lately goes first, and a cancelled waiter loses no turn."""

from __future__ import annotations

import asyncio

from gatebot.store.writers import HALF_LIFE, FairWriter


async def test_the_waiter_who_wrote_least_lately_goes_first() -> None:
    writer = FairWriter()
    order: list[str] = []
    release = asyncio.Event()

    async def write(who: str | None, hold: asyncio.Event | None = None) -> None:
        async with writer.turn(who):
            order.append(str(who))
            if hold is not None:
                await hold.wait()

    for _ in range(3):
        await write("spammer")  # wrote just now, again and again
    await write("player")  # wrote once, after the spammer's first writes but before its last
    await write("spammer")
    order.clear()
    holder = asyncio.create_task(write("holder", release))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(write(who)) for who in ("spammer", "player", "newcomer", None)]
    await asyncio.sleep(0)
    release.set()
    await asyncio.wait_for(asyncio.gather(holder, *waiting), timeout=10)
    # A newcomer and a nameless writer never wrote (first come first); then who wrote longest ago.
    assert order == ["holder", "newcomer", "None", "player", "spammer"]


async def test_a_person_writing_twice_in_a_row_goes_before_someone_who_writes_all_the_time() -> None:
    """A move and then its hint's count: the count waits behind nobody who wrote more, however recent the move."""
    writer = FairWriter()
    order: list[str] = []
    release = asyncio.Event()

    async def write(who: str, hold: asyncio.Event | None = None) -> None:
        async with writer.turn(who):
            order.append(who)
            if hold is not None:
                await hold.wait()

    for _ in range(20):
        await write("spammer")
    await write("player")  # the move: the latest turn of all, but the player's first in a long while
    order.clear()
    holder = asyncio.create_task(write("holder", release))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(write(who)) for who in ("spammer", "player")]  # the spammer came first
    await asyncio.sleep(0)
    release.set()
    await asyncio.wait_for(asyncio.gather(holder, *waiting), timeout=10)
    assert order == ["holder", "player", "spammer"]


async def test_writes_long_ago_count_for_little() -> None:
    now = [1000.0]
    writer = FairWriter(clock=lambda: now[0])
    order: list[str] = []
    release = asyncio.Event()

    async def write(who: str, hold: asyncio.Event | None = None) -> None:
        async with writer.turn(who):
            order.append(who)
            if hold is not None:
                await hold.wait()

    for _ in range(50):
        await write("busy earlier")
    now[0] += 10 * HALF_LIFE
    for _ in range(3):
        await write("busy now")
    order.clear()
    holder = asyncio.create_task(write("holder", release))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(write(who)) for who in ("busy now", "busy earlier")]
    await asyncio.sleep(0)
    release.set()
    await asyncio.wait_for(asyncio.gather(holder, *waiting), timeout=10)
    assert order == ["holder", "busy earlier", "busy now"]


async def test_a_waiter_cancelled_before_or_just_after_its_turn_passes_the_lock_on() -> None:
    writer = FairWriter()
    release = asyncio.Event()
    wrote: list[str] = []
    tasks: dict[str, asyncio.Task[None]] = {}

    async def write(who: str) -> None:
        async with writer.turn(who):
            wrote.append(who)

    async def hold_then_cancel_the_next() -> None:
        async with writer.turn("holder"):
            wrote.append("holder")
            await release.wait()
        tasks["handed"].cancel()  # handed the lock a moment ago, it gives up before it runs

    holder = asyncio.create_task(hold_then_cancel_the_next())
    await asyncio.sleep(0)
    for who in ("gives-up", "handed", "last"):
        tasks[who] = asyncio.create_task(write(who))
    await asyncio.sleep(0)
    tasks["gives-up"].cancel()  # while waiting
    await asyncio.sleep(0)
    release.set()
    await asyncio.wait_for(asyncio.gather(holder, tasks["last"]), timeout=10)
    assert wrote == ["holder", "last"]
    assert tasks["gives-up"].cancelled() and tasks["handed"].cancelled()
    async with asyncio.timeout(10), writer.turn("again"):  # and the lock is free afterwards
        pass
