"""What a test does on the table's page, as a person would: open it, tap a card and its place, read the board."""

from __future__ import annotations

from typing import Any

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from tests.web.browser.conftest import Server, text_of, wait

#: Runs in the page's own context (Selenium's scripts are not bound by the page's CSP): a change the page
#: itself could send, with its session and CSRF token.
POST = """
const [path, body, done] = arguments;
const token = document.querySelector('meta[name="csrf-token"]').content;
fetch(path, {method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
             body: JSON.stringify(body), credentials: "same-origin"})
  .then(async (r) => done({status: r.status, body: await r.json()}), (e) => done({status: 0, body: String(e)}));
"""
GET = """
const [path, done] = arguments;
fetch(path, {credentials: "same-origin"}).then(async (r) => done({status: r.status, body: await r.json()}));
"""


def shown_version(driver: WebDriver) -> int | None:
    value = driver.find_element(By.ID, "board").get_attribute("data-version")
    return int(value) if value else None


def shown_after(driver: WebDriver, version: int, seconds: float = 10) -> int:
    """Wait until the page shows a board newer than ``version`` (told by the page itself, at once); its version."""
    shown: int | None = driver.execute_async_script(SHOWN_AFTER, version, seconds * 1000)
    assert shown is not None, f"the page still shows version {version} after {seconds} s"
    return shown


#: Answers with the board's version as soon as it is above arguments[0], or null after arguments[1] ms.
SHOWN_AFTER = """
const [after, within, done] = arguments;
const board = document.getElementById("board");
const now = () => Number(board.dataset.version || 0);
if (now() > after) return done(now());
const watch = new MutationObserver(() => {
  if (now() > after) { watch.disconnect(); clearTimeout(timer); done(now()); }
});
const timer = setTimeout(() => { watch.disconnect(); done(null); }, within);
watch.observe(board, { attributes: true, attributeFilter: ["data-version"] });
"""


def open_table(driver: WebDriver, server: Server) -> int:
    """Open the page and wait for its board; the version it shows."""
    driver.get(server.address)
    wait(driver).until(lambda d: shown_version(d) is not None)
    version = shown_version(driver)
    assert version is not None
    return version


def post(driver: WebDriver, path: str, body: dict[str, Any]) -> dict[str, Any]:
    return driver.execute_async_script(POST, path, body)  # type: ignore[no-any-return]


def get(driver: WebDriver, path: str) -> dict[str, Any]:
    return driver.execute_async_script(GET, path)  # type: ignore[no-any-return]


def deal(driver: WebDriver, server: Server, variant: str = "gate", number: int = 1) -> dict[str, Any]:
    """Deal a fixed game (the page's own request), then reload the page on it; the view."""
    answer = post(driver, "/api/new", {"variant": variant, "deal": number, "confirm": True})
    assert answer["status"] == 200, answer
    view: dict[str, Any] = answer["body"]["view"]
    driver.get(server.address)
    wait(driver).until(lambda d: shown_version(d) == view["version"])
    return view


def stored(driver: WebDriver) -> dict[str, Any]:
    """The guest's game as the server has it (``GET /api/game``)."""
    answer = get(driver, "/api/game")
    assert answer["status"] == 200, answer
    return answer["body"]["view"]  # type: ignore[no-any-return]


def card(driver: WebDriver, pile: str, name: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f'.card[data-pile="{pile}"][data-card="{name}"]')


def place(driver: WebDriver, pile: str) -> WebElement:
    """Where a card is put on ``pile``: its top card, or the empty place itself (found in one look at the page)."""
    found: WebElement = driver.execute_script(
        """
        const pile = arguments[0];
        const cards = [...document.querySelectorAll(`.card[data-pile="${pile}"][data-card]`)];
        if (cards.length) return cards.reduce((a, b) => (+(b.dataset.index || 0) > +(a.dataset.index || 0) ? b : a));
        return document.querySelector(`[data-pile="${pile}"]:not([data-card])`);
        """,
        pile,
    )
    assert found is not None, f"no place for pile {pile} on the page"
    return found


def tap(driver: WebDriver, element: WebElement) -> None:
    """A tap on the part of ``element`` a person sees: its top edge (a fanned card is covered below it)."""
    height = element.rect["height"]
    ActionChains(driver, duration=0).move_to_element_with_offset(element, 0, -height / 2 + 6).click().perform()


def legal(view: dict[str, Any], move: str) -> dict[str, Any]:
    found = [entry for entry in view["legal"] if entry["move"] == move]
    assert found, f"{move} is not among the page's legal moves {[e['move'] for e in view['legal']]}"
    return found[0]


