"""Sum a referee report: ``python -m tests.fake_discord.referee_report PATH``.

``GATEBOT_REFEREE_REPORT=PATH pytest tests/bot -n 2`` makes every test append what the referee
checked (requests, answers, operations) to PATH; this prints the totals and the operations.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.fake_discord.referee import summarise

if __name__ == "__main__":
    print(summarise(Path(sys.argv[1])))
