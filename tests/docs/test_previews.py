"""docs/previews.py keeps working: a board line too wide for a phone wraps there, as a client wraps it.

The script is not part of the package; it is loaded from its file. A board with a 30-card
column is drawn at phone width: its normal board (72 columns) must take more lines on screen
than it has, with no text past the code block's padding, and its compact board (36 columns)
exactly as many lines as it has.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from gatebot.render import render_text
from gatebot.rules import Card, Game

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "previews.py"
# The script draws with the DejaVu fonts of the system (Debian's fonts-dejavu-core).
pytestmark = pytest.mark.skipif(
    not Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf").exists(),
    reason="the DejaVu fonts are not installed",
)


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("previews", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["previews"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def long_column() -> Game:
    deck = [str(Card.from_index(i)) for i in range(52)]
    return Game.from_text("\n".join([
        "little-gate", "L: " + " ".join(deck[:14]), "R:", "F: - - - -",
        "1: " + " ".join(deck[14:44]), "2:", "3: " + " ".join(deck[44:50]), "4:", "W: " + " ".join(deck[50:]), "S:",
    ]))


def test_a_board_line_too_wide_for_a_phone_wraps_and_a_compact_one_does_not() -> None:
    previews = load()
    game = long_column()
    normal, compact = render_text(game), render_text(game, compact=True)
    assert max(map(len, normal.splitlines())) > 36

    assert len(previews.code_lines(normal, previews.PHONE)) > len(normal.splitlines())
    assert len(previews.code_lines(compact, previews.PHONE)) == len(compact.splitlines())
    assert len(previews.code_lines(normal, previews.DESKTOP)) == len(normal.splitlines())

    wrapped = previews.preview("text", previews.PHONE, game)
    fitting = previews.preview("text-compact", previews.PHONE, game)
    assert wrapped.width == fitting.width == 380
    # Nothing is drawn past the block's right padding: the text wrapped instead of running off.
    pixels = wrapped.convert("RGB").load()
    assert pixels is not None
    left = previews.PHONE.left + 2
    rows = [y for y in range(wrapped.height) if pixels[left, y] == previews.BLOCK]
    assert len(rows) > 20 * previews.PHONE.code_px  # the code block, over 20 lines tall
    right = previews.PHONE.width - previews.PHONE.right - previews.CODE_PADDING
    past = {pixels[x, y] for y in rows for x in range(right, previews.PHONE.width - previews.PHONE.right - 1)}
    assert past == {previews.BLOCK}
    inside = {pixels[x, y] for y in rows for x in range(left, right)}
    assert previews.TEXT in inside


def test_every_style_draws_at_both_widths_and_saves_a_small_palette_png(tmp_path: Path) -> None:
    previews = load()
    game = previews.mid_game()
    for style in previews.STYLES:
        for device in (previews.DESKTOP, previews.PHONE):
            size = previews.save(previews.preview(style, device, game), tmp_path / "p.png")
            with Image.open(tmp_path / "p.png") as saved:
                assert saved.mode == "P" and saved.width == device.width
            assert size < 60_000, (style, device.name)
