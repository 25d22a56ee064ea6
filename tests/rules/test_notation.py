"""The move language players type: every accepted form, and refusals that give the reason."""

import pytest

from gatebot.rules import AmbiguousMove, Game, IllegalMove, Move, NotationError, describe_move

from .builders import position

# Deal 1: columns 9S 5S AD QC KH 3H 2S KS; left reserve top KD, right KC.
# Its legal moves are 3f (A♦ up), 37 (A♦ onto 2♠), 45 (Q♣ onto K♥), 76 (2♠ onto 3♥) and d.


def deal_1() -> Game:
    return Game.new("gate", deal=1)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3f", "3f"), ("3 f", "3f"), ("3>f", "3f"), ("3 > F", "3f"), ("3 to f", "3f"),
        ("3-f", "3f"), ("3->foundation", "3f"), ("3 home", "3f"), ("3 up", "3f"),
        ("45", "45"), ("4 5", "45"), ("4>5", "45"), ("4 to 5", "45"), ("4 → 5", "45"),
        ("move 4 to 5", "45"), ("4 onto 5", "45"),
        ("qc", "45"), ("QC", "45"), ("q♣", "45"), ("Q♣️", "45"), ("qc kh", "45"), ("qc on kh", "45"),
        ("qc 5", "45"), ("4 kh", "45"), ("4", "45"),
        ("2s", "76"), ("2♠ 3♥", "76"),
        ("d", "d"), ("D", "d"), ("draw", "d"), ("  draw  ", "d"),
    ],
)
def test_accepted_forms_normalise_to_one_canonical_move(text: str, canonical: str) -> None:
    game = deal_1()
    assert str(game.play(text)) == canonical
    assert game.moves[-1] == Move.from_text(canonical)


def test_ten_is_accepted_as_10_and_t() -> None:
    game = position(columns={1: "JS", 2: "TD"})
    assert str(game.copy().play("10d")) == "21"
    assert str(game.copy().play("td js")) == "21"
    assert str(game.copy().play("10♦ j♠")) == "21"


def test_uppercase_waste_token() -> None:
    game = position(columns={5: "8S"}, waste="7H")
    assert str(game.play("W5")) == "w5"


def test_a_card_with_two_destinations_is_ambiguous_and_lists_both() -> None:
    game = deal_1()
    with pytest.raises(AmbiguousMove) as caught:
        game.play("ad")
    assert set(caught.value.choices) == {"3f", "37"}
    assert "3f" in str(caught.value) and "37" in str(caught.value)
    assert game.moves == ()


def test_free_spaces_are_interchangeable_for_a_lone_card() -> None:
    game = position(columns={1: "KD", 2: "9C"}, waste="5H")
    assert str(game.play("5h")) == "w3"  # the first free space; columns 3 to 8 are all free


def test_a_run_onto_a_free_space_needs_its_length() -> None:
    game = position(columns={1: "", 2: "KD 9S 8H 7C", 3: "QS", 4: "QH", 5: "QD", 6: "QC", 7: "KC", 8: "KS"})
    with pytest.raises(AmbiguousMove) as caught:
        game.play("2 1")
    assert caught.value.choices == ("21:1", "21:2", "21:3")
    assert str(game.play("2>1:2")) == "21:2"


def test_several_moves_in_one_line_apply_in_order() -> None:
    game = deal_1()
    result = game.play_line("3f 45, d")
    assert [str(m) for m in result.played] == ["3f", "45", "d"]
    assert result.error is None
    assert [str(m) for m in game.moves] == ["3f", "45", "d"]


def test_a_line_stops_at_the_first_move_that_fails() -> None:
    game = deal_1()
    result = game.play_line("3f 9f 45")
    assert [str(m) for m in result.played] == ["3f"]
    assert isinstance(result.error, IllegalMove)
    assert str(result.error) == "Column 9 doesn't exist: Gate has columns 1–8"
    assert [str(m) for m in game.moves] == ["3f"]


def test_a_line_stops_at_an_unreadable_word_after_playing_what_came_before() -> None:
    game = deal_1()
    result = game.play_line("3f xyzzy 45")
    assert [str(m) for m in result.played] == ["3f"]
    assert isinstance(result.error, NotationError)
    assert "xyzzy" in str(result.error)


@pytest.mark.parametrize(
    ("game_factory", "text", "message"),
    [
        (deal_1, "9f", "Column 9 doesn't exist: Gate has columns 1–8"),
        (lambda: position(columns={1: "9H", 2: "8H"}), "21",
         "8♥ can't go on 9♥: build down in alternating colours"),
        (lambda: position(left="", right="3C", columns={1: "9H"}), "l1", "The left reserve is empty"),
        (deal_1, "3l", "Nothing moves onto a reserve"),
        (deal_1, "3 > left", "Nothing moves onto a reserve"),
        (deal_1, "1w", "Nothing moves onto the waste"),
        (deal_1, "f1", "Cards never leave a foundation"),
        (deal_1, "15", "9♠ can't go on K♥: it takes a black Q"),
        (deal_1, "9s", "9♠ has nowhere to go right now"),
        (deal_1, "5d", "5♦ is in the left reserve under 2 cards, so it can't move yet"),
        (deal_1, "qd", "Q♦ hasn't been drawn from the stock yet, so it can't move"),
        (deal_1, "1", "Nothing from column 1 can move right now"),
        (deal_1, "qc 2s", "Q♣ can't go on 2♠: it takes a red A"),
        (lambda: position(columns={3: "9H", 5: ""}), "35:2", "Column 3 holds only 1 card"),
        (deal_1, "qc qd", "Q♦ hasn't been drawn from the stock yet, so nothing can go on it"),
        (deal_1, "qc jd", "J♦ is in the left reserve under 4 cards: cards go only onto the top card"),
    ],
)
def test_refusals_say_why_in_game_terms(game_factory, text: str, message: str) -> None:
    game = game_factory()
    before = game.to_text()
    with pytest.raises(IllegalMove) as caught:
        game.play(text)
    assert message in str(caught.value)
    assert game.to_text() == before


@pytest.mark.parametrize("text", ["", "   ", "xyz", "3 >", "> 3", "hello world", "3f:x", "7z"])
def test_unreadable_input_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        deal_1().play(text)


def test_play_takes_exactly_one_move() -> None:
    with pytest.raises(NotationError, match="more than one move"):
        deal_1().play("3f 45")


def test_describe_move_names_the_cards_and_places() -> None:
    game = deal_1()
    assert describe_move(game, Move.from_text("3f")) == "A♦ from column 3 to the foundation"
    assert describe_move(game, Move.from_text("45")) == "Q♣ from column 4 onto K♥ in column 5"
    assert "9D" not in describe_move(game, Move.from_text("d"))
    assert "9♦" not in describe_move(game, Move.from_text("d"))
