"""One test per rule of Gate (docs/rules.md#gates-rules, #gates-options), on hand-built positions."""

import pytest

from gatebot.rules import Game, IllegalMove, Termination

from .builders import moves, position


def lines(game: Game) -> dict[str, str]:
    """The position text as {label: rest of line}."""
    out = {}
    for line in game.to_text().splitlines()[1:]:
        label, _, rest = line.partition(":")
        out[label] = rest.strip()
    return out


# -- automatic fills ---------------------------------------------------------------------


def test_an_emptied_column_is_filled_from_the_deeper_reserve() -> None:
    game = position(left="2C 3C 4C", right="5C 6C 7C 8C", columns={1: "AS", 2: "9C"})
    game.play("1f")
    assert lines(game)["1"] == "8C"
    assert lines(game)["R"] == "5C 6C 7C"
    assert lines(game)["L"] == "2C 3C 4C"


def test_a_tie_between_the_reserves_fills_from_the_left() -> None:
    game = position(left="2C 3C", right="5C 6C", columns={1: "AS"})
    game.play("1f")
    assert lines(game)["1"] == "3C"
    assert lines(game)["L"] == "2C"
    assert lines(game)["R"] == "5C 6C"


def test_the_left_fills_when_it_is_deeper() -> None:
    game = position(left="2C 3C 4C", right="5C", columns={1: "AS"})
    game.play("1f")
    assert lines(game)["1"] == "4C"


def test_with_one_reserve_empty_the_other_fills() -> None:
    game = position(left="", right="5C", columns={1: "AS"})
    game.play("1f")
    assert lines(game)["1"] == "5C"
    assert lines(game)["R"] == ""


def test_with_both_reserves_empty_the_waste_top_fills() -> None:
    game = position(columns={1: "AS", 2: "9C"}, waste="3D 4D", stock="5D 6D")
    game.play("1f")
    assert lines(game)["1"] == "4D"
    assert lines(game)["W"] == "3D"
    assert lines(game)["S"].startswith("5D 6D")


def test_with_reserves_and_waste_empty_the_column_becomes_a_free_space() -> None:
    game = position(columns={1: "AS", 2: "9C"}, stock="5D 6D")
    game.play("1f")
    assert lines(game)["1"] == ""
    assert lines(game)["S"].startswith("5D 6D")


def test_drawing_does_not_fill_a_free_space() -> None:
    game = position(columns={1: "", 2: "9C"}, stock="5D 6D")
    game.play("d")
    assert lines(game)["1"] == ""
    assert lines(game)["W"] == "5D"


def test_a_fill_happens_when_a_whole_run_leaves_the_column() -> None:
    game = position(left="2C", right="", columns={1: "9H 8S", 2: "TC"})
    game.play("12")
    assert lines(game)["2"] == "TC 9H 8S"
    assert lines(game)["1"] == "2C"


def test_the_stock_fill_option_takes_the_next_stock_card_when_the_waste_is_empty() -> None:
    text = position(columns={1: "AS", 2: "9C"}, stock="5D 6D").to_text()
    game = Game.from_text(text.replace("gate\n", "gate stock-fill\n", 1))
    game.play("1f")
    assert lines(game)["1"] == "5D"
    assert lines(game)["S"].startswith("6D")


def test_the_stock_fill_option_still_prefers_reserves_then_waste() -> None:
    text = position(right="4H", columns={1: "AS", 2: "AC"}, waste="3D", stock="5D").to_text()
    game = Game.from_text(text.replace("gate\n", "gate stock-fill\n", 1))
    game.play("1f")
    assert lines(game)["1"] == "4H"
    game.play("2f")
    assert lines(game)["2"] == "3D"


def test_the_stock_fill_option_leaves_a_free_space_once_the_stock_is_out() -> None:
    hearts = " ".join(rank + "H" for rank in "KQJT98765432")
    game = Game.from_text(
        "gate stock-fill\nL:\nR:\nF: KC KD - KS\n1: AH\n2: " + hearts
        + "\n3:\n4:\n5:\n6:\n7:\n8:\nW:\nS:"
    )
    game.play("1f")
    assert lines(game)["1"] == ""


