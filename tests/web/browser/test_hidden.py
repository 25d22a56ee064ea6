"""Nothing hidden reaches the browser: Canfield's face-down reserve and its stock, in no page and no answer."""

from __future__ import annotations

import json
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

import gatebot.rules.canfield as canfield
from gatebot.render.view import board_view
from gatebot.rules import Game
from gatebot.rules.deal import shuffled_deck
from tests.web.browser.conftest import Server, wait
from tests.web.browser.table import card, open_table, post, received, record, shown_version

DEAL = 7
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


def twin_deck(deal: int) -> list[int]:
    """Deal ``deal``'s deck with the face-down reserve (under its top) and the stock each in reverse."""
    cards = shuffled_deck(deal)
    under_top, stock_from = canfield.RESERVE_SIZE - 1, canfield.RESERVE_SIZE + 1 + canfield.PILE_COUNT
    return cards[:under_top][::-1] + cards[under_top:stock_from] + cards[stock_from:][::-1]


def seen_by(page: WebDriver, server: Server) -> tuple[str, list[str]]:
    """Deal Canfield deal DEAL, open the page on it, pick up the reserve's top card; the DOM and every answer."""
    open_table(page, server)
    answer = post(page, "/api/new", {"variant": "canfield", "deal": DEAL, "confirm": True})
    assert answer["status"] == 200, answer
    version = answer["body"]["view"]["version"]
    record(page)
    page.get(server.address)
    wait(page).until(lambda d: shown_version(d) == version and len(received(d)) >= 2)
    reserve = next(p for p in answer["body"]["view"]["piles"] if p["kind"] == "reserve")
    card(page, reserve["key"], reserve["cards"][-1]).click()
    token = page.find_element(By.CSS_SELECTOR, 'meta[name="csrf-token"]').get_attribute("content") or "?"
    # Each guest's game has its own stored id (ids are never reused): named alike, like the token.
    ids = re.compile(rf'("game": ?){answer["body"]["view"]["game"]}\b')
    return page.page_source.replace(token, "TOKEN"), [ids.sub(r"\g<1>0", seen) for seen in received(page)]


def hidden_names(game: Game) -> set[str]:
    full, shown = game.to_text().split(), set(game.to_text(hide_stock=True).split())
    return {word for word in full if re.fullmatch(r"[2-9TJQKA][CDHS]", word) and word not in shown}


def test_no_face_down_reserve_card_or_stock_card_is_in_the_page_or_anything_it_received(
    page: WebDriver, server: Server
) -> None:
    dom, answers = seen_by(page, server)
    hidden = hidden_names(Game.new("canfield", deal=DEAL))
    assert len(hidden) == 12 + 34
    words = set(re.findall(r"\b[2-9TJQKA][CDHS]\b", dom + "\n".join(answers)))
    assert words, "the page names its face-up cards"
    assert not hidden & words
    spoken = set(re.findall(r"\b(?:[2-9]|10|ace|jack|queen|king) of (?:clubs|diamonds|hearts|spades)\b", dom))
    assert not {f"{RANKS.get(c[0], c[0])} of {SUITS[c[1]]}" for c in hidden} & spoken
    assert any('"view"' in answer for answer in answers) and all(json.loads(answer) for answer in answers)


def test_two_deals_that_differ_only_in_hidden_cards_give_the_same_page_and_answers(
    page: WebDriver, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    original, twin = Game.new("canfield", deal=DEAL), Game.new("canfield", deal=DEAL)
    monkeypatch.setattr(canfield, "shuffled_deck", twin_deck)
    twin = Game.new("canfield", deal=DEAL)
    monkeypatch.undo()
    assert twin.to_text() != original.to_text()
    assert board_view(twin, version=1, status="active") == board_view(original, version=1, status="active")

    first = seen_by(page, server)
    page.get(server.address + "static/table.css")
    page.delete_all_cookies()
    monkeypatch.setattr(canfield, "shuffled_deck", twin_deck)  # the table deals the twin now
    second = seen_by(page, server)
    assert second[0] == first[0]
    assert second[1] == first[1]
