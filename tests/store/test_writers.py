"""SQLite's one writer at a time: the waiter who wrote least lately goes first, and a cancelled waiter loses no turn."""

from __future__ import annotations

import asyncio

from gatebot.store.writers import FairWriter


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
