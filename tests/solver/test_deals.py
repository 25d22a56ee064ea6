"""The shipped lists of winnable deals: read from the package, and each deal really winnable."""

import random
from importlib import resources

import pytest

from gatebot.rules import MAX_DEAL, Game
from gatebot.solver import Verdict, registry
from gatebot.solver.deals import list_name, parse_deal_list, pick_winnable, winnable_deals


def test_a_list_is_deal_numbers_with_comments_and_blank_lines() -> None:
    text = "# made by a script\n\n12\n7  # a comment\n12\n  3\n"
    assert parse_deal_list(text) == (12, 7, 3)
    with pytest.raises(ValueError, match="line 2"):
        parse_deal_list("1\nseven\n")
    with pytest.raises(ValueError, match="line 1"):
        parse_deal_list("0\n")


@pytest.mark.parametrize("variant", ["gate", "little-gate", "canfield", "archway"])
def test_each_variant_ships_a_list(variant: str) -> None:
    shipped = resources.files("gatebot.solver").joinpath("data", list_name(variant))
    assert shipped.is_file()
    deals = winnable_deals(variant)
    assert deals and all(1 <= deal <= MAX_DEAL for deal in deals)
    assert len(set(deals)) == len(deals)


def test_the_gate_list_holds_most_deals() -> None:
    assert len(winnable_deals("gate")) >= 900  # Gate is winnable far more often than not


@pytest.mark.parametrize("variant", ["gate", "little-gate", "canfield", "archway"])
def test_listed_deals_are_winnable(variant: str) -> None:
    deals = winnable_deals(variant)
    for deal in random.Random(1).sample(deals, min(3, len(deals))):
        game = Game.new(variant, deal=deal)
        found = registry.solve(game, max_nodes=2_000_000, max_seconds=60)
        assert found.verdict is Verdict.WINNABLE, deal
        for move in found.line:
            game.play(move)
        assert game.is_won, deal


def test_a_pick_is_a_listed_deal_and_follows_the_generator() -> None:
    picks = {pick_winnable("gate", random.Random(seed)) for seed in range(20)}
    assert picks <= set(winnable_deals("gate")) and len(picks) > 1
    assert pick_winnable("gate", random.Random(4)) == pick_winnable("gate", random.Random(4))


def test_a_variant_without_a_list_has_no_winnable_deals() -> None:
    assert winnable_deals("spider") == ()
    with pytest.raises(LookupError, match="spider"):
        pick_winnable("spider", random.Random())
