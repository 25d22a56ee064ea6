"""Challenge figures: how long the requests around challenges take on a big server, and the midnight tick.

Measured through the real :class:`~gatebot.service.challenges.ChallengeService` on a fresh
SQLite file (and a PostgreSQL database with ``--postgres-url``):

* ``leaderboard``: one page of a challenge's standings, for challenges with 100, 1,000 and
  10,000 attempts (ranked by the database a page at a time; ``leaderboard_scale.py`` goes to 100,000);
* ``server board``: the all-time board of a server whose members made ``--days`` dailies'
  worth of attempts;
* ``play``: a member starting their attempt (the deal dealt and saved);
* ``tick``: the midnight rollover of ``--servers`` servers with a daily challenge each —
  every one closed with its standings and the next opened, as one call.

Attempts are inserted as finished game rows (results drawn at random), not played, so the
figures are about the challenge queries alone. Run from the repository root:

    .venv/bin/python benchmarks/challenge_figures.py
    .venv/bin/python benchmarks/challenge_figures.py --postgres-url postgresql+asyncpg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import platform
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
from sqlalchemy import insert
from sqlalchemy.engine import make_url

from gatebot.analyse import percentile
from gatebot.service import Actor, GameService
from gatebot.service.challenges import ChallengeService
from gatebot.store import Challenge, Database, GameRecord, GameStatus, Player
from gatebot.store.migrate import ensure_schema

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


class Clock:
    """A clock the benchmark moves by hand (the service closes and opens by it)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def add_players(db: Database, count: int, offset: int = 0) -> list[int]:
    rows = [
        {"platform": "discord", "platform_user_id": str(10_000 + offset + i), "display_name": f"Player {offset + i}",
         "board_style": "text", "compact_board": False, "created_at": START}
        for i in range(count)
    ]
    async with db.engine.begin() as connection:
        await connection.execute(insert(Player.__table__), rows)
        result = await connection.exec_driver_sql(
            f"SELECT id FROM players WHERE display_name IN ({','.join(repr(r['display_name']) for r in rows)})"
        )
        return [row[0] for row in result]


async def add_attempts(db: Database, challenge_id: int, player_ids: list[int], rng: random.Random) -> None:
    """Finished attempts with random results: a third won, the rest 5-51 cards."""
    rows = []
    for player_id in player_ids:
        won = rng.random() < 0.33
        started = START + timedelta(seconds=rng.randrange(3600))
        rows.append({
            "player_id": player_id, "variant": "gate", "options": "", "deal": 1, "log": "", "position": "",
            "status": GameStatus.WON if won else GameStatus.LOST, "score": 52 if won else rng.randint(5, 51),
            "move_count": rng.randint(60, 200), "undo_count": rng.randint(0, 5), "hint_count": rng.randint(0, 3),
            "started_at": started, "updated_at": started,
            "finished_at": started + timedelta(seconds=rng.randint(60, 1800)),
            "challenge_id": challenge_id, "version": 1,
        })
    async with db.engine.begin() as connection:
        for start in range(0, len(rows), 2000):
            await connection.execute(insert(GameRecord.__table__), rows[start:start + 2000])


async def add_challenge(db: Database, guild_id: int, name: str, day: datetime, *, daily: bool) -> int:
    async with db.sessions() as session, session.begin():
        row = Challenge(
            guild_id=guild_id, kind="daily" if daily else "custom", name=name, variant="gate", deal=1,
            hints="allowed", undo="allowed", channel_id=guild_id, day=day.date() if daily else None,
            opens_at=day, closes_at=day + timedelta(days=1), created_at=day,
        )
        session.add(row)
        await session.flush()
        return row.id


async def timed(work: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        await work()
        times.append((time.perf_counter() - began) * 1000)
    return times


def line(label: str, times: list[float]) -> str:
    return (f"  {label:<34} median {statistics.median(times):8.1f} ms   p95 {percentile(times, 0.95):8.1f} ms"
            f"   ({len(times)} runs)")


async def measure(url: str, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    db = Database(url)
    await ensure_schema(db)
    clock = Clock(START)
    games = GameService(db, clock=clock)
    challenges = ChallengeService(games, rng=random.Random(args.seed))
    try:
        print(f"{db.safe_url.split(':')[0]}:")
        members = await add_players(db, 10_000)
        for size, guild in ((100, 1), (1_000, 2), (10_000, 3)):
            challenge_id = await add_challenge(db, guild, f"Big {size}", START, daily=False)
            await add_attempts(db, challenge_id, members[:size], rng)
            times = await timed(lambda g=guild, c=challenge_id: challenges.leaderboard(g, c, page=3), args.repeat)
            print(line(f"leaderboard, {size:,} attempts", times))
        guild = 4
        regulars = members[:args.members]
        for day in range(args.days):
            opened = START - timedelta(days=args.days - day)
            challenge_id = await add_challenge(db, guild, f"Daily {day}", opened, daily=True)
            await add_attempts(db, challenge_id, rng.sample(regulars, k=len(regulars) * 3 // 4), rng)
        times = await timed(lambda: challenges.server_board(guild, page=1), args.repeat)
        print(line(f"server board, {args.days} dailies x {args.members}", times))
        open_id = await challenges.create(Actor("discord", "1", "Admin"), 5, channel_id=5, deal=1)
        players = [Actor("discord", f"p{i}", f"P{i}", guild_id=5) for i in range(args.repeat)]
        play_times = []
        for actor in players:
            began = time.perf_counter()
            reply = await challenges.play(actor, 5, open_id.id)
            play_times.append((time.perf_counter() - began) * 1000)
            assert reply.ok, reply.message
        print(line("play (start an attempt)", play_times))
        servers = range(1000, 1000 + args.servers)
        for guild_id in servers:
            await challenges.set_daily(guild_id, guild_id)
        await challenges.tick()  # today's dailies open
        clock.now = START.replace(hour=0) + timedelta(days=1, seconds=1)
        began = time.perf_counter()
        done = await challenges.tick()
        seconds = time.perf_counter() - began
        print(f"  midnight tick, {args.servers} servers          {seconds:8.2f} s    "
              f"({len(done)} announcements: closed and opened)")
    finally:
        games.close()
        await db.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--days", type=int, default=90, help="dailies on the server board's server")
    parser.add_argument("--members", type=int, default=500, help="regular players on that server")
    parser.add_argument("--servers", type=int, default=500, help="servers rolling over at midnight")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", help="also measure on a new database of this PostgreSQL server")
    args = parser.parse_args()
    logging.disable(logging.INFO)
    print(f"challenge figures · Python {platform.python_version()} · {platform.machine()}")
    with tempfile.TemporaryDirectory() as folder:
        await measure(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}", args)
    if args.postgres_url:
        name = f"bench_{uuid.uuid4().hex[:12]}"
        dsn = make_url(args.postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
        admin = await asyncpg.connect(dsn)
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
            await measure(make_url(args.postgres_url).set(database=name).render_as_string(hide_password=False), args)
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
