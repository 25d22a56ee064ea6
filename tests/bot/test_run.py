"""`gatebot run` itself, as a process: settings from the environment, the fake Discord, SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from sqlalchemy import select

from gatebot.store import Database, GameRecord
from tests.fake_discord import FakeDiscord


async def test_gatebot_run_plays_and_stops_cleanly_on_sigterm(fake: FakeDiscord, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/gatebot.db"
    env = {**os.environ, **fake.env(), "DATABASE_URL": url, "GATEBOT_DEV_GUILD_ID": str(fake.guild.id),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gatebot", "run", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_for_commands(fake.guild, timeout=20)
        await fake.wait_for(lambda: any(session.live for session in fake.gateway.sessions.values()) or None,
                            timeout=20, what="the bot's gateway session")
        handle = await fake.send_command("gate new", {"deal": 1})
        response = await handle.response(timeout=10)
        assert response.type == 4 and "9♠" in response.content
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, stderr.decode()
    assert fake.token not in stderr.decode()
    log = stderr.decode()
    assert "Upgraded the database from empty" in log
    assert "the database is closed" in log
    db = Database(url)
    async with db.sessions() as session:
        game = (await session.scalars(select(GameRecord))).one()
    await db.dispose()
    assert (game.deal, game.status) == (1, "active")


async def test_gatebot_run_without_a_token_is_one_sentence(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("DISCORD_TOKEN", "DISCORD_TOKEN_FILE")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gatebot", "run", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 2
    lines = stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0]


async def test_gatebot_run_refuses_bad_settings_before_opening_anything(tmp_path: Path) -> None:
    """Shard 5 of 2: refused in one sentence before the database is created or Discord is called."""
    database = tmp_path / "gatebot.db"
    env = {**os.environ, "DISCORD_TOKEN": "a-token", "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
           "SHARD_COUNT": "2", "SHARD_IDS": "0,5", "GATEBOT_DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gatebot", "run", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 2
    [line] = stderr.decode().splitlines()
    assert line.startswith("gatebot: SHARD_IDS") and "shard 5" in line and "SHARD_COUNT=2" in line
    assert not database.exists()
