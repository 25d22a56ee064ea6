"""The page and the stored game in step: moves made elsewhere, an out-of-date page, two guests."""

from __future__ import annotations

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.web.browser.conftest import Server, launch, quit_browser, wait
from tests.web.browser.table import (
    card,
    cut_live_stream,
    deal,
    get,
    message,
    open_table,
    post,
    record,
    shown_version,
    stored,
    tap_move,
)


def test_a_move_made_elsewhere_shows_on_the_open_page_within_a_second(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    view = deal(page, server, "gate", 1)
    guest = server.owner()
    played = server.run(server.service.play(guest, "3f", expected_version=view["version"]))
    assert played.saved
    done = time.monotonic()
    wait(page, 1).until(lambda d: shown_version(d) == played.version, "the move on the page within 1 s")
    assert time.monotonic() - done < 1
    assert card(page, "fd", "AD").is_displayed()


def test_a_move_from_an_out_of_date_tab_is_refused_with_the_board_as_stored(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    view = deal(page, server, "gate", 1)
    first = page.current_window_handle
    page.switch_to.new_window("tab")  # the same guest: the same cookie
    record(page)
    open_table(page, server)
    assert shown_version(page) == view["version"]
    cut_live_stream(page)
    stale = page.current_window_handle
    page.switch_to.window(first)
    tap_move(page, view, "3f")
    wait(page).until(lambda d: shown_version(d) == view["version"] + 1)
    page.switch_to.window(stale)
    assert shown_version(page) == view["version"]  # it heard nothing: out of date
    tap_move(page, view, "76")  # still legal on the board as stored, but this page hasn't seen 3f
    wait(page).until(lambda d: shown_version(d) == view["version"] + 1, "the board as stored")
    said = message(page)
    assert "out of date" in said and "nothing was played" in said and said.count(".") == 1, said
    now = stored(page)
    assert now["moves_played"] == 1 and now["version"] == view["version"] + 1
    assert [p["cards"] for p in now["piles"] if p["key"] == "7"] == [["2S"]]  # 76 was not played
    assert card(page, "fd", "AD").is_displayed() and card(page, "7", "2S").is_displayed()


def test_two_guests_get_their_own_games_and_cannot_reach_each_other(page: WebDriver, server: Server) -> None:
    other = launch()
    try:
        open_table(page, server)
        open_table(other, server)
        mine = deal(page, server, "gate", 1)
        theirs = deal(other, server, "gate", 2)
        their_token = other.find_element(By.CSS_SELECTOR, 'meta[name="csrf-token"]').get_attribute("content")
        assert their_token != page.find_element(By.CSS_SELECTOR, 'meta[name="csrf-token"]').get_attribute("content")
        # My page with their token: refused; their game untouched.
        refused = page.execute_async_script(
            """const [token, version, done] = arguments;
               fetch("/api/play", {method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
                                   body: JSON.stringify({move: "d", version})}).then((r) => done(r.status));""",
            their_token, theirs["version"])
        assert refused == 403
        # A move on my page is mine alone: their page and their stored game stay as they were.
        assert post(page, "/api/play", {"move": "d", "version": mine["version"]})["status"] == 200
        assert stored(page)["deal"] == 1 and stored(page)["moves_played"] == 1
        assert stored(other)["deal"] == 2 and stored(other)["moves_played"] == 0
        assert shown_version(other) == theirs["version"]
        assert get(other, "/api/game")["body"]["view"]["version"] == theirs["version"]
        # Nothing of theirs is in my page: my deal, my session's token only.
        assert page.find_element(By.ID, "facts").text.startswith("deal 1 ")
        assert their_token not in page.page_source
    finally:
        quit_browser(other)
