"""Leaderboard scale: one page of a challenge's standings at 1,000, 10,000 and 100,000 attempts.

For each size a challenge gets that many finished attempts (results drawn at random with a
fixed seed: a third won, moves, hints, undos and times spread) in a fresh SQLite file (and
a fresh PostgreSQL database with ``--postgres-url``), and the real
:class:`~gatebot.service.challenges.ChallengeService` is timed on:

* ``page 1``: the first page of its standings (the public page's and ``/challenge leaderboard``'s call);
* ``middle page``: the page holding the middle attempt;
* ``own rank``: one player's own place (the middle attempt's player).

With ``--against DIR`` (a checkout of an older gatebot, e.g. ``git archive main | tar -x -C DIR``)
the same is measured there too, in a subprocess running DIR's code on its own database
built from the same seed, and both are printed side by side with the ratio of the
100,000-attempt median to the 1,000-attempt one (constant time: about 1). An older
gatebot without a call for one's own rank ranks every attempt and finds the player's.
Run from the repository root:

    .venv/bin/python benchmarks/leaderboard_scale.py --against /tmp/before
    .venv/bin/python benchmarks/leaderboard_scale.py --against /tmp/before --postgres-url postgresql+asyncpg://...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
from challenge_figures import START, add_attempts  # run as a script: its folder is on the path
from sqlalchemy import insert, select
from sqlalchemy.engine import make_url

from gatebot.service import Actor, GameService
from gatebot.service.challenges import ChallengeService
from gatebot.store import Challenge, Database, Player, migrate
from gatebot.store.migrate import ensure_schema

SIZES = (1_000, 10_000, 100_000)
WHAT = ("page 1", "middle page", "own rank")


async def fill(db: Database, size: int, rng: random.Random) -> int:
    """A challenge with ``size`` finished attempts by as many players; its id."""
    async with db.sessions() as session, session.begin():
        row = Challenge(
            id=size, guild_id=size, kind="custom", name=f"Big {size}", variant="gate", deal=1, hints="counted",
            undo="allowed", channel_id=size, opens_at=START, closes_at=START + timedelta(days=1), created_at=START,
        )
        session.add(row)
        await session.flush()
        challenge_id = row.id
    players = [
        {"platform": "discord", "platform_user_id": f"{size}-{i}", "display_name": f"Player {i}",
         "board_style": "text", "compact_board": False, "created_at": START}
        for i in range(size)
    ]
    async with db.engine.begin() as connection:
        for start in range(0, size, 5000):
            await connection.execute(insert(Player.__table__), players[start:start + 5000])
        ids = list((await connection.execute(
            select(Player.id).where(Player.platform_user_id.like(f"{size}-%")).order_by(Player.id)
        )).scalars())
    await add_attempts(db, challenge_id, ids, rng)  # the same random results as the challenge figures'
    async with db.engine.connect() as connection:  # the statistics a live database's autovacuum keeps
        await connection.execution_options(isolation_level="AUTOCOMMIT")
        await connection.exec_driver_sql("ANALYZE")
    return challenge_id


async def median_ms(work: Callable[[], Awaitable[object]], repeat: int) -> float:
    await work()  # warm: statements compiled, pages cached
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        await work()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


async def own_rank(challenges: ChallengeService, challenge_id: int, actor: Actor) -> Any:
    """The player's own place: the service's call, or (an older gatebot) every attempt ranked and theirs found."""
    if hasattr(challenges, "own_standing"):
        found = await challenges.own_standing(challenge_id, actor)
        assert found is not None
        return found.rank
    from gatebot.service.challenges.standings import ranked_standings

    info = await challenges.get(challenge_id, challenge_id)  # each benchmark challenge's server has its number
    async with challenges._db.sessions() as session:
        ranked = await ranked_standings(session, info, challenges.now())
    return next(standing.rank for standing in ranked if standing.user_id == actor.user_id)


async def worker(url: str, repeat: int, seed: int) -> dict[str, dict[str, float]]:
    """Medians in ms by what and size, on this gatebot's code (whichever is imported)."""
    revisions = Path.cwd() / "migrations"
    if revisions.is_dir():  # the checkout's own revisions, not the installed package's
        migrate.MIGRATIONS_DIR = revisions.resolve()
    db = Database(url)
    await ensure_schema(db)
    games = GameService(db, clock=lambda: START + timedelta(days=2))
    challenges = ChallengeService(games)
    found: dict[str, dict[str, float]] = {what: {} for what in WHAT}
    try:
        for size in SIZES:
            challenge_id = await fill(db, size, random.Random(seed + size))
            middle = (size // 2) // 10
            board = await challenges.standings(challenge_id, page=middle)
            someone = board.standings[0]
            actor = Actor("discord", someone.user_id, someone.name)
            assert await own_rank(challenges, challenge_id, actor) == someone.rank
            found["page 1"][str(size)] = await median_ms(lambda c=challenge_id: challenges.standings(c, page=0), repeat)
            found["middle page"][str(size)] = await median_ms(
                lambda c=challenge_id, m=middle: challenges.standings(c, page=m), repeat
            )
            found["own rank"][str(size)] = await median_ms(
                lambda c=challenge_id, a=actor: own_rank(challenges, c, a), repeat
            )
    finally:
        games.close()
        await db.dispose()
    return found


async def new_postgres_database(server: str) -> str:
    name = f"bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(make_url(server).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return make_url(server).set(database=name).render_as_string(hide_password=False)


async def drop_postgres_database(server: str, url: str) -> None:
    admin = await asyncpg.connect(make_url(server).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')
    finally:
        await admin.close()


def measure(code: Path | None, url: str, args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """Run :func:`worker` in a subprocess on ``code``'s gatebot (None: this checkout's)."""
    environment = dict(os.environ)
    if code is not None:
        environment["PYTHONPATH"] = str(code)
    done = subprocess.run(
        [sys.executable, __file__, "--worker", url, "--repeat", str(args.repeat), "--seed", str(args.seed)],
        env=environment, capture_output=True, text=True, check=False, cwd=code or Path.cwd(),
    )
    if done.returncode:
        sys.exit(done.stderr)
    return json.loads(done.stdout.splitlines()[-1])


def table(label: str, results: dict[str, dict[str, dict[str, float]]]) -> None:
    print(f"{label}: median ms of one call")
    print(f"  {'':<12} {'':<7}" + "".join(f"{size:>10,}" for size in SIZES) + f"{'100k/1k':>10}")
    for what in WHAT:
        for name, found in results.items():
            cells = [found[what][str(size)] for size in SIZES]
            print(f"  {what:<12} {name:<7}" + "".join(f"{cell:10.2f}" for cell in cells)
                  + f"{cells[-1] / cells[0]:10.1f}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", type=Path, help="a checkout of an older gatebot to measure as 'before'")
    parser.add_argument("--postgres-url", help="also measure on new databases of this PostgreSQL server")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    if args.worker:
        print(json.dumps(await worker(args.worker, args.repeat, args.seed)))
        return
    print(f"leaderboard scale · Python {platform.python_version()} · {platform.machine()} · {args.repeat} runs each")
    codes: dict[str, Path | None] = {"after": None}
    if args.against:
        codes = {"before": args.against.resolve(), **codes}
    with tempfile.TemporaryDirectory() as folder:
        table("SQLite", {
            name: measure(code, f"sqlite+aiosqlite:///{Path(folder) / f'{name}.db'}", args)
            for name, code in codes.items()
        })
    if args.postgres_url:
        results = {}
        for name, code in codes.items():
            url = await new_postgres_database(args.postgres_url)
            try:
                results[name] = measure(code, url, args)
            finally:
                await drop_postgres_database(args.postgres_url, url)
        table("PostgreSQL", results)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
