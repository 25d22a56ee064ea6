"""Archway's board drawings: text, emoji, the PNG layout and the rules summary, as one :class:`Boards`.

:func:`gatebot.render.boards.boards_for` finds :data:`BOARDS` here for every variant whose
``family`` is ``archway``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.messages import ENGLISH, Language
from gatebot.render.archway.emoji import render_archway_emoji
from gatebot.render.archway.notation import archway_notation
from gatebot.render.archway.rules import archway_rules
from gatebot.render.archway.spoken import spoken_archway
from gatebot.render.archway.text import render_archway_text
from gatebot.render.archway.view import view_archway
from gatebot.render.boards import Boards
from gatebot.rules import ArchwayGame

if TYPE_CHECKING:
    from gatebot.render.image_geometry import Layout


def _layout(
    game: ArchwayGame, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None,
    phone: bool = False,
) -> Layout:
    """Archway's PNG layout, imported on first use so text boards never load Pillow."""
    from gatebot.render.archway.layout import layout_archway

    return layout_archway(game, scale, language, label=label, phone=phone)


BOARDS: Boards[ArchwayGame] = Boards(
    text=render_archway_text, emoji=render_archway_emoji, layout=_layout, rules=archway_rules,
    notation=archway_notation,
    spoken=spoken_archway, view=view_archway,
)
