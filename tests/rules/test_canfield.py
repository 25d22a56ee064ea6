"""One test per rule of Canfield (docs/canfield.md#3-the-rules), on hand-built positions."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.rules import (
    AmbiguousMove,
    CanfieldGame,
    Game,
    IllegalMove,
    Move,
    NotationError,
    PositionError,
    RulesError,
    Termination,
    UnknownVariant,
    describe_move,
)
from gatebot.rules.autoplay import autoplay

from .builders import ALL_CARDS, canfield, moves
from .reference import deal_cards

# Deal 1 (docs/canfield.md): reserve JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD (A♦ on top), Q♣ up,
# so the base rank is Q; piles K♥, 3♥, 2♠, K♠; the stock starts 9♦ Q♦ J♠.
# Its legal moves: r3 (A♦ onto 2♠), 32 (2♠ onto 3♥) and d.


def deal_1(options: tuple[str, ...] = ()) -> Game:
    return Game.new("canfield", deal=1, options=options)


def lines(game: Game) -> dict[str, str]:
    """The position text as {label: rest of line}."""
    out = {}
    for line in game.to_text().splitlines()[1:]:
        label, _, rest = line.partition(":")
        out[label] = rest.strip()
    return out


# -- the deal ----------------------------------------------------------------------------


def test_deal_1_is_laid_out_as_documented() -> None:
    cards = deal_cards(1)  # the Gate reference model's own shuffle, written apart from the engine
    base = cards[13]
    tops = [base if base[1] == suit else "-" for suit in "CDHS"]
    assert deal_1().to_text().splitlines() == [
        "canfield",
        "R: " + " ".join(cards[0:13]),
        "F: " + " ".join(tops),
        "B: " + base[0],
        *(f"{i}: {card}" for i, card in enumerate(cards[14:18], start=1)),
        "W:",
        "S: " + " ".join(cards[18:]),
        "P: 1",
    ]
    # The worked check in docs/canfield.md.
    text = lines(deal_1())
    assert text["R"] == "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD"
    assert (text["F"], text["B"]) == ("QC - - -", "Q")
    assert [text[str(i)] for i in range(1, 5)] == ["KH", "3H", "2S", "KS"]
    assert text["S"].startswith("9D QD JS AS AH 3C")


def test_deal_1_opening_moves() -> None:
    assert moves(deal_1()) == {"r3", "32", "d"}
    assert [str(m) for m in deal_1().legal_moves()][-1] == "d"


@pytest.mark.parametrize("deal", [1, 2, 617, 2**32 - 1])
def test_every_deal_has_13_in_the_reserve_the_base_card_up_one_card_a_pile_and_34_in_the_stock(deal: int) -> None:
    game = Game.new("canfield", deal=deal)
    assert isinstance(game, CanfieldGame)
    assert len(game.reserve) == 13
    assert game.score == 1
    (base,) = [top for top in game.foundations if top is not None]
    assert base.rank == game.base_rank
    assert [len(pile) for pile in game.piles] == [1, 1, 1, 1]
    assert game.stock_count == 34 and game.waste == ()
    assert (game.pass_number, game.draw_count, game.passes_left) == (1, 3, None)


# -- foundations -------------------------------------------------------------------------


def test_foundations_build_up_in_suit_from_the_base_rank() -> None:
    game = canfield(base="7", foundations="8C - - -", reserve="KH", piles={1: "9C", 2: "9D", 3: "8D", 4: "QS"})
    assert "1f" in moves(game)
    assert "2f" not in moves(game) and "3f" not in moves(game)
    with pytest.raises(IllegalMove, match="the diamonds foundation starts with 7♦"):
        game.play("3f")
    game.play("1f")
    assert lines(game)["F"] == "9C - - -"


def test_a_card_of_the_base_rank_starts_a_new_foundation() -> None:
    game = canfield(base="7", foundations="7C - - -", reserve="KD", piles={1: "7H", 2: "9D", 3: "8D", 4: "QS"})
    game.play("1f")
    assert lines(game)["F"] == "7C - 7H -"
    assert game.score == 2


def test_foundations_turn_the_corner_from_king_to_ace() -> None:
    game = canfield(base="7", foundations="KC - - -", reserve="KD", piles={1: "AC", 2: "2C", 3: "3C", 4: "QS"})
    assert game.score == 7  # 7 8 9 10 J Q K of clubs
    game.play("1f")
    assert lines(game)["F"] == "AC - - -"
    with pytest.raises(IllegalMove, match="clubs foundation is at A♣ and needs 2♣ next"):
        game.play("3f")
    game.play("2f")
    assert lines(game)["F"] == "2C - - -" and game.score == 9


def test_a_full_foundation_ends_one_rank_below_the_base() -> None:
    game = canfield(base="7", foundations="6C - - -", reserve="KD", piles={1: "7D", 2: "9D", 3: "8D", 4: "QS"})
    assert game.score == 13
    assert game.foundations[0] is not None and str(game.foundations[0]) == "6C"


def test_cards_never_leave_a_foundation() -> None:
    game = canfield(base="7", foundations="8C - - -", reserve="KD", piles={1: "9H", 2: "9D", 3: "8D", 4: "QS"})
    assert not any(m.source == "f" for m in game.legal_moves())
    with pytest.raises(IllegalMove, match="Cards never leave a foundation"):
        game.play("f1")


# -- the tableau -------------------------------------------------------------------------


def test_the_tableau_builds_down_in_alternating_colours() -> None:
    game = canfield(reserve="2C", piles={1: "9H", 2: "8S", 3: "8D", 4: "KC"})
    assert "21" in moves(game)
    assert "31" not in moves(game)
    with pytest.raises(IllegalMove, match="8♦ can't go on 9♥: build down in alternating colours"):
        game.play("31")
    with pytest.raises(IllegalMove, match="8♦ can't go on K♣: it takes a red Q"):
        game.play("34")


def test_an_ace_takes_a_king() -> None:
    game = canfield(reserve="2C", piles={1: "AH", 2: "KS", 3: "QC", 4: "5C"}, waste="KC")
    assert {"21", "w1"} <= moves(game)
    assert "31" not in moves(game)
    with pytest.raises(IllegalMove, match=r"it takes a black K \(an Ace takes a King\)"):
        game.play("31")
    game.play("w1")
    assert lines(game)["1"] == "AH KC"


def test_a_pile_moves_only_as_a_whole_onto_a_pile_its_bottom_card_fits() -> None:
    game = canfield(reserve="2C 3C", piles={1: "9H 8S 7D", 2: "TS", 3: "9C", 4: "8C"})
    assert "12" in moves(game)
    assert "14" not in moves(game)  # 7♦ fits on 8♣, but the pile moves only whole
    with pytest.raises(IllegalMove, match="Pile 1 moves only as a whole, so its bottom card must fit: 9♥ can't go on"):
        game.play("14")
    with pytest.raises(IllegalMove, match="moves only as a whole: pile 1 holds 3 cards"):
        game.play("12:2")
    assert str(game.play("12:3")) == "12"  # the whole pile, counted, is the same move
    assert lines(game)["2"] == "TS 9H 8S 7D"
    assert lines(game)["1"] == "3C"  # the emptied pile took the reserve's top card at once
    assert lines(game)["R"] == "2C"


def test_the_top_card_of_a_pile_goes_up_alone() -> None:
    game = canfield(reserve="KD", piles={1: "3C 2D AC", 2: "9D", 3: "8D", 4: "QS"})
    game.play("1f")
    assert lines(game)["1"] == "3C 2D"
    assert lines(game)["F"] == "AC - - -"


def test_with_partial_moves_any_built_run_from_the_top_moves() -> None:
    game = canfield(options="partial-moves", reserve="2C", piles={1: "9H 8S 7D", 2: "TS", 3: "9D", 4: "8C"})
    assert {"12", "13", "14"} <= moves(game)
    assert not any(":" in m for m in moves(game))  # one length fits each pair
    game.play("14")
    assert (lines(game)["1"], lines(game)["4"]) == ("9H 8S", "8C 7D")
    game.play("13")
    assert (lines(game)["1"], lines(game)["3"]) == ("9H", "9D 8S")
    with pytest.raises(IllegalMove, match="Pile 1 holds only 1 card"):
        game.play("12:2")


# A run of 27 from K♥ down to K♦, wrapping twice: its top and bottom cards are both red Kings.
LONG_RUN = (
    "KH QS JH TS 9H 8S 7H 6S 5H 4S 3H 2S AH "
    "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H AS KD"
)


def test_a_run_that_fits_at_two_lengths_is_written_xy_n() -> None:
    game = canfield(options="partial-moves", reserve="2D", piles={1: LONG_RUN, 2: "AC", 3: "5D", 4: "QD"})
    assert {m for m in moves(game) if m.startswith("12")} == {"12:1", "12:27"}
    with pytest.raises(AmbiguousMove) as caught:
        game.play("1 2")
    assert caught.value.choices == ("12:1", "12:27")
    assert str(game.play("1>2:27")) == "12:27"
    assert lines(game)["2"] == "AC " + LONG_RUN
    assert lines(game)["1"] == "2D"
    whole = canfield(reserve="2D", piles={1: LONG_RUN, 2: "AC", 3: "5D", 4: "QD"})
    assert {m for m in moves(whole) if m.startswith("12")} == {"12"}


# -- the reserve and the waste -----------------------------------------------------------


def test_a_face_down_card_is_named_only_by_what_its_player_sees() -> None:
    piles = {1: "3H", 2: "9D", 3: "8D", 4: "QS"}
    first_pass = canfield(reserve="5D 2C", piles=piles, stock="KC")
    unseen = "isn't in play yet: it is face down in the reserve or the stock, so it can't move"
    for card, pretty in (("5d", "5♦"), ("kc", "K♣")):  # under the reserve's top; in the stock
        with pytest.raises(IllegalMove) as caught:
            first_pass.play(card)
        assert str(caught.value) == f"{pretty} {unseen}"
    second_pass = canfield(reserve="5D 2C", piles=piles, stock="KC", passes="2")
    with pytest.raises(IllegalMove) as caught:
        second_pass.play("5d")
    assert str(caught.value) == "5♦ isn't in play yet: it is face down in the reserve, so it can't move"
    with pytest.raises(IllegalMove) as caught:
        second_pass.play("kc")
    assert str(caught.value) == "K♣ hasn't been turned up from the stock yet, so it can't move"
    stock_out = canfield(reserve="5D 2C", piles=piles, rest="waste")
    with pytest.raises(IllegalMove) as caught:
        stock_out.play("5d 3h")
    assert str(caught.value) == "5♦ isn't in play yet: it is face down in the reserve, so it can't move"


def test_the_reserve_top_plays_to_a_foundation_or_onto_a_pile() -> None:
    game = canfield(foundations="AC - - -", reserve="5D 2C", piles={1: "3H", 2: "9D", 3: "8D", 4: "QS"})
    assert {"rf", "r1"} <= moves(game)
    with pytest.raises(IllegalMove, match="5♦ isn't in play yet: it is face down in the reserve or the stock, so"):
        game.play("5d")
    with pytest.raises(IllegalMove, match="Nothing moves onto the reserve"):
        game.play("1r")
    with pytest.raises(IllegalMove, match="Canfield has one reserve: call it r"):
        game.play("l1")
    game.play("r1")
    assert (lines(game)["R"], lines(game)["1"]) == ("5D", "3H 2C")


def test_the_waste_top_plays_to_a_foundation_or_onto_a_pile() -> None:
    game = canfield(foundations="AC - - -", reserve="KD", piles={1: "3H", 2: "9D", 3: "8D", 4: "QS"}, waste="4S 2C")
    assert {"wf", "w1"} <= moves(game)
    with pytest.raises(IllegalMove, match="Nothing moves onto the waste"):
        game.play("1w")
    game.play("wf")
    assert lines(game)["W"].endswith("4S")
    assert lines(game)["F"] == "2C - - -"


# -- spaces and filling ------------------------------------------------------------------


def test_an_emptied_pile_is_filled_at_once_from_the_reserve_and_undo_takes_it_back() -> None:
    game = canfield(foundations="AC - - -", reserve="5S 6H", piles={1: "2C", 2: "KD", 3: "KS", 4: "QH"})
    before = game.to_text()
    game.play("1f")
    assert (lines(game)["1"], lines(game)["R"]) == ("6H", "5S")
    assert str(game.undo()) == "1f"
    assert game.to_text() == before


def test_with_the_reserve_out_an_emptied_pile_stays_a_space() -> None:
    game = canfield(foundations="AC - - -", piles={1: "2C", 2: "KD", 3: "KS", 4: "QH"}, stock="5D 6D 7D")
    game.play("1f")
    assert lines(game)["1"] == ""
    game.play("d")  # turning the stock does not fill a space
    assert lines(game)["1"] == ""


def test_a_space_takes_only_the_top_card_of_the_waste() -> None:
    game = canfield(piles={1: "", 2: "9H 8S", 3: "KD", 4: "5C"}, waste="7H JC")
    legal = moves(game)
    assert "w1" in legal
    assert not {"21", "31", "41"} & legal
    with pytest.raises(IllegalMove, match="A space takes only the top card of the waste"):
        game.play("21")
    game.play("w1")
    assert (lines(game)["1"], lines(game)["W"].split()[-1]) == ("JC", "7H")


def test_a_space_while_the_reserve_holds_cards_is_refused() -> None:
    text = canfield(reserve="5S", piles={1: "2C", 2: "KD", 3: "KS", 4: "QH"}).to_text()
    with pytest.raises(PositionError, match="Line 1: the pile is empty while the reserve holds cards"):
        Game.from_text(text.replace("\n1: 2C\n", "\n1:\n").replace("S: ", "S: 2C ", 1))


# -- the stock ---------------------------------------------------------------------------


def test_the_stock_turns_three_cards_at_a_time() -> None:
    game = canfield(reserve="KD", piles={1: "9D", 2: "8D", 3: "QS", 4: "JS"}, stock="5D 6D 7D 8H")
    game.play("d")
    assert lines(game)["W"] == "5D 6D 7D"  # 7♦, the third, on top
    assert lines(game)["S"].startswith("8H ")


def test_fewer_than_three_are_turned_when_fewer_remain() -> None:
    game = canfield(reserve="KD", piles={1: "9D", 2: "8D", 3: "QS", 4: "JS"}, stock="5D 6D", rest="waste")
    game.play("d")
    assert lines(game)["W"].endswith(" 5D 6D")
    assert lines(game)["S"] == ""


def test_draw_one_turns_one_card() -> None:
    game = canfield(options="draw-one", reserve="KD", piles={1: "9D", 2: "8D", 3: "QS", 4: "JS"}, stock="5D 6D")
    game.play("d")
    assert lines(game)["W"] == "5D"


def test_with_the_stock_out_d_turns_the_waste_over_for_the_next_pass() -> None:
    game = canfield(reserve="KD", piles={1: "9D", 2: "8S", 3: "QS", 4: "JS"}, rest="waste")  # 21 stays open
    waste = lines(game)["W"]
    assert (lines(game)["S"], lines(game)["P"]) == ("", "1")
    assert "d" in moves(game)
    game.play("d")
    assert (lines(game)["W"], lines(game)["S"], lines(game)["P"]) == ("", waste, "2")
    game.play("d")
    assert lines(game)["W"] == " ".join(waste.split()[:3])  # the old bottom card comes first
    game.undo()
    game.undo()
    assert (lines(game)["W"], lines(game)["S"], lines(game)["P"]) == (waste, "", "1")


def test_turning_three_at_a_time_the_passes_are_unlimited() -> None:
    game = canfield(reserve="KD", piles={1: "9D", 2: "8S", 3: "QS", 4: "JS"}, rest="waste", passes="57")
    game.play("d")
    assert lines(game)["P"] == "58"
    assert game.passes_left is None


@pytest.mark.parametrize(("options", "passes"), [("draw-one", 3), ("draw-one passes-2", 2), ("draw-one passes-1", 1)])
def test_turning_one_at_a_time_the_passes_are_limited(options: str, passes: int) -> None:
    def at_pass(number: int) -> Game:
        return canfield(options=options, reserve="KD", piles={1: "9D", 2: "8D", 3: "QS", 4: "JS"}, rest="waste",
                        passes=str(number))

    if passes > 1:
        assert "d" in moves(at_pass(passes - 1))
    last = at_pass(passes)
    assert last.passes_left == 0
    assert "d" not in moves(last)
    with pytest.raises(IllegalMove, match="the waste can't be turned over"):
        last.play("d")
    with pytest.raises(PositionError, match="Line P: pass"):
        at_pass(passes + 1)


def test_the_stock_and_the_waste_both_empty_cannot_be_turned() -> None:
    game = canfield(foundations="KC KD KH QS", piles={1: "KS"})
    with pytest.raises(IllegalMove, match="The stock and the waste are both empty"):
        game.play("d")


# -- options -----------------------------------------------------------------------------


def test_options_are_written_in_canonical_order_and_read_back() -> None:
    game = Game.new("canfield", deal=3, options=("partial-moves", "passes-2", "draw-one"))
    assert game.to_text().splitlines()[0] == "canfield draw-one passes-2 partial-moves"
    assert Game.from_text(game.to_text()).options == game.options
    assert (game.draw_count, game.passes_left) == (1, 1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("passes-1",), "go with draw-one"),
        (("draw-one", "passes-1", "passes-2"), "not both"),
        (("draw-three",), "no option 'draw-three'"),
        (("single-moves",), "no option 'single-moves'"),
    ],
)
def test_bad_option_sets_are_refused(options: tuple[str, ...], message: str) -> None:
    with pytest.raises(UnknownVariant, match=message):
        Game.new("canfield", deal=1, options=options)
    text = deal_1().to_text().replace("canfield", "canfield " + " ".join(options), 1)
    with pytest.raises(PositionError, match=f"Line 1: .*{message}"):
        Game.from_text(text)


# -- the end of the game -----------------------------------------------------------------

# Every club and diamond up, the hearts to Q♥; K♥ under 5♠ in the reserve, every other card a
# spade. Spades never build on spades, and A♠ lies in the waste where no turn of three shows it.
STUCK = dict(
    foundations="KC KD QH -",
    reserve="KH 5S",
    piles={1: "9S", 2: "TS", 3: "JS", 4: "QS"},
    waste="2S AS 3S 4S 6S 7S 8S KS",
)


def test_a_whole_pass_that_offered_no_move_ends_the_game() -> None:
    game = canfield(**STUCK)
    assert moves(game) == {"d"}  # the end of pass 1: a card moved earlier in it, so turn over
    game.play("d")
    assert lines(game)["P"] == "2 idle"
    assert game.pass_idle
    for _ in range(3):
        assert moves(game) == {"d"}
        game.play("d")
    assert lines(game)["W"] == "2S AS 3S 4S 6S 7S 8S KS" and lines(game)["S"] == ""
    assert game.legal_moves() == []
    assert game.is_over and not game.is_won
    assert game.outcome() is not None and game.outcome().termination is Termination.NO_MOVES
    assert game.outcome().score == 38
    with pytest.raises(IllegalMove, match="No card could move during this whole pass"):
        game.play("d")
    again = Game.from_text(game.to_text())  # the pass state survives the text
    assert again.to_text() == game.to_text() and again.is_over


def test_a_pass_that_offered_a_move_allows_another_even_if_it_was_not_played() -> None:
    game = canfield(options="draw-one", **STUCK)
    game.play("d")  # turn over: pass 2
    game.play("d")  # 2♠
    assert lines(game)["P"] == "2 idle"
    game.play("d")  # A♠ shows and could go up
    assert "wf" in moves(game) and lines(game)["P"] == "2"
    for _ in range(6):
        game.play("d")  # decline it and turn on to the end of the stock
    assert lines(game)["S"] == "" and "d" in moves(game)
    game.play("d")
    assert lines(game)["P"] == "3 idle"  # pass 3 starts, and again nothing can move yet


def test_no_card_can_move_and_the_stock_cannot_be_turned() -> None:
    game = canfield(options="draw-one passes-1", **STUCK)
    assert game.legal_moves() == []
    assert game.is_over
    with pytest.raises(IllegalMove, match="this game has one pass"):
        game.play("d")


def test_an_idle_pass_line_while_a_card_can_move_is_refused() -> None:
    text = deal_1().to_text().replace("P: 1", "P: 1 idle")
    with pytest.raises(PositionError, match="Line P: says no card could move this pass"):
        Game.from_text(text)


def test_all_52_cards_up_is_a_win() -> None:
    game = canfield(base="7", foundations="6C 6D 6H 5S", piles={1: "6S"})
    game.play("1f")
    assert game.is_won and game.is_over and game.score == 52
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.WON and outcome.score == 52


# -- position text -----------------------------------------------------------------------


def test_the_position_text_round_trips() -> None:
    game = deal_1()
    for token in ["r3", "d", "d", "32"]:
        game.play(token)
    text = game.to_text()
    assert Game.from_text(text).to_text() == text
    assert Game.from_text("```\n" + text.lower().replace("ts", "10s") + "\n```").to_text() == text


def test_the_example_in_the_docs() -> None:
    game = deal_1()
    game.play_line("r3 32 d d")
    text = game.to_text().splitlines()
    assert text[:9] == [
        "canfield", "R: JD 2D 9H JC 5D 7H 7C 5H KD KC 9S", "F: QC - - -", "B: Q",
        "1: KH", "2: 3H 2S AD", "3: 5S", "4: KS", "W: 9D QD JS AS AH 3C",
    ]
    assert text[9].startswith("S: 4C 5C TS QH 4H AC ") and text[10] == "P: 1"
    assert game.to_text(hide_stock=True).splitlines()[9] == "S: ?28"


def test_the_stock_is_hidden_in_the_first_pass_and_listed_from_the_second() -> None:
    game = deal_1()
    hidden = game.to_text(hide_stock=True)
    assert hidden.splitlines()[-2:] == ["S: ?34", "P: 1"]
    seen = Game.from_text(hidden)
    assert seen.to_text() == hidden and not seen.stock_known
    assert moves(seen) == moves(game)
    with pytest.raises(IllegalMove, match="unknown"):
        seen.play("d")
    for _ in range(13):  # 34 cards: 12 turns, then the waste turned over
        game.play("d")
    assert lines(game)["P"] == "2"
    visible = game.to_text(hide_stock=True).splitlines()
    assert visible[-2] == game.to_text().splitlines()[-2]  # every stock card has been seen
    assert visible[1] == "R: ?12 AD"  # the reserve under its top never has


def test_a_player_sees_only_the_reserve_top_and_a_view_never_turns_up_a_hidden_card() -> None:
    game = deal_1()
    game.play_line("d " * 13)  # the second pass: the stock is known, the reserve still hidden
    view = Game.from_text(game.to_text(hide_stock=True))
    assert lines(view)["R"] == "?12 AD" and view.to_text(hide_stock=True) == view.to_text()
    assert game.hidden_count == 12 and view.hidden_count == 12
    assert view.reserve[-1] == game.reserve[-1] and sorted(map(str, view.reserve)) == sorted(map(str, game.reserve))
    with pytest.raises(IllegalMove, match="reserve's cards under its top are unknown"):
        view.play("r3")
    view.play("d")  # the stock is known from the second pass on: turning is fine
    assert lines(view)["R"] == "?12 AD"


@pytest.mark.parametrize(
    ("reserve", "stock", "words"),
    [
        ("R: ?11 AD", "S: ?34", ["Line S", "reserve to hide 11", "stock to hold 34", "46 cards are missing"]),
        ("R: ?12", "S: ?34", ["Line R", "?n then its face-up top card"]),
        ("R: ?12 AD 9S", "S: ?34", ["Line R", "?n then its face-up top card"]),
    ],
)
def test_a_hidden_reserve_that_does_not_add_up_is_refused(reserve: str, stock: str, words: list[str]) -> None:
    text = deal_1().to_text(hide_stock=True).replace("R: ?12 AD", reserve).replace("S: ?34", stock)
    with pytest.raises(PositionError) as refused:
        Game.from_text(text)
    assert all(word in str(refused.value) for word in words), refused.value


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.replace("B: Q", "B: X"), ["Line B", "base rank"]),
        (lambda t: t.replace("P: 1", "P: 0"), ["Line P"]),
        (lambda t: t.replace("P: 1", "P: 1 maybe"), ["Line P"]),
        (lambda t: t.replace("P: 1", "Q: 1"), ["Line 11", "P:"]),
        (lambda t: t.rsplit("\n", 1)[0], ["Canfield position has 11 lines", "this one has 10"]),
        (lambda t: t.replace("1: KH", "1: KH QS"), ["Line S", "QS", "already on line 1"]),
        (lambda t: t.replace("1: KH", "1: KH").replace("3: 2S", "3:"), ["Line 3", "empty", "reserve"]),
        (lambda t: t.replace("F: QC - - -", "F: - QC - -"), ["Line F", "C D H S"]),
        (lambda t: t.replace("R: JD", "R: JX"), ["Line R", "JX"]),
        (lambda t: t.replace("S: 9D", "S: ?9 9D"), ["Line S"]),
        (lambda t: t.rsplit("\nP:", 1)[0].rsplit("\n", 1)[0] + "\nS: ?33\nP: 1", ["Line S", "33", "34"]),
    ],
)
def test_bad_positions_are_refused_with_a_message_naming_the_line(change, words) -> None:
    text = change(deal_1().to_text())
    with pytest.raises(PositionError) as caught:
        Game.from_text(text)
    for word in words:
        assert word in str(caught.value)


def test_a_pile_that_is_not_a_built_run_is_refused() -> None:
    rows = canfield(reserve="KD", piles={1: "9D 8S", 2: "8D", 3: "QS", 4: "JS"}).to_text().splitlines()
    rows = [row.replace("8H", "8S") if row.startswith("S:") else row for row in rows]
    rows = ["1: 9D 8H" if row == "1: 9D 8S" else row for row in rows]
    with pytest.raises(PositionError, match="Line 1: 8H can't lie on 9D: tableau piles are built down"):
        Game.from_text("\n".join(rows))


# -- the move language -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("r3", "r3"), ("r 3", "r3"), ("R>3", "r3"), ("r to 3", "r3"), ("ad", "r3"), ("A♦ 2♠", "r3"),
        ("ad 3", "r3"), ("2s", "32"), ("2s 3h", "32"), ("3 2", "32"), ("3", "32"),
        ("d", "d"), ("draw", "d"), ("turn", "d"),
    ],
)
def test_forgiving_input_normalises_to_one_canonical_move(text: str, canonical: str) -> None:
    game = deal_1()
    assert str(game.play(text)) == canonical
    assert game.moves[-1] == Move.from_text(canonical)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5f", "Pile 5 doesn't exist: Canfield has tableau piles 1–4"),
        ("l3", "Canfield has one reserve: call it r"),
        ("3 > left", "Nothing moves onto the reserve"),
        ("1w", "Nothing moves onto the waste"),
        ("f1", "Cards never leave a foundation"),
        ("14", "K♥ can't go on K♠: it takes a red Q"),
        ("qd", "Q♦ isn't in play yet: it is face down in the reserve or the stock, so it can't move"),
        ("qc", "Q♣ is already on its foundation"),
        ("5s", "5♠ isn't in play yet: it is face down in the reserve or the stock, so it can't move"),
        ("qd 2s", "Q♦ isn't in play yet: it is face down in the reserve or the stock, so it can't move"),
        ("2s 5s", "5♠ isn't in play yet: it is face down in the reserve or the stock, so nothing can go on it"),
        ("kh", "K♥ has nowhere to go right now"),
        ("wf", "The waste is empty"),
        ("1", "Nothing from pile 1 can move right now"),
    ],
)
def test_refusals_say_why_in_canfield_terms(text: str, message: str) -> None:
    game = deal_1()
    before = game.to_text()
    with pytest.raises(IllegalMove) as caught:
        game.play(text)
    assert message in str(caught.value)
    assert game.to_text() == before


@pytest.mark.parametrize(
    ("options", "text", "message"),
    [
        ("", "8s", "8♠ is in pile 1 under 1 card: a pile moves only as a whole, from its bottom card, 9♥"),
        ("", "9h", "9♥ is in pile 1 under 2 cards: its pile moves only as a whole, and no pile takes 9♥ right now"),
        ("partial-moves", "8s", "8♠ is in pile 1 under 1 card, and no pile takes it with the cards on it right now"),
    ],
)
def test_a_card_under_others_that_cannot_move_says_why(options: str, text: str, message: str) -> None:
    game = canfield(options=options, reserve="2C", piles={1: "9H 8S 7D", 2: "KC", 3: "5D", 4: "QD"})
    with pytest.raises(IllegalMove) as caught:
        game.play(text)
    assert str(caught.value) == message


def test_a_line_of_moves_plays_in_order() -> None:
    game = deal_1()
    result = game.play_line("r3, 32 d")
    assert [str(m) for m in result.played] == ["r3", "32", "d"] and result.error is None
    assert lines(game)["2"] == "3H 2S AD"
    assert lines(game)["3"] == "5S"  # pile 3 emptied and took the reserve's next card


def test_describe_move_speaks_of_piles_and_the_reserve() -> None:
    game = deal_1()
    assert describe_move(game, Move.from_text("r3")) == "A♦ from the reserve onto 2♠ in pile 3"
    assert describe_move(game, Move.from_text("32")) == "2♠ from pile 3 onto 3♥ in pile 2"
    game.play("r3")
    assert describe_move(game, Move.from_text("32")) == "2♠ and the 1 on it from pile 3 onto 3♥ in pile 2"
    assert "9♦" not in describe_move(game, Move.from_text("d"))


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=30) | st.from_regex(r"[0-9lrwfdLRWF >:\-♥♠7hsct]{0,12}", fullmatch=True))
def test_any_text_is_played_or_refused_with_a_rules_error(text: str) -> None:
    game = deal_1()
    before = game.to_text()
    try:
        game.play(text)
    except (NotationError, IllegalMove) as error:
        assert str(error)
        assert game.to_text() == before


# -- Auto (safe moves to the foundations) ------------------------------------------------


def test_a_card_is_safe_once_both_cards_that_could_go_on_it_are_up() -> None:
    # Base 7: 9♣ could take the red 8s, which are up only with two cards on each red foundation.
    not_yet = canfield(base="7", foundations="8C 8D 7H -", reserve="KD", piles={1: "9C", 2: "5D", 3: "QS", 4: "JS"})
    assert not not_yet.is_safe_up(Move.from_text("1f"))
    safe = canfield(base="7", foundations="8C 8D 8H -", reserve="KD", piles={1: "9C", 2: "5D", 3: "QS", 4: "JS"})
    assert safe.is_safe_up(Move.from_text("1f"))
    assert [str(m) for m in autoplay(safe)] == ["1f"]


def test_a_base_rank_card_is_safe_only_when_the_last_cards_of_the_other_colour_are_up() -> None:
    # A red 6 (the last card of its foundation) could go on 7♠ until both red foundations are full.
    game = canfield(base="7", foundations="KC 6D 5H -", reserve="8S", piles={1: "7S", 2: "9S", 3: "QS", 4: "JS"})
    assert not game.is_safe_up(Move.from_text("1f"))
    full = canfield(base="7", foundations="KC 6D 6H -", reserve="8S", piles={1: "7S", 2: "9S", 3: "QS", 4: "JS"})
    assert full.is_safe_up(Move.from_text("1f"))


def test_a_waste_card_is_never_safe_turning_three_but_may_be_turning_one() -> None:
    layout = dict(base="7", foundations="8C 8D 8H -", reserve="KD", piles={1: "5D", 2: "6D", 3: "QS", 4: "JS"},
                  waste="9C")
    three = canfield(**layout)
    assert "wf" in moves(three) and not three.is_safe_up(Move.from_text("wf"))
    assert autoplay(three) == []
    one = canfield(options="draw-one", **layout)
    assert one.is_safe_up(Move.from_text("wf"))


# -- undo --------------------------------------------------------------------------------


def test_undo_takes_back_turns_turnovers_fills_and_pass_state() -> None:
    game = deal_1()
    start = game.to_text()
    texts = [start]
    for token in ["r3", "32", *["d"] * 13, "d"]:
        if token in moves(game):
            game.play(token)
            texts.append(game.to_text())
    assert lines(game)["P"] == "2"
    while game.moves:
        game.undo()
        texts.pop()
        assert game.to_text() == texts[-1]
    assert game.to_text() == start
    with pytest.raises(IllegalMove, match="no move to take back"):
        game.undo()


def test_only_a_first_pass_turn_shows_unseen_stock_cards() -> None:
    game = canfield(reserve="KD", piles={1: "9D", 2: "8D", 3: "QS", 4: "JS"}, stock="5D 6D 7D")
    assert not game.last_move_showed_stock
    game.play("d")
    assert game.last_move_showed_stock
    while game.stock_count:
        game.play("d")
    game.play("d")  # turn the waste over: nothing new is shown
    assert not game.last_move_showed_stock
    game.play("d")  # the second pass shows cards already seen
    assert not game.last_move_showed_stock


# -- properties over random play ---------------------------------------------------------

OPTION_SETS = st.sampled_from([(), ("partial-moves",), ("draw-one",), ("draw-one", "passes-1", "partial-moves")])


def cards_in(text: str) -> Counter[str]:
    """Every card the position text shows, each foundation top expanded from the base rank."""
    found: Counter[str] = Counter()
    rows = dict(line.split(":", 1) for line in text.splitlines()[1:])
    base = "A23456789TJQK".index(rows["B"].strip())
    for label, rest in rows.items():
        for word in rest.split():
            if label == "F" and word != "-":
                count = ("A23456789TJQK".index(word[0]) - base) % 13 + 1
                found.update("A23456789TJQK"[(base + k) % 13] + word[1] for k in range(count))
            elif label not in ("F", "B", "P"):
                found[word] += 1
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(1, 2**32 - 1), options=OPTION_SETS, data=st.data())
def test_random_playouts_keep_every_card_once(deal, options, data) -> None:
    # That every move plays, undoes and reads back is the contract of every variant (tests/test_variants.py).
    game = Game.new("canfield", deal=deal, options=options)
    for _ in range(data.draw(st.integers(0, 80), label="length")):
        assert cards_in(game.to_text()) == Counter(ALL_CARDS)
        legal = game.legal_moves()
        if not legal:
            break
        game.push(data.draw(st.sampled_from(legal), label="move"))


@settings(max_examples=200, deadline=None)
@given(line=st.integers(0, 10), junk=st.text(max_size=40))
def test_a_damaged_position_is_read_or_refused_with_a_rules_error(line: int, junk: str) -> None:
    rows = deal_1().to_text().splitlines()
    rows[line] = junk
    try:
        game = Game.from_text("\n".join(rows))
    except RulesError:
        return
    assert Game.from_text(game.to_text()).to_text() == game.to_text()
