"""What ``gatebot run`` writes on stderr: plain lines off a terminal, or one JSON object a line.

discord.py colours its log lines on a terminal and also in any container, terminal or not
(``discord.utils.stream_supports_colour`` checks for Docker), which put escape codes into
``docker logs`` (tests/bot/test_run.py checks a run off a terminal has none); the JSON test runs
``gatebot run`` against a port nothing listens on, so it logs its start-up, then gives up in one sentence.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from gatebot.bot.run import setup_logging
from gatebot.settings import Settings
from tests.fake_discord import FakeDiscord
from tests.fake_discord.base_url import API_BASE_VARIABLE

ROOT = Path(__file__).resolve().parents[2]
EXIT_UNREACHABLE = 75


def _unreachable_run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``gatebot run`` with a token, pointed at a closed loopback port; stderr a pipe, not a terminal."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    full = {key: value for key, value in os.environ.items() if key not in ("LOG_FORMAT", "NO_COLOR")}
    full.update({"DISCORD_TOKEN": "a-token", API_BASE_VARIABLE: f"http://127.0.0.1:{port}/api/v10",
                 "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/gatebot.db", "PYTHONPATH": str(ROOT),
                 **env})
    done = subprocess.run([sys.executable, "-m", "gatebot", "run"], cwd=tmp_path, env=full, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == EXIT_UNREACHABLE, done.stderr
    return done


def test_json_logs_are_one_object_a_line_the_refusal_too(tmp_path: Path) -> None:
    done = _unreachable_run(tmp_path, LOG_FORMAT="json")
    records = [json.loads(line) for line in done.stderr.splitlines()]  # each line parses, or this fails
    assert len(records) >= 2
    for record in records:
        assert {"time", "level", "logger", "message"} <= record.keys()
        assert datetime.fromisoformat(record["time"]).utcoffset() is not None
    assert any(r["message"].startswith("Upgraded the database from empty") and r["level"] == "INFO" for r in records)
    last = records[-1]
    assert (last["level"], last["logger"]) == ("ERROR", "gatebot.bot.run")
    assert last["message"].startswith("Can't reach Discord at 127.0.0.1:") and "connection refused" in last["message"]
    assert "a-token" not in done.stderr


@pytest.fixture
def root_logging() -> Iterator[None]:
    """Put the root logger's handlers and level back after a test sets logging up."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        yield
    finally:
        root.handlers[:], root.level = handlers, level


def _settings(**values: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "a-token", **values}, dotenv=None)


@pytest.mark.usefixtures("root_logging")
def test_a_logged_exception_is_one_json_object_with_its_traceback() -> None:
    stream = io.StringIO()
    setup_logging(_settings(LOG_FORMAT="JSON", LOG_LEVEL="WARNING"), stream)
    log = logging.getLogger("gatebot.test")
    log.info("not at this level")
    try:
        {}["missing"]
    except KeyError:
        log.exception("a bug: %s", "line one\nline two")
    [line] = stream.getvalue().splitlines()
    record = json.loads(line)
    assert (record["level"], record["logger"]) == ("ERROR", "gatebot.test")
    assert record["message"] == "a bug: line one\nline two"
    assert record["exception"].startswith("Traceback (most recent call last):")
    assert "KeyError: 'missing'" in record["exception"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.usefixtures("root_logging")
def test_a_terminal_still_gets_discord_py_s_colours() -> None:
    stream = _Terminal()
    setup_logging(_settings(), stream)
    logging.getLogger("gatebot.test").warning("coloured")
    assert "\x1b[" in stream.getvalue() and "coloured" in stream.getvalue()


@pytest.mark.usefixtures("root_logging")
async def test_a_lost_gateway_is_retried_in_one_line_each_not_a_traceback(gatebot, fake: FakeDiscord) -> None:
    """Discord going away after login: discord.py retries, and each retry is one line with the reason."""
    running = await gatebot()
    stream = io.StringIO()
    setup_logging(_settings(), stream)
    await fake.stop()  # the gateway connection closes and nothing listens on its port any more
    deadline = time.monotonic() + 20
    while "Can't reach Discord's gateway" not in stream.getvalue():
        assert time.monotonic() < deadline, stream.getvalue()
        await asyncio.sleep(0.05)
    logged = stream.getvalue()
    assert "Traceback" not in logged
    # The first retry can come a hundredth of a second after the first: one line for each, however many came.
    lines = [line for line in logged.splitlines() if "Can't reach Discord's gateway" in line]
    for line in lines:
        assert "[WARNING ] discord.shard:" in line and "for shard 0 (connection refused)" in line
        assert re.search(r"gatebot retries in \d+\.\d s$", line)
    assert not running.bot.is_closed()  # still trying
