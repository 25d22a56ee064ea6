"""Canfield's board drawings: text, emoji, the PNG layout and the rules summary, as one :class:`Boards`.

:func:`gatebot.render.boards.boards_for` finds :data:`BOARDS` here for every variant whose
``family`` is ``canfield``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gatebot.messages import ENGLISH, Language
from gatebot.render.boards import Boards
from gatebot.render.canfield.emoji import render_canfield_emoji
from gatebot.render.canfield.notation import canfield_notation
from gatebot.render.canfield.rules import canfield_rules
from gatebot.render.canfield.spoken import spoken_canfield
from gatebot.render.canfield.text import render_canfield_text
from gatebot.render.canfield.view import view_canfield
from gatebot.rules import CanfieldGame

if TYPE_CHECKING:
    from gatebot.render.image_geometry import Layout


def _layout(
    game: CanfieldGame, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None,
    phone: bool = False,
) -> Layout:
    """Canfield's PNG layout, imported on first use so text boards never load Pillow."""
    from gatebot.render.canfield.layout import layout_canfield

    return layout_canfield(game, scale, language, label=label, phone=phone)


BOARDS: Boards[CanfieldGame] = Boards(
    text=render_canfield_text, emoji=render_canfield_emoji, layout=_layout, rules=canfield_rules,
    notation=canfield_notation,
    spoken=spoken_canfield, view=view_canfield,
)
