"""The replay viewer and a challenge's standings in a real browser: stepping, scrubbing, keys, and axe-core's verdict.

A guest wins Gate deal 1 through the page's own requests; the win screen's Replay link opens the
viewer on that game. What each step shows is checked against the rules playing the same line
(the cards home at that step), not against what the server sent.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from gatebot.rules import Game, Move
from gatebot.service import Actor
from gatebot.service.challenges import ChallengeService
from tests.lines import WIN_DEAL_1
from tests.web.browser.conftest import Server, wait
from tests.web.browser.table import open_table, post, shown_version

GUILD = 1180000000000000000


def home_after(steps: int) -> int:
    """How many cards are home after the first ``steps`` moves of the line, as the rules play it."""
    game = Game.new("gate", deal=1)
    for move in WIN_DEAL_1[:steps]:
        game.play(Move.from_text(move))
    return game.score


def shown_home(driver: WebDriver) -> int:
    """The cards home as the board shows them: each foundation's top card is its height (an ace 1, a king 13)."""
    tops = driver.find_elements(By.CSS_SELECTOR, '#board .card[data-pile^="f"][data-card]')
    return sum("A23456789TJQK".index((top.get_attribute("data-card") or "?")[0]) + 1 for top in tops)


def step_shown(driver: WebDriver) -> int:
    version = shown_version(driver)
    assert version is not None
    return version


@pytest.fixture
def won(page: WebDriver, server: Server) -> Iterator[WebDriver]:
    """A guest who has just won Gate deal 1, on the table's win screen."""
    open_table(page, server)
    answer = post(page, "/api/new", {"variant": "gate", "deal": 1, "confirm": True})
    version = answer["body"]["view"]["version"]
    for start in range(0, len(WIN_DEAL_1), 40):
        answer = post(page, "/api/play", {"move": " ".join(WIN_DEAL_1[start:start + 40]), "version": version})
        assert answer["status"] == 200, answer
        version = answer["body"]["view"]["version"]
    page.get(server.address)
    wait(page).until(lambda d: d.find_element(By.ID, "won").is_displayed())
    yield page


def test_the_win_screen_opens_the_replay_which_steps_scrubs_and_plays_with_buttons_and_keys(won: WebDriver) -> None:
    page = won
    page.find_element(By.ID, "replay").click()
    wait(page).until(lambda d: shown_version(d) == 0)
    last = len(WIN_DEAL_1)
    assert page.find_element(By.ID, "step").text == f"Step 0 of {last} · the deal"
    assert shown_home(page) == 0 and page.find_element(By.ID, "back").get_attribute("disabled") is not None
    page.find_element(By.ID, "next").click()
    wait(page).until(lambda d: step_shown(d) == 1)
    assert shown_home(page) == home_after(1) == 1 and "3f" in page.find_element(By.ID, "step").text
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    wait(page).until(lambda d: step_shown(d) == 3)
    body.send_keys(Keys.ARROW_LEFT)
    wait(page).until(lambda d: step_shown(d) == 2)
    # The slider: End goes to the last step (the win), Home back to the deal, an arrow one step.
    scrub = page.find_element(By.ID, "scrub")
    scrub.send_keys(Keys.END)
    wait(page).until(lambda d: step_shown(d) == last)
    assert shown_home(page) == 52 and page.find_element(By.ID, "next").get_attribute("disabled") is not None
    scrub.send_keys(Keys.HOME)
    wait(page).until(lambda d: step_shown(d) == 0)
    scrub.send_keys(Keys.ARROW_RIGHT)
    wait(page).until(lambda d: step_shown(d) == 1)
    # Space plays (the button says Pause) and steps on by itself; Space again pauses where it is.
    page.execute_script("document.activeElement.blur()")
    body.send_keys(Keys.SPACE)
    wait(page).until(lambda d: d.find_element(By.ID, "play").text == "Pause" and step_shown(d) >= 3)
    body.send_keys(Keys.SPACE)
    wait(page).until(lambda d: d.find_element(By.ID, "play").text == "Play")
    paused = step_shown(page)
    assert shown_home(page) == home_after(paused)
    assert int(page.find_element(By.ID, "scrub").get_attribute("value") or -1) == paused


def axe_says(page: WebDriver, what: str) -> None:
    axe = Axe(page)
    axe.inject()
    results = axe.run()
    print(f"axe {what}: {len(results['passes'])} rules passed, {len(results['violations'])} violated "
          f"({', '.join(v['id'] + ':' + v['impact'] for v in results['violations']) or 'none'})")
    assert not results["violations"], axe.report(results["violations"])


def test_axe_finds_no_violation_on_the_replay_viewer_and_a_closed_challenges_standings(
    won: WebDriver, server: Server
) -> None:
    page = won
    game = int((page.find_element(By.ID, "replay").get_attribute("href") or "").rsplit("/", 1)[1])
    page.get(f"{server.address}replay/{game}")
    wait(page).until(lambda d: shown_version(d) == 0)
    axe_says(page, "replay viewer")

    challenges = ChallengeService(server.service)
    players = [Actor("discord", str(1180000000000000001 + n), name, guild_id=GUILD, channel_id=42)
               for n, name in enumerate(("Alice", "<b>Bob</b>"))]

    async def played() -> int:
        info = await challenges.create(players[0], GUILD, channel_id=None, name="Friday Gate", deal=1, hours=2)
        for player in players:
            await challenges.play(player, GUILD, info.id)
            await server.service.play(player, "3f d")
        await server.service.resign(players[0])
        await challenges.end(GUILD, info.id)
        return info.id

    number = server.run(played())
    page.get(f"{server.address}challenges/{number}")
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.standings tbody tr"))
    assert "<b>Bob</b>" in page.find_element(By.CSS_SELECTOR, "table.standings").text
    axe_says(page, "standings")
