"""Sharing the solver's workers fairly: one question per player at a time, repeats joined, newcomers first.

The executor here runs nothing until the test releases a job, so which question reaches a
worker, and when, is the test's to decide and to see; the jobs it releases are the real
hint engine's, run on the spot.
"""

import asyncio
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gatebot.rules import Game
from gatebot.service import Actor, GameService, ReplyKind
from gatebot.service.thinking import WORKER_NICE, Superseded, Thinker, ThinkingFailed, hint_for
from gatebot.store import Database, GameRecord

ALICE = Actor("discord", "1001", "Alice")
BOB = Actor("discord", "1002", "Bob")


@dataclass
class Job:
    function: Callable[..., object]
    args: tuple[object, ...]
    future: Future = field(default_factory=Future)


class Held(Executor):
    """An executor that starts nothing by itself: each job runs when the test releases it."""

    def __init__(self) -> None:
        self.jobs: list[Job] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        job = Job(fn, args)
        self.jobs.append(job)
        return job.future

    def release(self, index: int) -> None:
        job = self.jobs[index]
        job.future.set_result(job.function(*job.args))

    def positions(self) -> list[object]:
        return [job.args[0] for job in self.jobs]


async def answered(*asks: "asyncio.Future[object]") -> list[object]:
    """The answers of ``asks``, failing rather than hanging if one never comes."""
    return await asyncio.wait_for(asyncio.gather(*asks), timeout=10)


