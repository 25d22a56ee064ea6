"""What the tests of the three compiled search cores (Gate's, Canfield's, Archway's) share.

Each core's tests need the core itself, skipped where it isn't built but a failure under CI, which
builds every one, and a fresh Python whose import of the core fails, as on a machine without one.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Node counts a compiled search could overflow counting to, as (budget, count so far): a negative
#: count so far, a budget beyond 2**62 either way, a count so far beyond it. Gate's and Archway's cores,
#: which carry a count on from an earlier run, refuse each with ``NODE_COUNTS_REFUSED``.
BAD_NODE_COUNTS = ((100, -5), (2**62 + 1, 0), (-(2**62) - 1, 0), (100, 2**62 + 1))
NODE_COUNTS_REFUSED = "node counts must be between 0 and 2"


def compiled_core(search: ModuleType, title: str) -> ModuleType:
    """The compiled core beside the search module ``search`` (``title`` names the variant in the reason)."""
    if not search.COMPILED:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI builds the compiled {title} search, and it didn't import: {search.NOT_COMPILED}")
        pytest.skip(f"the compiled {title} search isn't built here: {search.NOT_COMPILED}")
    return importlib.import_module(f"{search.__name__.rpartition('.')[0]}._core")


def without_core(core: str, code: str, *args: str, timeout: float = 60,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` (with ``args``) in a fresh Python whose import of the core ``core`` (its module name) fails."""
    prelude = f"import sys; sys.modules[{core!r}] = None\n"
    return subprocess.run([sys.executable, "-c", prelude + code, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
