"""The table inside Discord: a sign-in code exchanged with (the fake) Discord, and everything that can go wrong.

The page posts the code the SDK's ``authorize`` gave it; the table exchanges it at the fake
Discord's token endpoint and asks ``/oauth2/@me`` whose it is. Discord's refusals and failures
(a forged, used, expired or another app's code; a 429; a 500; a timeout; a wrong client secret)
are injected there, and every call the table makes to it is checked by the fake's referee.
"""

from __future__ import annotations

import html
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gatebot.service import Actor
from gatebot.service.challenges import ChallengeService
from gatebot.settings import ActivitySettings, WebSettings
from tests.fake_discord import FakeDiscord, FakeUser
from tests.fake_discord.oauth import CLIENT_SECRET
from tests.web.conftest import Browser, Table, make_table

TOKEN_ROUTE = "POST /oauth2/token"
ME_ROUTE = "GET /oauth2/@me"
FRAME = "/?frame_id=f0ad&instance_id=i-1&platform=desktop"


class Activity:
    """A table with Activities enabled, signing in against a fake Discord."""

    def __init__(self, table: Table, fake: FakeDiscord) -> None:
        self.table, self.fake = table, fake
        self.alice, self.bob = fake.user("alice"), fake.user("bob")

    def player(self, user: FakeUser) -> Actor:
        return Actor("discord", str(user.id), user.global_name or user.username)

    async def frame(self) -> tuple[Browser, str]:
        """A browser that opened the page as Discord opens the Activity; the page's HTML."""
        browser = Browser(await self.table.browser_client())
        self.table.browsers.append(browser)
        response = await browser.client.get(FRAME)
        assert response.status == 200
        page = await response.text()
        browser.token = html.unescape(page.split('name="csrf-token" content="', 1)[1].split('"', 1)[0])
        return browser, page

    async def sign_in(self, browser: Browser, code: str, **extra: object) -> tuple[int, dict]:
        response = await browser.post("/api/activity/token", {"code": code, **extra})
        return response.status, await response.json()


@pytest.fixture
async def activity(tmp_path: Path, secret: str) -> AsyncIterator[Activity]:
    async with FakeDiscord() as fake:
        settings = WebSettings(activity=ActivitySettings(str(fake.application_id), secret, fake.api_base, timeout=0.3))
        db, table = await make_table(tmp_path, settings=settings)
        try:
            yield Activity(table, fake)
        finally:
            for browser in table.browsers:
                await browser.client.close()
            await table.server.close()
            table.service.close()
            await db.dispose()
        assert not fake.violations, fake.violations


@pytest.fixture
def secret() -> str:
    return CLIENT_SECRET


async def game_of(browser: Browser) -> tuple[int, dict]:
    response = await browser.client.get("/api/game")
    return response.status, await response.json()


async def test_a_code_signs_the_frame_in_as_the_discord_player_whatever_the_page_claims(activity: Activity) -> None:
    chat = await activity.table.service.new_game(activity.player(activity.alice), "gate", deal=7)  # dealt in chat
    browser, page = await activity.frame()
    assert f'name="discord-client-id" content="{activity.fake.application_id}"' in page
    old_token = browser.token

    # The page says it is Bob: ignored, the code is Alice's.
    status, answer = await activity.sign_in(browser, activity.fake.authorize(activity.alice),
                                            user_id=str(activity.bob.id), id=str(activity.bob.id))
    assert status == 200, answer
    assert answer["name"] == activity.alice.global_name or answer["name"] == activity.alice.username
    assert answer["id"] == str(activity.alice.id)  # Discord's word, not the page's
    assert answer["access_token"] in activity.fake.state.oauth.tokens  # the token the SDK authenticates with
    assert answer["csrf"] != old_token
    status, shown = await game_of(browser)
    assert status == 200 and shown["view"]["game"] == chat.game_id and shown["view"]["deal"] == 7

    assert (await browser.post("/api/play", {"move": "d", "version": chat.version})).status == 403  # old token
    browser.token = answer["csrf"]
    assert (await browser.post("/api/play", {"move": "d", "version": chat.version})).status == 200
    stored = await activity.table.service.show(activity.player(activity.alice))
    assert [str(move) for move in stored.game.moves] == ["d"]  # Alice's chat game moved
    assert await activity.table.service.player_id(activity.player(activity.bob)) is None  # Bob: nothing at all
    exchanged = activity.fake.requests_to(TOKEN_ROUTE)[-1]
    assert exchanged.headers["Content-Type"].startswith("application/x-www-form-urlencoded")


