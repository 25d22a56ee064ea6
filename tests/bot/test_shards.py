"""Two ``gatebot run`` processes, one per shard, on one PostgreSQL, against the fake Discord.

Process A runs shard 0 (its server and every DM), process B shard 1 (another server). Players
in both servers play; a player's ``/gate settings`` changed through A is honoured by B on her
very next board; the daily challenge both processes race to open at start is announced once;
each process thinks about hints in worker processes of its own; each serves its own counters.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from gatebot.service import GameService
from gatebot.service.challenges import ChallengeService
from gatebot.service.challenges.daily import daily_name
from gatebot.store import Challenge, Database
from gatebot.store.migrate import ensure_schema
from tests.bot.gatebots import shown
from tests.bot.test_metrics import scrape, value
from tests.fake_discord import FakeDiscord, FakeGuild, FakeMember, World

ON_POSTGRES = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
SHARDS = 2
REPO = Path(__file__).resolve().parents[2]


def guild_on_shard(world: World, shard: int, name: str) -> FakeGuild:
    """A new guild whose id Discord routes to ``shard`` of :data:`SHARDS` (``(id >> 22) % shards``)."""
    owner = next(user for user in world.users.values() if user.username == "alice")
    while True:
        guild = world.add_guild(name, owner=owner)
        if (guild.id >> 22) % SHARDS == shard:
            bob = next(user for user in world.users.values() if user.username == "bob")
            guild.members[bob.id] = FakeMember(user=bob)
            return guild
        world.guilds.remove(guild)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Process:
    """One ``gatebot run`` and where its log and counters are."""

    shard: int
    process: asyncio.subprocess.Process
    log: Path
    metrics: str

    def hint_workers(self) -> set[int]:
        """The pids of this process's own solver workers: its children started by multiprocessing's spawn."""
        found = set()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
                command = (stat.parent / "cmdline").read_bytes()
            except (OSError, ValueError, IndexError):
                continue  # gone meanwhile
            if parent == self.process.pid and b"spawn_main" in command:
                found.add(int(stat.parent.name))
        return found


@asynccontextmanager
async def two_processes(
    fake: FakeDiscord, database_url: str, tmp_path: Path, *, env_of: Mapping[int, Mapping[str, str]] | None = None,
) -> AsyncIterator[list[Process]]:
    """``gatebot run`` with SHARD_IDS=0 and SHARD_IDS=1 at the same moment; SIGTERM and a clean exit after.

    ``env_of``: more environment for a shard's process (its WEB_PUBLIC_URL, its way to the fake).
    """
    running = []
    for shard in range(SHARDS):
        port = free_port()
        log = tmp_path / f"shard{shard}.log"
        env = {**os.environ, **fake.env(), "DATABASE_URL": database_url, "GATEBOT_DEV_GUILD_ID": str(fake.guild.id),
               "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard), "GATEBOT_HINT_WORKERS": "1",
               "METRICS_PORT": str(port), "PYTHONPATH": str(REPO), **(env_of or {}).get(shard, {})}
        with log.open("wb") as out:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "gatebot", "run", env=env, cwd=tmp_path, stdout=out, stderr=out,
            )
        running.append(Process(shard, process, log, f"http://127.0.0.1:{port}/metrics"))
    try:
        yield running
    finally:
        for each in running:
            if each.process.returncode is None:
                each.process.send_signal(signal.SIGTERM)
        codes = [await asyncio.wait_for(each.process.wait(), 20) for each in running]
    for each, code in zip(running, codes, strict=True):
        assert code == 0, each.log.read_text()


@ON_POSTGRES  # under CI=true a missing PostgreSQL fails this test rather than skipping it
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc (Linux)")
async def test_two_processes_share_one_database_split_the_shards_and_announce_the_daily_once(
    database_url: str, tmp_path: Path
) -> None:
    world = World.default()
    world.guilds.clear()
    first, second = guild_on_shard(world, 0, "Shard Zero"), guild_on_shard(world, 1, "Shard One")
    world.guilds.sort(key=lambda guild: guild.id)
    db = Database(database_url)
    await ensure_schema(db)
    general = first.channel("general")
    games = GameService(db)
    await ChallengeService(games).set_daily(first.id, general.id)  # today's opens when the processes start
    games.close()
    async with FakeDiscord(world) as fake:
        assert fake.guild is first
        alice, bob = fake.user("alice"), fake.user("bob")
        there = second.channel("general")
        async with two_processes(fake, database_url, tmp_path) as (a, b):
            await fake.wait_for(
                lambda: len([s for s in fake.gateway.sessions.values() if s.live]) == SHARDS or None,
                timeout=20, what="both processes' gateway sessions",
            )
            await fake.wait_for_commands(first, timeout=20)
            fake.state.commands[second.id] = [{**command, "guild_id": str(second.id)}
                                              for command in fake.state.commands[first.id]]
            shards = {session.shard for session in fake.gateway.sessions.values()}
            assert shards == {(0, SHARDS), (1, SHARDS)}

            # Players in both servers play: alice through A, bob through B.
            dealt = await shown(await fake.send_command("gate new", {"deal": 1}, user=alice))
            assert "9♠" in dealt.content
            theirs = await shown(await fake.send_command("gate new", {"deal": 2}, user=bob, channel=there))
            assert theirs.content and not theirs.attachments
            played = await shown(await fake.send_command("gate move", {"moves": "45"}, user=alice))
            assert played.content.startswith("Played 45")  # answered, or deferred first on a slow machine

            # alice's board through B, in her style as it is (B keeps it), then changed through A.
            board = await shown(await fake.send_command("gate board", user=alice, channel=there))
            assert board.content and not board.attachments, "a text board"
            changed = await shown(await fake.send_command("gate settings", {"style": "image"}, user=alice))
            assert "drawn as image" in changed.content
            redrawn = await shown(await fake.send_command("gate board", user=alice, channel=there))
            assert [a["filename"].endswith(".png") for a in redrawn.attachments] == [True], "B drew it as an image"

            # Each process asks its own hint worker.
            for user, channel in ((alice, general), (bob, there)):
                asked = await fake.send_command("gate hint", user=user, channel=channel)
                assert (await asked.original_edited(timeout=20)).content.startswith("Hint: ")
            workers = [a.hint_workers(), b.hint_workers()]
            assert [len(found) for found in workers] == [1, 1] and not workers[0] & workers[1]

            # Each serves its own counters: what it answered, and nothing the other did.
            counted = [await scrape(a.metrics), await scrape(b.metrics)]
            assert [value(c, "gatebot_commands_total", kind="/gate settings") for c in counted] == [1, 0]
            assert [value(c, "gatebot_commands_total", kind="/gate board") for c in counted] == [0, 2]
            assert [value(c, "gatebot_hint_seconds_count") for c in counted] == [1, 1]

            # The daily opens at each process's first tick, which can come after all the above on a
            # fast run: wait for its announcement before stopping them.
            name = daily_name(datetime.now(UTC).date())
            await fake.wait_for(
                lambda: [m for m in fake.messages(general) if name in json.dumps(m.payload)] or None,
                timeout=20, what="the daily challenge's announcement",
            )

    # Both ticked at start (and a stop waits for a tick under way): one challenge, announced once.
    announced = [m for m in fake.messages(general) if name in json.dumps(m.payload)]
    async with db.sessions() as session:
        dailies = await session.scalar(select(func.count()).select_from(Challenge))
    await db.dispose()
    assert dailies == 1 and len(announced) == 1, [m.payload for m in announced]
    logs = a.log.read_text() + b.log.read_text()
    assert logs.count(f"opened {name}") == 1
