"""The page's board module, run by Node on a stand-in DOM: taps make moves, cards have names, a phone fits the board.

Node is not a dependency of gatebot: without it these tests skip. The views are the server's own
(:func:`gatebot.render.view.board_view`), so the page is tested against what it is really sent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from gatebot.render.view import board_view
from gatebot.rules import Game
from tests.rules.builders import midgame

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "gatebot" / "web" / "static" / "board.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="Node is not installed: the page's module isn't run")


def run_board(game: Game, script: list[tuple[str, str]], *, width: int = 390, height: int = 844) -> dict:
    view = board_view(game, version=1, status="active", actions=("undo", "hint"))
    given = {"module": BOARD.as_uri(), "view": view, "width": width, "height": height, "script": script}
    done = subprocess.run([NODE or "node", str(Path(__file__).with_name("board_harness.mjs"))],
                          input=json.dumps(given), capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout)


def test_tapping_a_card_then_its_foundation_sends_the_move_in_notation() -> None:
    game = Game.new("gate", deal=5)  # the ace of spades tops the right gatepost
    result = run_board(game, [("tap", "ace of spades, right gatepost, top card"), ("tap", "spades foundation, empty")])
    picked, placed = result["steps"]
    assert picked["moves"] == []
    assert any("lit" in slot["classes"] and slot["pile"] == "fs" for slot in picked["slots"])
    assert placed["moves"] == ["rf"]


def test_a_card_with_no_move_says_so_and_sends_nothing() -> None:
    game = Game.new("gate", deal=5)
    result = run_board(game, [("tap", "king of hearts, column 2, top card")])
    assert result["last"]["moves"] == []
    assert "no move" in result["last"]["said"][-1]


def test_a_double_tap_sends_a_card_home_and_a_tap_on_the_stock_draws() -> None:
    game = Game.new("gate", deal=5)
    label = "ace of spades, right gatepost, top card"
    assert run_board(game, [("tap", label), ("tap", label)])["last"]["moves"] == ["rf"]
    assert run_board(game, [("tap", "the stock, 34 cards: draw")])["last"]["moves"] == ["d"]


def test_every_face_up_card_is_a_named_button_and_no_hidden_card_is_drawn() -> None:
    game = Game.new("canfield", deal=3)
    view = board_view(game, version=1, status="active")
    shown = sum(len(pile["cards"]) for pile in view["piles"])
    cards = run_board(game, [])["last"]["cards"]
    assert len(cards) == shown
    assert all(card["label"] and ", " in card["label"] for card in cards)
    assert any(card["label"].endswith("the reserve, top card") for card in cards)


@pytest.mark.parametrize(("deal", "steps"), [(5, 0), (8, 60), (21, 120)])
def test_on_a_phone_gates_whole_board_fits_with_cards_at_least_40_px_wide(deal: int, steps: int) -> None:
    game = midgame("gate", (), deal, steps, seed=deal)
    last = run_board(game, [], width=390 - 12, height=844)["last"]
    assert min(card["width"] for card in last["cards"]) >= 40
    assert last["height"] <= 844 - 40 - 220  # room left for the header, the message and the buttons


@pytest.mark.parametrize("variant", ["little-gate", "canfield", "archway"])
def test_every_variant_is_laid_out_on_a_phone_with_cards_at_least_40_px_wide(variant: str) -> None:
    last = run_board(Game.new(variant, deal=4), [], width=390 - 12)["last"]
    assert last["cards"] and min(card["width"] for card in last["cards"]) >= 40
