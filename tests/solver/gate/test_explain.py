"""The one-sentence reason that comes with every hint: what it names, and what it never may."""

from __future__ import annotations

import random
import re

import pytest

from gatebot.rules import Game, GateGame, Move
from gatebot.rules.cards import CARD_PRETTY
from gatebot.solver.gate.explain import explain
from tests.render.playouts import random_playout
from tests.rules.builders import position

PRETTY_CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


def say(game: Game, token: str) -> str:
    assert isinstance(game, GateGame)
    move = Move.from_text(token)
    assert move in game.legal_moves(), f"{token} is not legal in\n{game.to_text()}"
    return explain(game, move)


def visible_cards(game: GateGame) -> set[str]:
    """Cards the player can see: every pile on the table and the foundation tops."""
    piles = [*game.reserves, *game.columns, game.waste]
    seen = {card.pretty for pile in piles for card in pile}
    seen.update(top.pretty for top in game.foundations if top is not None)
    return seen


# -- emptying a column ----------------------------------------------------------------


def test_emptying_a_column_pulls_the_left_gatepost_on_a_tie_and_names_what_it_uncovers():
    game = position(left="9C AS KD", right="2C 3C QS", columns={3: "7C", 5: "8H"})
    text = say(game, "35")
    assert text.startswith("Play 7♣ from column 3 onto 8♥: it empties column 3")
    assert "pulls the K♦ off the left gatepost" in text
    assert "uncovers the A♠ there, which can then go up" in text


def test_the_deeper_gatepost_fills_an_emptied_column():
    game = position(left="9C KD", right="2C 3C QS", columns={3: "7C", 5: "8H"})
    text = say(game, "35")
    assert "pulls the Q♠ off the right gatepost" in text
    assert "uncovers the 3♣ there" in text
    assert "K♦" not in text


def test_a_gateposts_last_card_is_said_to_be_its_last():
    game = position(left="KD", columns={3: "7C", 5: "8H"})
    text = say(game, "35")
    assert "pulls the K♦ off the left gatepost, its last card" in text


def test_once_the_gateposts_are_gone_the_waste_top_fills_and_the_card_beneath_shows():
    game = position(columns={3: "7C", 5: "8H"}, waste="4C QH", stock="2D")
    text = say(game, "35")
    assert "empties column 3, which takes the Q♥ from the waste" in text
    assert "uncovers the 4♣ on the waste" in text
    assert "gatepost" not in text


def test_with_nothing_to_fill_it_the_column_stays_a_free_space_and_a_waiting_king_is_named():
    game = position(columns={3: "7C", 5: "8H", 6: "3D KS"})
    text = say(game, "35")
    assert "empties column 3, leaving a free space for the K♠ in column 6" in text


def test_a_free_space_with_no_king_waiting_is_just_a_free_space():
    game = position(columns={3: "7C", 5: "8H"})
    text = say(game, "35")
    assert text.endswith("it empties column 3, leaving a free space")


def test_stock_fill_says_the_next_stock_card_fills_without_naming_it():
    listed = position(columns={3: "7C", 5: "8H"}, stock="2D 9S")
    text = "\n".join(["gate stock-fill", *listed.to_text().splitlines()[1:]])
    game = Game.from_text(text)
    sentence = say(game, "35")
    assert "empties column 3, which the next stock card fills" in sentence
    assert "2♦" not in sentence
    assert PRETTY_CARD.findall(sentence) == ["7♣", "8♥"]


# -- uncovering a card ------------------------------------------------------------------


def test_an_uncovered_card_that_can_go_up_says_so():
    game = position(foundations="- - AH -", columns={4: "2H 9C", 6: "TH"})
    text = say(game, "46")
    assert text == "Play 9♣ from column 4 onto 10♥: it uncovers the 2♥, which can then go up"


def test_an_uncovered_card_that_can_go_onto_another_card_names_that_card():
    game = position(columns={1: "6D JC", 2: "QH", 7: "7S"})
    text = say(game, "12")
    assert "uncovers the 6♦, which can then go onto 7♠" in text


def test_an_uncovered_card_ready_for_a_card_waiting_on_the_waste():
    game = position(columns={1: "5S JC", 2: "QH"}, waste="4D")
    text = say(game, "12")
    assert "uncovers the 5♠, ready for the 4♦ from the waste" in text


