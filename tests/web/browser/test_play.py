"""Playing on the page as a person does: taps, a drag, and the keyboard."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from gatebot.render.view import board_view
from gatebot.rules import Game
from gatebot.solver.deals import winnable_deals
from gatebot.solver.registry import solve
from gatebot.solver.results import Verdict
from tests.lines import LOST_DEAL_10, NO_WIN_DEAL_1
from tests.web.browser.conftest import Server, wait
from tests.web.browser.table import (
    card,
    deal,
    legal,
    open_table,
    place,
    post,
    shown_after,
    shown_version,
    stored,
    tap_move,
)


def test_a_winnable_gate_deal_played_by_taps_ends_on_the_win_screen(page: WebDriver, server: Server) -> None:
    number = winnable_deals("gate")[0]
    game = Game.new("gate", deal=number)
    solution = solve(game)
    assert solution.verdict is Verdict.WINNABLE
    open_table(page, server)
    version = deal(page, server, "gate", number)["version"]
    for move in solution.line:
        tap_move(page, board_view(game, version=0, status="active"), str(move))
        game.play(move)
        version = shown_after(page, version)
    won = page.find_element(By.ID, "won")
    wait(page).until(lambda d: won.is_displayed())
    assert "You won" in won.text
    assert page.find_element(By.ID, "board").get_attribute("data-status") == "won"
    assert stored(page)["status"] == "won"
    # Said once: "You won!" over the game's name, and the moves and time in the message above it.
    message = page.find_element(By.ID, "message")
    wait(page).until(lambda d: "Win streak: 1." in message.text)
    moves = len(solution.line)
    assert message.text.startswith("That took ") and f" and {moves} moves." in message.text, message.text
    assert page.find_element(By.ID, "won-facts").text == f"Gate, deal {number}."
    body = page.find_element(By.TAG_NAME, "body").text
    # Besides the facts line over the board (the game's state, as a board's header), the moves are said once.
    assert body.count("You won") == 1 and body.count(f"{moves} moves") == 2 and "moves" not in won.text, body


def test_the_new_deal_dialog_says_how_often_the_variant_picked_can_be_won(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    page.find_element(By.ID, "new").click()
    odds = page.find_element(By.ID, "deal-odds")
    wait(page).until(lambda d: odds.is_displayed())
    assert odds.text == "About 99 deals in 100 of Gate can be won."
    Select(page.find_element(By.NAME, "variant")).select_by_value("little-gate")
    assert odds.text == "About 1 deal in 100 of Little Gate can be won."
    Select(page.find_element(By.NAME, "variant")).select_by_value("archway")
    assert odds.text == "About 4 deals in 1,000 of Archway can be won."


def test_the_move_that_leaves_no_move_says_the_game_is_over_once(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    *most, last = LOST_DEAL_10
    view = deal(page, server, "gate", 10)
    for move in most:  # the page's own requests, then the page reloaded on the position
        answer = post(page, "/api/play", {"move": move, "version": view["version"]})
        assert answer["status"] == 200, answer
        view = answer["body"]["view"]
    open_table(page, server)
    page.find_element(By.TAG_NAME, "body").send_keys(last)  # typed in the Move box, as a person does
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page).until(lambda d: stored(d)["status"] == "lost")
    message = page.find_element(By.ID, "message")
    wait(page).until(lambda d: message.text == "Game over: no move left.")
    body = page.find_element(By.TAG_NAME, "body").text
    assert body.count("no move left") == 1 and "No legal move" not in body, body


def test_a_card_dragged_onto_its_place_is_played(page: WebDriver, server: Server) -> None:
    open_table(page, server)
    view = deal(page, server, "gate", 1)  # 7 holds the 2 of spades, which goes on 6's 3 of hearts
    entry = legal(view, "76")
    dragged, target = card(page, "7", entry["card"]), place(page, "6")
    ActionChains(page).click_and_hold(dragged).move_by_offset(10, 10).move_to_element(target).release().perform()
    wait(page).until(lambda d: shown_version(d) == view["version"] + 1)
    after = stored(page)
    assert after["moves_played"] == 1
    assert [pile["cards"] for pile in after["piles"] if pile["key"] == "6"] == [["3H", "2S"]]
    # Let go over no place: the card goes back and nothing is played.
    entry = legal(after, "3f")
    ActionChains(page).click_and_hold(card(page, "3", entry["card"])).move_by_offset(0, 160).release().perform()
    assert stored(page)["moves_played"] == 1
    assert card(page, "3", entry["card"]).is_displayed()


def test_notation_typed_and_enter_plays_u_undoes_and_arrows_and_enter_pick_and_place(
    page: WebDriver, server: Server
) -> None:
    open_table(page, server)
    view = deal(page, server, "gate", 1)
    page.find_element(By.TAG_NAME, "body").send_keys("3f")  # typing anywhere goes to the Move box
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page).until(lambda d: shown_version(d) == view["version"] + 1)
    assert [p["cards"] for p in stored(page)["piles"] if p["key"] == "fd"] == [["AD"]]
    assert page.find_element(By.ID, "move").get_attribute("value") == ""
    # u undoes, once the Move box is left.
    page.switch_to.active_element.send_keys(Keys.ESCAPE)
    page.find_element(By.TAG_NAME, "body").send_keys("u")
    wait(page).until(lambda d: shown_version(d) == view["version"] + 2)
    assert stored(page)["moves_played"] == 0
    # Arrow keys walk to 7's top card; Enter picks it up; Left walks to 6; Enter puts it there.
    card(page, "3", "AD").click()  # focus lands on a card (and picks it up); Escape puts it down
    page.switch_to.active_element.send_keys(Keys.ESCAPE)
    focused = page.switch_to.active_element
    for _ in range(4):
        focused.send_keys(Keys.ARROW_RIGHT)
        focused = page.switch_to.active_element
    assert focused.get_attribute("data-pile") == "7"
    focused.send_keys(Keys.ENTER)
    wait(page).until(lambda d: "chosen" in (card(d, "7", "2S").get_attribute("class") or ""))
    page.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    assert page.switch_to.active_element.get_attribute("data-pile") == "6"
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page).until(lambda d: shown_version(d) == view["version"] + 3)
    assert [p["cards"] for p in stored(page)["piles"] if p["key"] == "6"] == [["3H", "2S"]]


def test_the_move_that_leaves_no_win_is_shown_at_once_and_then_the_end_is_offered(
    page: WebDriver, server: Server
) -> None:
    open_table(page, server)
    view = deal(page, server, "gate", 1)
    *before, last = NO_WIN_DEAL_1
    answer = post(page, "/api/play", {"move": " ".join(before), "version": view["version"]})
    assert answer["status"] == 200, answer
    version = answer["body"]["view"]["version"]
    wait(page).until(lambda d: shown_version(d) == version)  # the live stream brought it
    end = page.find_element(By.ID, "end")
    assert not end.is_displayed()
    assert last == "d"
    # The move's answer is held back until the offer has come by the live stream: "Played d." arriving
    # after the offer must not hide it (the two come by different connections, in either order).
    page.execute_script(HOLD_ANSWERS)
    tap_move(page, answer["body"]["view"], last)
    # The proof comes from a hint worker at the lowest OS priority: on a busy machine it waits its turn.
    wait(page, 30).until(lambda d: end.is_displayed(), "the End button")
    assert shown_version(page) == version + 1
    page.execute_script("window.__release();")
    wait(page).until(lambda d: d.execute_script("return window.__answered === true"), "the held answer")
    assert page.find_element(By.ID, "message").text.startswith("No win is left from here")
    end.click()
    wait(page).until(lambda d: stored(d)["status"] == "resigned", "the game ended")


#: Holds the page's next answer to a move until ``window.__release()``; ``window.__answered`` once it is handled.
HOLD_ANSWERS = """
const fetched = window.fetch;
let release;
const released = new Promise((resolve) => { release = resolve; });
window.__release = release;
window.fetch = async (...args) => {
  const response = await fetched(...args);
  if (String(args[0]).includes("api/play")) {
    await released;
    setTimeout(() => { window.__answered = true; }, 0);
  }
  return response;
};
"""
