"""The board on the page: what a tap, a double tap and the stock do, the cards' names, and a phone's screen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from gatebot.render.view import board_view
from gatebot.rules import Game
from tests.rules.builders import midgame
from tests.web.browser.conftest import Server, wait
from tests.web.browser.table import card, deal, message, open_table, post, shown_version, stored, tap

PHONE = (390, 844)


@pytest.fixture
def phone(page: WebDriver) -> Iterator[WebDriver]:
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                         {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True})
    yield page
    page.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_card_with_no_move_says_so_and_nothing_is_played(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    view = deal(page, server, "gate", 5)
    tap(page, card(page, "2", "KH"))  # the king of hearts on column 2 goes nowhere
    wait(page).until(lambda d: "no move" in message(d))
    assert message(page) == "king of hearts has no move."
    assert stored(page)["version"] == view["version"] and shown_version(page) == view["version"]
    assert not page.find_elements(By.CSS_SELECTOR, ".chosen, .lit")


def test_a_double_tap_sends_a_card_home_and_a_tap_on_the_stock_draws(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    view = deal(page, server, "gate", 5)  # the ace of spades tops the right gatepost
    ActionChains(page).double_click(card(page, "r", "AS")).perform()
    wait(page).until(lambda d: shown_version(d) == view["version"] + 1)
    assert [p["cards"] for p in stored(page)["piles"] if p["key"] == "fs"] == [["AS"]]
    tap(page, page.find_element(By.CSS_SELECTOR, '[data-pile="s"]'))
    wait(page).until(lambda d: shown_version(d) == view["version"] + 2)
    after = stored(page)
    assert after["moves_played"] == 2 and [p["cards"] for p in after["piles"] if p["key"] == "w"] != [[]]
    # Each pile has one place on the board, however often it was drawn (the stock is drawn as a card's back).
    places = [el.get_attribute("data-pile")
              for el in page.find_elements(By.CSS_SELECTOR, "[data-pile]:not([data-card])")]
    assert sorted(places) == sorted(pile["key"] for pile in after["piles"])


def test_h_asks_for_a_hint_shown_as_the_card_picked_up_and_its_move_as_code(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    view = deal(page, server, "gate", 1)
    page.find_element(By.TAG_NAME, "body").send_keys("h")
    wait(page).until(lambda d: message(d).startswith("Hint"))
    said = page.find_element(By.ID, "message")
    assert "`" not in said.text
    moves = [code.text for code in said.find_elements(By.TAG_NAME, "code")]
    assert len(moves) == 1 and moves[0] in [entry["move"] for entry in view["legal"]]
    assert page.find_elements(By.CSS_SELECTOR, ".card.chosen")
    assert stored(page)["version"] == view["version"]  # nothing played


def test_every_face_up_card_is_a_named_button_and_each_hidden_one_only_a_count(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    deal(page, server, "canfield", 3)
    view = board_view(Game.new("canfield", deal=3), version=1, status="active")
    cards = page.find_elements(By.CSS_SELECTOR, ".card[data-card]")
    assert len(cards) == sum(len(pile["cards"]) for pile in view["piles"])
    assert all(c.tag_name == "button" and ", " in (c.get_attribute("aria-label") or "") for c in cards)
    reserve = card(page, "r", next(p for p in view["piles"] if p["key"] == "r")["cards"][-1])
    assert (reserve.get_attribute("aria-label") or "").endswith("the reserve, top card")
    stock = page.find_element(By.CSS_SELECTOR, '[data-pile="s"]')
    assert stock.get_attribute("aria-label") == "the stock, 34 cards: draw"


def play_to(page: WebDriver, server: Server, game: Game) -> None:
    """Deal ``game``'s deal on the page and play its moves through the page's own requests."""
    open_table(page, server)
    version = deal(page, server, game.variant, game.deal or 1)["version"]
    moves = [str(move) for move in game.moves]
    for start in range(0, len(moves), 25):
        answer = post(page, "/api/play", {"move": " ".join(moves[start:start + 25]), "version": version})
        assert answer["status"] == 200, answer
        version = answer["body"]["view"]["version"]
    assert stored(page)["moves_played"] == len(moves)
    page.get(server.address)
    wait(page).until(lambda d: shown_version(d) == version)


def assert_fits(page: WebDriver) -> None:
    assert page.execute_script("return [innerWidth, innerHeight]") == list(PHONE)
    widths = [el.rect["width"] for el in page.find_elements(By.CSS_SELECTOR, ".card, .slot")]
    assert widths and min(widths) >= 40, widths
    assert page.execute_script("return document.scrollingElement.scrollHeight") <= PHONE[1]
    assert page.execute_script("return document.scrollingElement.scrollWidth") <= PHONE[0]
    for el in page.find_elements(By.CSS_SELECTOR, ".card, .slot"):
        box = el.rect
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0] and box["y"] + box["height"] <= PHONE[1]


@pytest.mark.parametrize(("deal", "steps"), [(5, 0), (8, 60), (21, 120)])
def test_on_a_phone_gates_whole_board_fits_without_scrolling_with_cards_at_least_40_px_wide(
    phone: WebDriver, server: Server, deal: int, steps: int
) -> None:
    play_to(phone, server, midgame("gate", (), deal, steps, seed=deal))
    assert_fits(phone)


@pytest.mark.parametrize("variant", ["little-gate", "canfield", "archway"])
def test_every_variant_fits_a_phone_with_cards_at_least_40_px_wide(
    phone: WebDriver, server: Server, variant: str
) -> None:
    play_to(phone, server, midgame(variant, (), 4, 40, seed=4))
    assert_fits(phone)