async def test_only_the_activity_page_may_be_framed_by_discord(activity: Activity) -> None:
    browser, _ = await activity.frame()
    framed = await browser.client.get(FRAME)
    policy = framed.headers["Content-Security-Policy"]
    assert "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com" in policy
    assert "connect-src 'self'" in policy and "script-src 'self';" in policy
    for path in ("/", "/api/game", "/static/table.js", "/?instance_id=1"):
        plain = await browser.client.get(path)
        assert "frame-ancestors 'self'" in plain.headers["Content-Security-Policy"]
        assert "discord" not in plain.headers["Content-Security-Policy"], path
    page = await (await browser.client.get("/")).text()
    assert 'name="discord-client-id" content=""' in page  # outside Discord the page never loads the SDK


async def test_forged_used_expired_and_other_apps_codes_are_one_sentence_and_sign_nobody_in(activity: Activity) -> None:
    browser, _ = await activity.frame()
    used = activity.fake.authorize(activity.alice)
    assert (await activity.sign_in(browser, used))[0] == 200
    await (await browser.client.post("/api/forget", json={}, headers={"X-CSRF-Token": browser.token})).release()

    browser, _ = await activity.frame()
    codes = {
        "forged": "not-a-code-discord-gave",
        "used": used,
        "expired": activity.fake.authorize(activity.alice, seconds=-1),
        "another app's": activity.fake.authorize(activity.alice, application_id=activity.fake.application_id + 1),
    }
    for what, code in codes.items():
        status, answer = await activity.sign_in(browser, code)
        assert status == 400, what
        assert "wrong, expired or used already" in answer["error"] and answer["error"].count(".") == 1, what
    # Were Discord to hand out a token for another app's code, /oauth2/@me names that app: refused all the same.
    activity.fake.state.oauth.checks_application = False
    other_app = activity.fake.authorize(activity.alice, application_id=activity.fake.application_id + 1)
    status, answer = await activity.sign_in(browser, other_app)
    assert status == 400 and "wrong, expired or used already" in answer["error"]
    assert activity.fake.requests_to(ME_ROUTE)[-1].response["application"]["id"] != str(activity.fake.application_id)
    status, shown = await game_of(browser)
    assert status == 200 and shown["view"] is None  # still a new guest
    browser.token, token = "", browser.token
    assert (await activity.sign_in(browser, activity.fake.authorize(activity.alice)))[0] == 403  # no CSRF token
    browser.token = token
    for body in ({}, {"code": ""}, {"code": 5}, {"code": "x" * 500}):
        response = await browser.post("/api/activity/token", body)
        assert response.status == 400 and "code" in (await response.json())["error"]


async def test_a_short_429_and_a_500_are_tried_again_and_a_long_429_is_busy(activity: Activity) -> None:
    fake = activity.fake
    browser, _ = await activity.frame()
    fake.fail(TOKEN_ROUTE, 429, retry_after=0.05)
    fake.fail(ME_ROUTE, 500)
    status, answer = await activity.sign_in(browser, fake.authorize(activity.alice))
    assert status == 200, answer
    assert [r.status for r in fake.requests_to(TOKEN_ROUTE)] == [429, 200]
    assert [r.status for r in fake.requests_to(ME_ROUTE)] == [500, 200]

    browser, _ = await activity.frame()
    fake.fail(TOKEN_ROUTE, 429, retry_after=60)  # far longer than a page should wait: said, not waited
    status, answer = await activity.sign_in(browser, fake.authorize(activity.alice))
    assert status == 503 and "busy" in answer["error"]
    assert len(fake.requests_to(TOKEN_ROUTE)) == 3


