"""Chat and the page at once: the bot against the fake Discord, in the same process as the web table.

Alice deals in chat, asks ``/gate table`` for her link and opens it in Chromium: the page shows her
chat game. A move she makes in chat shows on the open page, and a tap on the page edits her board
message in chat. Every request the bot sent is checked against Discord's API description.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from gatebot.bot.client import GateBot
from gatebot.service import GameService
from gatebot.settings import Settings, WebSettings
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.web import build_app
from gatebot.web.guard import RateLimit
from gatebot.web.serve import start
from tests.bot.running import run_until_ready
from tests.fake_discord import FakeDiscord, StoredMessage, use_base_url
from tests.web.browser.conftest import KEY, wait
from tests.web.browser.table import card, shown_version, stored, tap_move


@dataclass
class Both:
    """The bot, its fake Discord and the web table on one event loop in a background thread."""

    loop: asyncio.AbstractEventLoop
    fake: FakeDiscord
    address: str

    def run(self, work: Any, timeout: float = 30) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)


@pytest.fixture
def both(tmp_path: Path) -> Iterator[Both]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="bot and table", daemon=True)
    thread.start()
    solver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="solver")
    url = f"sqlite+aiosqlite:///{tmp_path}/gatebot.db"
    held: dict[str, Any] = {}

    async def open_both() -> Both:
        fake = FakeDiscord()
        await fake.__aenter__()
        held["fake"], held["restore"] = fake, use_base_url(fake.api_base)
        db = held["db"] = Database(url)
        await ensure_schema(db)
        service = held["service"] = GameService(db, new_command="/gate new", end_prompt="Press End game to finish",
                                                solver=solver)
        runner, address = await start(build_app(service, WebSettings(), KEY, rate=RateLimit(rate=1000, burst=1000)),
                                      "127.0.0.1", 0)
        held["runner"] = runner
        settings = Settings(token=fake.token, database_url=url, dev_guild_id=fake.guild.id,
                            web_link=WebSettings(secret_key=KEY, public_url=address))
        bot = held["bot"] = GateBot(settings, service, tick_every=3600, guild_ready_timeout=0.05)
        held["task"] = await run_until_ready(bot, fake.token)
        await fake.wait_for_commands(fake.guild)
        return Both(loop, fake, address)

    async def close() -> None:
        if "bot" in held:
            await held["bot"].close()
            await held["task"]
        if "runner" in held:
            await held["runner"].cleanup()
        if "service" in held:
            held["service"].close()
        if "db" in held:
            await held["db"].dispose()
        if "restore" in held:
            held["restore"]()
        if "fake" in held:
            await held["fake"].__aexit__(None, None, None)

    try:
        yield asyncio.run_coroutine_threadsafe(open_both(), loop).result(60)
    finally:
        asyncio.run_coroutine_threadsafe(close(), loop).result(60)
        solver.shutdown(wait=True, cancel_futures=True)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def moves_on(message: StoredMessage) -> str:
    """The board message's header line (``Gate · deal 1 · 2 moves · …``)."""
    return message.content.removeprefix("```\n").split("\n", 1)[0]


def test_a_chat_move_shows_on_the_open_page_and_a_tap_on_the_page_edits_the_chat_board(
    chromium: WebDriver, both: Both,
) -> None:
    fake = both.fake

    async def command(name: str, options: dict[str, Any] | None = None) -> Any:
        handle = await fake.send_command(name, options)
        callback = await handle.response()
        return handle.original if callback.type == 4 else await handle.original_edited()

    board = both.run(command("gate new", {"deal": 1}))
    answer = both.run(command("gate table"))
    link = next(c["url"] for row in answer.components for c in row["components"])
    assert answer.ephemeral and link.startswith(f"{both.address}link/")

    chromium.get(both.address + "static/table.css")
    chromium.delete_all_cookies()
    chromium.set_window_size(1280, 800)
    chromium.get(link)
    wait(chromium).until(lambda d: shown_version(d) is not None, "the table after the link")
    assert chromium.current_url == both.address  # the token is gone from the address bar
    view = stored(chromium)
    assert (view["deal"], view["moves_played"]) == (1, 0)  # her chat game

    # A move in chat shows on the open page.
    both.run(command("gate move", {"moves": "3f"}))
    wait(chromium, 10).until(lambda d: shown_version(d) == view["version"] + 1, "the chat move on the page")
    assert card(chromium, "fd", "AD").is_displayed()

    # A tap on the page edits the board message in chat.
    now = stored(chromium)
    tap_move(chromium, now, "76")
    wait(chromium, 10).until(lambda d: shown_version(d) == now["version"] + 1, "the tap answered")
    edited = both.run(fake.wait_for(lambda: fake.message(board.id) if "2 moves" in moves_on(fake.message(board.id))
                                    else None, timeout=10, what="the chat board edited"))
    assert any(custom.endswith(f":{now['version'] + 1}") for custom in edited.custom_ids())
    assert not fake.violations, fake.violations
