"""Safe automatic play to the foundations."""

from gatebot.rules import Game
from gatebot.rules.autoplay import autoplay, is_safe_up, safe_move
from gatebot.rules.cards import parse_card

from .builders import position


def test_aces_and_twos_are_always_safe() -> None:
    assert is_safe_up(parse_card("AH"), [0, 0, 0, 0])
    assert is_safe_up(parse_card("2S"), [0, 0, 0, 1])


def test_a_card_is_safe_once_both_lower_cards_of_the_other_colour_are_up() -> None:
    # 5♥ could still take 4♣ or 4♠: safe only when both black foundations reach 4.
    assert not is_safe_up(parse_card("5H"), [4, 0, 4, 3])
    assert not is_safe_up(parse_card("5H"), [3, 0, 4, 4])
    assert is_safe_up(parse_card("5H"), [4, 0, 4, 4])


def test_autoplay_plays_only_safe_cards_and_stops() -> None:
    game = position(foundations="2C 2D AH 2S", columns={1: "3C", 2: "3H", 3: "2H", 4: "4C"})
    played = [str(move) for move in autoplay(game)]
    # 3♣ needs red 2s up (2♦ yes, 2♥ no: 2♥ is in column 3), so 2♥ goes first, then 3♣ and 3♥;
    # 4♣ would need both red 3s: 3♦ is not up, so it stays.
    assert sorted(played) == ["1f", "2f", "3f"]
    assert game.to_text().splitlines()[3] == "F: 3C 2D 3H 2S"
    assert safe_move(game) is None


def test_autoplay_on_a_fresh_deal_plays_the_reachable_aces() -> None:
    game = Game.new("gate", deal=1)
    assert [str(move) for move in autoplay(game)] == ["3f"]
