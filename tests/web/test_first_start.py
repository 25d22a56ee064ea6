"""``gatebot web`` started by a new person: told where the games are saved, never how the database was migrated."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def first_lines(home: Path) -> list[str]:
    """What ``gatebot web`` prints up to the table's address, on a fresh home folder; then it is stopped."""
    env = {**os.environ, "HOME": str(home), "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    for variable in ("DATABASE_URL", "XDG_DATA_HOME", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(variable, None)
    process = subprocess.Popen([sys.executable, "-m", "gatebot", "web", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env)
    try:
        assert process.stdout is not None
        lines = []
        while not lines or not lines[-1].startswith("The table is at "):
            line = process.stdout.readline()
            assert line, f"gatebot web stopped: {process.stderr.read() if process.stderr else ''}"
            lines.append(line.rstrip("\n"))
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        return lines
    finally:
        process.kill()
        process.wait()


def test_a_new_player_starting_the_table_reads_where_the_games_are_saved_once(tmp_path: Path) -> None:
    first = first_lines(tmp_path)
    assert first[0] == "Your games are saved in ~/.local/share/gatebot/gatebot.db."
    assert len(first) == 2 and not re.search(r"[Uu]pgrad|migrat|revision|empty", "\n".join(first))
    assert len(first_lines(tmp_path)) == 1  # the second time: only the address
