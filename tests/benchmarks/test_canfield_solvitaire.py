"""The deal files benchmarks/canfield_solvitaire.py writes for Solvitaire, read back without the binary."""

from pathlib import Path

import pytest
from canfield_decided import Row
from canfield_solvitaire import (
    canfield,
    parse_classify,
    printed_states,
    replay,
    solvitaire_deal,
    state_of,
    strict_spaces,
    table,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game
from gatebot.rules.canfield import CanfieldGame
from gatebot.solver.canfield.search import moves, position_of

DEALS = st.integers(min_value=1, max_value=10**6)
#: Solvitaire's own print of deal 4 as it read the file, and its first moves.
PRINTED_DEAL_4 = (Path(__file__).with_name("solvitaire_deal_4.txt")).read_text()


def solvitaire_name(card: object) -> str:
    """Solvitaire's spelling of a card from gatebot's position text: 10 for T, the rest alike."""
    text = str(card)
    return ("10" + text[1:]) if text.startswith("T") else text


@given(DEALS)
@settings(max_examples=25, deadline=None)
def test_the_deal_holds_every_card_once_where_gatebot_deals_it(deal: int) -> None:
    game = canfield(deal)
    written = solvitaire_deal(game)
    cards = [card for pile in written["tableau piles"] for card in pile]
    cards += written["foundations"] + written["reserve"] + written["stock"]
    assert len(cards) == len(set(cards)) == 52
    assert written["tableau piles"] == [[solvitaire_name(card) for card in pile] for pile in game.piles]
    assert written["foundations"] == [solvitaire_name(card) for card in game.foundations if card is not None]
    assert len(written["reserve"]) == 13
    assert written["reserve"][-1] == solvitaire_name(game.reserve[-1])  # the parser puts the last card on top
    assert written["reserve"] == [solvitaire_name(card) for card in game.reserve]


@given(DEALS)
@settings(max_examples=25, deadline=None)
def test_the_stock_reversed_is_the_order_gatebot_turns_it(deal: int) -> None:
    game = canfield(deal)
    written = solvitaire_deal(game)
    while game.stock_count:
        game.play("d")
    # Turned out card by card, the stock lies on the waste in the order it was turned.
    assert written["stock"][::-1] == [solvitaire_name(card) for card in game.waste]
    assert len(written["stock"]) == 34


def test_only_a_deal_as_dealt_is_written() -> None:
    game = canfield(3)
    game.play("d")
    with pytest.raises(ValueError, match="only a deal as dealt"):
        solvitaire_deal(game)


def test_solvitaire_s_classify_lines_are_read() -> None:
    # Lines as the binary printed them: deals 4 and 2 of gatebot's Canfield, deal 4 again cut off after 1 ms.
    won = ("[info] Attempting to solve canfield-4.json...\n"
           ", solved, 600, 46338, 23633, 46262, 11380, 0, 12253, 12289, 76, 76, solved\n")
    assert parse_classify(won) == ("winnable", 0.6, 46338)
    lost = ", unsolvable, 12, 846, 511, 845, 259, 0, 252, 389, 14, 0, unsolvable"
    assert parse_classify(lost) == ("lost", 0.012, 846)
    timed_out = ", timed-out, 1, 235, 185, 210, 50, 0, 135, 193, 27, 25, timed-out"
    assert parse_classify(timed_out) == ("unresolved", 0.001, 235)
    with pytest.raises(ValueError, match="no result line"):
        parse_classify("[error] Error parsing deal file: Error in JSON doc: Incorrect number of tableau piles")


def test_canfield_strict_moves_no_pile_while_a_space_is_open() -> None:
    stock = [rank + suit for rank in "56789TJQK" for suit in "CDHS" if rank + suit not in {"6S", "5H", "7D"}]
    lines = ["canfield", "R:", "F: 4C 4D 4H 4S", "B: A", "1: 6S", "2: 5H", "3: 7D", "4:", "W:", f"S: {' '.join(stock)}",
             "P: 1"]
    game = Game.from_text("\n".join(lines))
    assert isinstance(game, CanfieldGame)
    position = position_of(game)
    free = moves(position, safe=False)
    strict = strict_spaces(moves)(position, safe=False)
    assert ("p", 1, 0, 1) in free  # 5H onto 6S, as gatebot allows
    assert [step for step in free if step[0] != "p"] == strict
    assert any(step[0] == "W" and step[2] == 3 for step in strict)  # the space still takes the waste's card


def test_solvitaire_prints_the_deal_it_read_as_gatebot_deals_it() -> None:
    states = printed_states(PRINTED_DEAL_4)
    assert states[0] == state_of(canfield(4))
    foundations, piles, reserve, talon = states[0]
    assert foundations == {"9D"}
    assert piles == (("5C",), ("6C",), ("6D",), ("TS",))
    assert reserve[-1] == "AH" and len(reserve) == 13
    assert len(talon) == 34


def test_solvitaire_s_moves_replay_as_gatebot_s() -> None:
    # Solvitaire moves 5C onto 6D, fills the space with the reserve's AH (a position of its own,
    # left out), then turns QS 4D 4H and lays 4H on 5C.
    states = printed_states(PRINTED_DEAL_4)
    assert len(states) == 3
    moves, game = replay(canfield(4), states)
    assert moves == ["23", "d", "w3"]
    assert [str(card) for card in game.piles[2]] == ["6D", "5C", "4H"]


def test_a_position_no_single_move_reaches_is_named() -> None:
    first, _, third = printed_states(PRINTED_DEAL_4)
    with pytest.raises(ValueError, match="Solvitaire's position 1"):
        replay(canfield(4), [first, third])
    with pytest.raises(ValueError, match="not gatebot's"):
        replay(canfield(5), [first, third])


def test_the_table_compares_times_on_the_deals_both_decided() -> None:
    rows = {
        "gatebot": [Row("gatebot", 1, "winnable", 100, 0.2), Row("gatebot", 2, "unresolved", 900, 5.0),
                    Row("gatebot", 3, "lost", 50, 0.8)],
        "Solvitaire": [Row("Solvitaire", 1, "winnable", 1000, 0.1), Row("Solvitaire", 2, "lost", 4000, 2.0),
                       Row("Solvitaire", 3, "unresolved", 5000, 5.0)],
    }
    header, _, ours, theirs = table(rows, {"gatebot": "positions", "Solvitaire": "states"})
    assert "the 1 deals both decided" in header  # deal 1 only
    assert ours == "| gatebot | 1 | 1 | 1 | 66.7% | 0.500 s | 0.200 s | 0.2 s | 175 positions/s |"
    assert theirs == "| Solvitaire | 1 | 1 | 1 | 66.7% | 1.050 s | 0.100 s | 0.1 s | 1,408 states/s |"
