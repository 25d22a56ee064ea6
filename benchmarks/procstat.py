"""CPU seconds of another process, read from Linux's ``/proc``: what the bot benchmarks charge to a bot.

Kept apart from the benchmarks' own modules so a floor bot (``chat_floor.py --floor a``) that
imports it imports nothing of gatebot's.
"""

from __future__ import annotations

import os
from pathlib import Path


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User + system CPU seconds of process ``pid``: (its main thread, all its threads, those gone included)."""

    def read(path: str) -> float:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    return read(f"/proc/{pid}/task/{pid}/stat"), read(f"/proc/{pid}/stat")