def test_a_run_moves_as_a_unit_and_the_longer_run_is_said():
    game = position(columns={1: "KC", 2: "3S 9D 8C 7H", 4: "JD TC"})
    text = say(game, "24")
    assert text.startswith("Move 9♦ and the 2 cards on it from column 2 onto 10♣")
    assert "uncovers the 3♠" in text
    assert "builds a 5-card run down from the J♦" in text


# -- gateposts and the waste ----------------------------------------------------------


def test_playing_from_a_gatepost_shows_the_card_beneath():
    game = position(left="QC KD", right="5S 9D", columns={2: "TC"})
    text = say(game, "r2")
    assert text.startswith("Play 9♦ from the right gatepost onto 10♣")
    assert "shows the 5♠ on the right gatepost" in text


def test_clearing_one_gatepost_says_the_other_fills_from_now_on():
    game = position(left="9D", right="QC KD", columns={2: "TC"})
    text = say(game, "l2")
    assert "clears the left gatepost, so the right one fills emptied columns" in text


def test_clearing_the_last_gatepost_says_the_waste_fills_from_now_on():
    game = position(left="9D", columns={2: "TC"}, waste="5H")
    text = say(game, "l2")
    assert "clears the last gatepost, so emptied columns take the waste's top card" in text


def test_playing_from_the_waste_keeps_it_from_being_buried_and_shows_the_card_beneath():
    game = position(columns={2: "TC", 5: "KS"}, waste="4C 9D", stock="2D")
    text = say(game, "w2")
    assert text.startswith("Play 9♦ from the waste onto 10♣")
    assert "saves the 9♦ from being buried by the next draw" in text
    assert "shows the 4♣ on the waste" in text


def test_a_waste_card_beneath_that_can_go_up_comes_first():
    game = position(columns={2: "TC"}, waste="AS 9D", stock="2D")
    text = say(game, "w2")
    assert "it shows the A♠ on the waste, which can then go up" in text


# -- the foundation -------------------------------------------------------------------


def test_an_ace_up_from_the_waste_lets_the_two_follow():
    game = position(columns={5: "2S"}, waste="4C AS", stock="2D")
    text = say(game, "wf")
    assert text.startswith("Put A♠ up from the waste")
    assert "now 2♠ can follow from column 5" in text


def test_a_safe_card_up_says_no_card_needs_it():
    game = position(foundations="2C - 2H 2S", columns={4: "9D 3H"})
    text = say(game, "4f")
    assert text.startswith("Put 3♥ up from column 4")
    assert "no card still needs the 3♥ to build on" in text


def test_an_unsafe_card_up_is_not_called_safe():
    game = position(foundations="- - 2H -", columns={4: "9D 3H"})
    text = say(game, "4f")
    assert "no card still needs" not in text
    assert "uncovers the 9♦" in text


# -- free spaces ----------------------------------------------------------------------


def test_a_move_into_a_free_space_names_it_and_what_it_unblocks():
    game = position(foundations="- - AH -", columns={1: "KS", 2: "2H QD", 3: "9S"})
    text = say(game, "25")
    assert text.startswith("Play Q♦ from column 2 into the free space in column 5")
    assert "uncovers the 2♥, which can then go up" in text


def test_a_king_into_a_free_space_says_only_a_free_space_takes_it():
    game = position(columns={1: "5H KS", 2: "QD"})
    text = say(game, "13")
    assert "uncovers the 5♥" in text
    assert "only a free space can take a King" in text


def test_a_king_that_was_alone_in_its_column_is_not_said_to_need_the_free_space():
    game = position(columns={1: "KS", 2: "QD"})
    text = say(game, "13")
    assert "empties column 1, leaving a free space" in text
    assert "only a free space" not in text


def test_a_card_from_a_gatepost_lets_a_waiting_waste_card_follow_onto_it():
    game = position(left="QC 7C", columns={2: "8H"}, waste="6D", stock="2D")
    text = say(game, "l2")
    assert "shows the Q♣ on the left gatepost" in text
    assert "the 6♦ from the waste can then go onto the 7♣" in text


def test_part_of_a_run_into_a_free_space_counts_the_cards_it_moves():
    game = position(columns={1: "2H KS QH JC"})
    text = say(game, "12:2")
    assert text.startswith("Move Q♥ and the card on it from column 1 into the free space in column 2")
    assert "uncovers the K♠" in text


