"""Numbered deals (docs/rules.md#deal-numbers) and the opening layout."""

import pytest

from gatebot.rules import DealNumberError, Game
from gatebot.rules.cards import CARD_TEXT
from gatebot.rules.deal import MAX_DEAL, shuffled_deck

# The Microsoft FreeCell deals 1 and 617, as published with the algorithm (row by row).
MS_DEAL_1 = (
    "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C "
    "TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
).split()
MS_DEAL_617 = (
    "7D AD 5C 3S 5S 8C 2D AH TD 7S QD AC 6D 8H AS KH TH QC 3H 9D 6S 8D 3D TC KD 5H "
    "9S 3C 8S 7H 4D JS 4C QS 9C 9H 7C 6H 2C 2S 4S TS 2H 5D JC 6C JH QH JD KS KC 4H"
).split()


def dealt(number: int) -> list[str]:
    return [CARD_TEXT[c] for c in shuffled_deck(number)]


def test_deal_1_starts_as_rules_md_says() -> None:
    assert dealt(1)[:18] == "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS".split()


@pytest.mark.parametrize(("number", "expected"), [(1, MS_DEAL_1), (617, MS_DEAL_617)])
def test_deals_match_the_published_freecell_deals(number: int, expected: list[str]) -> None:
    assert dealt(number) == expected


def test_deal_1_layout_matches_rules_md() -> None:
    lines = Game.new("gate", deal=1).to_text().splitlines()
    assert lines[0] == "gate"
    assert lines[1] == "L: JD 9H 5D 7C KD"
    assert lines[2] == "R: 2D JC 7H 5H KC"
    assert lines[3] == "F: - - - -"
    assert lines[4] == "1: 9S"
    assert lines[4:12] == [f"{i + 1}: {card}" for i, card in enumerate(MS_DEAL_1[10:18])]
    assert lines[12] == "W:"
    assert lines[13] == "S: " + " ".join(MS_DEAL_1[18:])
    assert lines[13].startswith("S: 9D QD JS")


def test_little_gate_has_four_columns_and_a_stock_of_38() -> None:
    game = Game.new("little-gate", deal=1)
    lines = game.to_text().splitlines()
    assert lines[0] == "little-gate"
    assert [line.split(":")[0] for line in lines[1:]] == ["L", "R", "F", "1", "2", "3", "4", "W", "S"]
    assert lines[4:8] == [f"{i + 1}: {card}" for i, card in enumerate(MS_DEAL_1[10:14])]
    assert len(lines[-1].split()) - 1 == 38
    assert game.stock_count == 38


@pytest.mark.parametrize("number", [1, 2, 11982, 1_000_000, MAX_DEAL])
def test_every_deal_is_a_permutation_of_the_deck(number: int) -> None:
    assert sorted(shuffled_deck(number)) == list(range(52))


def test_different_numbers_give_different_deals() -> None:
    deals = {tuple(shuffled_deck(n)) for n in range(1, 301)}
    assert len(deals) == 300


@pytest.mark.parametrize("number", [0, -1, MAX_DEAL + 1])
def test_deal_numbers_out_of_range_are_refused(number: int) -> None:
    with pytest.raises(DealNumberError, match="1 to 4294967295"):
        Game.new("gate", deal=number)
