"""Live boards across processes on one PostgreSQL: a ``gatebot web`` process and another with its own service."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy import select

from gatebot.service import Actor, GameChange, GameService
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.store.models import Player

ROOT = Path(__file__).resolve().parents[2]


async def next_view(stream: aiohttp.ClientResponse) -> dict:
    lines: list[bytes] = []
    while True:
        line = await stream.content.readline()
        if line == b"\n" and lines:
            break
        if not line.startswith(b":"):
            lines.append(line)
    data = next(line for line in lines if line.startswith(b"data: "))
    return json.loads(data[len(b"data: "):])["view"]


async def wait_until(condition: object, what: str, seconds: float = 20) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_change_in_one_process_reaches_the_open_page_of_another_and_back(
    database_url: str, tmp_path: Path
) -> None:
    db = Database(database_url)
    await ensure_schema(db)
    env = {**os.environ, "DATABASE_URL": database_url, "XDG_DATA_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("WEB_PORT", None)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gatebot", "web", "--port", "0", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    service = GameService(db)
    heard: list[GameChange] = []
    service.watch(heard.append)
    try:
        assert process.stdout is not None
        address = None
        while address is None:
            line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
            assert line, "gatebot web stopped"
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            address = found.group(0) if found else None
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
            async with browser.get(address) as page:
                token = re.search(r'name="csrf-token" content="([^"]+)"', await page.text()).group(1)  # type: ignore[union-attr]
            headers = {"X-CSRF-Token": token}
            async with browser.post(address + "api/new", json={"deal": 5}, headers=headers) as dealt:
                version = (await dealt.json())["view"]["version"]
            async with db.sessions() as session:
                guest = (await session.scalars(select(Player.platform_user_id).where(Player.platform == "web"))).one()
            async with browser.get(address + "api/events") as stream:
                assert (await asyncio.wait_for(next_view(stream), 20))["version"] == version
                # A move made by this process's service, as a chat move in a bot process would be.
                played = await service.play(Actor("web", guest, "Guest"), "d", expected_version=version)
                assert played.saved
                pushed = await asyncio.wait_for(next_view(stream), 10)
                assert pushed["version"] == played.version and pushed["moves_played"] == 1
            # And a move on the page reaches this process's watchers (a bot would redraw its board).
            await wait_until(lambda: service.hears_other_processes, "this process to listen")
            async with browser.post(address + "api/play", json={"move": "d", "version": played.version},
                                    headers=headers) as moved:
                page_version = (await moved.json())["view"]["version"]
            await wait_until(lambda: any(change.version == page_version for change in heard), "the page's move")
            assert heard[-1].owner == ("web", guest)
    finally:
        process.send_signal(signal.SIGINT)
        await asyncio.wait_for(process.wait(), 20)
        service.close()
        await db.dispose()
