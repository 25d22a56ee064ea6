"""Ctrl-C and Ctrl-D in ``gatebot play`` on a real terminal: a pseudo-terminal whose keys the kernel turns into signals.

The game runs as a subprocess with a pty as its controlling terminal, so Ctrl-C (``\\x03``)
sends SIGINT to its whole process group, the solver's worker process included, exactly as
typing it does. Whatever it interrupts, the main process says one line and exits 130, and
neither process prints a traceback; Ctrl-D at the prompt ends the game quietly with 0.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc and ptys")

CTRL_C, CTRL_D = b"\x03", b"\x04"
TIMEOUT = 30.0


class Terminal:
    """``gatebot play`` on a pseudo-terminal: type into it, read what it shows, see how it ended."""

    def __init__(self, database: Path, *args: str, columns: int | None = None) -> None:
        """Start the game; ``columns``: the terminal's width, as the kernel tells it (no ``COLUMNS``)."""
        self.master, slave = pty.openpty()
        env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{database}", "PYTHONIOENCODING": "utf-8",
               "TERM": "dumb", "NO_COLOR": "1", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        if columns is not None:
            env.pop("COLUMNS", None)
            env.pop("LINES", None)
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gatebot", "play", *args], stdin=slave, stdout=slave, stderr=subprocess.PIPE,
            env=env, preexec_fn=_own_terminal, close_fds=True,
        )
        os.close(slave)
        self.shown = b""
        #: Where the screen was when keys were last typed: what they caused comes after.
        self.typed_at = 0

    def read_until(self, text: bytes) -> None:
        """Read the screen until ``text`` appears after what was last typed (failing after TIMEOUT seconds)."""
        deadline = time.monotonic() + TIMEOUT
        while text not in self.shown[self.typed_at:]:
            assert time.monotonic() < deadline, f"{text!r} never appeared in {self.shown[-300:]!r}"
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.shown += os.read(self.master, 65536)
                except OSError:  # the game closed the terminal
                    return

    def type(self, keys: bytes) -> None:
        self.typed_at = len(self.shown)
        os.write(self.master, keys)

    def end(self) -> tuple[int, str]:
        """Wait for the game to exit, reading the rest of the screen: its exit code and its stderr."""
        try:
            code = self.process.wait(timeout=TIMEOUT)
            while select.select([self.master], [], [], 0)[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # closed: everything has been read
                    break
                if not chunk:
                    break
                self.shown += chunk
            assert self.process.stderr is not None
            return code, self.process.stderr.read().decode()
        finally:
            self.process.kill()
            self.process.wait()
            os.close(self.master)

    def waiting_for_a_key(self) -> None:
        """Wait until the game is blocked reading the terminal (readline's select), not just past its prompt.

        A Ctrl-C typed in the instant between readline showing the prompt and starting to wait
        is only noticed at the next key (a race inside readline), so the test waits for the wait.
        """
        deadline = time.monotonic() + TIMEOUT
        wchan = Path(f"/proc/{self.process.pid}/wchan")
        while not wchan.read_text().startswith(("poll_schedule_timeout", "do_select", "wait_woken", "n_tty_read")):
            assert time.monotonic() < deadline, "the game never waited for a key"
            time.sleep(0.01)

    def worker_started(self) -> int:
        """Wait for the solver's worker process to exist (it may still be importing); its pid."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            for pid in _children(self.process.pid):
                if _is_pool_worker(pid):
                    return pid
            assert time.monotonic() < deadline, "the solver's worker never started"
            time.sleep(0.002)

    def worker_ignoring_interrupts(self) -> int:
        """Wait for the solver's worker process to be running with SIGINT ignored; its pid."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            for pid in _children(self.process.pid):
                if _is_pool_worker(pid) and _ignores_sigint(pid):
                    return pid
            assert time.monotonic() < deadline, "the solver's worker never started ignoring SIGINT"
            time.sleep(0.01)


def _own_terminal() -> None:
    """In the child: a new session whose controlling terminal is the pty (so Ctrl-C signals it).

    SIGINT is put back to its default, as a shell starting a program at a terminal does: a test
    run started in the background by a shell without job control inherits SIGINT ignored, and
    an ignored signal stays ignored across exec, so Ctrl-C would reach a game deaf to it.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _children(pid: int) -> Iterator[int]:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            if f"\nPPid:\t{pid}\n" in status:
                yield int(entry)


def _is_pool_worker(pid: int) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"spawn_main" in command and b"resource_tracker" not in command


def _ignores_sigint(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    ignored = next(line for line in status.splitlines() if line.startswith("SigIgn:")).split()[1]
    return bool(int(ignored, 16) & (1 << (2 - 1)))  # bit n-1 is signal n; SIGINT is 2


def _one_line_and_no_traceback(stderr: str) -> str:
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gatebot: ")
    return lines[0]


def test_ctrl_c_while_the_worker_thinks_about_a_hint(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--deal", "1")
    terminal.read_until(b"gate> ")
    terminal.type(b"hint\r")
    terminal.worker_ignoring_interrupts()
    terminal.type(CTRL_C)
    code, stderr = terminal.end()
    assert code == 130
    assert "saved" in _one_line_and_no_traceback(stderr)
    after_hint = terminal.shown.rsplit(b"hint", 1)[1]
    assert after_hint.strip(b"\r\n^C ") == b""  # interrupted: no hint was shown, and no new prompt


@pytest.mark.parametrize("when", ["at once", "as the worker starts", "while it imports"])
def test_ctrl_c_while_the_first_hint_is_worked_out_says_one_line(tmp_path: Path, when: str) -> None:
    """Whenever Ctrl-C comes, the worker importing the solvers or searching, the player reads one line.

    A worker still importing has not yet run its pool's initializer; it must not print a
    KeyboardInterrupt traceback of its own under the game's one line. Whatever the machine's
    load, each of these moments is one a person can hit, and the answer must be the same
    (the worker already searching is the test above).
    """
    terminal = Terminal(tmp_path / "games.db", "--deal", "1")
    terminal.read_until(b"gate> ")
    terminal.waiting_for_a_key()
    terminal.type(b"hint\r")
    if when != "at once":
        terminal.worker_started()
    if when == "while it imports":  # it takes about half a second to reach its initializer, longer when loaded
        time.sleep(0.1)
    terminal.type(CTRL_C)
    code, stderr = terminal.end()
    assert code == 130
    assert "saved" in _one_line_and_no_traceback(stderr)
    assert b"Traceback" not in terminal.shown


def test_ctrl_c_at_the_prompt_says_one_line_and_exits_130(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--deal", "1")
    terminal.read_until(b"gate> ")
    terminal.type(b"3f\r")
    terminal.read_until(b"gate> ")  # the prompt after the move
    assert b"Played 3f." in terminal.shown
    terminal.waiting_for_a_key()
    terminal.type(CTRL_C)
    code, stderr = terminal.end()
    assert code == 130
    assert "saved" in _one_line_and_no_traceback(stderr)


def test_ctrl_d_at_the_prompt_ends_quietly_with_the_game_saved(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--deal", "1")
    terminal.read_until(b"gate> ")
    terminal.type(b"3f\r")
    terminal.read_until(b"gate> ")
    terminal.type(CTRL_D)
    assert terminal.end() == (0, "")
    with sqlite3.connect(tmp_path / "games.db") as connection:
        assert connection.execute("SELECT log, status FROM games").fetchall() == [("3f", "active")]


@pytest.mark.parametrize(("variant", "examples"), [("gate", b"(d, 3f, w5"), ("archway", b"(3a, 7hk, fhk")])
def test_the_first_tip_suggests_moves_of_the_variant(tmp_path: Path, variant: str, examples: bytes) -> None:
    terminal = Terminal(tmp_path / "games.db", "--variant", variant, "--deal", "3")
    terminal.read_until(f"{variant}> ".encode())
    [tip] = [line for line in terminal.shown.splitlines() if line.startswith(b"Type a move")]
    assert examples in tip
    if variant == "archway":  # no stock: nothing to draw, so no d to suggest
        examples_given = tip.split(b"(", 1)[1].split(b")", 1)[0]  # not the commands after them ("card")
        assert b"d" not in examples_given.split(b", ")
    terminal.type(b"quit\r")
    assert terminal.end() == (0, "")


def test_ctrl_c_at_the_play_again_question_exits_130(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--deal", "1")
    terminal.read_until(b"gate> ")
    terminal.type(b"resign\r")
    terminal.read_until(b"yes or no? ")
    terminal.type(b"y\r")
    terminal.read_until(b"Play again? [y/N] ")
    terminal.waiting_for_a_key()
    terminal.type(CTRL_C)
    code, stderr = terminal.end()
    assert code == 130
    assert "saved" in _one_line_and_no_traceback(stderr)


def test_ctrl_d_at_the_play_again_question_ends_quietly(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--deal", "1")
    terminal.read_until(b"gate> ")
    terminal.type(b"resign\r")
    terminal.read_until(b"yes or no? ")
    terminal.type(b"y\r")
    terminal.read_until(b"Play again? [y/N] ")
    terminal.type(CTRL_D)
    assert terminal.end() == (0, "")
    with sqlite3.connect(tmp_path / "games.db") as connection:
        assert connection.execute("SELECT status FROM games").fetchall() == [("resigned",)]
