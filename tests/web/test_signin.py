""""Sign in with Discord" on the open web: the authorization-code flow with state and PKCE, against the fake Discord.

The browser (the aiohttp test client, its own cookie jar) presses Sign in with Discord, is sent to
the fake Discord's authorisation page (which checks the request, and gives a code bound to the
``redirect_uri`` and the PKCE challenge it was shown), and comes back to the callback; the table
exchanges the code at the fake's token endpoint, which takes it only with the same redirect URI
and the verifier of that challenge. Failures are injected at the fake, as for the Activity.
"""

from __future__ import annotations

import html
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy import select
from yarl import URL

from gatebot.service import Actor, GameStatus
from gatebot.settings import ActivitySettings, WebSettings
from gatebot.store.models import GameRecord
from tests.fake_discord import FakeDiscord, FakeUser
from tests.fake_discord.oauth import CLIENT_SECRET, s256
from tests.web.conftest import Browser, Table, make_table

TOKEN_ROUTE = "POST /oauth2/token"


class SignIn:
    """A table offering Sign in with Discord, a fake Discord, and a client playing the browser's part at Discord."""

    def __init__(self, table: Table, fake: FakeDiscord, web: aiohttp.ClientSession) -> None:
        self.table, self.fake, self.web = table, fake, web
        self.alice = fake.user("alice")
        fake.state.oauth.browser_user = self.alice

    def player(self, user: FakeUser) -> Actor:
        return Actor("discord", str(user.id), user.global_name or user.username)

    async def to_discord(self, browser: Browser) -> URL:
        """Press Sign in with Discord: where the table sends the browser."""
        response = await browser.client.get("/signin", allow_redirects=False)
        assert response.status == 303, await response.text()
        return URL(response.headers["Location"])

    async def at_discord(self, where: URL) -> URL:
        """The browser at Discord's authorisation page: where Discord sends it back to."""
        async with self.web.get(where, allow_redirects=False) as response:
            assert response.status == 302, await response.text()
            return URL(response.headers["Location"])

    async def back(self, browser: Browser, callback: URL) -> aiohttp.ClientResponse:
        """The browser back at the table's callback (the address Discord gave, on the test server)."""
        assert callback.path == "/signin/callback"
        return await browser.client.get(callback.path_qs, allow_redirects=False)

    async def whole(self, browser: Browser) -> aiohttp.ClientResponse:
        return await self.back(browser, await self.at_discord(await self.to_discord(browser)))


@pytest.fixture
async def signin(tmp_path: Path) -> AsyncIterator[SignIn]:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as web:
        settings = WebSettings(activity=ActivitySettings(
            str(fake.application_id), CLIENT_SECRET, fake.api_base, timeout=0.3, authorize_url=fake.authorize_url))
        db, table = await make_table(tmp_path, settings=settings)
        try:
            yield SignIn(table, fake, web)
        finally:
            for browser in table.browsers:
                await browser.client.close()
            await table.server.close()
            table.service.close()
            await db.dispose()
        assert not fake.violations, fake.violations


async def game_of(browser: Browser) -> tuple[int, dict]:
    response = await browser.client.get("/api/game")
    return response.status, await response.json()


async def page_of(browser: Browser) -> str:
    """The table's page, its CSRF token taken as the page's script would."""
    await browser.open()
    return await (await browser.client.get("/")).text()


def error_sentence(page: str) -> str:
    match = re.search(r"<p>([^<]+)</p>", page)
    assert match is not None, page
    return html.unescape(match.group(1))


async def test_the_whole_flow_signs_the_browser_in_to_the_discord_game(signin: SignIn) -> None:
    await signin.table.service.new_game(signin.player(signin.alice), "gate", deal=7)
    browser = await signin.table.browser()
    assert 'href="signin"' in await page_of(browser) and "Sign out" not in await page_of(browser)
    german = await (await browser.client.get("/", headers={"Accept-Language": "de-DE"})).text()
    assert ">Mit Discord anmelden</a>" in german

    to_discord = await signin.to_discord(browser)
    assert str(to_discord.with_query(None)) == signin.fake.authorize_url
    asked = to_discord.query
    assert asked["response_type"] == "code" and asked["scope"] == "identify"
    assert asked["client_id"] == str(signin.fake.application_id) and asked["code_challenge_method"] == "S256"
    assert asked["redirect_uri"] == str(browser.client.make_url("/signin/callback"))
    assert len(asked["state"]) >= 32 and "code_verifier" not in asked
    cookie = "".join(cookie.value for cookie in browser.client.session.cookie_jar)
    assert asked["state"] not in cookie  # sealed in the session, not readable in the cookie

    answer = await signin.back(browser, await signin.at_discord(to_discord))
    assert answer.status == 303 and answer.headers["Location"] == "/"
    status, shown = await game_of(browser)
    assert status == 200 and shown["view"]["deal"] == 7
    assert "Discord game" in shown["notice"]
    sent = signin.fake.state.oauth.exchanges[-1]
    assert s256(sent["code_verifier"]) == asked["code_challenge"] and sent["redirect_uri"] == asked["redirect_uri"]
    page = await page_of(browser)
    assert "Sign out" in page and 'href="signin"' not in page

    # Sign out: back to this browser's guest (a form with the CSRF token; without it, nothing happens).
    refused = await browser.client.post("/signout", data={"csrf": "not-the-token"}, allow_redirects=False)
    assert refused.status == 403
    out = await browser.client.post("/signout", data={"csrf": browser.token}, allow_redirects=False)
    assert out.status == 303
    status, shown = await game_of(browser)
    assert status == 200 and shown["view"] is None and "signed out" in shown["notice"]


