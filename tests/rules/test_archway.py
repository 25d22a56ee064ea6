"""One test per rule of Archway (docs/archway.md#3-the-rules), on hand-built positions."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.rules import (
    AmbiguousMove,
    ArchwayGame,
    DealNumberError,
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
from gatebot.rules.archway import DECK
from gatebot.rules.autoplay import autoplay
from gatebot.rules.cards import CARD_TEXT

from . import archway_reference as ref
from .builders import ALL_CARDS, archway, moves

# Deal 1 (docs/archway.md §2): the dealt sequence starts QD JD JC QC TD 8C 2C 9D, so the
# columns start QD, JD, JC, QC (bottom cards) and end AD, 7S, 4D, 6H (exposed); its legal
# moves are the four Twos and the four Queens of the arch: 2ca 2da 2ha 2sa qck qdk qhk qsk.
DEAL_1 = """\
archway
A: AC AD AH AS
K: KC KD KH KS
P: 2C 2D 2D 2H 2S 3C 3D 3H 3S 4C 4C 4H 4S 4S 5C 5C 5H 6C 6D 6S 7C 7D 7H 7H 7S 8C 8D 8D 8S 8S 9C 9H 9H \
TC TC TD JC JD JH JS QC QD QH QH QS KC KD KH
1: QD TD TH 5D TS 5S 3C 6H 2S AS 9S AD
2: JD 8C 6D 5D TS 3H 9C 5S 4D AC 6S 7S
3: JC 2C 9D JS 7D 8H TH 9S 5H KS 2H 4D
4: QC 9D 4H 3D AH 3S JH 6C 8H QS 7C 6H"""

# Four columns whose exposed cards fit nowhere (no heart, no spade); with ``rest=4`` the copies
# not named lie under column 4's 6♦.
STILL = {1: "5C", 2: "5D", 3: "6C", 4: "6D"}


def deal_1(options: tuple[str, ...] = ()) -> Game:
    return Game.new("archway", deal=1, options=options)


def lines(game: Game) -> dict[str, str]:
    """The position text as {label: rest of line}."""
    out = {}
    for line in game.to_text().splitlines()[1:]:
        label, _, rest = line.partition(":")
        out[label] = rest.strip()
    return out


def refusal(game: Game, text: str) -> str:
    """The message refusing ``text``; the position is unchanged."""
    before = game.to_text()
    with pytest.raises(IllegalMove) as caught:
        game.play(text)
    assert game.to_text() == before
    return str(caught.value)


# -- the deal ----------------------------------------------------------------------------


def test_the_96_cards_are_the_first_deck_without_aces_and_kings_then_the_second_deck() -> None:
    deck = [CARD_TEXT[c] for c in DECK]
    assert deck[:5] == ["2C", "2D", "2H", "2S", "3C"]
    assert deck[43:49] == ["QS", "AC", "AD", "AH", "AS", "2C"]
    assert deck[-1] == "KS" and len(deck) == 96
    assert Counter(deck) + Counter(f"{r}{s}" for r in "AK" for s in "CDHS") == Counter(ALL_CARDS * 2)


def test_deal_1_is_laid_out_as_documented() -> None:
    cards = ref.deal_cards(1)  # the reference model's own shuffle, written apart from the engine
    assert cards[:8] == "QD JD JC QC TD 8C 2C 9D".split()
    text = lines(deal_1())
    for i in range(4):
        assert text[str(i + 1)] == " ".join(cards[i:48:4])  # row by row, bottom row first
    assert text["P"] == " ".join(sorted(cards[48:], key=ref.card_order))
    assert deal_1().to_text() == DEAL_1


def test_deal_1_opening_moves() -> None:
    assert [str(m) for m in deal_1().legal_moves()] == ["2ca", "2da", "2ha", "2sa", "qck", "qdk", "qhk", "qsk"]


@pytest.mark.parametrize("deal", [1, 2, 617, 2**32 - 1])
def test_every_deal_has_the_bases_up_four_columns_of_12_and_48_in_the_arch(deal: int) -> None:
    game = Game.new("archway", deal=deal)
    assert isinstance(game, ArchwayGame)
    assert game.score == 8
    assert [str(c) for c in game.ace_foundations] == ["AC", "AD", "AH", "AS"]
    assert [str(c) for c in game.king_foundations] == ["KC", "KD", "KH", "KS"]
    assert [len(column) for column in game.columns] == [12, 12, 12, 12]
    assert sum(len(packet) for packet in game.arch) == 48
    assert all(card.rank == rank for rank, packet in enumerate(game.arch, 1) for card in packet)
    assert cards_in(game.to_text()) == Counter(ALL_CARDS * 2)
    assert game.to_text() == ref.position_text(ref.new_position(deal))


def test_deal_numbers_out_of_range_are_refused() -> None:
    with pytest.raises(DealNumberError, match="Deal numbers run from 1"):
        Game.new("archway", deal=0)


# -- the foundations ---------------------------------------------------------------------


def test_ace_foundations_build_up_in_suit() -> None:
    game = archway(aces="4C AD AH AS", columns={1: "5C", 2: "6C", 3: "5D", 4: "9H"}, rest=4)
    assert moves(game) == {"1a"}
    assert refusal(game, "2a") == "6♣ can't go on the clubs Ace foundation: it is at 4♣ and takes 5♣ next"
    assert refusal(game, "3a") == "5♦ can't go on the diamonds Ace foundation: it is at A♦ and takes 2♦ next"
    game.play("1a")
    assert lines(game)["A"] == "5C AD AH AS"
    assert "2a" in moves(game)


def test_king_foundations_build_down_in_suit() -> None:
    game = archway(kings="9C KD KH KS", columns={1: "8C", 2: "7C", 3: "JD", 4: "9H"}, rest=4)
    assert moves(game) == {"1k"}
    assert refusal(game, "2k") == "7♣ can't go on the clubs King foundation: it is at 9♣ and takes 8♣ next"
    assert refusal(game, "3k") == "J♦ can't go on the diamonds King foundation: it is at K♦ and takes Q♦ next"
    game.play("1k")
    assert lines(game)["K"] == "8C KD KH KS"


def test_a_card_that_fits_both_foundations_of_its_suit_is_played_to_the_one_named() -> None:
    game = archway(aces="AC AD 6H AS", kings="KC KD 8H KS", columns={1: "7H", 2: "7H", 3: "5C", 4: "9S"}, rest=4)
    assert moves(game) == {"1a", "1k", "2a", "2k"}
    with pytest.raises(AmbiguousMove) as caught:
        game.play("1 f")
    assert caught.value.choices == ("1a", "1k")
    assert str(caught.value) == "7♥ fits both hearts foundations: say 1a (onto 6♥) or 1k (onto 8♥)"
    game.play("1a")
    game.play("2k")
    assert (lines(game)["A"], lines(game)["K"]) == ("AC AD 7H AS", "KC KD 7H KS")


def test_a_foundation_can_take_the_second_copy_of_its_own_base_last() -> None:
    game = archway(aces="AC AD QH AS", kings="KC KD KH 2S", columns={1: "AS", 2: "KH", 3: "5C", 4: "9D"}, rest=4)
    assert moves(game) == {"1k", "2a", "fhk", "fsa"}  # both suits met: Q♥ below K♥, A♠ below 2♠
    game.play_line("1k 2a")
    assert (lines(game)["A"], lines(game)["K"]) == ("AC AD KH AS", "KC KD KH AS")
    assert game.foundation_sizes == ((1, 1, 13, 1), (1, 1, 1, 13))


def test_cards_leave_a_foundation_only_by_reversing() -> None:
    game = archway(aces="4C AD AH AS", columns=STILL, rest=4)
    only_reversing = "A card leaves a foundation only for the other one of its suit, written like fhk or fha"
    assert refusal(game, "f1") == only_reversing
    assert refusal(game, "a 1") == only_reversing
    assert refusal(game, "fc1") == (
        "A card leaves the clubs foundations only for the other one (reversing), written fca or fck"
    )


# -- available cards ---------------------------------------------------------------------


def test_only_the_exposed_card_of_a_column_moves() -> None:
    game = archway(aces="2C AD AH AS", columns={1: "3C 9H", 2: "5C", 3: "5D", 4: "5S"}, rest=4)
    assert moves(game) == set()
    assert refusal(game, "3c") == (
        "3♣ is in column 1 under 1 card, the other in column 4 under 79 cards: only the exposed card of a column moves"
    )
    assert refusal(game, "1a") == "9♥ can't go on the hearts Ace foundation: it is at A♥ and takes 2♥ next"


def test_every_card_of_the_arch_is_available_and_two_copies_give_one_move() -> None:
    game = archway(arch="2D 2C 2C 2H 2S QS 9H", columns=STILL, rest=4)
    assert moves(game) == {"2ca", "2da", "2ha", "2sa", "qsk"}
    game.play("2ca")
    assert lines(game)["P"] == "2C 2D 2H 2S 9H QS"  # one 2♣ left, the arch kept in rank then suit order
    assert "2ca" not in moves(game) and lines(game)["A"].startswith("2C ")


def test_cards_are_never_built_on_the_columns_or_put_back_into_the_arch() -> None:
    game = archway(columns={1: "9H", 2: "8S", 3: "5D", 4: "5S"}, rest=4)
    assert refusal(game, "21") == (
        "Column 1 isn't a space: in Archway cards go only onto the foundations or into an empty column"
    )
    assert refusal(game, "8s 9h") == (
        "9♥ isn't on top of a foundation: in Archway a card goes only onto a foundation or into an empty column"
    )
    assert refusal(game, "2p") == "Cards go back to the arch only with the kit option"


def test_moving_an_exposed_card_exposes_the_one_beneath() -> None:
    game = archway(aces="AC AD AH 4S", columns={1: "9H 5S", 2: "5C", 3: "5D", 4: "6H"}, rest=4)
    game.play("5s")
    assert lines(game)["1"] == "9H" and game.columns[0][-1].rank == 9
    assert "1a" not in moves(game)


# -- spaces ------------------------------------------------------------------------------


def test_a_cleared_column_is_a_space_that_takes_one_card_from_a_column_or_the_arch() -> None:
    game = archway(aces="AC AD AH 4S", columns={1: "5S", 2: "5C 6C", 3: "5D", 4: "6H"}, rest=4, arch="JD")
    game.play("1a")
    assert lines(game)["1"] == ""
    legal = moves(game)
    assert {"21", "31", "41", "jd1"} <= legal
    game.play("21")
    assert (lines(game)["1"], lines(game)["2"]) == ("6C", "5C")


def test_a_space_holds_one_card_at_most_and_it_counts_as_exposed() -> None:
    game = archway(aces="4C AD AH AS", columns={1: "", 2: "5C", 3: "5D", 4: "6H"}, rest=4)
    game.play("21")
    assert refusal(game, "31") == (
        "Column 1 isn't a space: in Archway cards go only onto the foundations or into an empty column"
    )
    assert "1a" in moves(game)
    game.play("1a")
    assert lines(game)["A"].startswith("5C ")


def test_an_arch_card_goes_into_a_space() -> None:
    game = archway(columns={1: "", 2: "5C", 3: "5D", 4: "6H"}, rest=4, arch="9S 9S")
    assert moves(game) == {"21", "31", "41", "9s1"}
    assert str(game.play("9s")) == "9s1"
    assert (lines(game)["P"], lines(game)["1"]) == ("9S", "9S")


def test_a_card_named_alone_goes_up_rather_than_into_a_space() -> None:
    game = archway(columns={1: "", 2: "", 3: "5D", 4: "6H"}, rest=4, arch="2C 9S")
    assert str(game.copy().play("2c")) == "2ca"
    assert str(game.copy().play("9s")) == "9s1"  # spaces are interchangeable: the first is meant


# -- reversing ---------------------------------------------------------------------------


def test_the_example_of_the_rules_reversing_a_ten_for_the_jack() -> None:
    # ♥: the Ace foundation at 9, the King foundation at 10; the only available heart is J♥.
    game = archway(aces="AC AD 9H AS", kings="KC KD TH KS", columns={1: "JH", 2: "5C", 3: "5D", 4: "5S"}, rest=4)
    assert moves(game) == {"fha", "fhk"}
    assert str(game.play("th 9h")) == "fha"  # 10♥ from the King foundation onto 9♥
    assert (lines(game)["A"], lines(game)["K"]) == ("AC AD TH AS", "KC KD JH KS")
    game.play("1a")  # J♥ from column 1 (the King foundation's J♥ could go too: the suit is still met)
    assert lines(game)["A"] == "AC AD JH AS"


def test_reversing_goes_both_ways_one_card_at_a_time_and_the_bases_stay() -> None:
    game = archway(aces="AC AD AH AS", kings="KC KD 2H KS", columns=STILL, rest=4)
    assert moves(game) == {"fha"}  # A♥ is the Ace foundation's base: nothing goes the other way
    assert refusal(game, "fhk") == "A♥ is the base of the hearts Ace foundation: the bases stay where they are"
    start = game.to_text()
    for _ in range(11):
        game.play("fha")
    assert (lines(game)["A"], lines(game)["K"]) == ("AC AD QH AS", "KC KD KH KS")
    assert moves(game) == {"fhk"}
    assert refusal(game, "fha") == "K♥ is the base of the hearts King foundation: the bases stay where they are"
    game.play("fhk")
    assert lines(game)["K"] == "KC KD QH KS"
    while game.moves:
        game.undo()
    assert game.to_text() == start


def test_reversing_needs_the_two_foundations_of_the_suit_to_meet() -> None:
    apart = archway(aces="AC AD 5H AS", kings="KC KD 9H KS", columns=STILL, rest=4)
    assert not {"fha", "fhk"} & moves(apart)
    assert refusal(apart, "fhk") == (
        "The hearts foundations haven't met: reversing needs the Ace foundation's top one below the "
        "King foundation's (5♥ and 9♥ now)"
    )
    passed = archway(aces="AC AD 9H AS", kings="KC KD 5H KS", columns=STILL, rest=4)
    assert refusal(passed, "fha") == (
        "The hearts foundations have passed each other (9♥ and 5♥ on top), so nothing moves between them"
    )


def test_once_met_the_foundations_of_a_suit_stay_met_until_a_card_goes_up() -> None:
    game = archway(aces="AC AD 6H AS", kings="KC KD 7H KS", columns={1: "8H", 2: "5C", 3: "5D", 4: "6C"}, rest=4)
    assert moves(game) == {"fha", "fhk"}  # 8♥ fits neither foundation yet
    game.play("fhk")
    assert (lines(game)["A"], lines(game)["K"]) == ("AC AD 5H AS", "KC KD 6H KS")
    assert moves(game) == {"fha", "fhk"}
    game.play_line("fha fha")
    assert (lines(game)["A"], lines(game)["K"]) == ("AC AD 7H AS", "KC KD 8H KS")
    assert moves(game) == {"1a", "fha", "fhk"}
    game.play("1a")  # the last 8♥ out goes up: the foundations pass each other
    assert (lines(game)["A"], lines(game)["K"]) == ("AC AD 8H AS", "KC KD 8H KS")
    assert not {"fha", "fhk"} & moves(game)


def test_a_reversing_move_named_by_its_card_or_by_f_and_the_suit() -> None:
    game = archway(aces="AC AD 9H AS", kings="KC KD TH KS", columns=STILL, rest=4)
    assert str(game.copy().play("10h a")) == "fha"
    assert str(game.copy().play("9h > k")) == "fhk"
    assert str(game.copy().play("FH K")) == "fhk"
    with pytest.raises(AmbiguousMove) as caught:
        game.copy().play("fh f")
    assert caught.value.choices == ("fhk", "fha")


# -- the kit option ----------------------------------------------------------------------


def test_with_kit_a_column_card_may_go_back_to_its_packet() -> None:
    game = archway(options="kit", columns={1: "9H 5C", 2: "", 3: "5D", 4: "6H"}, rest=4, arch="9S")
    assert {"1p", "3p", "4p"} <= moves(game)
    assert "9sp" not in moves(game)
    assert refusal(game, "9sp") == "9♠ is in the arch already"
    before = game.to_text()
    assert str(game.play("1 arch")) == "1p"
    assert (lines(game)["1"], lines(game)["P"]) == ("9H", "5C 9S")
    game.undo()
    assert game.to_text() == before


def test_the_kit_option_is_written_after_the_variant_and_read_back() -> None:
    game = deal_1(("kit",))
    assert game.to_text().splitlines()[0] == "archway kit"
    assert Game.from_text(game.to_text()).options == ("kit",)
    assert {"1p", "2p", "3p", "4p"} <= moves(game)
    with pytest.raises(UnknownVariant, match="Archway has no option 'single-moves': its options are kit"):
        Game.new("archway", deal=1, options=("single-moves",))


# -- the end of the game -----------------------------------------------------------------


def test_all_eight_foundations_holding_13_is_a_win() -> None:
    game = archway(aces="KC KD KH KS", kings="AC AD AH 2S", columns={1: "AS"})
    assert game.score == 103 and not game.is_won
    game.play("as")
    assert lines(game)["K"] == "AC AD AH AS"
    assert game.is_won and game.is_over and game.score == 104
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.WON and outcome.score == 104


def test_no_move_left_loses() -> None:
    game = archway(aces="3C AD AH AS", columns=STILL, rest=4)
    assert game.legal_moves() == []
    assert game.is_over and not game.is_won
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES and outcome.score == 10


def test_a_space_or_the_kit_keeps_a_game_going() -> None:
    with_space = archway(columns={1: "", 2: "5C", 3: "5D", 4: "5S"}, rest=4)
    assert moves(with_space) == {"21", "31", "41"} and not with_space.is_over
    kit = archway(options="kit", columns=STILL, rest=4)
    assert moves(kit) == {"1p", "2p", "3p", "4p"} and not kit.is_over


def test_there_is_no_stock_to_draw_from() -> None:
    assert refusal(deal_1(), "d") == (
        "Archway has no stock: every card is dealt face up at the start, so there is nothing to draw"
    )
    game = deal_1()
    assert (game.stock_count, game.stock_known, game.last_move_showed_stock) == (0, True, False)


# -- position text -----------------------------------------------------------------------


def test_the_position_text_round_trips() -> None:
    game = deal_1()
    game.play_line("2ca 2ha qhk")
    text = game.to_text()
    assert text.splitlines()[1:3] == ["A: 2C AD 2H AS", "K: KC KD QH KS"]
    assert Game.from_text(text).to_text() == text
    assert Game.from_text("```\n" + text.lower().replace("ts", "10s") + "\n```").to_text() == text


def test_the_arch_may_be_given_in_any_order_and_is_written_in_rank_then_suit_order() -> None:
    rows = DEAL_1.splitlines()
    rows[3] = "P: " + " ".join(reversed(rows[3][3:].split()))
    assert Game.from_text("\n".join(rows)).to_text() == DEAL_1


def test_nothing_is_hidden_so_hide_stock_changes_nothing() -> None:
    game = deal_1()
    assert game.to_text(hide_stock=True) == game.to_text()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.rsplit("\n", 1)[0], "An Archway position has 8 lines (the variant, then A:, K:, P:, 1:, 2:, 3:, "
                                          "4:); this one has 7"),
        (lambda t: t.replace("A: AC", "F: AC"), "Line 2 should start with A: but reads 'F: AC AD AH AS'"),
        (lambda t: t.replace("A: AC AD", "A: - AD"), "Line A: a foundation always holds its base card, so give its "
                                                      "top card, not -"),
        (lambda t: t.replace("A: AC AD", "A: AD AC"), "Line A: AD is in the clubs place; foundations are listed in "
                                                       "the order C D H S"),
        (lambda t: t.replace("K: KC KD KH KS", "K: KC KD KH"), "Line K: give the top card of each King foundation, "
                                                                "four in suit order C D H S"),
        (lambda t: t.replace("1: QD", "1: QD QD"), "Line 1: QD is a third copy (the others are on lines P and 1): "
                                                    "each card appears twice"),
        (lambda t: t.replace("1: QD ", "1: "), "The position is missing 1 cards (QD): each card appears twice, on "
                                                "the foundations, in the arch or in a column"),
        (lambda t: t.replace("P: 2C", "P: 2X"), "Line P: '2X' is not a card (write cards like 7H or TD)"),
        (lambda t: t.replace("K: KC", "K: QC"), "Line 4: QC is a third copy (the others are on lines K and P): each "
                                                 "card appears twice"),
        (lambda t: t.replace("P: 2C", "P: ?3"), "Line P: '?3' is not a card (write cards like 7H or TD)"),
        (lambda t: "\n".join(row if row[0] != "P" else "P: ?48" for row in t.splitlines()),
         "Line P: only the stock (S:) may be written as ?n unseen cards"),
    ],
)
def test_bad_positions_are_refused_with_a_message_naming_the_line(change, message: str) -> None:
    with pytest.raises(PositionError) as caught:
        Game.from_text(change(DEAL_1))
    assert str(caught.value) == message


# -- the move language -------------------------------------------------------------------

# Hearts met (Ace foundation at 9♥, King foundation at 10♥), spades passed (8♠ and 6♠: both
# 7♠ are up); 2♣ and 9♠ in the arch, 3♦ twice; column 1 empty, 2♦ exposed on column 2.
PLAYGROUND = dict(aces="AC AD 9H 8S", kings="KC KD TH 6S", arch="2C 9S 3D 3D",
                  columns={1: "", 2: "2D", 3: "5C", 4: "6C"}, rest=4)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2ca", "2ca"), ("2CA", "2ca"), ("2c", "2ca"), ("2♣", "2ca"), ("2c a", "2ca"), ("2c > ace", "2ca"),
        ("2c f", "2ca"), ("2c up", "2ca"), ("2c ac", "2ca"), ("2c on ac", "2ca"),
        ("9sa", "9sa"), ("9s", "9sa"), ("9s ace", "9sa"), ("9♠ 8♠", "9sa"), ("9S>A", "9sa"),
        ("2a", "2a"), ("2 a", "2a"), ("2f", "2a"), ("2 > f", "2a"), ("2 up", "2a"), ("2d", "2a"), ("2", "2a"),
        ("2d ad", "2a"), ("9sf", "9sa"), ("9S F", "9sa"),
        ("21", "21"), ("2 1", "21"), ("2 to 1", "21"), ("2d 1", "21"),
        ("3d1", "3d1"), ("3d 1", "3d1"), ("3d", "3d1"), ("9s1", "9s1"), ("9s 1", "9s1"), ("3", "31"),
        ("fha", "fha"), ("fhk", "fhk"), ("th a", "fha"), ("10h 9h", "fha"), ("9h th", "fhk"), ("fh > k", "fhk"),
    ],
)
def test_forgiving_input_normalises_to_one_canonical_move(text: str, canonical: str) -> None:
    game = archway(**PLAYGROUND)
    assert str(game.play(text)) == canonical
    assert game.moves[-1] == Move.from_text(canonical)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5f", "Column 5 doesn't exist: Archway has columns 1–4"),
        ("l1", "Archway has no reserves: its cards are in the columns and the arch"),
        ("w1", "Archway has no waste: every card is dealt face up at the start"),
        ("2 > left", "Archway has no reserves: its cards are in the columns and the arch"),
        ("1a", "Column 1 is empty: it is a space, with nothing to move"),
        ("1", "Column 1 is empty: it is a space, with nothing to move"),
        ("2k", "2♦ can't go on the diamonds King foundation: it is at K♦ and takes Q♦ next"),
        ("2 3", "Column 3 isn't a space: in Archway cards go only onto the foundations or into an empty column"),
        ("4d", "4♦ is in column 4 under 49 cards, the other in column 4 under 50 cards: only the exposed card of a "
               "column moves"),
        ("4ca", "There is no 4♣ in the arch: 4♣ is in column 4 under 51 cards, the other in column 4 under 52 cards"),
        ("kd", "K♦ is in column 4 under 3 cards: only the exposed card of a column moves"),
        ("kd k", "K♦ is in column 4 under 3 cards: only the exposed card of a column moves"),
        ("kd > 1", "K♦ is in column 4 under 3 cards: only the exposed card of a column moves"),
        ("7s", "Both 7♠ are on the foundations already, so it can't move"),
        ("7sa", "There is no 7♠ in the arch: both are on the foundations already"),
        ("fs", "The spades foundations have passed each other (8♠ and 6♠ on top), so nothing moves between them"),
        ("fc1", "A card leaves the clubs foundations only for the other one (reversing), written fca or fck"),
        ("2c 2d", "2♦ isn't on top of a foundation: in Archway a card goes only onto a foundation or into an empty "
                  "column"),
        ("2c ad", "2♣ can't go on A♦: a foundation takes only its own suit"),
        ("2c k", "2♣ can't go on the clubs King foundation: it is at K♣ and takes Q♣ next"),
        ("3d f", "3♦ can't go up yet: the diamonds Ace foundation is at A♦ and takes 2♦ next and the King "
                 "foundation is at K♦ and takes Q♦ next"),
        ("fck", "The clubs foundations haven't met: reversing needs the Ace foundation's top one below the King "
                "foundation's (A♣ and K♣ now)"),
        ("2p", "Cards go back to the arch only with the kit option"),
        ("2a:2", "Only the exposed card of column 2 moves: Archway moves one card at a time"),
    ],
)
def test_refusals_say_why_in_one_sentence(text: str, message: str) -> None:
    game = archway(**PLAYGROUND)
    assert refusal(game, text) == message
    assert ". " not in message and not message.endswith(".")


def test_a_card_with_nowhere_to_go_says_so() -> None:
    assert refusal(archway(columns=STILL, rest=4, arch="9S"), "9s") == "9♠ has nowhere to go right now"


def test_a_card_with_two_places_to_go_up_is_ambiguous() -> None:
    game = archway(aces="AC AD 6H AS", kings="KC KD 8H KS", arch="7H", columns={1: "7H", 2: "5C", 3: "5D", 4: "9S"},
                   rest=4)
    with pytest.raises(AmbiguousMove) as caught:
        game.play("7h")
    assert set(caught.value.choices) == {"1a", "1k", "7ha", "7hk"}
    assert "7♥ from the arch onto 6♥ on the hearts Ace foundation (7ha)" in str(caught.value)
    assert game.moves == ()


@pytest.mark.parametrize("text", ["", "xyz", "7h >", "> 3", "3a:x", "7z", "fz", "ak", "hello world"])
def test_unreadable_input_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        deal_1().play(text)
    assert "write moves like 3a, 7hk, fhk, 2>4 or a card like 7h" in str(caught.value) or not text.strip()


def test_a_line_of_moves_plays_in_order_and_stops_at_the_first_that_fails() -> None:
    game = deal_1()
    result = game.play_line("2ca, 2ha qhk 2ha 2da")
    assert [str(m) for m in result.played] == ["2ca", "2ha", "qhk"]
    assert isinstance(result.error, IllegalMove)
    assert str(result.error) == "There is no 2♥ in the arch: 2♥ is in column 3 under 1 card"


def test_describe_move_speaks_of_the_arch_the_foundations_and_spaces() -> None:
    game = archway(**PLAYGROUND)
    assert describe_move(game, Move.from_text("2ca")) == "2♣ from the arch onto A♣ on the clubs Ace foundation"
    assert describe_move(game, Move.from_text("9sa")) == "9♠ from the arch onto 8♠ on the spades Ace foundation"
    assert describe_move(game, Move.from_text("2a")) == "2♦ from column 2 onto A♦ on the diamonds Ace foundation"
    assert describe_move(game, Move.from_text("21")) == "2♦ from column 2 into the space in column 1"
    assert describe_move(game, Move.from_text("fha")) == (
        "10♥ from the hearts King foundation onto 9♥ on the hearts Ace foundation"
    )
    assert describe_move(game, Move.from_text("fhk")) == (
        "9♥ from the hearts Ace foundation onto 10♥ on the hearts King foundation"
    )
    kit = archway(options="kit", columns=STILL, rest=4)
    assert describe_move(kit, Move.from_text("1p")) == "5♣ from column 1 back to the arch"


@pytest.mark.parametrize("token", ["3a", "4k", "7ha", "thk", "ahk", "kca", "7h2", "21", "fha", "fsk", "3p", "qd4"])
def test_archway_tokens_are_canonical_move_tokens(token: str) -> None:
    move = Move.from_text(token)
    assert str(move) == token
    assert eval(repr(move)) == move


@pytest.mark.parametrize("token", ["7h", "fh", "f", "7hak", "a", "3ak", "7hx", "fx", "10ha", "fha:"])
def test_text_that_is_not_an_archway_token_is_a_notation_error(token: str) -> None:
    with pytest.raises(NotationError):
        Move.from_text(token)


def test_a_stored_game_replays_from_its_tokens_without_knowing_the_variant() -> None:
    game = deal_1(("kit",))
    game.play_line("2ca 2da qhk 1p 1a 3p 3p")
    tokens = [str(m) for m in game.moves]
    again = deal_1(("kit",))
    for token in tokens:
        again.play(Move.from_text(token))
    assert again.to_text() == game.to_text()


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=30) | st.from_regex(r"[0-9akpfhcdsAKPF >:\-♥♠7t]{0,12}", fullmatch=True))
def test_any_text_is_played_or_refused_with_a_rules_error(text: str) -> None:
    game = archway(**PLAYGROUND)
    before = game.to_text()
    try:
        game.play(text)
    except (NotationError, IllegalMove) as error:
        assert str(error)
        assert game.to_text() == before


# -- Auto (safe moves to the foundations) ------------------------------------------------


def test_a_card_is_safe_once_the_foundations_of_its_suit_have_passed_each_other() -> None:
    passed = archway(aces="AC AD AH 6S", kings="KC KD KH 5S", columns={1: "7S", 2: "4S", 3: "5D", 4: "5H"}, rest=4)
    assert passed.is_safe_up(Move.from_text("1a")) and passed.is_safe_up(Move.from_text("2k"))
    assert [str(m) for m in autoplay(passed)] == ["1a", "2k"]
    apart = archway(aces="AC AD AH 6S", kings="KC KD KH 9S", columns={1: "7S", 2: "8S", 3: "5D", 4: "5H"}, rest=4)
    assert moves(apart) == {"1a", "2k"}
    assert not apart.is_safe_up(Move.from_text("1a")) and autoplay(apart) == []


def test_reversing_is_never_safe() -> None:
    met = archway(aces="AC AD AH 6S", kings="KC KD KH 7S", columns=STILL, rest=4)
    assert moves(met) == {"fsa", "fsk"}
    assert not met.is_safe_up(Move.from_text("fsa")) and not met.is_safe_up(Move.from_text("fsk"))
    assert autoplay(met) == []


# -- undo --------------------------------------------------------------------------------


def test_undo_takes_back_every_kind_of_move() -> None:
    game = archway(options="kit", aces="AC AD 9H AS", kings="KC KD TH KS", arch="2C",
                   columns={1: "", 2: "2D", 3: "5C", 4: "5S"}, rest=4)
    texts = [game.to_text()]
    for token in ["2ca", "2a", "fha", "fhk", "31", "1p", "5c1", "4p"]:
        game.play(token)
        texts.append(game.to_text())
    while game.moves:
        game.undo()
        texts.pop()
        assert game.to_text() == texts[-1]
    with pytest.raises(IllegalMove, match="no move to take back"):
        game.undo()


# -- properties over random play ---------------------------------------------------------


def cards_in(text: str) -> Counter[str]:
    """Every card the position text shows, each foundation top expanded to the cards under it."""
    found: Counter[str] = Counter()
    for line in text.splitlines()[1:]:
        label, _, rest = line.partition(":")
        for word in rest.split():
            rank = ref.RANKS.index(word[0])
            if label == "A":
                found.update(ref.RANKS[r] + word[1] for r in range(rank + 1))
            elif label == "K":
                found.update(ref.RANKS[r] + word[1] for r in range(rank, 13))
            else:
                found[word] += 1
    return found


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(1, 2**32 - 1), kit=st.booleans(), data=st.data())
def test_random_playouts_keep_every_card_twice(deal, kit, data) -> None:
    # That every move plays, undoes and reads back is the contract of every variant (tests/test_variants.py).
    game = Game.new("archway", deal=deal, options=("kit",) if kit else ())
    for _ in range(data.draw(st.integers(0, 80), label="length")):
        assert cards_in(game.to_text()) == Counter(ALL_CARDS * 2)
        legal = game.legal_moves()
        if not legal:
            break
        game.push(data.draw(st.sampled_from(legal), label="move"))


@settings(max_examples=200, deadline=None)
@given(line=st.integers(0, 7), junk=st.text(max_size=40))
def test_a_damaged_position_is_read_or_refused_with_a_rules_error(line: int, junk: str) -> None:
    rows = DEAL_1.splitlines()
    rows[line] = junk
    try:
        game = Game.from_text("\n".join(rows))
    except RulesError:
        return
    assert Game.from_text(game.to_text()).to_text() == game.to_text()
