"""The web table's API as a browser (and an attacker) meets it: every endpoint's errors, one sentence each."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from aiohttp import ClientConnectionError, ClientResponse

from gatebot.service import Actor, Reply, ReplyKind
from gatebot.service.challenges import ChallengeService
from gatebot.web.api import LIVE
from gatebot.web.guard import CONTENT_SECURITY_POLICY, RateLimit
from tests.lines import NO_WIN_DEAL_1
from tests.web.conftest import Table, make_table

INTERNALS = ("Traceback", "aiohttp", "File \"", "Error:", "gatebot/", "RuntimeError", "secret internal")


def assert_one_friendly_sentence(text: str) -> None:
    for word in INTERNALS:
        assert word not in text


async def test_the_page_carries_a_csrf_token_the_security_headers_and_a_sealed_httponly_cookie(table: Table) -> None:
    browser = await table.browser()
    response = await browser.client.get("/")
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self';" in CONTENT_SECURITY_POLICY and "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    page = await response.text()
    assert "<script>" not in page and "style=" not in page and "http://" not in page and "https://" not in page
    cookie = next(iter(browser.client.session.cookie_jar))
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert "guest" not in cookie.value and browser.token not in cookie.value  # encrypted, not just signed


async def test_a_move_through_the_api_changes_the_stored_game(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    response = await browser.post("/api/play", {"move": "rf", "version": dealt["version"]})
    assert response.status == 200
    view = (await response.json())["view"]
    assert view["version"] == dealt["version"] + 1 and view["moves_played"] == 1
    stored = await table.service.show(table.owner())
    assert stored.version == view["version"]
    assert [str(move) for move in stored.game.moves] == ["rf"]


async def test_a_move_from_an_out_of_date_page_is_refused_with_the_board_as_it_is_now(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    first = await browser.post("/api/play", {"move": "d", "version": dealt["version"]})
    now = (await first.json())["view"]
    again = await browser.post("/api/play", {"move": "d", "version": dealt["version"]})  # the same press, replayed
    assert again.status == 409
    body = await again.json()
    assert body["error"] and body["view"] == now
    stored = await table.service.show(table.owner())
    assert len(stored.game.moves) == 1  # nothing played twice


async def test_a_refused_move_says_why_in_the_readers_language_and_changes_nothing(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    response = await browser.post("/api/play", {"move": "kf", "version": dealt["version"]},
                                  **{"Accept-Language": "de-DE,de;q=0.9"})
    assert response.status == 422
    body = await response.json()
    assert "kein Zug" in body["error"]
    assert body["view"]["version"] == dealt["version"]


@pytest.mark.parametrize(("body", "status"), [
    ("{not json", 400),
    ("[1, 2]", 400),
    ('{"move": "d"}', 400),  # no version
    ('{"move": "d", "version": "1"}', 400),
    ('{"move": "", "version": 1}', 400),
    ('{"move": 7, "version": 1}', 400),
])
async def test_a_malformed_request_gets_one_sentence_and_changes_nothing(table: Table, body: str, status: int) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    response = await browser.client.post("/api/play", data=body, headers={
        "X-CSRF-Token": browser.token, "Content-Type": "application/json"})
    assert response.status == status
    error = (await response.json())["error"]
    assert error.endswith(".") and error.count(". ") == 0
    assert_one_friendly_sentence(error)
    assert (await table.service.show(table.owner())).version == dealt["version"]


async def test_a_ten_megabyte_body_is_refused_and_nothing_changes(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    huge = json.dumps({"move": "d" * (10 * 1024 * 1024), "version": dealt["version"]})
    try:
        response = await browser.client.post("/api/play", data=huge, headers={
            "X-CSRF-Token": browser.token, "Content-Type": "application/json"})
    except ClientConnectionError:
        pass  # the server may close the connection before the client finishes sending: also a refusal
    else:
        assert response.status == 413
        assert_one_friendly_sentence((await response.json())["error"])
    assert (await table.service.show(table.owner())).version == dealt["version"]


async def test_a_wrong_content_type_is_refused(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    response = await browser.client.post("/api/play", data="move=d&version=1", headers={
        "X-CSRF-Token": browser.token, "Content-Type": "application/x-www-form-urlencoded"})
    assert response.status == 415
    assert "JSON" in (await response.json())["error"]
    assert (await table.service.show(table.owner())).version == dealt["version"]


async def test_a_change_without_the_csrf_token_or_with_a_wrong_one_is_refused(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    for headers in ({}, {"X-CSRF-Token": "guessed"}, {"X-CSRF-Token": browser.token[:-1] + "x"}):
        response = await browser.client.post("/api/play", json={"move": "d", "version": dealt["version"]},
                                             headers=headers)
        assert response.status == 403
        assert_one_friendly_sentence((await response.json())["error"])
    assert (await table.service.show(table.owner())).version == dealt["version"]


async def test_a_token_from_another_session_does_not_work_in_this_one(table: Table) -> None:
    alice, bob = await table.browser(), await table.browser()
    dealt = await alice.deal(5)
    response = await alice.client.post("/api/play", json={"move": "d", "version": dealt["version"]},
                                       headers={"X-CSRF-Token": bob.token})
    assert response.status == 403
    assert (await table.service.show(table.owner())).version == dealt["version"]


@pytest.mark.parametrize("headers", [
    {"Origin": "https://evil.example"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Origin": "null"},
])
async def test_a_cross_site_request_is_refused_even_with_the_token(table: Table, headers: dict[str, str]) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    response = await browser.post("/api/play", {"move": "d", "version": dealt["version"]}, **headers)
    assert response.status == 403
    assert "another site" in (await response.json())["error"]
    assert (await table.service.show(table.owner())).version == dealt["version"]


async def test_a_cross_site_form_post_is_refused(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    response = await browser.client.post("/api/play", data={"move": "d", "version": "1"}, headers={
        "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert response.status == 403
    assert (await table.service.show(table.owner())).version == dealt["version"]


async def test_another_guests_game_is_out_of_reach_with_a_guessed_or_forged_cookie(table: Table) -> None:
    alice = await table.browser()
    await alice.deal(5)
    alice_cookie = next(iter(alice.client.session.cookie_jar))
    mallory = await table.browser()
    for forged in (alice_cookie.value[:-4] + "AAAA", "gAAAAA" + "x" * 120, ""):
        mallory.client.session.cookie_jar.clear()
        mallory.client.session.cookie_jar.update_cookies({"gatebot_session": forged})
        response = await mallory.client.get("/api/game")
        assert response.status == 200
        assert (await response.json())["view"] is None  # a new guest, with no game
    own = await (await alice.client.get("/api/game")).json()
    assert own["view"]["deal"] == 5


async def test_two_guests_each_reach_only_their_own_game(table: Table) -> None:
    alice, bob = await table.browser(), await table.browser()
    await alice.deal(5)
    await bob.deal(9, variant="canfield")
    assert (await (await alice.client.get("/api/game")).json())["view"]["deal"] == 5
    assert (await (await bob.client.get("/api/game")).json())["view"]["variant"] == "canfield"


async def test_404_and_405_are_pages_without_internals(table: Table) -> None:
    browser = await table.browser()
    page = await browser.client.get("/no/such/page")
    assert page.status == 404 and page.content_type == "text/html"
    text = await page.text()
    assert "nothing here" in text
    assert_one_friendly_sentence(text)
    assert page.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    api = await browser.client.get("/api/nothing")
    assert api.status == 404 and "error" in await api.json()
    wrong = await browser.client.delete("/api/game", headers={"X-CSRF-Token": browser.token})
    assert wrong.status == 405
    assert_one_friendly_sentence((await wrong.json())["error"])
    get_play = await browser.client.get("/api/play")
    assert get_play.status == 405


async def test_an_unexpected_failure_is_an_apology_with_nothing_internal(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    browser = await table.browser()

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internal detail at gatebot/service/games.py")

    monkeypatch.setattr(table.service, "show", broken)
    response = await browser.client.get("/api/game")
    assert response.status == 500
    body = await response.text()
    assert "try again" in body
    assert_one_friendly_sentence(body)


async def test_too_many_requests_get_a_friendly_429(tmp_path: Path) -> None:
    db, table = await make_table(tmp_path, RateLimit(rate=0.001, burst=3))
    try:
        browser = await table.browser()
        statuses = [(await browser.client.get("/api/game")).status for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        response = await browser.client.get("/api/game")
        assert "wait a moment" in (await response.json())["error"]
    finally:
        for each in table.browsers:
            await each.client.close()
        table.service.close()
        await db.dispose()


async def test_a_hint_explains_a_move_and_plays_nothing(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    response = await browser.post("/api/hint", {"version": dealt["version"]})
    assert response.status == 200
    body = await response.json()
    assert body["kind"] == ReplyKind.HINT.value and body["message"]
    assert (await table.service.show(table.owner())).version == dealt["version"]


async def test_undo_takes_back_the_move_and_a_new_deal_asks_before_abandoning(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    played = await (await browser.post("/api/play", {"move": "rf", "version": dealt["version"]})).json()
    undone = await (await browser.post("/api/undo", {"version": played["view"]["version"]})).json()
    assert undone["view"]["moves_played"] == 0 and undone["view"]["score"] == 0
    asked = await (await browser.post("/api/new", {"variant": "canfield"})).json()
    assert asked["kind"] == "confirm"
    assert (await table.service.show(table.owner())).game.name == "gate"
    bad = await browser.post("/api/new", {"variant": "gate", "deal": "five"})
    assert bad.status == 400


async def test_forget_me_deletes_the_guests_games_and_ends_their_session(table: Table) -> None:
    browser = await table.browser()
    await browser.deal(5)
    guest = table.owner()
    response = await browser.post("/api/forget", {})
    assert response.status == 200
    assert "deleted" in (await response.json())["message"]
    assert (await table.service.show(guest)).game is None
    assert (await (await browser.client.get("/api/game")).json())["view"] is None


async def test_the_live_stream_sends_the_board_then_a_change_made_through_the_service(table: Table) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    guest = table.owner()
    response = await browser.client.get("/api/events")
    assert response.headers["Content-Type"].startswith("text/event-stream")

    async def next_view() -> dict:
        lines: list[bytes] = []
        while True:
            line = await response.content.readline()
            if line == b"\n" and lines:
                break
            lines.append(line)
        data = next(line for line in lines if line.startswith(b"data: "))
        return json.loads(data[len(b"data: "):])["view"]

    first = await asyncio.wait_for(next_view(), 10)
    assert first["version"] == dealt["version"]
    played = await table.service.play(guest, "d")  # as a move typed in chat would be
    pushed = await asyncio.wait_for(next_view(), 10)
    assert pushed["version"] == played.version and pushed["moves_played"] == 1
    response.close()


async def test_a_live_stream_opened_while_the_table_stops_ends_at_once(table: Table) -> None:
    # A page whose stream was ended reconnects by itself, on a connection kept alive: that stream must not
    # hold the shutdown up for the server's whole grace period.
    browser = await table.browser()
    await browser.deal(5)
    table.server.app[LIVE].end_streams()
    response = await browser.client.get("/api/events")
    assert response.status == 200
    await asyncio.wait_for(response.read(), 5)  # the stream ended instead of waiting for changes


async def test_the_live_stream_after_the_pages_own_changes_is_the_board_as_stored_without_reading_it_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    browser = await table.browser()
    dealt = await browser.deal(5)
    streams = [await browser.client.get("/api/events") for _ in range(2)]  # two tabs of one guest

    async def next_data(response: ClientResponse) -> dict:
        lines: list[bytes] = []
        while True:
            line = await response.content.readline()
            if line == b"\n" and lines:
                break
            if not line.startswith(b":"):
                lines.append(line)
        data = next(line for line in lines if line.startswith(b"data: "))
        return json.loads(data[len(b"data: "):])  # type: ignore[no-any-return]

    for stream in streams:
        assert (await asyncio.wait_for(next_data(stream), 10))["view"]["version"] == dealt["version"]
    reads = 0
    show = table.service.show

    async def counted(actor: Actor) -> Reply:
        nonlocal reads
        reads += 1
        return await show(actor)

    monkeypatch.setattr(table.service, "show", counted)
    version = dealt["version"]
    for path, body in [("/api/play", {"move": "d"}), ("/api/play", {"move": "d"}), ("/api/undo", {}),
                       ("/api/new", {"deal": 7, "confirm": True})]:
        answered = await browser.post(path, {**body, "version": version})
        assert answered.status == 200
        events = [await asyncio.wait_for(next_data(stream), 10) for stream in streams]
        monkeypatch.setattr(table.service, "show", show)
        as_stored = await (await browser.client.get("/api/game")).json()
        monkeypatch.setattr(table.service, "show", counted)
        assert events[0] == events[1] == as_stored  # the view, and nothing only the asker is told
        version = as_stored["view"]["version"]
    assert reads == 0  # each board was sent from the change's own answer
    played = await table.service.play(table.owner(), "d")  # a change from elsewhere (chat) is read as stored
    events = [await asyncio.wait_for(next_data(stream), 10) for stream in streams]
    assert events[0]["view"]["version"] == events[1]["view"]["version"] == played.version and reads == 2
    for stream in streams:
        stream.close()


async def test_a_move_that_leaves_no_win_is_answered_at_once_and_the_end_offer_follows_on_the_stream(
    table: Table,
) -> None:
    browser = await table.browser()
    dealt = await browser.deal(1)
    response = await browser.client.get("/api/events")

    async def next_event() -> tuple[str, dict]:
        lines: list[bytes] = []
        while True:
            line = await response.content.readline()
            if line == b"\n" and lines:
                break
            if not line.startswith(b":"):
                lines.append(line)
        name = next(line for line in lines if line.startswith(b"event: "))[len(b"event: "):].strip().decode()
        data = next(line for line in lines if line.startswith(b"data: "))
        return name, json.loads(data[len(b"data: "):])

    assert (await asyncio.wait_for(next_event(), 10))[1]["view"]["version"] == dealt["version"]
    *before, last = NO_WIN_DEAL_1
    moved = await browser.post("/api/play", {"move": " ".join(before), "version": dealt["version"]})
    version = (await moved.json())["view"]["version"]
    played = await browser.post("/api/play", {"move": last, "version": version})
    answered = await played.json()
    assert played.status == 200 and "end" not in answered["view"]["actions"]  # the answer waits for no solver
    events = [await asyncio.wait_for(next_event(), 10) for _ in range(3)]
    offers = [data for name, data in events if name == "offer"]
    assert [name for name, _ in events].count("view") == 2  # the two moves, as stored
    [offer] = offers
    assert offer["view"]["version"] == answered["view"]["version"] and "end" in offer["view"]["actions"]
    assert offer["message"].startswith("No win is left from here")
    assert offer["view"]["game"] == answered["view"]["game"] == dealt["game"]
    response.close()
    shown = await (await browser.client.get("/api/game")).json()  # stored with the game: any later read offers it
    assert "end" in shown["view"]["actions"]


async def test_the_live_stream_needs_a_session(table: Table) -> None:
    browser = await table.browser()
    browser.client.session.cookie_jar.clear()
    response = await browser.client.get("/api/events")
    assert response.status == 403


async def test_an_attempt_at_an_open_challenge_is_named_by_the_challenge_and_its_deal_is_nowhere(table: Table) -> None:
    browser = await table.browser()
    await browser.deal(5)
    player = table.owner()
    challenges = ChallengeService(table.service)
    info = await challenges.create(player, 42, channel_id=None, name="Friday <b>cup</b>", deal=3_141_592_653)
    started = await challenges.play(player, 42, info.id, confirm=True)
    assert started.ok and started.game.deal == info.deal
    text = await (await browser.client.get("/api/game")).text()
    view = json.loads(text)["view"]
    assert view["label"] == "Friday <b>cup</b>" and view["deal"] is None
    assert view["game"] == started.game_id
    assert str(info.deal) not in text
    dealt = await (await browser.post("/api/play", {"move": "d", "version": view["version"]})).text()
    assert json.loads(dealt)["view"]["deal"] is None and str(info.deal) not in dealt
