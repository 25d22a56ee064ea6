"""The web table in a real browser: Debian's Chromium driven by Selenium, over a table served in-process.

The table runs on its own event loop in a background thread (so a test can also reach its
``GameService`` directly, as chat would) on a fresh SQLite file and a free loopback port. One
Chromium serves a whole module; each test gets fresh cookies. Where Chromium or its driver is
missing the tests are skipped, except under ``CI=true``, where they must run.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import threading
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from gatebot.service import Actor, GameChange, GameService
from gatebot.settings import WebSettings
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.web import build_app
from gatebot.web.guard import RateLimit
from gatebot.web.serve import start

# Selenium Manager never runs (the driver and the browser are named below) and, if it ever did, stays offline.
os.environ.setdefault("SE_OFFLINE", "true")
os.environ.setdefault("SE_AVOID_STATS", "true")

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
KEY = bytes(range(32))
T = TypeVar("T")


def _browser_missing() -> str | None:
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.is_file()]
    return f"{' and '.join(missing)} missing: apt-get install chromium chromium-driver" if missing else None


@pytest.fixture(scope="session", autouse=True)
def _need_browser() -> None:
    missing = _browser_missing()
    if missing is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser tests must run in CI: {missing}")
    pytest.skip(missing)


@dataclass
class Server:
    """The table on a background loop: its address, its service, and every change the service announced."""

    loop: asyncio.AbstractEventLoop
    service: GameService
    address: str
    changes: list[GameChange] = field(default_factory=list)

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        """Run ``work`` on the table's loop and wait for it (a chat move, a look at the store)."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def owner(self) -> Actor:
        """The guest behind the latest change (the cookie is sealed: this is how a test learns who)."""
        platform, user = self.changes[-1].owner
        return Actor(platform, user, "Guest")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="web table", daemon=True)
    thread.start()
    db = Database(f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('table')}/web.db")

    async def open_table() -> tuple[GameService, Any, str]:
        await ensure_schema(db)
        service = GameService(db)
        app = build_app(service, WebSettings(), KEY, rate=RateLimit(rate=1000, burst=1000))
        runner, address = await start(app, "127.0.0.1", 0)
        return service, runner, address

    service, runner, address = asyncio.run_coroutine_threadsafe(open_table(), loop).result(60)
    table = Server(loop, service, address)
    service.watch(table.changes.append)
    try:
        yield table
    finally:
        async def close() -> None:
            await runner.cleanup()
            service.close()
            await db.dispose()

        asyncio.run_coroutine_threadsafe(close(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def launch(width: int = 1280, height: int = 800, language: str = "en-US") -> WebDriver:
    """A headless Chromium with a fresh profile, offline but for loopback, motion reduced (nothing glides).

    ``language`` is the browser's (its ``Accept-Language``), as a person sets it.
    """
    profile = tempfile.mkdtemp(prefix="gatebot-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-quic", "--hide-scrollbars", "--force-color-profile=srgb", f"--lang={language}",
                     "--font-render-hinting=none", f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver._gatebot_profile = profile  # type: ignore[attr-defined]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-reduced-motion", "value": "reduce"}, {"name": "prefers-color-scheme", "value": "light"}]})
    return driver


def quit_browser(driver: WebDriver) -> None:
    driver.quit()
    shutil.rmtree(driver._gatebot_profile, ignore_errors=True)  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def chromium() -> Iterator[WebDriver]:
    driver = launch()
    try:
        yield driver
    finally:
        quit_browser(driver)


@pytest.fixture
def page(chromium: WebDriver, server: Server) -> Iterator[WebDriver]:
    """The module's Chromium on a fresh guest: no cookie, one window, desktop size."""
    chromium.get(server.address + "static/table.css")  # any page of the table's origin, so its cookies can go
    chromium.delete_all_cookies()
    chromium.set_window_size(1280, 800)
    yield chromium
    for handle in chromium.window_handles[1:]:
        chromium.switch_to.window(handle)
        chromium.close()
    chromium.switch_to.window(chromium.window_handles[0])


def text_of(driver: WebDriver, element_id: str) -> str:
    """The shown text of the element with this id, or "" while there is none.

    Read by one script inside the page rather than found and then read over two WebDriver calls:
    between those two, a page being replaced (a form posted, a redirect followed) can take the
    element away, and Chromium then answers with an error that is neither stale nor missing.
    """
    script = "const e = document.getElementById(arguments[0]); return e ? e.innerText.trim() : '';"
    return driver.execute_script(script, element_id)  # type: ignore[no-any-return]


def wait(driver: WebDriver, seconds: float = 10) -> WebDriverWait:
    # An element read while the page is being replaced (a form posted, a redirect followed) goes stale:
    # that is the page still changing, so the wait looks again rather than fail.
    return WebDriverWait(driver, seconds, poll_frequency=0.02, ignored_exceptions=(StaleElementReferenceException,))
