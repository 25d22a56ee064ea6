"""Drawing a game for people: pure functions from a position to text, emoji or a PNG, no I/O.

Each one draws any variant of the family it knows (Gate, Little Gate, Canfield, Archway), choosing
the board by the game's class, and raises TypeError for a variant it has no board for.

The PNG names (``render_png``, ``layout_board``, ``Layout``) are imported on first use, so
the terminal, which only draws text, never loads Pillow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.render.gate.emoji import COMPACT_EMOJI_WIDTH, NORMAL_EMOJI_WIDTH, render_emoji
from gatebot.render.gate.text import COMPACT_WIDTH, NORMAL_WIDTH, render_text, visible_len

if TYPE_CHECKING:
    from gatebot.render.gate.layout import Layout, layout_board
    from gatebot.render.image import render_png

__all__ = [
    "COMPACT_EMOJI_WIDTH",
    "COMPACT_WIDTH",
    "NORMAL_EMOJI_WIDTH",
    "NORMAL_WIDTH",
    "Layout",
    "layout_board",
    "render_emoji",
    "render_png",
    "render_text",
    "visible_len",
]

_LAZY = {
    "render_png": "gatebot.render.image",
    "layout_board": "gatebot.render.gate.layout",
    "Layout": "gatebot.render.gate.layout",
}


def __getattr__(name: str) -> object:
    """Import a PNG name from its module the first time it is asked for."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
