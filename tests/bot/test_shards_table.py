"""Chat and the web table in step across processes: two ``gatebot run`` shards and ``gatebot web`` on one PostgreSQL.

Alice plays in a server of shard 1. Process A runs shard 0, process B shard 1, and a third process
serves the web table; all three share the database and the table's key file, so the link B makes
for ``/gate table`` opens in the web process. A chat move reaches her open page through
PostgreSQL's notices, and a move on the page edits her chat board: B edits it, A (which hears the
change too, but has no such channel) does not. B talks to the fake Discord through a proxy of its
own, so the ``Host`` header of each request the fake records says which process made it.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from yarl import URL

from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from tests.bot.gatebots import shown
from tests.bot.test_shards import REPO, SHARDS, free_port, guild_on_shard, two_processes
from tests.fake_discord import FakeDiscord, StoredMessage, World
from tests.tcp_proxy import Proxy

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def next_event(stream: aiohttp.ClientResponse) -> tuple[str, dict[str, Any]]:
    """The next server-sent event of a live stream: its name and data (comments skipped)."""
    fields: dict[str, str] = {}
    while True:
        line = (await stream.content.readline()).decode()
        assert line, "the live stream ended"
        if line == "\n" and fields:
            return fields.get("event", "message"), json.loads(fields["data"])
        if not line.startswith(":") and ": " in line:
            name, value = line.rstrip("\n").split(": ", 1)
            fields[name] = value


async def view_with(stream: aiohttp.ClientResponse, version: int) -> dict[str, Any]:
    """The first view the stream sends of ``version`` or later."""
    while True:
        event, data = await next_event(stream)
        if event == "view" and data["view"]["version"] >= version:
            return data["view"]


def board_version(message: StoredMessage) -> int | None:
    """The game version a board message's buttons were drawn for (``gate:<action>:<game>:<version>``)."""
    versions = {int(custom_id.rsplit(":", 1)[1]) for custom_id in message.custom_ids() if custom_id.startswith("gate:")}
    return max(versions, default=None)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_chat_move_reaches_the_page_and_a_page_move_is_drawn_in_chat_by_the_shard_with_the_channel(
    database_url: str, tmp_path: Path
) -> None:
    world = World.default()
    world.guilds.clear()
    first, second = guild_on_shard(world, 0, "Shard Zero"), guild_on_shard(world, 1, "Shard One")
    world.guilds.sort(key=lambda guild: guild.id)
    db = Database(database_url)
    await ensure_schema(db)
    await db.dispose()
    shared = {"DATABASE_URL": database_url, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(REPO)}
    port = free_port()
    table = f"http://127.0.0.1:{port}/"
    web_log = tmp_path / "web.log"
    web_env = {**os.environ, **shared}
    web_env.pop("WEB_PORT", None)
    with web_log.open("wb") as out:
        web_process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "gatebot", "web", "--port", str(port), env=web_env, cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE, stderr=out,
        )
    try:
        async with FakeDiscord(world) as fake, Proxy("127.0.0.1", URL(fake.api_base).port or 0) as proxy:
            b_base = str(URL(fake.api_base).with_port(proxy.port))
            env_of = {0: {**shared, "WEB_PUBLIC_URL": table},
                      1: {**shared, "WEB_PUBLIC_URL": table, "GATEBOT_DISCORD_API_BASE": b_base}}
            alice = fake.user("alice")
            there = second.channel("general")
            async with two_processes(fake, database_url, tmp_path, env_of=env_of) as (a, b):
                assert web_process.stdout is not None
                ready = (await asyncio.wait_for(web_process.stdout.readline(), 30)).decode()
                assert table in ready, web_log.read_text()
                await fake.wait_for(
                    lambda: len([s for s in fake.gateway.sessions.values() if s.live]) == SHARDS or None,
                    timeout=20, what="both processes' gateway sessions",
                )
                await fake.wait_for_commands(first, timeout=20)
                fake.state.commands[second.id] = [{**command, "guild_id": str(second.id)}
                                                  for command in fake.state.commands[first.id]]

                # Alice deals and plays in chat, in a server of B's shard.
                board = await shown(await fake.send_command("gate new", {"deal": 1}, user=alice, channel=there))
                played = await shown(await fake.send_command("gate move", {"moves": "45"}, user=alice, channel=there))
                assert played.content.startswith("Played 45")
                await fake.wait_for(lambda: board_version(fake.message(board.id)) or None, timeout=10,
                                    what="the board after the chat move")
                chat_version = board_version(fake.message(board.id))
                assert chat_version is not None

                # /gate table: a private link to the web process, which signs the browser in as her.
                asked = await shown(await fake.send_command("gate table", user=alice, channel=there))
                assert asked.ephemeral
                link = next(c["url"] for row in asked.components for c in row["components"] if "url" in c)
                assert link.startswith(f"{table}link/")
                async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
                    async with browser.get(link) as page:  # follows the 303 to the table
                        assert page.status == 200 and str(page.url) == table
                        found = re.search(r'name="csrf-token" content="([^"]+)"', await page.text())
                    assert found is not None
                    headers = {"X-CSRF-Token": found.group(1)}
                    async with browser.get(table + "api/events", timeout=aiohttp.ClientTimeout(total=None)) as stream:
                        opened = await asyncio.wait_for(view_with(stream, 0), 10)
                        assert opened["version"] == chat_version and opened["moves_played"] == 1, "her chat game"

                        # A chat move (B's process) arrives on the open page (the web process).
                        started = asyncio.get_running_loop().time()
                        again = await shown(await fake.send_command("gate move", {"moves": "d"}, user=alice,
                                                                    channel=there))
                        assert again.content.startswith("Played d")
                        pushed = await asyncio.wait_for(view_with(stream, chat_version + 1), 10)
                        took = asyncio.get_running_loop().time() - started
                        assert pushed["moves_played"] == 2
                        print(f"a chat move reached the page {took * 1000:.0f} ms after it was sent")

                        # A move on the page (the web process) is drawn on the chat board by B.
                        async with browser.post(table + "api/play", json={"move": "d", "version": pushed["version"]},
                                                headers=headers) as moved:
                            assert moved.status == 200, await moved.text()
                            page_version = (await moved.json())["view"]["version"]
                await fake.wait_for(lambda: board_version(fake.message(board.id)) == page_version or None,
                                    timeout=10, what="the chat board redrawn after the page's move")
                assert "3 moves" in fake.message(board.id).content
                await asyncio.sleep(1.5)  # room for an edit that should not come (A's, or a second of B's)

        edits = [r for r in fake.requests_to(EDIT) if r.path.endswith(f"/{board.id}")]
        b_host = f"127.0.0.1:{proxy.port}"
        # Two chat moves and one page move: three edits, each by B, none failed.
        assert [(r.status, r.headers.get("Host")) for r in edits] == [(200, b_host)] * 3, [str(r) for r in edits]
        # A heard every change too: it looked up once where that channel is (not in its shard), and edited nothing.
        by_a = [f"{r.method} {r.path}" for r in fake.state.requests
                if r.headers.get("Host") != b_host and r.path.startswith(f"/channels/{there.id}")]
        assert by_a == [f"GET /channels/{there.id}"], by_a
        assert not fake.violations
        for log in (a.log, b.log, web_log):
            assert "Traceback" not in log.read_text() and "ERROR" not in log.read_text(), log.read_text()
    finally:
        if web_process.returncode is None:
            web_process.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(web_process.wait(), 20) == 0, web_log.read_text()
