"""A board names a game by a label in place of its deal: every variant, every drawing, the animation too.

An attempt at a challenge still open must not show its deal (deals are the same everywhere);
the front end passes the challenge's name and the drawing says it where the deal would be.
"""

from __future__ import annotations

import pytest

from gatebot.locale import translator
from gatebot.render import layout_board, render_emoji, render_spoken, render_text
from gatebot.render.replay import animate
from gatebot.rules import VARIANTS, Game

DEAL = 4064381782
LABEL = "Friday Cup"


@pytest.mark.parametrize("variant", [variant.name for variant in VARIANTS])
@pytest.mark.parametrize("language", ["en", "de"])
def test_every_drawing_names_the_label_and_never_the_deal(variant: str, language: str) -> None:
    game = Game.new(variant, deal=DEAL)
    say = translator(language)
    drawn = {
        "text": render_text(game, language=say, label=LABEL),
        "compact text": render_text(game, compact=True, language=say, label=LABEL),
        "emoji": render_emoji(game, language=say, label=LABEL),
        "words": render_spoken(game, say, label=LABEL),
        "image": " ".join(text.text for text in layout_board(game, language=say, label=LABEL).texts),
    }
    for style, board in drawn.items():
        assert str(DEAL) not in board, style
        assert LABEL in board, style
    assert str(DEAL) in render_text(game, language=say), "without a label the deal is named as before"
    assert str(DEAL) in " ".join(text.text for text in layout_board(game, language=say).texts)


def test_the_animation_draws_the_label_not_the_deal() -> None:
    game = Game.new("gate", deal=DEAL)
    labelled = animate([game], label=LABEL)
    plain = animate([game])
    assert labelled.data != plain.data, "the header's words differ: the label is drawn in the deal's place"