async def test_discord_failing_or_silent_is_tried_three_times_then_one_sentence(activity: Activity) -> None:
    fake = activity.fake
    browser, _ = await activity.frame()
    fake.fail(TOKEN_ROUTE, 500, times=3)
    status, answer = await activity.sign_in(browser, fake.authorize(activity.alice))
    assert status == 502 and "can't be reached" in answer["error"]
    assert [r.status for r in fake.requests_to(TOKEN_ROUTE)] == [500, 500, 500]

    fake.fail(TOKEN_ROUTE, 0, delay=1.0, times=3)  # slower than the table waits (0.3 s here)
    status, answer = await activity.sign_in(browser, fake.authorize(activity.alice))
    assert status == 504 and "can't be reached" in answer["error"]
    assert len(fake.requests_to(TOKEN_ROUTE)) == 6
    status, shown = await game_of(browser)
    assert status == 200 and shown["view"] is None


@pytest.mark.parametrize("secret", ["a-wrong-secret-never-shown"])
async def test_a_wrong_client_secret_is_the_operators_problem_and_never_logged(
    activity: Activity, caplog: pytest.LogCaptureFixture
) -> None:
    browser, _ = await activity.frame()
    with caplog.at_level(logging.DEBUG):
        status, answer = await activity.sign_in(browser, activity.fake.authorize(activity.alice))
    assert status == 502 and "operator" in answer["error"]
    assert "DISCORD_CLIENT_SECRET" in caplog.text and "a-wrong-secret-never-shown" not in caplog.text


async def test_a_session_cookie_replayed_after_forget_me_reaches_nothing(activity: Activity) -> None:
    browser, _ = await activity.frame()
    status, answer = await activity.sign_in(browser, activity.fake.authorize(activity.alice))
    browser.token = answer["csrf"]
    await browser.deal(5)
    kept = {cookie.key: cookie.value for cookie in browser.client.session.cookie_jar}

    forgotten = await browser.post("/api/forget", {})
    assert forgotten.status == 200
    await activity.table.service.new_game(activity.player(activity.alice), "gate", deal=9)  # she plays again in chat

    replay = Browser(await activity.table.browser_client())
    activity.table.browsers.append(replay)
    replay.client.session.cookie_jar.update_cookies(kept)
    status, refused = await game_of(replay)
    assert status == 403 and "no longer signed in" in refused["error"]
    assert "9" not in str(refused)


async def test_without_activities_the_token_route_says_so(table: Table) -> None:
    browser = await table.browser()
    response = await browser.post("/api/activity/token", {"code": "abc"})
    assert response.status == 404 and "inside Discord" in (await response.json())["error"]
    page = await (await browser.client.get(FRAME)).text()
    assert 'name="discord-client-id" content=""' in page


async def test_over_https_the_activitys_session_cookie_crosses_discords_frame_partitioned(tmp_path: Path) -> None:
    settings = WebSettings(secure_cookies=True, activity=ActivitySettings("1", CLIENT_SECRET))
    db, table = await make_table(tmp_path, settings=settings)
    try:
        client = await table.browser_client()
        cookie = (await client.get(FRAME)).headers["Set-Cookie"]
        await client.close()
    finally:
        await table.server.close()
        table.service.close()
        await db.dispose()
    attributes = {part.strip().split("=")[0].lower(): part for part in cookie.split(";")}
    assert "samesite=none" in cookie.lower().replace(" ", "")
    assert {"secure", "httponly", "partitioned"} <= set(attributes)


