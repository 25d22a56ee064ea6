"""Reading the player's lines: a Ctrl-C that asyncio only noted, just before a read, is raised at once."""

from __future__ import annotations

import asyncio
import io
import signal
from collections.abc import Iterator

import pytest

from gatebot.terminal.console import LineReader
from gatebot.terminal.session import _to_the_end


class NeverRead(io.StringIO):
    def readline(self, size: int | None = -1) -> str:
        raise AssertionError("the read started although Ctrl-C was pending: it would wait for a line")


@pytest.fixture
def asyncio_like_sigint() -> Iterator[None]:
    """A SIGINT handler of asyncio's kind (a callable that isn't Python's), as asyncio.run installs."""
    previous = signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


async def test_a_ctrl_c_pending_when_a_read_starts_is_raised_instead_of_waiting(asyncio_like_sigint: None) -> None:
    task = asyncio.current_task()
    assert task is not None
    task.cancel()  # what asyncio's SIGINT handler does while a reply is being shown
    reader = LineReader(NeverRead(), io.StringIO(), interactive=False)
    with pytest.raises(KeyboardInterrupt):
        reader.read("gate> ")
    with pytest.raises(asyncio.CancelledError):  # the cancel is still delivered, at the next await
        await asyncio.sleep(0)
    task.uncancel()


async def test_without_a_pending_ctrl_c_the_line_is_read(asyncio_like_sigint: None) -> None:
    reader = LineReader(io.StringIO("3f\n"), io.StringIO(), interactive=False)
    assert reader.read("gate> ") == "3f"


async def test_cleanup_runs_to_its_end_through_a_cancel_then_passes_it_on() -> None:
    finished = []

    async def dispose() -> None:
        for _ in range(3):
            await asyncio.sleep(0)
        finished.append(True)

    task = asyncio.current_task()
    assert task is not None
    task.cancel()  # pending: it would land on the cleanup's first await
    with pytest.raises(asyncio.CancelledError):
        await _to_the_end(dispose())
    task.uncancel()
    assert finished == [True]
