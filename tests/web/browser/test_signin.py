"""Sign in with Discord in Chromium: the page's button, the fake Discord's authorisation page, the choice, Sign out.

The table (with an OAuth2 client) and the fake Discord run on a loop in a background thread, as
the other browser tests' table does. A guest's first visit deals a game; Alice has one in chat.
Chromium follows **Sign in with Discord** to the fake's authorisation page (Alice logged in there),
which sends it back to the table with a code and the state: the real cookie carried across the two
sites' redirects, the strict CSP (its ``form-action 'self'``) over the choice's form and Sign out.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from gatebot.service import Actor, GameService, GameStatus
from gatebot.settings import ActivitySettings, WebSettings
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.web import build_app
from gatebot.web.guard import RateLimit
from gatebot.web.serve import start
from tests.fake_discord import FakeDiscord
from tests.fake_discord.oauth import CLIENT_SECRET
from tests.web.browser.conftest import KEY, Server, text_of, wait


@pytest.fixture(scope="module")
def signin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, FakeDiscord]]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="web table", daemon=True)
    thread.start()
    db = Database(f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('signin')}/web.db")

    async def open_table() -> tuple[FakeDiscord, GameService, Any, str]:
        fake = await FakeDiscord().start()
        await ensure_schema(db)
        service = GameService(db)
        settings = WebSettings(activity=ActivitySettings(str(fake.application_id), CLIENT_SECRET, fake.api_base,
                                                         authorize_url=fake.authorize_url))
        runner, address = await start(build_app(service, settings, KEY, rate=RateLimit(rate=1000, burst=1000)),
                                      "127.0.0.1", 0)
        return fake, service, runner, address

    fake, service, runner, address = asyncio.run_coroutine_threadsafe(open_table(), loop).result(60)
    table = Server(loop, service, address)
    service.watch(table.changes.append)
    try:
        yield table, fake
    finally:
        async def close() -> None:
            await runner.cleanup()
            service.close()
            await db.dispose()
            await fake.stop()

        asyncio.run_coroutine_threadsafe(close(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
    assert not fake.violations, fake.violations


def test_a_guest_signs_in_with_discord_brings_their_game_over_and_signs_out(
    chromium: WebDriver, signin_server: tuple[Server, FakeDiscord]
) -> None:
    server, fake = signin_server
    alice_user = fake.user("alice")
    fake.state.oauth.browser_user = alice_user
    alice = Actor("discord", str(alice_user.id), alice_user.global_name or alice_user.username)
    server.run(server.service.new_game(alice, "canfield", deal=7))  # her game in chat

    chromium.get(server.address)
    wait(chromium).until(lambda driver: server.changes and server.changes[-1].owner[0] == "web")  # the first deal
    guest = server.owner()
    dealt = server.run(server.service.show(guest))
    assert dealt.status is GameStatus.ACTIVE and dealt.game is not None

    chromium.find_element(By.LINK_TEXT, "Sign in with Discord").click()
    wait(chromium).until(lambda driver: "Which game" in driver.page_source)
    assert chromium.current_url.startswith(server.address + "signin/callback")
    chromium.find_element(By.CSS_SELECTOR, 'button[value="guest"]').click()
    wait(chromium).until(lambda driver: "is now your Discord game" in text_of(driver, "message"))

    brought = server.run(server.service.show(alice))
    assert brought.game_id == dealt.game_id and brought.status is GameStatus.ACTIVE  # chat plays the guest's game
    assert not chromium.find_elements(By.LINK_TEXT, "Sign in with Discord")

    chromium.find_element(By.CSS_SELECTOR, "form.account button").click()
    wait(chromium).until(lambda driver: "signed out" in text_of(driver, "message"))
    assert chromium.find_elements(By.LINK_TEXT, "Sign in with Discord")
