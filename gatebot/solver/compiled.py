"""Importing a variant's compiled search core, or saying why it can't be (Gate's, Canfield's, Archway's).

Each search has a C twin (``_core.c`` beside it, built by setup.py where there is a C compiler) and
falls back to searching in Python when the twin isn't there; the front ends say why once at start-up.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def import_core(name: str) -> tuple[ModuleType | None, str | None]:
    """The compiled core ``name`` (a full module name) and None, or None and why it didn't import.

    The reason is the ImportError's message, which names the module (an extension built without a
    C compiler, not built at all, or one a test has set to None in ``sys.modules``).
    """
    try:
        return importlib.import_module(name), None
    except ImportError as error:
        return None, str(error) or type(error).__name__
