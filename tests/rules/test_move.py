"""The Move value type and the strict canonical notation (docs/rules.md#canonical-moves)."""

import pytest

from gatebot.rules import DRAW, Move, NotationError


@pytest.mark.parametrize("token", ["d", "3f", "w5", "lf", "r8", "35", "35:2", "71:12"])
def test_canonical_tokens_round_trip(token: str) -> None:
    move = Move.from_text(token)
    assert str(move) == token
    assert eval(repr(move)) == move


def test_fields_of_a_counted_move() -> None:
    assert Move.from_text("35:2") == Move("3", "5", 2)
    assert Move.from_text("d") is DRAW and DRAW.is_draw


@pytest.mark.parametrize("token", ["", "D", "3 f", "f3", "33", "35:0", "3", "df", "3>5", "xyz"])
def test_non_canonical_text_is_a_notation_error(token: str) -> None:
    with pytest.raises(NotationError):
        Move.from_text(token)


def test_moves_are_frozen_values() -> None:
    move = Move("3", "f")
    with pytest.raises(AttributeError):
        move.source = "4"  # type: ignore[misc]
    assert {Move("3", "f"), Move("3", "f")} == {move}
