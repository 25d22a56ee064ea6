"""The web table's view: only what a player sees, and a layout for every pile of every variant."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.render.replay import frame_steps
from gatebot.render.view import board_view, replay_view
from gatebot.rules import Game
from gatebot.rules.variants import VARIANTS
from tests.rules.builders import EVERY_VARIANT, games_in_play, hidden_places, midgame, with_hidden_cards


def view_bytes(game: Game) -> bytes:
    return json.dumps(board_view(game, version=7, status="active", actions=("undo", "hint")), sort_keys=True).encode()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games_in_play(), seed=st.integers(0, 2**16))
def test_two_deals_that_differ_only_in_hidden_cards_give_the_same_view_byte_for_byte(game: Game, seed: int) -> None:
    places = hidden_places(game)
    order = list(range(len(places)))
    random.Random(seed).shuffle(order)
    same = Game.from_text(game.to_text())  # the same position without its history, as the twin has none
    twin = with_hidden_cards(game, order)
    assert view_bytes(twin) == view_bytes(same)


@pytest.mark.parametrize("variant", ["gate", "little-gate", "canfield"])
def test_a_shuffled_stock_and_reserve_change_nothing_in_the_view_at_the_deal(variant: str) -> None:
    game = Game.from_text(Game.new(variant, deal=11).to_text())
    places = hidden_places(game)
    assert len(places) == game.hidden_count > 0
    reversed_order = list(range(len(places)))[::-1]
    twin = with_hidden_cards(game, reversed_order)
    assert twin.to_text() != game.to_text()  # the hidden cards really differ
    assert view_bytes(twin) == view_bytes(game)


def test_no_hidden_card_is_named_anywhere_in_the_view() -> None:
    # Canfield's reserve under its top and the stock: none of those cards appears, under any name.
    game = Game.new("canfield", deal=3)
    hidden = {game.to_text().splitlines()[line].split()[word] for line, word in hidden_places(game)}
    shown = set(json.dumps(board_view(game, version=1, status="active")).replace('"', " ").replace(",", " ").split())
    assert hidden
    assert not hidden & shown - set(game.to_text(hide_stock=True).split())


@pytest.mark.parametrize(("variant", "options"), EVERY_VARIANT)
def test_every_pile_has_a_spot_and_every_legal_move_leaves_and_reaches_a_pile_of_the_view(
    variant: str, options: tuple[str, ...]
) -> None:
    for deal, steps in ((1, 0), (2, 30), (9, 80)):
        game = midgame(variant, options, deal, steps, seed=deal)
        view = board_view(game, version=1, status="active")
        keys = {pile["key"] for pile in view["piles"]}
        assert len(keys) == len(view["piles"])
        for arrangement in (view["layout"]["wide"], view["layout"]["narrow"]):
            if arrangement is not None:
                assert set(arrangement["spots"]) == keys
        assert [entry["move"] for entry in view["legal"]] == [str(move) for move in game.legal_moves()]
        for entry in view["legal"]:
            assert entry["from"] in keys
            assert entry["to"] is None or entry["to"] in keys
            if entry["to"] is not None:
                target = next(pile for pile in view["piles"] if pile["key"] == entry["to"])
                assert target.get("target") is not None


def test_every_variant_has_a_view() -> None:
    for variant in VARIANTS:
        view = board_view(variant.new(deal=1), version=None, status="active")
        assert view["variant"] == variant.name


def test_a_finished_game_offers_no_move() -> None:
    view = board_view(Game.new("gate", deal=1), version=3, status="won")
    assert view["legal"] == []
    assert view["status"] == "won"


def test_a_replays_frames_are_the_positions_the_animation_draws_each_as_its_player_saw_it() -> None:
    game = Game.new("canfield", deal=7)
    seen = [game.copy()]
    while len(seen) < 30 and game.legal_moves():
        game.play(game.legal_moves()[-1])
        seen.append(game.copy())
    steps = frame_steps(len(seen), 5)
    assert steps[0] == 0 and steps[-1] == len(seen) - 1 and len(steps) == 5
    replay = replay_view(seen, steps, status="resigned")
    assert [frame["step"] for frame in replay["frames"]] == steps and replay["steps"] == len(seen) - 1
    assert "layout" in replay["frames"][0] and all("layout" not in frame for frame in replay["frames"][1:])
    for frame, step in zip(replay["frames"], steps, strict=True):
        assert frame["moves_played"] == len(seen[step].moves) and frame["score"] == seen[step].score
        reserve = next(pile for pile in frame["piles"] if pile["kind"] == "reserve")
        assert len(reserve["cards"]) <= 1  # only the reserve's top card is face up; the rest is a count
    assert all(pile["cards"] == [] for frame in replay["frames"] for pile in frame["piles"] if pile["kind"] == "stock")