# -- draws ----------------------------------------------------------------------------


def test_a_draw_with_nothing_else_to_do_says_so_without_naming_a_stock_card():
    columns = dict(enumerate(["KS", "KC", "QS", "QC", "JS", "JC", "TS", "TC"], start=1))
    game = position(columns=columns, waste="9S", stock="2D 9C")
    assert [str(move) for move in game.legal_moves()] == ["d"]
    text = say(game, "d")
    assert text.startswith("Turn the next stock card")
    assert "nothing on the table can move" in text
    assert "9♠ on the waste has nowhere to go" in text
    assert "2♦" not in text


def test_the_last_stock_card_is_called_the_last():
    game = position(columns={1: "KS"}, rest="waste", stock="2D")
    text = say(game, "d")
    assert text.startswith("Turn the last stock card")


def test_a_draw_while_moves_remain_says_they_can_wait():
    game = position(columns={1: "KS", 2: "QH", 3: "7C", 4: "8D"}, stock="2D")
    text = say(game, "d")
    assert "the moves on the table can wait" in text


# -- what the sentence may know -------------------------------------------------------

TINY_STOCK = position(columns={3: "7C", 5: "8H", 6: "AS"}, waste="4C 9D", stock="2D 9S")


def _variants(text: str) -> list[GateGame]:
    """The same position with its stock listed in order, reversed, and hidden."""
    lines = text.splitlines()
    stock = lines[-1].split()[1:]
    shuffled = stock[:]
    random.Random(7).shuffle(shuffled)
    games = [
        Game.from_text("\n".join([*lines[:-1], "S: " + " ".join(order)]))
        for order in (stock, stock[::-1], shuffled)
    ]
    games.append(Game.from_text("\n".join([*lines[:-1], f"S: ?{len(stock)}"])))
    assert all(isinstance(game, GateGame) for game in games)
    return games  # type: ignore[return-value]


@pytest.mark.parametrize(
    "text",
    [
        Game.new("gate", deal=1).to_text(),
        Game.new("gate", deal=617).to_text(),
        Game.new("gate", deal=617, options=("stock-fill",)).to_text(),
        "\n".join(["gate stock-fill", *position(columns={3: "7C", 5: "8H"}).to_text().splitlines()[1:]]),
        TINY_STOCK.to_text(),
    ],
    ids=["deal-1", "deal-617", "deal-617-stock-fill", "stock-fill-empty-waste", "small"],
)
def test_the_sentence_does_not_depend_on_the_stock_order(text):
    games = _variants(text)
    first, *others = games
    assert first.stock_known and not others[-1].stock_known
    for move in first.legal_moves():
        said = explain(first, move)
        for other in others:
            assert explain(other, move) == said, f"{move} in\n{other.to_text()}"


def test_explaining_leaves_the_game_untouched():
    game = Game.new("gate", deal=617)
    assert isinstance(game, GateGame)
    before = game.to_text()
    for move in game.legal_moves():
        explain(game, move)
    assert game.to_text() == before
    assert game.moves == ()


@pytest.mark.parametrize(
    ("variant", "options", "seed"),
    [
        ("gate", (), 1),
        ("gate", (), 4),
        ("gate", ("stock-fill",), 2),
        ("gate", ("single-moves",), 5),
        ("little-gate", ("single-moves",), 3),
    ],
)
def test_every_legal_move_of_random_playouts_gets_a_short_honest_sentence(variant, options, seed):
    rng = random.Random(seed)
    for game in random_playout(rng, variant, options, moves=150):
        visible = Game.from_text(game.to_text(hide_stock=True))
        assert isinstance(visible, GateGame)
        seen = visible_cards(visible)
        for move in visible.legal_moves():
            text = explain(visible, move)
            assert text and "\n" not in text, move
            assert len(text) < 200, text
            assert text[0].isupper() and ": " in text, text
            hidden = set(PRETTY_CARD.findall(text)) - seen
            assert not hidden, f"{text!r} names {hidden}, not on the table in\n{visible.to_text()}"


def test_every_card_name_form_is_recognised_by_the_visibility_check():
    assert set(PRETTY_CARD.findall(" ".join(CARD_PRETTY))) == set(CARD_PRETTY)
