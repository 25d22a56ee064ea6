"""``gatebot play`` on a disk that fills up: the move is refused in one sentence, and played once space is freed.

A real full filesystem: a small tmpfs mounted for the test (as root; the test is skipped,
saying why, where mounting isn't allowed), the database on it, and a file that takes the
last byte while the player's ``gatebot play`` waits at its prompt.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gatebot.render import render_text
from gatebot.rules import Game
from tests.service.test_disk_full import SENTENCE

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a filesystem of 2 MB of its own, unmounted afterwards."""
    folder = tmp_path / "small"
    folder.mkdir()
    if shutil.which("mount") is None or shutil.which("umount") is None:
        pytest.skip("there is no mount command here to make a small filesystem")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"a small filesystem can't be mounted here: {mounted.stderr.strip() or mounted.returncode}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], capture_output=True, check=False)


def fill(path: Path) -> None:
    """Write ``path`` until the filesystem has no byte left."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 1):
            try:
                while True:
                    os.write(descriptor, b"\0" * size)
            except OSError as error:
                assert error.errno == 28, error  # ENOSPC
    finally:
        os.close(descriptor)


async def read_until(stream: asyncio.StreamReader, text: str, seen: list[str]) -> None:
    """Read ``stream`` into ``seen`` until everything read since the last call holds ``text``."""
    read = ""
    while text not in read:
        chunk = await asyncio.wait_for(stream.read(4096), timeout=60)
        assert chunk, f"the output ended before {text!r}: {read!r}"
        read += chunk.decode()
    seen.append(read)


async def test_a_move_on_a_full_disk_is_refused_in_one_sentence_and_played_when_space_returns(
    small_disk: Path,
) -> None:
    database = small_disk / "games.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{database}", "PYTHONIOENCODING": "utf-8",
           "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8", "COLUMNS": "200"}
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(variable, None)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gatebot", "play", "--deal", "1", "--user", "me", env=env, cwd=small_disk.parent,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    seen: list[str] = []
    dealt, moved = Game.new("gate", deal=1), Game.new("gate", deal=1)
    moved.play_line("3f")
    try:
        await read_until(process.stdout, render_text(dealt), seen)
        fill(small_disk / "filler")
        process.stdin.write(b"3f\n")
        await read_until(process.stdout, SENTENCE, seen)
        assert render_text(moved) not in seen[-1]  # no board of a move that wasn't saved

        (small_disk / "filler").unlink()
        process.stdin.write(b"3f\n")
        await read_until(process.stdout, render_text(moved), seen)
        process.stdin.write(b"quit\n")
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0 and stderr == b"", stderr.decode()
    assert "".join(seen).count(SENTENCE) == 1
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT log, version FROM games").fetchall() == [("3f", 2)]
