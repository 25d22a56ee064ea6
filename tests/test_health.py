"""``gatebot health`` as a container runs it: a subprocess, a heartbeat file and a real database.

Healthy is exit 0 and one line; a dead bot (a stale heartbeat), a bot that never connected (no
file) and a database that doesn't answer are each exit 1 and one line naming that check. The
running bot's side, writing the file, is tested against the fake Discord in
tests/bot/test_health.py.
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.cli import main
from gatebot.cli.health import MAX_HEARTBEAT_AGE, Unhealthy, heartbeat_age
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema

ROOT = Path(__file__).resolve().parents[1]


def _health(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``gatebot health`` run in ``tmp_path`` with ``env`` over a clean environment (no .env of ours)."""
    full = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "HEALTH_FILE")}
    full.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "data"), **env)
    return subprocess.run([sys.executable, "-m", "gatebot", "health"], cwd=tmp_path, env=full,
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.fixture
def database(tmp_path: Path) -> str:
    """A real SQLite file with gatebot's tables, as the bot leaves it."""
    url = f"sqlite+aiosqlite:///{tmp_path}/gatebot.db"

    async def create() -> None:
        db = Database(url)
        try:
            await ensure_schema(db)
        finally:
            await db.dispose()

    asyncio.run(create())
    return url


def _beat(path: Path, seconds_ago: float) -> Path:
    path.write_text(f"{time.time() - seconds_ago:.3f}\n", encoding="ascii")
    return path


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_fresh_heartbeat_and_a_database_that_answers_are_healthy(tmp_path: Path, database: str) -> None:
    beat = _beat(tmp_path / "gatebot.health", seconds_ago=5)
    done = _health(tmp_path, DATABASE_URL=database, HEALTH_FILE=str(beat))
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    assert line.startswith("healthy") and "database answers" in line
    assert done.stderr == ""


def _health_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                 **env: str) -> tuple[int, str, str]:
    """``gatebot health`` in this process (faster), in ``tmp_path`` with ``env``: its code, stdout, stderr."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HEALTH_FILE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = main(["health"])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_default_heartbeat_file_is_in_the_data_directory(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without HEALTH_FILE, the file the bot writes is gatebot.health beside the default database."""
    (tmp_path / "data" / "gatebot").mkdir(parents=True)
    _beat(tmp_path / "data" / "gatebot" / "gatebot.health", seconds_ago=1)
    code, out, err = _health_here(tmp_path, monkeypatch, capsys, DATABASE_URL=database)
    assert (code, err) == (0, ""), err
    assert out.startswith("healthy")


def test_a_heartbeat_file_named_in_dotenv_is_the_one_read(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``gatebot run`` reads .env too, so the health check beside it finds the same file."""
    beat = _beat(tmp_path / "elsewhere.health", seconds_ago=MAX_HEARTBEAT_AGE + 60)
    (tmp_path / ".env").write_text(f"HEALTH_FILE={beat}\nDATABASE_URL={database}\n")
    code, _, err = _health_here(tmp_path, monkeypatch, capsys)
    assert code == 1 and "heartbeat was" in err


def test_a_stale_heartbeat_is_a_dead_bot(tmp_path: Path, database: str) -> None:
    beat = _beat(tmp_path / "gatebot.health", seconds_ago=MAX_HEARTBEAT_AGE + 300)
    done = _health(tmp_path, DATABASE_URL=database, HEALTH_FILE=str(beat))
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("gatebot: unhealthy:") and re.search(r"heartbeat was 39\d s ago \(more than 90\)", line)
    assert done.stdout == ""


def test_no_heartbeat_file_is_a_bot_not_running(tmp_path: Path, database: str) -> None:
    missing = tmp_path / "nowhere" / "gatebot.health"
    done = _health(tmp_path, DATABASE_URL=database, HEALTH_FILE=str(missing))
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert "no heartbeat file" in line and str(missing) in line and "not running" in line
    assert "Traceback" not in done.stderr


def test_a_database_server_that_refuses_is_unhealthy(tmp_path: Path) -> None:
    beat = _beat(tmp_path / "gatebot.health", seconds_ago=1)
    url = f"postgresql+asyncpg://gatebot:secret@127.0.0.1:{_closed_port()}/gatebot"
    done = _health(tmp_path, DATABASE_URL=url, HEALTH_FILE=str(beat))
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line == "gatebot: unhealthy: the database doesn't answer (connection refused)."
    assert "secret" not in done.stderr


def test_a_missing_sqlite_file_is_unhealthy_and_not_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    beat = _beat(tmp_path / "gatebot.health", seconds_ago=1)
    gone = tmp_path / "gone.db"
    code, out, err = _health_here(tmp_path, monkeypatch, capsys, DATABASE_URL=f"sqlite+aiosqlite:///{gone}",
                                  HEALTH_FILE=str(beat))
    assert (code, out) == (1, "")
    [line] = err.splitlines()
    assert "the database doesn't answer" in line and str(gone) in line
    assert not gone.exists()


@settings(max_examples=60, deadline=None)
@given(content=st.one_of(st.text(max_size=30), st.floats(allow_nan=True).map(repr)),
       now=st.floats(min_value=0, max_value=4e9))
def test_any_heartbeat_file_is_an_age_within_the_limit_or_one_sentence(
    tmp_path_factory: pytest.TempPathFactory, content: str, now: float
) -> None:
    path = tmp_path_factory.mktemp("beat") / "gatebot.health"
    path.write_text(content, encoding="utf-8")
    try:
        age = heartbeat_age(path, now=now)
    except Unhealthy as problem:
        assert str(path) in str(problem) or "heartbeat was" in str(problem)
        assert "\n" not in str(problem)
    else:
        assert math.isfinite(age) and 0 <= age <= MAX_HEARTBEAT_AGE
        assert abs(now - float(content.strip())) <= MAX_HEARTBEAT_AGE
