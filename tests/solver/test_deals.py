"""The shipped lists of winnable deals: read from the package, and each deal really winnable."""

import random
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from([*winnable_deals("archway"), 1, 3]), max_size=30), st.integers(0, 2**32))
def test_a_pick_is_a_deal_the_player_has_not_had_else_the_one_they_had_longest_ago(
    played: list[int], seed: int
) -> None:
    listed = winnable_deals("archway")
    pick = pick_winnable("archway", random.Random(seed), played)
    assert pick in listed
    fresh = [deal for deal in listed if deal not in played]
    if fresh:
        assert pick in fresh
    else:
        last_turn = {deal: max(i for i, d in enumerate(played) if d == deal) for deal in listed}
        assert last_turn[pick] == min(last_turn.values())


def test_picks_fed_back_deal_the_whole_list_before_any_repeat() -> None:
    listed = winnable_deals("archway")
    rng = random.Random(7)
    played: list[int] = []
    for _ in range(3 * len(listed)):
        played.append(pick_winnable("archway", rng, played))
    for start in range(len(played) - len(listed) + 1):
        assert len(set(played[start:start + len(listed)])) == len(listed)  # any run of the list's length: no repeat