# -- free spaces, runs and run lengths ---------------------------------------------------


def test_a_free_space_accepts_any_card_from_the_waste_or_a_column() -> None:
    game = position(columns={1: "", 2: "KD", 3: "7C"}, waste="5H")
    assert {"21", "31", "w1"} <= moves(game)
    game.play("w1")
    assert lines(game)["1"] == "5H"


def test_a_free_space_offers_every_run_length_as_xy_n() -> None:
    game = position(columns={1: "", 2: "KD 9S 8H 7C"})
    assert {"21:1", "21:2", "21:3"} <= moves(game)
    assert "21" not in moves(game)
    game.play("21:2")
    assert lines(game)["1"] == "8H 7C"
    assert lines(game)["2"] == "KD 9S"


def test_a_single_card_to_a_free_space_is_written_xy() -> None:
    game = position(columns={1: "", 2: "KD 9S"})
    assert "21" in moves(game)
    assert "21:1" not in moves(game)


def test_a_run_moves_as_a_unit_onto_a_card_that_takes_its_deepest_card() -> None:
    game = position(columns={1: "KD 9S 8H 7C", 2: "TD", 3: "9C"})
    assert "12" in moves(game)
    assert "13" in moves(game)  # 8H 7C onto 9C
    game.play("12")
    assert lines(game)["2"] == "TD 9S 8H 7C"
    assert lines(game)["1"] == "KD"


def test_only_a_properly_built_run_moves() -> None:
    game = position(columns={1: "9S 8S 7H", 2: "9D"})
    # 8S 7H is a run, 9S 8S is not (same colour): 8S may go on 9D, 9S may not move with them.
    assert "12" in moves(game)
    with pytest.raises(IllegalMove, match="Only the top 2 cards of column 1 move together"):
        game.play("12:3")


def test_a_run_goes_only_where_its_deepest_card_fits() -> None:
    game = position(columns={1: "9S 8H", 2: "8D"})
    with pytest.raises(IllegalMove, match="8♥ can't go on 8♦"):
        game.play("12")


def test_single_moves_allows_only_the_top_card() -> None:
    text = position(columns={1: "", 2: "KD 9S 8H", 3: "TD"}).to_text()
    game = Game.from_text(text.replace("gate\n", "gate single-moves\n", 1))
    legal = moves(game)
    assert "21" in legal
    assert not any(":" in move for move in legal)
    assert "23" not in legal  # 9S could only reach TD by moving with 8H
    with pytest.raises(IllegalMove, match="single-moves"):
        game.play("21:2")


# -- stock, foundations, reserves -------------------------------------------------------


def test_the_stock_turns_one_card_at_a_time_onto_the_waste() -> None:
    game = position(columns={1: "KD"}, stock="5D 6D 7D")
    game.play("d")
    assert lines(game)["W"] == "5D"
    game.play("d")
    assert lines(game)["W"] == "5D 6D"
    assert lines(game)["S"].startswith("7D ")


def test_there_is_no_redeal() -> None:
    game = position(columns={1: "KD"}, waste="5D 6D", rest="waste")
    assert "d" not in moves(game)
    with pytest.raises(IllegalMove, match="no redeal"):
        game.play("d")


def test_foundations_build_up_in_suit_from_the_ace() -> None:
    game = position(foundations="2C - - -", columns={1: "3C", 2: "3D", 3: "AH"})
    assert {"1f", "3f"} <= moves(game)
    assert "2f" not in moves(game)
    with pytest.raises(IllegalMove, match="diamonds foundation starts with A♦"):
        game.play("2f")


def test_foundations_do_not_wrap_and_need_the_next_rank() -> None:
    game = position(foundations="- - 5H -", columns={1: "7H"})
    with pytest.raises(IllegalMove, match="is at 5♥ and needs 6♥ next"):
        game.play("1f")


