"""The running bot keeps its heartbeat file, and ``gatebot health`` beside it reads it: `gatebot run` as a process.

Against the fake Discord: once the gateway is live the file holds a recent time and the health
check passes; SIGTERM removes it, so the check fails at once rather than 90 s later. In process:
a dropped connection is not live, so the file stops getting younger until the bot is back.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from gatebot.bot import run as run_module
from gatebot.bot.run import Heartbeat
from tests.bot.gatebots import Running
from tests.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


async def _gatebot(*args: str, env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "gatebot", *args, env=env, cwd=cwd,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def _health(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    process = await _gatebot("health", env=env, cwd=cwd)
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode is not None
    return process.returncode, (stdout + stderr).decode()


async def _appears(path: Path, timeout: float) -> str:
    """The file's text once it exists (looked at every 50 ms, for at most ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        await asyncio.sleep(0.05)
    return path.read_text(encoding="ascii")


async def test_the_running_bot_writes_its_heartbeat_and_removes_it_when_stopped(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    beat = tmp_path / "data" / "gatebot.health"
    env = {**os.environ, **fake.env(), "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/gatebot.db",
           "HEALTH_FILE": str(beat), "PYTHONPATH": str(ROOT)}
    before = time.time()
    process = await _gatebot("run", env=env, cwd=tmp_path)
    try:
        await fake.wait_until_connected(timeout=20)
        written = float(await _appears(beat, timeout=20))
        assert before <= written <= time.time()
        assert sum(connection.heartbeats for connection in fake.gateway.connections) >= 1  # one acknowledged
        code, line = await _health(env, tmp_path)
        assert (code, line.startswith("healthy")) == (0, True), line
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, stderr.decode()
    assert not beat.exists()  # so gatebot health fails at once (tests/test_health.py: no file)



async def _until(check: object, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.01)


async def test_the_heartbeat_is_live_only_while_the_gateway_is_connected(
    gatebot, fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module, "HEARTBEAT_SECONDS", 0.01)
    monkeypatch.setattr(run_module, "HEARTBEAT_POLL_SECONDS", 0.01)
    running: Running = await gatebot()
    beat = tmp_path / "gatebot.health"
    heartbeat = Heartbeat(running.bot, beat)
    assert not heartbeat.is_live()  # it heard no connect: it waits for one (a resume here)
    seen_at_disconnect: list[bool] = []

    async def disconnected(shard_id: int) -> None:
        seen_at_disconnect.append(heartbeat.is_live())

    running.bot.add_listener(disconnected, "on_shard_disconnect")
    keeping = asyncio.create_task(heartbeat.keep())
    try:
        await fake.reconnect()
        await _until(heartbeat.is_live)
        await _until(beat.exists)
        await fake.gateway.drop_connections()
        await _until(lambda: seen_at_disconnect)
        assert seen_at_disconnect[0] is False
        await _until(heartbeat.is_live)  # resumed
        written = float(beat.read_text())
        await _until(lambda: float(beat.read_text()) > written)  # beating again
    finally:
        keeping.cancel()
    heartbeat.remove()
    assert not beat.exists()


async def test_the_heartbeat_writes_through_no_link_planted_beside_it(gatebot, tmp_path: Path) -> None:
    """A link planted at the old temporary name, or at the file's own name, is replaced, never written through."""
    running: Running = await gatebot()
    secret, other = tmp_path / "secret.txt", tmp_path / "other.txt"
    secret.write_text("precious\n")
    other.write_text("also precious\n")
    data = tmp_path / "data"
    data.mkdir()
    beat = data / "gatebot.health"
    (data / "gatebot.health.part").symlink_to(secret)
    beat.symlink_to(other)
    heartbeat = Heartbeat(running.bot, beat)
    before = time.time()
    heartbeat.write()
    assert (secret.read_text(), other.read_text()) == ("precious\n", "also precious\n")
    assert not beat.is_symlink()
    assert before - 0.001 <= float(beat.read_text(encoding="ascii")) <= time.time()  # written to the millisecond
    assert beat.stat().st_mode & 0o777 == 0o644  # the health check may run as another user
    assert not heartbeat.failed
    # No temporary file is left behind; the planted link stays as it was, harmless.
    assert sorted(path.name for path in data.iterdir()) == ["gatebot.health", "gatebot.health.part"]
    heartbeat.write()  # and again, over its own file
    assert sorted(path.name for path in data.iterdir()) == ["gatebot.health", "gatebot.health.part"]


async def test_a_heartbeat_that_cant_be_put_in_place_leaves_no_temporary_file(gatebot, tmp_path: Path) -> None:
    running: Running = await gatebot()
    beat = tmp_path / "gatebot.health"
    beat.mkdir()  # a folder where the file should be: the rename fails
    heartbeat = Heartbeat(running.bot, beat)
    heartbeat.write()
    assert heartbeat.failed  # logged once, not fatal
    assert sorted(path.name for path in tmp_path.iterdir() if "health" in path.name) == ["gatebot.health"]
    assert beat.is_dir()