async def until(condition: Callable[[], bool]) -> None:
    """Let the other tasks run (database threads included) until ``condition`` holds."""
    for _ in range(5000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the condition never held")


def seen(deal: int, line: str = "") -> str:
    game = Game.new("gate", deal=deal)
    if line:
        game.play_line(line)
    return game.to_text(hide_stock=True)


# -- the Thinker ----------------------------------------------------------------------------


async def test_one_askers_repeated_question_is_one_job_with_one_answer() -> None:
    held = Held()
    thinker = Thinker(held)
    asks = [asyncio.ensure_future(thinker.hint(seen(1), asker="alice")) for _ in range(12)]
    await until(lambda: len(held.jobs) == 1)
    assert thinker.waiting == 0
    held.release(0)
    answers = await asyncio.gather(*asks)
    assert len(held.jobs) == 1
    assert all(answer == answers[0] for answer in answers)
    assert answers[0].move == hint_for(seen(1)).move


async def test_the_asker_served_longest_ago_goes_next() -> None:
    held = Held()
    thinker = Thinker(held)
    for asker, position in (("bob", seen(2)), ("alice", seen(1))):  # both were served before
        ask = asyncio.ensure_future(thinker.hint(position, asker=asker))
        await until(lambda: len(held.jobs) == 1)
        held.release(0)
        await ask
        held.jobs.clear()

    alice_first = asyncio.ensure_future(thinker.hint(seen(1, "d"), asker="alice"))
    await until(lambda: len(held.jobs) == 1)
    bob = asyncio.ensure_future(thinker.hint(seen(2, "d"), asker="bob"))
    alice_next = asyncio.ensure_future(thinker.hint(seen(1, "d d"), asker="alice"))
    carol = asyncio.ensure_future(thinker.hint(seen(3), asker="carol"))  # never asked before
    await until(lambda: thinker.waiting == 3)
    for index in range(4):
        await until(lambda index=index: len(held.jobs) == index + 1)
        held.release(index)
    await asyncio.gather(alice_first, bob, alice_next, carol)
    # In the order asked it would be Alice, Bob, Alice, Carol.
    assert held.positions() == [seen(1, "d"), seen(3), seen(2, "d"), seen(1, "d d")]


async def test_an_asker_never_has_two_jobs_in_the_workers() -> None:
    held = Held()
    thinker = Thinker(held, workers=2)
    first = asyncio.ensure_future(thinker.hint(seen(1), asker="alice"))
    await until(lambda: len(held.jobs) == 1)
    second = asyncio.ensure_future(thinker.hint(seen(1, "d"), asker="alice"))
    await until(lambda: thinker.waiting == 1)
    bob = asyncio.ensure_future(thinker.hint(seen(2), asker="bob"))
    await until(lambda: len(held.jobs) == 2)
    assert held.positions() == [seen(1), seen(2)]  # the free worker went to Bob, not to Alice's second
    held.release(1)
    await bob
    assert len(held.jobs) == 2 and not second.done()
    held.release(0)
    await first
    await until(lambda: len(held.jobs) == 3)
    held.release(2)
    assert (await second).move == hint_for(seen(1, "d")).move


async def test_the_last_free_worker_waits_for_someone_not_served_lately() -> None:
    held = Held()
    thinker = Thinker(held, workers=2)
    alice = asyncio.ensure_future(thinker.hint(seen(1), asker="alice"))
    bob = asyncio.ensure_future(thinker.hint(seen(2), asker="bob"))
    await until(lambda: len(held.jobs) == 2)
    held.release(0)
    held.release(1)
    await answered(alice, bob)
    # Both were served a moment ago: only one of them may have a worker now.
    again = [asyncio.ensure_future(thinker.hint(seen(deal, "d"), asker=asker))
             for deal, asker in ((1, "alice"), (2, "bob"))]
    await until(lambda: len(held.jobs) == 3 and thinker.waiting == 1)
    carol = asyncio.ensure_future(thinker.hint(seen(3), asker="carol"))
    await until(lambda: len(held.jobs) == 4)
    assert held.positions()[2:] == [seen(1, "d"), seen(3)]  # the free worker went to Carol, not Bob
    held.release(3)
    await answered(carol)
    held.release(2)
    await until(lambda: len(held.jobs) == 5)  # Bob's turn comes once Alice's search is done
    held.release(4)
    await answered(*again)


async def test_a_newer_position_replaces_the_askers_waiting_one() -> None:
    held = Held()
    thinker = Thinker(held)
    bob = asyncio.ensure_future(thinker.hint(seen(2), asker="bob"))  # holds the only worker
    await until(lambda: len(held.jobs) == 1)
    old = [asyncio.ensure_future(thinker.hint(seen(1), asker="alice")) for _ in range(3)]
    await until(lambda: thinker.waiting == 1)
    new = asyncio.ensure_future(thinker.hint(seen(1, "d"), asker="alice"))
    for ask in old:
        with pytest.raises(Superseded):
            await ask
    again = asyncio.ensure_future(thinker.hint(seen(1, "d"), asker="alice"))  # told to ask again, they do
    await asyncio.sleep(0)
    assert thinker.waiting == 1
    held.release(0)
    await bob
    await until(lambda: len(held.jobs) == 2)
    held.release(1)
    assert (await new).move == (await again).move == hint_for(seen(1, "d")).move
    assert held.positions() == [seen(2), seen(1, "d")]  # the replaced question never reached a worker


async def test_one_asker_giving_up_leaves_the_answer_to_the_others() -> None:
    held = Held()
    thinker = Thinker(held)
    impatient = asyncio.ensure_future(thinker.hint(seen(1), asker="alice"))
    patient = asyncio.ensure_future(thinker.hint(seen(1), asker="alice"))
    await until(lambda: len(held.jobs) == 1)
    impatient.cancel()
    await asyncio.sleep(0)
    held.release(0)
    assert (await patient).move == hint_for(seen(1)).move
    assert impatient.cancelled()


async def test_closing_fails_the_waiting_questions_and_every_later_one() -> None:
    held = Held()
    thinker = Thinker(held)
    running = asyncio.ensure_future(thinker.hint(seen(1), asker="alice"))
    await until(lambda: len(held.jobs) == 1)
    waiting = asyncio.ensure_future(thinker.hint(seen(2), asker="bob"))
    await until(lambda: thinker.waiting == 1)
    thinker.close()
    with pytest.raises(ThinkingFailed):
        await waiting
    with pytest.raises(ThinkingFailed):
        await thinker.hint(seen(3), asker="carol")
    held.release(0)  # the search under way still answers its asker
    assert (await running).move == hint_for(seen(1)).move
    assert len(held.jobs) == 1


def test_a_thinker_needs_a_worker() -> None:
    with pytest.raises(ValueError, match="at least one worker"):
        Thinker(workers=0)


def spawned_workers() -> dict[int, int]:
    """This process's children started by multiprocessing's ``spawn`` (the resource tracker left out): pid → nice.

    Read from ``/proc``, as ``ps`` would: each child's parent (field 4 of ``stat``), its
    niceness (field 19) and its command line.
    """
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:  # it ended meanwhile
            continue
        if int(fields[1]) == os.getpid() and b"spawn_main" in command:
            found[int(entry.name)] = int(fields[16])
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes' niceness from /proc (Linux)")
async def test_the_worker_processes_run_below_the_event_loops_priority() -> None:
    """Hints take only the CPU that moves leave: the real pool's workers are lowered by WORKER_NICE, up to 19."""
    parent = os.getpriority(os.PRIO_PROCESS, 0)
    if parent >= 19:
        pytest.skip("this process already runs at the lowest priority, so its workers can't be lower")
    before = set(spawned_workers())
    thinker = Thinker(workers=2)
    try:
        positions = [Game.new("gate", deal=deal).to_text(hide_stock=True) for deal in (1, 2)]
        hints = [thinker.hint(position, asker=asker) for asker, position in enumerate(positions)]
        assert all(hint.move is not None for hint in await asyncio.wait_for(asyncio.gather(*hints), timeout=120))
        # Only this pool's own processes: another test in this process may have left a pool of its own.
        pool = thinker._pool()
        assert isinstance(pool, ProcessPoolExecutor)
        own = set(pool._processes or ())
        lowered = min(19, parent + WORKER_NICE)
        # A worker the pool started on demand a moment ago may not have run its initializer yet.
        deadline = time.monotonic() + 30
        while True:
            workers = {pid: nice for pid, nice in spawned_workers().items() if pid not in before and pid in own}
            if set(workers.values()) == {lowered} or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
    finally:
        thinker.close()
    assert workers  # the hints were worked out in worker processes, and these are they
    assert set(workers.values()) == {lowered}
    assert os.getpriority(os.PRIO_PROCESS, 0) == parent  # this process, the event loop's, is as it was


# -- through the service ----------------------------------------------------------------------


async def hint_count(db: Database, game_id: int) -> int:
    async with db.sessions() as session:
        record = await session.get(GameRecord, game_id)
        assert record is not None
        return record.hint_count


def waiting_positions(service: GameService) -> list[object]:
    """The positions of the questions waiting for a worker, in the order they wait."""
    return [question.args[0] for questions in service.advice.thinker._waiting.values() for question in questions]


async def test_a_spammers_hints_are_one_job_and_anothers_hint_goes_first(db: Database) -> None:
    held = Held()
    service = GameService(db, solver=held)
    alice_game = await service.new_game(ALICE, deal=1)
    bob_game = await service.new_game(BOB, deal=2)

    before = [asyncio.ensure_future(service.hint(ALICE)) for _ in range(20)]
    await until(lambda: len(held.jobs) == 1)  # twenty presses, one job
    moved = await service.play(ALICE, "d")  # and on, pressing the new board's Hint again and again
    after = [asyncio.ensure_future(service.act(ALICE, "hint", game_id=moved.game_id, expected_version=moved.version))
             for _ in range(20)]
    bob = asyncio.ensure_future(service.hint(BOB))
    await until(lambda: service.advice.thinker.waiting == 2)  # Alice's newer position, then Bob's

    held.release(0)
    await until(lambda: len(held.jobs) == 2)
    assert held.positions()[1] == seen(2)  # Bob's hint went before Alice's backlog
    held.release(1)
    [bobs] = await answered(bob)
    assert bobs.kind is ReplyKind.HINT
    assert not any(ask.done() for ask in before + after)

    await until(lambda: len(held.jobs) == 3)
    held.release(2)
    replies = await answered(*before, *after)
    assert held.positions() == [seen(1), seen(2), seen(1, "d")]
    assert {reply.kind for reply in replies} == {ReplyKind.HINT}
    assert len({reply.message for reply in replies}) == 1  # every press has the newer position's hint
    assert await hint_count(db, alice_game.game_id) == 1  # counted once, for the position it answered
    assert await hint_count(db, bob_game.game_id) == 1


async def test_a_hint_for_a_newer_position_replaces_the_waiting_one(db: Database) -> None:
    held = Held()
    service = GameService(db, solver=held)
    await service.new_game(ALICE, deal=1)
    await service.new_game(BOB, deal=2)
    bob = asyncio.ensure_future(service.hint(BOB))  # holds the only worker
    await until(lambda: len(held.jobs) == 1)
    old = asyncio.ensure_future(service.hint(ALICE))
    await until(lambda: service.advice.thinker.waiting == 1)
    moved = await service.play(ALICE, "d")
    new = asyncio.ensure_future(service.act(ALICE, "hint", game_id=moved.game_id, expected_version=moved.version))
    await until(lambda: waiting_positions(service) == [seen(1, "d")])
    held.release(0)
    await answered(bob)
    await until(lambda: len(held.jobs) == 2)
    held.release(1)
    first, second = await answered(old, new)
    assert held.positions() == [seen(2), seen(1, "d")]  # the older position never reached a worker
    assert first.kind is second.kind is ReplyKind.HINT and first.message == second.message
    assert first.version == second.version == (await service.show(ALICE)).version


async def test_the_service_runs_as_many_hints_at_once_as_it_has_workers(db: Database) -> None:
    held = Held()
    service = GameService(db, solver=held, hint_workers=2)
    players = (ALICE, BOB, Actor("discord", "1003", "Carol"))
    for deal, actor in enumerate(players, start=1):
        await service.new_game(actor, deal=deal)
    asks = [asyncio.ensure_future(service.hint(actor)) for actor in players]
    await until(lambda: len(held.jobs) == 2 and service.advice.thinker.waiting == 1)
    held.release(0)
    await until(lambda: len(held.jobs) == 3)
    held.release(1)
    held.release(2)
    assert {reply.kind for reply in await answered(*asks)} == {ReplyKind.HINT}
