"""Drawing a game for people: pure functions from a position to text, emoji or a PNG, no I/O.

Each one draws any variant, through the drawings its family registers
(:mod:`gatebot.render.boards`; Gate's in :mod:`gatebot.render.gate`, Canfield's in
:mod:`gatebot.render.canfield`, Archway's in :mod:`gatebot.render.archway`), and raises
:class:`~gatebot.render.boards.MissingBoard` (a TypeError) for a variant it has no board for.

The PNG names (``render_png``, ``Layout``) are imported on first use, so the terminal,
which only draws text, never loads Pillow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.render.boards import (
    Boards,
    MissingBoard,
    boards_for,
    describe_board,
    layout_board,
    notation_guide,
    render_emoji,
    render_spoken,
    render_text,
    rules_paragraphs,
    rules_text,
)
from gatebot.render.emoji_rows import COMPACT_EMOJI_WIDTH, NORMAL_EMOJI_WIDTH
from gatebot.render.text_rows import COMPACT_WIDTH, NORMAL_WIDTH, visible_len

if TYPE_CHECKING:
    from gatebot.render.image import render_png
    from gatebot.render.image_geometry import Layout

__all__ = [
    "COMPACT_EMOJI_WIDTH",
    "COMPACT_WIDTH",
    "NORMAL_EMOJI_WIDTH",
    "NORMAL_WIDTH",
    "Boards",
    "Layout",
    "MissingBoard",
    "boards_for",
    "describe_board",
    "layout_board",
    "notation_guide",
    "render_emoji",
    "render_png",
    "render_spoken",
    "render_text",
    "rules_paragraphs",
    "rules_text",
    "visible_len",
]

_LAZY = {
    "render_png": "gatebot.render.image",
    "Layout": "gatebot.render.image_geometry",
}


def __getattr__(name: str) -> object:
    """Import a PNG name from its module the first time it is asked for."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