def tap_move(driver: WebDriver, view: dict[str, Any], move: str) -> None:
    """Play ``move`` by taps: the stock for a draw, else the card and then where it goes (one look, one gesture)."""
    entry = legal(view, move)
    if entry["to"] is None:
        tap(driver, driver.find_element(By.CSS_SELECTOR, f'[data-pile="{entry["from"]}"]:not([data-card])'))
        return
    found = driver.execute_script(TAP_MOVE, entry["from"], entry["card"], entry["to"])
    assert found is not None, f"{move}: its card or its place is not on the page"
    picked, picked_height, target, target_height, on_card = found
    chain = ActionChains(driver, duration=0).move_to_element_with_offset(picked, 0, -picked_height / 2 + 6).click()
    if not on_card:  # an empty place is drawn anew when a card is picked up
        chain.perform()
        tap(driver, place(driver, entry["to"]))
        return
    try:
        chain.move_to_element_with_offset(target, 0, -target_height / 2 + 6).click().perform()
    except StaleElementReferenceException:
        # The board was drawn anew between the look and the gesture (a live update came in): look again.
        _tap_move_slowly(driver, entry)


def _tap_move_slowly(driver: WebDriver, entry: dict[str, Any]) -> None:
    """The card, then its place, each found afresh just before its tap, the card only if it isn't picked up."""
    for _ in range(5):
        try:
            if driver.find_elements(By.CSS_SELECTOR, f'.card[data-pile="{entry["to"]}"][data-card="{entry["card"]}"]'):
                return  # the gesture that went stale had played it after all: the card is where it was going
            picked = driver.execute_script(CHOSEN, entry["from"], entry["card"])
            if picked is None:
                found = driver.execute_script(TAP_MOVE, entry["from"], entry["card"], entry["to"])
                assert found is not None, f"{entry['move']}: its card or its place is not on the page"
                tap(driver, found[0])
            found = driver.execute_script(TAP_MOVE, entry["from"], entry["card"], entry["to"])
            assert found is not None, f"{entry['move']}: its card or its place is not on the page"
            tap(driver, found[2])
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{entry['move']}: the board kept being drawn anew under the taps")


#: The card picked up (drawn with the class ``chosen``), or null.
CHOSEN = """
const [from, name] = arguments;
return document.querySelector(`.card.chosen[data-pile="${from}"][data-card="${name}"]`);
"""


#: The card a move takes and the place it goes (its pile's top card, or the empty place), their heights, and
#: whether that place is a card.
TAP_MOVE = """
const [from, name, to] = arguments;
const picked = document.querySelector(`.card[data-pile="${from}"][data-card="${name}"]`);
const cards = [...document.querySelectorAll(`.card[data-pile="${to}"][data-card]`)];
const target = cards.length
  ? cards.reduce((a, b) => (+(b.dataset.index || 0) > +(a.dataset.index || 0) ? b : a))
  : document.querySelector(`[data-pile="${to}"]:not([data-card])`);
if (!picked || !target) return null;
return [picked, picked.getBoundingClientRect().height, target, target.getBoundingClientRect().height,
        cards.length > 0];
"""


#: Installed before the page's own scripts (through the DevTools protocol, outside the page's CSP): keeps
#: every fetch answer and every server-sent event the page receives, and each live stream it opens.
RECORDER = """
if (!window.__seen) {
  window.__seen = [];
  window.__streams = [];
  const fetched = window.fetch;
  window.fetch = async (...args) => {
    const response = await fetched(...args);
    response.clone().text().then((text) => window.__seen.push(text));
    return response;
  };
  const Stream = window.EventSource;
  window.EventSource = class extends Stream {
    constructor(...args) {
      super(...args);
      window.__streams.push(this);
      this.addEventListener("view", (event) => window.__seen.push(event.data));
    }
  };
}
"""


def record(driver: WebDriver) -> None:
    """From the next page loaded in this window on: keep what the page receives (see RECORDER)."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})


def received(driver: WebDriver) -> list[str]:
    return driver.execute_script("return window.__seen.slice()")  # type: ignore[no-any-return]


def cut_live_stream(driver: WebDriver) -> None:
    """Close the page's live stream, as a sleeping phone or a dropped connection would."""
    driver.execute_script("window.__streams.forEach((s) => s.close())")


def message(driver: WebDriver) -> str:
    return text_of(driver, "message")
