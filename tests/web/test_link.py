"""A Discord player's sign-in link (``/gate table``) as a browser follows it: good, expired, forged, forgotten."""

from __future__ import annotations

import html
import time

from gatebot.service import Actor
from gatebot.service.links import Link, Links
from tests.web.conftest import KEY, Browser, Table

ALICE = Actor("discord", "4242", "alice")


async def link_for(table: Table, actor: Actor = ALICE, *, key: bytes = KEY, age: float = 0) -> str:
    """The path a ``/gate table`` link for ``actor`` opens, made ``age`` seconds ago."""
    player = await table.service.sign_in(actor)
    token = Links(key, clock=lambda: time.time() - age).seal(Link(actor.user_id, player, actor.display_name))
    return f"/link/{token}"


async def follow(browser: Browser, path: str) -> tuple[int, str]:
    response = await browser.client.get(path, allow_redirects=False)
    return response.status, html.unescape(await response.text())


async def game_of(browser: Browser) -> dict:
    response = await browser.client.get("/api/game")
    assert response.status == 200, await response.text()
    return await response.json()


async def test_a_link_signs_the_browser_in_to_the_players_own_game_and_keeps_the_guests(table: Table) -> None:
    chat = await table.service.new_game(ALICE, "gate", deal=7)  # dealt in chat
    browser = await table.browser()
    await browser.deal(5)  # the guest's own game
    guest = table.owner()
    old_token = browser.token

    status, _ = await follow(browser, await link_for(table))
    assert status == 303
    await browser.open()
    assert browser.token != old_token  # a fresh CSRF token after the sign-in
    shown = await game_of(browser)
    assert shown["view"]["deal"] == 7 and shown["view"]["game"] == chat.game_id
    assert "Discord game" in shown["notice"] and "guest" in shown["notice"]
    assert "notice" not in await game_of(browser)  # said once

    played = await browser.post("/api/play", {"move": "d", "version": chat.version})
    assert played.status == 200
    stored = await table.service.show(ALICE)
    assert [str(move) for move in stored.game.moves] == ["d"]  # the chat game moved
    assert (await table.service.show(guest)).game.deal == 5  # the guest's game is still stored
    browser.token = old_token
    assert (await browser.post("/api/play", {"move": "d", "version": stored.version})).status == 403


async def test_an_expired_forged_or_malformed_link_is_one_sentence_and_signs_nobody_in(table: Table) -> None:
    browser = await table.browser()
    await browser.deal(5)
    cases = {
        await link_for(table, age=11 * 60): (410, "expired"),
        await link_for(table, key=bytes(32)): (400, "doesn't work"),
        "/link/not-a-link": (400, "doesn't work"),
        (await link_for(table))[:-3]: (400, "doesn't work"),
    }
    for path, (expected, words) in cases.items():
        status, page = await follow(browser, path)
        assert status == expected, path
        assert words in page and "/gate table" in page and "Traceback" not in page
    assert (await game_of(browser))["view"]["deal"] == 5  # still the guest


async def test_after_a_forget_me_neither_the_link_nor_the_session_it_started_reaches_the_player(table: Table) -> None:
    await table.service.new_game(ALICE, "gate", deal=7)
    browser = await table.browser()
    await browser.deal(5)
    first = await link_for(table)
    unused = await link_for(table)
    assert (await follow(browser, first))[0] == 303
    await browser.open()
    assert (await game_of(browser))["view"]["deal"] == 7

    assert await table.service.forget(ALICE)  # /gate forget-me in chat
    again = await table.service.new_game(ALICE, "gate", deal=9)  # and plays again: a new row
    assert again.saved

    refused = await browser.client.get("/api/game")
    assert refused.status == 403
    assert "/gate table" in (await refused.json())["error"]
    assert (await game_of(browser))["view"]["deal"] == 5  # back to the guest, whose game was kept
    status, page = await follow(browser, unused)  # a link made before the forget-me, replayed
    assert status == 410 and "deleted" in page
    assert (await game_of(browser))["view"]["deal"] == 5


async def test_forget_me_on_the_page_of_a_signed_in_player_forgets_them_and_the_guest(table: Table) -> None:
    await table.service.new_game(ALICE, "gate", deal=7)
    browser = await table.browser()
    await browser.deal(5)
    guest = table.owner()
    await follow(browser, await link_for(table))
    await browser.open()
    forgot = await browser.post("/api/forget", {})
    assert forgot.status == 200 and "deleted" in (await forgot.json())["message"]
    assert await table.service.player_id(ALICE) is None
    assert await table.service.player_id(guest) is None


async def test_sign_out_takes_a_linked_browser_back_to_its_guest_game(table: Table) -> None:
    await table.service.new_game(ALICE, "gate", deal=7)
    browser = await table.browser()
    await browser.deal(5)
    status, _ = await follow(browser, await link_for(table))
    assert status == 303
    page = await (await browser.client.get("/")).text()
    assert 'action="signout"' in page and 'href="signin"' not in page  # no OAuth2 client here: no Sign in
    await browser.open()
    out = await browser.client.post("/signout", data={"csrf": browser.token}, allow_redirects=False)
    assert out.status == 303
    shown = await game_of(browser)
    assert shown["view"]["deal"] == 5 and "signed out" in shown["notice"]
    assert 'action="signout"' not in await (await browser.client.get("/")).text()
    old = browser.token
    await browser.open()
    assert browser.token != old  # a fresh CSRF token after the sign-out