def test_cards_never_leave_a_foundation() -> None:
    game = position(foundations="5C - - -", columns={1: "6D"})
    assert not any(str(move).startswith("f") for move in game.legal_moves())
    with pytest.raises(IllegalMove, match="never leave a foundation"):
        game.play("f1")


def test_only_a_reserve_top_plays_and_nothing_goes_onto_a_reserve() -> None:
    game = position(left="AC 2C", right="9D", columns={1: "3H", 2: "TS"})
    legal = moves(game)
    assert "l1" in legal  # 2C on 3H
    assert "lf" not in legal  # AC is under 2C
    assert "r2" in legal
    with pytest.raises(IllegalMove, match="Nothing moves onto a reserve"):
        game.play("1l")


def test_the_waste_top_plays_to_a_foundation_or_a_column() -> None:
    tops = dict(enumerate("3H KH KD KC KS QH QD JH".split(), start=1))
    game = position(columns=tops, waste="4S AD 2C")
    assert {m for m in moves(game) if m.startswith("w")} == {"w1"}
    game.play("w1")
    assert {m for m in moves(game) if m.startswith("w")} == {"wf", "w1"}
    assert lines(game)["W"] == "4S AD"
    game.play("wf")
    assert lines(game)["F"] == "- AD - -"


# -- end of game, score, undo -----------------------------------------------------------


def test_all_52_cards_up_is_a_win() -> None:
    game = position(foundations="KC KD KH QS", columns={1: "KS"})
    assert not game.is_won
    game.play("1f")
    assert game.is_won
    assert game.is_over
    assert game.score == 52
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.WON and outcome.score == 52


def test_no_legal_move_left_ends_the_game_with_its_score() -> None:
    tops = dict(enumerate("KC KS QC QS JC JS TC TS".split(), start=1))
    game = position(foundations="2C - - -", columns=tops, waste="5H", rest="waste")
    assert game.stock_count == 0
    assert game.legal_moves() == []
    assert game.is_over and not game.is_won
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_MOVES
    assert outcome.score == game.score == 2


def test_undo_takes_back_the_move_and_its_fill() -> None:
    game = position(left="2C 3C", right="5C", columns={1: "AS"})
    before = game.to_text()
    game.play("1f")
    assert lines(game)["1"] == "3C"
    assert str(game.undo()) == "1f"
    assert game.to_text() == before


def test_undo_with_nothing_played_is_refused() -> None:
    game = Game.new("gate", deal=1)
    with pytest.raises(IllegalMove, match="no move to take back"):
        game.undo()


def test_little_gate_has_columns_1_to_4_only() -> None:
    game = Game.new("little-gate", deal=1)
    assert all(not str(m)[1:].startswith(("5", "6", "7", "8")) for m in game.legal_moves())
    with pytest.raises(IllegalMove, match="Column 5 doesn't exist: Little Gate has columns 1–4"):
        game.play("5f")


# -- what an undo would hide (challenges never let a seen stock card go back) --------------


def test_a_draw_shows_a_stock_card_and_a_move_after_it_does_not() -> None:
    game = position(columns={1: "9C", 2: "8D"}, stock="5D 6D")
    assert not game.last_move_showed_stock  # nothing played yet
    game.play("d")
    assert game.last_move_showed_stock
    game.play("21")
    assert not game.last_move_showed_stock
    game.undo()
    assert game.last_move_showed_stock  # the draw is the last move again


def test_a_fill_from_the_stock_shows_a_stock_card_but_a_fill_from_a_reserve_does_not() -> None:
    text = position(right="4H", columns={1: "AS", 2: "AC"}, stock="5D 6D").to_text()
    game = Game.from_text(text.replace("gate\n", "gate stock-fill\n", 1))
    game.play("1f")  # filled from the right reserve
    assert lines(game)["1"] == "4H" and not game.last_move_showed_stock
    game.play("2f")  # reserves and waste empty: the next stock card fills
    assert lines(game)["2"] == "5D" and game.last_move_showed_stock
