"""Gate's board drawings: text, emoji, the PNG layout and the rules summary, as one :class:`Boards`.

They serve every variant whose ``family`` is ``gate`` (Gate and Little Gate, whatever the
number of columns): :func:`gatebot.render.boards.boards_for` finds :data:`BOARDS` here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.messages import ENGLISH, Language
from gatebot.render.boards import Boards
from gatebot.render.gate.emoji import render_gate_emoji
from gatebot.render.gate.notation import gate_notation
from gatebot.render.gate.rules import gate_rules
from gatebot.render.gate.spoken import spoken_gate
from gatebot.render.gate.text import render_gate_text
from gatebot.render.gate.view import view_gate
from gatebot.rules import GateGame

if TYPE_CHECKING:
    from gatebot.render.image_geometry import Layout


def _layout(
    game: GateGame, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None,
    phone: bool = False,
) -> Layout:
    """Gate's PNG layout, imported on first use so text boards never load Pillow."""
    from gatebot.render.gate.layout import layout_gate

    return layout_gate(game, scale, language, label=label, phone=phone)


BOARDS: Boards[GateGame] = Boards(
    text=render_gate_text, emoji=render_gate_emoji, layout=_layout, rules=gate_rules,
    notation=gate_notation, spoken=spoken_gate,
    view=view_gate,
)
