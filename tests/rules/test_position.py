"""The position text (docs/rules.md#position-text): format, parse, hidden stock and refusals."""

import pytest

from gatebot.rules import Game, PositionError

from .builders import position

DEAL_1 = Game.new("gate", deal=1).to_text()


def test_round_trip_of_a_fresh_deal() -> None:
    assert Game.from_text(DEAL_1).to_text() == DEAL_1


def test_empty_piles_keep_their_line_with_nothing_after_the_colon() -> None:
    lines = DEAL_1.splitlines()
    assert "W:" in lines
    assert all(not line.endswith(" ") for line in lines)


def test_options_follow_the_variant_on_the_first_line() -> None:
    game = Game.new("gate", deal=5, options=("stock-fill", "single-moves"))
    first = game.to_text().splitlines()[0]
    assert first.split()[0] == "gate"
    assert set(first.split()[1:]) == {"single-moves", "stock-fill"}
    assert Game.from_text(game.to_text()).options == game.options


def test_hidden_stock_reads_and_writes_as_question_mark_count() -> None:
    game = Game.new("gate", deal=1)
    hidden = game.to_text(hide_stock=True)
    assert hidden.splitlines()[-1] == "S: ?34"
    assert hidden.splitlines()[:-1] == DEAL_1.splitlines()[:-1]
    seen = Game.from_text(hidden)
    assert seen.to_text() == hidden
    assert not seen.stock_known
    assert {str(m) for m in seen.legal_moves()} == {str(m) for m in game.legal_moves()}


def test_a_hidden_stock_cannot_be_drawn_from() -> None:
    seen = Game.from_text(Game.new("gate", deal=1).to_text(hide_stock=True))
    with pytest.raises(ValueError, match="unknown"):
        seen.play("d")


def test_input_is_forgiving_about_case_tens_fences_and_blank_lines() -> None:
    messy = "```\n" + DEAL_1.replace("TS", "10s").replace("KD", "kd") + "\n\n```"
    assert Game.from_text(messy).to_text() == DEAL_1


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.replace("1: 9S", "1: 9S 9S"), ["1", "9S", "once"]),
        (lambda t: t.replace("1: 9S", "1:"), ["missing", "9S"]),
        (lambda t: t.replace("L: JD", "L: JX"), ["L", "JX"]),
        (lambda t: t.replace("F: - - - -", "F: - - -"), ["F"]),
        (lambda t: t.replace("W:", "X:"), ["Line", "W:"]),
        (lambda t: t.replace("gate", "gatee", 1), ["Line 1", "gatee"]),
        (lambda t: t.replace("gate", "gate redeal", 1), ["Line 1", "redeal"]),
        (lambda t: t.rsplit("\n", 1)[0] + "\nS: ?33", ["S", "33", "34"]),
        (lambda t: t.replace("L: JD 9H 5D 7C KD", "L: ?5"), ["L", "?n"]),
    ],
)
def test_bad_positions_are_refused_with_a_message_naming_the_line(change, words) -> None:
    with pytest.raises(PositionError) as caught:
        Game.from_text(change(DEAL_1))
    for word in words:
        assert word in str(caught.value)


def test_foundation_tops_must_be_in_suit_order() -> None:
    good = position(foundations="3C - AH -")
    text = good.to_text().replace("F: 3C - AH -", "F: AH - 3C -")
    with pytest.raises(PositionError, match="C D H S"):
        Game.from_text(text)


def test_foundation_top_implies_the_cards_below_it() -> None:
    game = position(foundations="3C - AH -")
    assert game.score == 4
    assert "2C" not in game.to_text().split("F:")[1].split("\n", 1)[1]


def test_a_position_of_another_size_is_refused() -> None:
    little = Game.new("little-gate", deal=1).to_text()
    with pytest.raises(PositionError, match="Gate position has 14 lines"):
        Game.from_text(little.replace("little-gate", "gate", 1))
