"""Drawing a game for people: pure functions from a position to text, no I/O."""

from gatebot.render.text import COMPACT_WIDTH, NORMAL_WIDTH, render_text, visible_len

__all__ = ["COMPACT_WIDTH", "NORMAL_WIDTH", "render_text", "visible_len"]
