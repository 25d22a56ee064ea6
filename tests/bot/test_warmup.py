"""The warm-up before the bot goes online leaves nothing for a first command to import.

Checked in a fresh interpreter (this test process has imported everything long since): the
bot's modules, then the warm-up's imports, then every board drawn in every style and a hint
asked of every variant's solver, as first commands would; nothing of gatebot's or Pillow's may
be imported by those. The database connection and the hint workers are the service's
(tests/service/test_hints.py starts real workers).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

FIRST_COMMANDS = """
import json, sys
import gatebot.bot.client  # what `gatebot run` has imported before it logs in
from gatebot.bot.warmup import draw_every_board
draw_every_board()
from gatebot.render.image import PHONE_SCALE
before = set(sys.modules)
from gatebot.render import render_emoji, render_spoken, render_text, render_png
from gatebot.rules import VARIANTS, Game
from gatebot.solver import registry
for variant in VARIANTS:
    game = Game.new(variant.name, deal=1)
    render_text(game), render_emoji(game), render_spoken(game), render_png(game)
    render_png(game, scale=PHONE_SCALE, phone=True)
    if registry.thinks_about(game):
        registry.hint(game, seconds=0.05)
imported = sorted(m for m in set(sys.modules) - before if m.startswith(("gatebot", "PIL")))
print(json.dumps({"imported": imported}))
"""


def test_after_the_warm_up_a_first_board_or_hint_imports_nothing() -> None:
    done = subprocess.run([sys.executable, "-c", FIRST_COMMANDS], capture_output=True, text=True, cwd=REPO,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    # Nothing imported. Each size's palette is worked out by its first picture (bot/warmup.py says why).
    assert json.loads(done.stdout) == {"imported": []}
