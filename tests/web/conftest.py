"""A web table on a fresh SQLite database, and clients that open its page as a browser would."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from gatebot.service import Actor, GameChange, GameService
from gatebot.settings import WebSettings
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.web import build_app
from gatebot.web.guard import RateLimit

KEY = bytes(range(32))


@dataclass
class Browser:
    """One visitor: a client with its own cookie jar, and the CSRF token its page was given."""

    client: TestClient
    token: str = ""

    async def open(self) -> str:
        response = await self.client.get("/")
        assert response.status == 200
        match = re.search(r'<meta name="csrf-token" content="([^"]+)">', await response.text())
        assert match is not None
        self.token = match.group(1)
        return self.token

    async def post(self, path: str, body: object, **headers: str) -> ClientResponse:
        sent = {"X-CSRF-Token": self.token} | headers
        return await self.client.post(path, json=body, headers=sent)

    async def deal(self, deal: int = 5, variant: str = "gate") -> dict:
        response = await self.post("/api/new", {"variant": variant, "deal": deal, "confirm": True})
        assert response.status == 200, await response.text()
        return (await response.json())["view"]


@dataclass
class Table:
    service: GameService
    server: TestServer
    changes: list[GameChange] = field(default_factory=list)
    browsers: list[Browser] = field(default_factory=list)

    async def browser_client(self) -> TestClient:
        """A client of the table with a cookie jar of its own (closed with the table's browsers)."""
        client = TestClient(self.server)
        await client.start_server()
        return client

    async def browser(self) -> Browser:
        browser = Browser(await self.browser_client())
        self.browsers.append(browser)
        await browser.open()
        return browser

    def owner(self, index: int = -1) -> Actor:
        """The guest behind a change the service made (the cookie is sealed: this is how a test learns who)."""
        platform, user = self.changes[index].owner
        return Actor(platform, user, "Guest")


async def make_table(
    tmp_path: Path, rate: RateLimit | None = None, clock: Callable[[], datetime] | None = None,
    settings: WebSettings | None = None,
) -> tuple[Database, Table]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/web.db")
    await ensure_schema(db)
    service = GameService(db) if clock is None else GameService(db, clock=clock)
    app = build_app(service, settings or WebSettings(), KEY, rate=rate or RateLimit(rate=1000, burst=1000))
    server = TestServer(app)
    await server.start_server()
    table = Table(service, server)
    service.watch(table.changes.append)
    return db, table


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    db, table = await make_table(tmp_path)
    try:
        yield table
    finally:
        for browser in table.browsers:
            await browser.client.close()
        await table.server.close()
        table.service.close()
        await db.dispose()