async def test_a_missing_or_wrong_state_signs_nobody_in(signin: SignIn) -> None:
    browser = await signin.table.browser()
    for wrong in ({}, {"state": "x" * 43}):
        callback = await signin.at_discord(await signin.to_discord(browser))
        answer = await signin.back(browser, callback.without_query_params("state").update_query(wrong))
        assert answer.status == 400
        assert "didn't start on this page" in error_sentence(await answer.text())
        # The state is good once: after a wrong one, the right one doesn't work either (the sign-in starts again).
        answer = await signin.back(browser, callback)
        assert answer.status == 400 and "Sign in with Discord again" in error_sentence(await answer.text())
    status, shown = await game_of(browser)
    assert status == 200 and "notice" not in shown and shown["view"] is None
    assert not signin.fake.state.oauth.exchanges  # no code was spent

    # A callback opened in another browser, itself signing in (a link someone was sent), signs nobody in.
    other = await signin.table.browser()
    await signin.to_discord(other)
    callback = await signin.at_discord(await signin.to_discord(browser))
    answer = await signin.back(other, callback)
    assert answer.status == 400 and "didn't start on this page" in error_sentence(await answer.text())
    assert not signin.fake.state.oauth.exchanges


async def test_a_reused_code_and_a_refused_authorisation_are_one_sentence(signin: SignIn) -> None:
    browser = await signin.table.browser()
    callback = await signin.at_discord(await signin.to_discord(browser))
    assert (await signin.back(browser, callback)).status == 303

    second = await signin.table.browser()
    fresh = await signin.at_discord(await signin.to_discord(second))
    reused = fresh.update_query(code=callback.query["code"])  # the first code again, with this browser's state
    answer = await signin.back(second, reused)
    assert answer.status == 400
    assert error_sentence(await answer.text()) == ("Discord didn't accept that sign-in (it was wrong, expired or "
                                                   "used already): press Sign in with Discord again.")

    signin.fake.state.oauth.denies = True
    third = await signin.table.browser()
    answer = await signin.whole(third)
    assert answer.status == 403
    refused = error_sentence(await answer.text())
    assert refused == "You didn't allow the sign-in in Discord, so the table stays a guest's."
    status, shown = await game_of(third)
    assert status == 200 and shown["view"] is None and "Sign out" not in await page_of(third)


async def test_a_429_is_waited_then_tried_again_and_500s_are_one_sentence(signin: SignIn) -> None:
    signin.fake.fail(TOKEN_ROUTE, 429, retry_after=0.05)
    browser = await signin.table.browser()
    assert (await signin.whole(browser)).status == 303
    assert [request.status for request in signin.fake.requests_to(TOKEN_ROUTE)] == [429, 200]

    signin.fake.fail(TOKEN_ROUTE, 500, times=3)
    other = await signin.table.browser()
    answer = await signin.whole(other)
    assert answer.status == 502
    assert "Discord can't be reached just now" in error_sentence(await answer.text())
    assert [request.status for request in signin.fake.requests_to(TOKEN_ROUTE)][-3:] == [500, 500, 500]
    status, shown = await game_of(other)
    assert status == 200 and "notice" not in shown


