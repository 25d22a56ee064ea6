"""The package docstring's instructions for the bot are exact: a separate process follows them and connects."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap

import tests.fake_discord
from tests.fake_discord import API_BASE_VARIABLE, FakeDiscord

CLIENT = """
import asyncio, os, discord

async def main():
    point_at(os.environ["{variable}"])
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)

    @client.event
    async def on_ready():
        print("ready", *[guild.name for guild in client.guilds], flush=True)
        await client.close()

    async with client:
        await client.start(os.environ["DISCORD_TOKEN"])

asyncio.run(main())
"""


def documented_snippet() -> str:
    """The ``point_at`` code block of the package docstring, dedented."""
    doc = tests.fake_discord.__doc__ or ""
    start = doc.index("    import yarl")
    end = doc.index("\n\n", doc.index("def point_at", start))
    return textwrap.dedent(doc[start:end])


async def test_a_subprocess_following_the_docstring_connects(fake: FakeDiscord) -> None:
    script = documented_snippet() + "\n" + CLIENT.format(variable=API_BASE_VARIABLE)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        env={**os.environ, **fake.env()},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, stderr.decode()
    assert stdout.decode().split() == ["ready", "Test", "Guild"]
    assert [request.route for request in fake.requests] == ["GET /users/@me", "GET /oauth2/applications/@me"]
