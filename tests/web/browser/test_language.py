"""The page in the reader's language: a German browser gets German labels and German spoken cards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.web.browser.conftest import Server, launch, quit_browser, wait
from tests.web.browser.table import card, deal, message, open_table, tap

#: German names as a German player says them, written out here (not taken from the catalogue under test).
SUITS = {"C": "Kreuz", "D": "Karo", "H": "Herz", "S": "Pik"}
RANKS = {"A": "Ass", "T": "10", "J": "Bube", "Q": "Dame", "K": "König"}


@pytest.fixture(scope="module")
def german() -> Iterator[WebDriver]:
    driver = launch(language="de-DE")
    try:
        yield driver
    finally:
        quit_browser(driver)


def test_a_german_browser_gets_the_page_in_german(german: WebDriver, server: Server) -> None:
    open_table(german, server)
    view = deal(german, server, "gate", 5)
    assert german.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    assert german.title == "gatebot · der Tisch"
    buttons = {key: german.find_element(By.ID, key).text for key in ("undo", "hint", "auto", "new")}
    assert buttons == {"undo": "Zurück", "hint": "Tipp", "auto": "Auto", "new": "Neues Spiel"}
    assert german.find_element(By.ID, "undo").get_attribute("title") == "Zurück (u)"
    assert german.find_element(By.CSS_SELECTOR, 'label[for="move"]').text == "Zug"
    assert german.find_element(By.ID, "facts").text == f"Spiel 5 · 0 Züge · {view['score']}/{view['card_count']}"
    column = next(pile for pile in view["piles"] if pile["key"] == "3")
    top = column["cards"][-1]
    spoken = f"{SUITS[top[1]]} {RANKS.get(top[0], top[0])}, Spalte 3, oberste Karte"
    assert card(german, "3", top).get_attribute("aria-label") == spoken
    tap(german, card(german, "2", "KH"))  # the king of hearts on column 2 goes nowhere
    wait(german).until(lambda d: message(d) == "Herz König kann nicht ziehen.")
    stock = next(pile for pile in view["piles"] if pile["key"] == "s")
    shown = german.find_element(By.CSS_SELECTOR, '[data-pile="s"]').get_attribute("aria-label")
    assert shown == f"Talon, {stock['hidden']} Karten: ziehen"