async def test_discord_unreachable_is_one_sentence(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as web:
        with socket.socket() as probe:  # a port nothing listens on: every call to Discord's API is refused
            probe.bind(("127.0.0.1", 0))
            closed = probe.getsockname()[1]
        settings = WebSettings(activity=ActivitySettings(
            str(fake.application_id), CLIENT_SECRET, f"http://127.0.0.1:{closed}/api/v10", timeout=0.3,
            authorize_url=fake.authorize_url))
        db, table = await make_table(tmp_path, settings=settings)
        try:
            signin = SignIn(table, fake, web)
            browser = await table.browser()
            answer = await signin.whole(browser)
            assert answer.status in (502, 504)
            assert error_sentence(await answer.text()) == ("Discord can't be reached just now, so you aren't signed "
                                                           "in: try again in a moment.")
        finally:
            for browser in table.browsers:
                await browser.client.close()
            await table.server.close()
            table.service.close()
            await db.dispose()


async def _two_games(signin: SignIn) -> tuple[Browser, Actor, str]:
    """A guest with Gate deal 5 in progress and Alice with Gate deal 7 in chat: the callback asks which to keep."""
    await signin.table.service.new_game(signin.player(signin.alice), "gate", deal=7)
    browser = await signin.table.browser()
    await browser.deal(5)
    guest = signin.table.owner()
    answer = await signin.whole(browser)
    assert answer.status == 200
    page = await answer.text()
    assert "Which game" in page and "as a guest: Gate 5" in page and "in Discord: Gate 7" in page
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    return browser, guest, html.unescape(token.group(1))


async def test_keeping_the_discord_game_leaves_the_guests_game_stored(signin: SignIn) -> None:
    browser, guest, token = await _two_games(signin)
    service = signin.table.service
    # Not signed in until the choice is made; the choice needs the page's token.
    _, shown = await game_of(browser)
    assert shown["view"]["deal"] == 5
    refused = await browser.client.post("/signin/choice", data={"keep": "discord"}, allow_redirects=False)
    assert refused.status == 403

    chosen = await browser.client.post("/signin/choice", data={"keep": "discord", "csrf": token},
                                       allow_redirects=False)
    assert chosen.status == 303
    status, shown = await game_of(browser)
    assert status == 200 and shown["view"]["deal"] == 7 and "stays stored" in shown["notice"]
    kept = await service.show(guest)
    assert kept.status is GameStatus.ACTIVE and kept.game is not None and kept.game.deal == 5

    # Sign out: the guest's game, as it was.
    await browser.open()
    assert (await browser.client.post("/signout", data={"csrf": browser.token}, allow_redirects=False)).status == 303
    _, shown = await game_of(browser)
    assert shown["view"]["deal"] == 5


async def test_bringing_the_guest_game_over_abandons_the_discord_one_into_history(signin: SignIn) -> None:
    browser, guest, token = await _two_games(signin)
    service = signin.table.service
    alice = signin.player(signin.alice)
    chosen = await browser.client.post("/signin/choice", data={"keep": "guest", "csrf": token},
                                       allow_redirects=False)
    assert chosen.status == 303
    _, shown = await game_of(browser)
    assert shown["view"]["deal"] == 5 and "abandoned" in shown["notice"]
    now = await service.show(alice)  # chat shows the same game now
    assert now.status is GameStatus.ACTIVE and now.game is not None and now.game.deal == 5
    played = await service.play(alice, "d", expected_version=now.version)  # and it plays on from chat
    assert played.saved
    gone = await service.show(guest)  # the guest has no game in progress left: it moved
    assert gone.status is not GameStatus.ACTIVE
    async with service.database.sessions() as session:
        rows = (await session.execute(select(GameRecord.deal, GameRecord.status))).all()
    assert sorted((deal, str(status)) for deal, status in rows) == sorted(
        [(5, str(GameStatus.ACTIVE)), (7, str(GameStatus.ABANDONED))])


async def test_a_session_cookie_replayed_after_forget_me_reaches_nothing(signin: SignIn) -> None:
    browser = await signin.table.browser()
    assert (await signin.whole(browser)).status == 303
    await browser.open()
    await browser.deal(5)
    kept = {cookie.key: cookie.value for cookie in browser.client.session.cookie_jar}
    assert (await browser.post("/api/forget", {})).status == 200
    await signin.table.service.new_game(signin.player(signin.alice), "gate", deal=9)  # she plays again in chat

    replay = Browser(await signin.table.browser_client())
    signin.table.browsers.append(replay)
    replay.client.session.cookie_jar.update_cookies(kept)
    status, refused = await game_of(replay)
    assert status == 403 and "no longer signed in" in refused["error"]
    assert "9" not in str(refused)


async def test_without_a_client_the_page_offers_no_sign_in(table: Table) -> None:
    browser = await table.browser()
    page = await (await browser.client.get("/")).text()
    assert "signin" not in page and "Sign in" not in page
    answer = await browser.client.get("/signin", allow_redirects=False)
    assert answer.status == 404 and "doesn't offer signing in" in error_sentence(await answer.text())