async def signed_in(activity: Activity, user: FakeUser) -> Browser:
    """A frame of the Activity signed in as ``user``, its CSRF token the sign-in's."""
    browser, _page = await activity.frame()
    status, answer = await activity.sign_in(browser, activity.fake.authorize(user))
    assert status == 200, answer
    browser.token = answer["csrf"]
    return browser


async def test_the_servers_open_challenge_is_shown_without_its_deal_and_played_once(activity: Activity) -> None:
    server, other = 41771, 52882
    challenges = ChallengeService(activity.table.service)
    maker = Actor("discord", "1", "an admin")
    friday = await challenges.create(maker, server, channel_id=7, name="Friday", deal=424242, hours=5)
    await challenges.create(maker, other, channel_id=8, name="Elsewhere", deal=313131)
    guest_page = await activity.table.browser()
    refused = await guest_page.client.get(f"/api/activity/challenges?guild={server}")
    assert refused.status == 403 and "open the table from Discord" in (await refused.json())["error"]

    alice = await signed_in(activity, activity.alice)
    response = await alice.client.get(f"/api/activity/challenges?guild={server}")
    text = await response.text()
    assert response.status == 200 and "424242" not in text and "Elsewhere" not in text
    [shown] = (await response.json())["challenges"]
    assert (shown["id"], shown["name"], shown["title"]) == (friday.id, "Friday", "Gate")
    assert "hints allowed" in shown["rules"] and shown["closes"] == "Closes in 5 hours."
    for bad in ("", "abc", "-4", "1" * 21):
        response = await alice.client.get(f"/api/activity/challenges?guild={bad}")
        assert response.status == 400 and (await response.json())["error"].count(".") == 1

    forged = await alice.post("/api/activity/challenge", {"guild": str(server)}, **{"X-CSRF-Token": "not hers"})
    assert forged.status == 403 and (await game_of(alice))[1]["view"] is None  # a change needs the page's token
    # Alice plays it: her attempt is her game, named by the challenge, its deal nowhere in the answer.
    response = await alice.post("/api/activity/challenge", {"guild": str(server), "challenge": friday.id})
    text = await response.text()
    assert response.status == 200, text
    assert "424242" not in text
    view = (await response.json())["view"]
    assert view["label"] == "Friday" and view["deal"] is None
    _status, game = await game_of(alice)
    assert game["view"]["game"] == view["game"]
    # A second attempt is refused with chat's sentence, and her attempt goes on as it was.
    again = await alice.post("/api/activity/challenge", {"guild": str(server), "challenge": friday.id})
    said = (await again.json())["error"]
    assert again.status == 422 and "already played Friday" in said and "424242" not in said
    assert (await game_of(alice))[1]["view"]["version"] == view["version"]

    # Bob has a game running: he is asked first, and nothing changes until he says yes.
    await activity.table.service.new_game(activity.player(activity.bob), "gate", deal=7)
    bob = await signed_in(activity, activity.bob)
    asked = await bob.post("/api/activity/challenge", {"guild": str(server)})
    assert asked.status == 200 and (await asked.json())["kind"] == "confirm"
    assert (await game_of(bob))[1]["view"]["deal"] == 7
    # Closed meanwhile: chat's sentence, and no attempt.
    await challenges.end(server, friday.id)
    closed = await bob.post("/api/activity/challenge", {"guild": str(server), "challenge": friday.id, "confirm": True})
    assert closed.status == 409 and "Friday has closed" in (await closed.json())["error"]
    assert (await game_of(bob))[1]["view"]["deal"] == 7
    nothing = await bob.client.get(f"/api/activity/challenges?guild={server}")
    assert (await nothing.json())["challenges"] == []
    # A guest can't play; a body that isn't the challenge's fields is one sentence.
    assert (await guest_page.post("/api/activity/challenge", {"guild": str(other)})).status == 403
    for body in ({"guild": str(other), "challenge": "1"}, {"guild": str(other), "confirm": "yes"}, [1]):
        response = await bob.post("/api/activity/challenge", body)
        assert response.status == 400 and (await response.json())["error"].count(".") == 1
