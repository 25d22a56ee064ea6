"""Reading the player's lines: a prompt on a terminal, none for piped input, Ctrl-C at once.

Lines are read on the event loop's thread, blocking it: a terminal game has nothing else
to do while it waits for the player, and a read in another thread could not be abandoned
when Ctrl-C ends the program (the process would wait at exit for a line that never comes).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TextIO


class LineReader:
    """The player's input, one line at a time, with ``prompt`` shown only when ``interactive``.

    On the real terminal this uses :func:`input`, which gives line editing and history
    when :mod:`readline` is available.
    """

    def __init__(self, stdin: TextIO, stdout: TextIO, *, interactive: bool) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.interactive = interactive
        self.console = interactive and stdin is sys.stdin and stdout is sys.stdout
        if self.console:
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (imported for its side effect on input())

    def read(self, prompt: str) -> str | None:
        """The next line without its line ending, or None at the end of input."""
        with _interruptible():
            if self.console:
                try:
                    return input(prompt)
                except EOFError:
                    self._end_line()
                    return None
            if self.interactive:
                self.stdout.write(prompt)
                self.stdout.flush()
            line = self.stdin.readline()
        if not line:
            if self.interactive:
                self._end_line()
            return None
        return line.rstrip("\r\n")

    def _end_line(self) -> None:
        """Leave the terminal's cursor on a fresh line after the prompt that got no answer."""
        self.stdout.write("\n")
        self.stdout.flush()


@contextlib.contextmanager
def _interruptible() -> Iterator[None]:
    """Make Ctrl-C raise :class:`KeyboardInterrupt` inside a blocking read, at once.

    ``asyncio.run`` replaces Python's SIGINT handler with one that only cancels the main
    task, which takes effect at its next ``await``: a read blocking the loop would carry on
    waiting for Enter. Python's own handler is put back for the length of the read, and
    asyncio's restored after it, so Ctrl-C during a database request still cancels it
    cleanly. Nothing changes when SIGINT is ignored or already Python's, or off the main
    thread (the only one whose handlers can change, and where asyncio installs none).

    A Ctrl-C that came just before, while a reply was being shown, reached asyncio's handler:
    it only asked to cancel the task, which would take effect after the read — after a line
    the player has no reason to type. So the read is not started then, and the Ctrl-C is
    raised at once.
    """
    previous = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if not callable(previous) or previous is signal.default_int_handler:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if _cancel_pending():
            raise KeyboardInterrupt
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _cancel_pending() -> bool:
    """Whether the running asyncio task (if any) has been asked to cancel and hasn't seen it yet."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop running
        return False
    return task is not None and task.cancelling() > 0
