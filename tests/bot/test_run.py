"""`gatebot run` itself, as a process: settings from the environment, the fake Discord, SIGTERM.

And when Discord can't be had: nothing listening, a connection dropped, no answer, a wrong
token. Each is one sentence on stderr and an exit code of its kind, never a traceback.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from sqlalchemy import select

from gatebot.bot import run as run_module
from gatebot.settings import Settings
from gatebot.solver.archway import search as archway_search
from gatebot.solver.canfield import search
from gatebot.solver.gate import search as gate_search
from gatebot.store import Database, GameRecord
from tests.bot.gatebots import shown
from tests.fake_discord import FakeDiscord
from tests.fake_discord.base_url import API_BASE_VARIABLE, pointed_at

#: Exit codes documented in the README and in ``gatebot run --help``.
EXIT_CONFIG, EXIT_UNREACHABLE = 2, 75


async def test_gatebot_run_plays_and_stops_cleanly_on_sigterm(fake: FakeDiscord, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/gatebot.db"
    env = {**os.environ, **fake.env(), "DATABASE_URL": url, "GATEBOT_DEV_GUILD_ID": str(fake.guild.id),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gatebot", "run", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_for_commands(fake.guild, timeout=60)  # a loaded machine starts slowly
        await fake.wait_for(lambda: any(session.live for session in fake.gateway.sessions.values()) or None,
                            timeout=20, what="the bot's gateway session")
        board = await shown(await fake.send_command("gate new", {"deal": 1}))
        assert "9♠" in board.content and not board.ephemeral
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


async def _gatebot_run(
    env: dict[str, str], cwd: Path, python: tuple[str, ...] = ("-m", "gatebot")
) -> tuple[int, str]:
    """Run ``gatebot run`` (``python`` the interpreter's arguments before it) to its end with ``env`` added.

    Its exit code and stderr.
    """
    full = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{cwd}/gatebot.db",
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]), **env}
    process = await asyncio.create_subprocess_exec(
        sys.executable, *python, "run", env=full, cwd=cwd,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode is not None
    return process.returncode, stderr.decode()


def _unused_port() -> int:
    """A loopback port nothing listens on (bound for a moment, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _last_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    return stderr.strip().splitlines()[-1]


async def test_gatebot_run_with_nothing_listening_is_one_sentence_and_exit_75(tmp_path: Path) -> None:
    port = _unused_port()
    code, stderr = await _gatebot_run({"DISCORD_TOKEN": "a-token", API_BASE_VARIABLE: f"http://127.0.0.1:{port}/api/v10"},
                                      tmp_path)
    assert code == EXIT_UNREACHABLE
    line = _last_line(stderr)
    assert line.startswith("gatebot: Can't reach Discord") and f"127.0.0.1:{port}" in line
    assert "connection refused" in line
    # Its log lines before it, off a terminal, are plain: no colour codes even in a container,
    # where discord.py would colour them (tests/bot/test_logs.py has the JSON ones).
    assert "[INFO    ] gatebot.bot.run: Upgraded the database from empty" in stderr
    assert "\x1b[" not in stderr
    if search.COMPILED and gate_search.COMPILED and archway_search.COMPILED:  # not a word about compiled searches
        assert "compiled" not in stderr


async def test_gatebot_run_says_once_that_canfield_s_solver_runs_in_python_when_its_core_is_missing(
    tmp_path: Path,
) -> None:
    """The compiled core's import made to fail, as on a machine without a compiler: one warning line."""
    env = {"DISCORD_TOKEN": "a-token", API_BASE_VARIABLE: f"http://127.0.0.1:{_unused_port()}/api/v10"}
    prelude = ("import sys, runpy; sys.modules['gatebot.solver.canfield._core'] = None; "
               "runpy.run_module('gatebot', run_name='__main__', alter_sys=True)")
    code, stderr = await _gatebot_run(env, tmp_path, python=("-c", prelude))
    assert code == EXIT_UNREACHABLE
    [line] = [line for line in stderr.splitlines() if "compiled" in line]
    assert "[WARNING ] gatebot.bot.run: Canfield's solver searches in Python" in line
    assert "gatebot.solver.canfield._core" in line  # and why
    assert "Upgraded the database from empty" in stderr  # the rest of the start-up goes on


async def test_gatebot_run_says_once_for_each_missing_core_which_solvers_run_in_python(tmp_path: Path) -> None:
    """Every core's import made to fail: a line for Canfield's, one for Archway's, one for Gate and Little Gate's."""
    env = {"DISCORD_TOKEN": "a-token", API_BASE_VARIABLE: f"http://127.0.0.1:{_unused_port()}/api/v10"}
    prelude = ("import sys, runpy; sys.modules['gatebot.solver.canfield._core'] = None; "
               "sys.modules['gatebot.solver.gate._core'] = None; sys.modules['gatebot.solver.archway._core'] = None; "
               "runpy.run_module('gatebot', run_name='__main__', alter_sys=True)")
    code, stderr = await _gatebot_run(env, tmp_path, python=("-c", prelude))
    assert code == EXIT_UNREACHABLE
    lines = [line for line in stderr.splitlines() if "compiled" in line]
    assert len(lines) == 3, lines
    [canfield] = [line for line in lines if "Canfield" in line]
    [gate] = [line for line in lines if "Little Gate" in line]
    [archway] = [line for line in lines if "Archway" in line]
    assert "Canfield's solver searches in Python" in canfield and "gatebot.solver.canfield._core" in canfield
    assert "Gate and Little Gate's solver searches in Python" in gate and "gatebot.solver.gate._core" in gate
    assert "Archway's solver searches in Python" in archway and "gatebot.solver.archway._core" in archway


async def test_gatebot_run_with_a_wrong_token_is_one_sentence_and_exit_2(fake: FakeDiscord, tmp_path: Path) -> None:
    code, stderr = await _gatebot_run({**fake.env(), "DISCORD_TOKEN": "not-the-token"}, tmp_path)
    assert code == EXIT_CONFIG
    line = _last_line(stderr)
    assert line.startswith("gatebot: Discord refused the token") and "DISCORD_TOKEN" in line
    assert "not-the-token" not in stderr
    assert fake.gateway.sessions == {}  # it never got as far as the gateway


@asynccontextmanager
async def _server(handle: str) -> AsyncIterator[str]:
    """A loopback HTTP "Discord" that ``drops`` each connection once the request is read, or is ``silent``."""
    held: list[asyncio.StreamWriter] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        if handle == "drops":
            writer.close()
        else:
            held.append(writer)

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        for writer in held:
            writer.close()
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize(("handle", "reason"), [("drops", "the connection was dropped"),
                                               ("silent", "no answer within 0.5 s")])
async def test_a_login_dropped_or_unanswered_gives_up_in_one_sentence(
    handle: str, reason: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dropped connection fails at once; no answer at all gives up after LOGIN_SECONDS (shortened here)."""
    monkeypatch.setattr(run_module, "LOGIN_SECONDS", 0.5)
    async with _server(handle) as base:
        settings = Settings.from_env({"DISCORD_TOKEN": "a-token", API_BASE_VARIABLE: base,
                                      "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/gatebot.db"}, dotenv=None)
        with pointed_at(base), pytest.raises(run_module.StartError) as caught:
            await asyncio.wait_for(run_module.serve(settings), timeout=10)
    assert caught.value.exit_code == EXIT_UNREACHABLE
    assert str(caught.value).startswith("Can't reach Discord at 127.0.0.1:")
    assert f"({reason})" in str(caught.value)


async def test_gatebot_run_with_web_port_serves_the_web_table_from_the_bots_process(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    import aiohttp

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"sqlite+aiosqlite:///{tmp_path}/gatebot.db"
    env = {**os.environ, **fake.env(), "DATABASE_URL": url, "GATEBOT_DEV_GUILD_ID": str(fake.guild.id),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "WEB_PORT": str(port)}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gatebot", "run", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_for_commands(fake.guild, timeout=60)  # a loaded machine starts slowly
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:  # cookies for an IP
            async with browser.get(f"http://127.0.0.1:{port}/") as page:
                assert page.status == 200
                token = (await page.text()).split('name="csrf-token" content="')[1].split('"')[0]
            async with browser.post(f"http://127.0.0.1:{port}/api/new", json={"deal": 1},
                                    headers={"X-CSRF-Token": token}) as dealt:
                assert dealt.status == 200
                assert (await dealt.json())["view"]["deal"] == 1
        handle = await fake.send_command("gate new", {"deal": 2})
        assert (await handle.response(timeout=10)).type == 4
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, stderr.decode()
    assert f"serving the web table at http://127.0.0.1:{port}/" in stderr.decode()
    db = Database(url)
    async with db.sessions() as session:
        games = (await session.scalars(select(GameRecord).order_by(GameRecord.deal))).all()
    await db.dispose()
    assert [game.deal for game in games] == [1, 2]  # one database, one service: the page's game and chat's
