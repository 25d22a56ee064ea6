"""The table as a Discord Activity in Chromium: a stand-in for Discord's client frames it and plays its SDK part.

A parent page served by the test on another origin (``http://localhost:3333``, one of the origins
the Embedded App SDK accepts messages from besides Discord's own) frames the table with the query
Discord adds (``frame_id``, ``instance_id``, ``platform``) and answers the SDK's postMessage
traffic as Discord's client does: the HANDSHAKE with a READY dispatch, then the AUTHORIZE command
with a code the fake Discord made for Alice, and AUTHENTICATE, each frame matched by its nonce
(a first load refuses AUTHORIZE, as when the player closes Discord's modal: one sentence, no game);
then the instance's participants, asked for and sent again as an update when someone joins.
The table exchanges the code with the fake Discord, so the framed page shows Alice's chat game,
and a tap on it edits her board message in chat. The bot runs in the same process (boards with
Open the table, which answers with LAUNCH_ACTIVITY), every request it and the table send to the
fake checked against Discord's API description.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from gatebot.bot.client import GateBot
from gatebot.service import Actor, GameService
from gatebot.service.challenges import ChallengeService
from gatebot.settings import ActivitySettings, Settings, WebSettings
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.web import build_app
from gatebot.web.guard import RateLimit
from gatebot.web.serve import start
from tests.bot.running import run_until_ready
from tests.fake_discord import FakeDiscord, use_base_url
from tests.fake_discord.oauth import CLIENT_SECRET
from tests.web.browser.conftest import KEY, text_of, wait
from tests.web.browser.table import shown_version, stored, tap_move
from tests.web.browser.test_chat import Both, moves_on

#: Bytes the frame's page and everything it fetched came over the wire as (headers included; a live stream's so far).
TRANSFERRED = """
return performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
  .reduce((sum, entry) => sum + (entry.transferSize || 0), 0);
"""

#: Where the stand-in for Discord's client is served: an origin the SDK takes messages from.
PARENT_PORT = 3333
PARENT = f"http://localhost:{PARENT_PORT}"

#: Discord's client's side of the SDK's protocol: opcodes HANDSHAKE 0 and FRAME 1; commands answered by nonce.
PARENT_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (a stand-in)</title>
<style>html, body { margin: 0; height: 100%; }
iframe { border: 0; width: 100vw; height: 100vh; display: block; }</style>
</head><body><iframe id="activity" src="__SRC__"></iframe>
<script>
const answers = __ANSWERS__;
const frame = document.getElementById("activity");
const origin = new URL(frame.src).origin;
window.heard = [];
const send = (body) => frame.contentWindow.postMessage([1, body], origin);
// An event Discord's client sends when it happens (someone opened or closed the Activity).
window.dispatch = (evt, data) => send({ cmd: "DISPATCH", evt, nonce: null, data });
window.addEventListener("message", (event) => {
  if (event.origin !== origin || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  window.heard.push({ opcode, cmd: payload.cmd || null, args: payload.args || null, evt: payload.evt || null });
  if (opcode === 0) {
    send({ cmd: "DISPATCH", evt: "READY", nonce: null,
           data: { v: 1, config: { api_endpoint: "//discord.com/api", environment: "production" } } });
  } else if (opcode === 1 && payload.cmd === "AUTHORIZE" && location.search === "?refuse") {
    // The player closed Discord's authorisation modal: Discord's client answers the command with an error.
    send({ cmd: payload.cmd, evt: "ERROR", nonce: payload.nonce, data: { code: 5000, message: "Cancelled" } });
  } else if (opcode === 1) {
    send({ cmd: payload.cmd, evt: null, nonce: payload.nonce, data: answers[payload.cmd] || null });
  }
});
</script></body></html>
"""


#: Gate at the deal: two reserves of five and a card on each of the eight columns, the rest in the stock.
FACE_UP = 2 * 5 + 8
#: The frame's width and height, and how many face-up cards lie wholly inside it (-1 when Undo doesn't):
#: the whole board shows at a size (the picture-in-picture and phone checks).
LAID_OUT = """
const inside = (r) => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
const undo = document.getElementById("undo").getBoundingClientRect();
const cards = [...document.querySelectorAll(".card[data-card]")].filter((c) => inside(c.getBoundingClientRect()));
return [innerWidth, innerHeight, inside(undo) ? cards.length : -1];
"""


def _whole_at_window_size(driver: WebDriver) -> bool:
    """Whether the frame is wider than the sizes emulated (400 at most) and shows the whole board."""
    width, _, shown = driver.execute_script(LAID_OUT)
    return bool(width > 400 and shown == FACE_UP)


def _free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: TIME_WAIT is no matter
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.fixture
def both(tmp_path: Path) -> Iterator[Both]:
    """The bot (Activities enabled), its fake Discord and the table (an Activity) on one loop in a thread."""
    if not _free(PARENT_PORT):
        pytest.skip(f"port {PARENT_PORT} (the stand-in for Discord's client) is taken")
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="bot and table", daemon=True)
    thread.start()
    solver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="solver")
    url = f"sqlite+aiosqlite:///{tmp_path}/gatebot.db"
    held: dict[str, Any] = {}

    async def open_both() -> Both:
        fake = held["fake"] = await FakeDiscord().start()
        held["restore"] = use_base_url(fake.api_base)
        db = held["db"] = Database(url)
        await ensure_schema(db)
        service = held["service"] = GameService(db, new_command="/gate new", end_prompt="Press End game to finish",
                                                solver=solver)
        activity = ActivitySettings(str(fake.application_id), CLIENT_SECRET, fake.api_base,
                                    frame_ancestors=(PARENT,))
        app = build_app(service, WebSettings(activity=activity), KEY, rate=RateLimit(rate=1000, burst=1000))
        runner, address = await start(app, "127.0.0.1", 0)
        held["runner"] = runner
        settings = Settings(token=fake.token, database_url=url, dev_guild_id=fake.guild.id, activities=True)
        bot = held["bot"] = GateBot(settings, service, tick_every=3600, guild_ready_timeout=0.05)
        held["task"] = await run_until_ready(bot, fake.token)
        await fake.wait_for_commands(fake.guild)
        # The page is reached as localhost, the same site as the stand-in (as discordsays.com is Discord's proxy).
        return Both(loop, fake, address.replace("127.0.0.1", "localhost"))

    async def close() -> None:
        for key, step in (("bot", lambda: held["bot"].close()), ("task", lambda: held["task"]),
                          ("parent", lambda: held["parent"].cleanup()), ("runner", lambda: held["runner"].cleanup())):
            if key in held:
                await step()
        if "service" in held:
            held["service"].close()
        if "db" in held:
            await held["db"].dispose()
        if "restore" in held:
            held["restore"]()
        if "fake" in held:
            await held["fake"].stop()

    try:
        running = asyncio.run_coroutine_threadsafe(open_both(), loop).result(60)
        running.held = held  # type: ignore[attr-defined]
        yield running
    finally:
        asyncio.run_coroutine_threadsafe(close(), loop).result(60)
        solver.shutdown(wait=True, cancel_futures=True)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


async def _serve_parent(both: Both, page: str) -> None:
    async def parent(_request: web.Request) -> web.Response:
        return web.Response(text=page, content_type="text/html")

    app = web.Application()
    app.router.add_get("/", parent)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", PARENT_PORT).start()
    both.held["parent"] = runner  # type: ignore[attr-defined]


def test_discord_frames_the_table_alice_is_signed_in_sees_who_is_here_and_plays_the_servers_challenge(
    chromium: WebDriver, both: Both, record_property: Callable[[str, object], None],
) -> None:
    fake = both.fake
    alice = fake.user("alice")

    async def command(name: str, options: dict[str, Any] | None = None) -> Any:
        handle = await fake.send_command(name, options)
        await handle.settled()
        return handle

    both.run(command("gate new", {"deal": 1}))
    board = next(m for m in reversed(fake.messages(fake.channel)) if "gate:draw:" in str(m.custom_ids()))
    launch = next(c for c in board.custom_ids() if c.startswith("gate:launch:"))
    pressed = both.run(fake.click(board, launch))
    assert both.run(pressed.response()).type == 12  # LAUNCH_ACTIVITY: Discord opens the frame below

    code = fake.authorize(alice)
    user = {"id": str(alice.id), "username": alice.username, "discriminator": "0", "avatar": None,
            "public_flags": 0, "global_name": alice.global_name}
    answers = {
        "AUTHORIZE": {"code": code},
        "AUTHENTICATE": {"access_token": "filled-in-below", "user": user, "scopes": ["identify"],
                         "expires": "2030-01-01T00:00:00+00:00",
                         "application": {"id": str(fake.application_id), "name": "gatebot", "description": "",
                                         "icon": None, "rpc_origins": []}},
    }
    def participant(user_id: object, username: str, global_name: str | None) -> dict[str, Any]:
        return {"id": str(user_id), "username": username, "global_name": global_name, "discriminator": "0",
                "avatar": None, "flags": 0, "bot": False}

    bob = fake.user("bob")
    me, him, carol = (participant(alice.id, alice.username, alice.global_name),
                      participant(bob.id, bob.username, "<b>Bob</b>"), participant(7_000_001, "carol", None))
    answers["SUBSCRIBE"] = {"evt": "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"}
    answers["GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS"] = {
        "participants": [me, him]}
    challenges = ChallengeService(both.held["service"])  # type: ignore[attr-defined]
    friday = both.run(challenges.create(Actor("discord", "1", "an admin"), fake.guild.id, channel_id=fake.channel.id,
                                        name="Friday", deal=424242))
    src = (f"{both.address}?frame_id=frame-1&instance_id=instance-1&platform=desktop"
           f"&guild_id={fake.guild.id}&channel_id={fake.channel.id}")
    page = PARENT_PAGE.replace("__SRC__", src).replace("__ANSWERS__", json.dumps(answers))
    both.run(_serve_parent(both, page))

    chromium.delete_all_cookies()
    chromium.set_window_size(1280, 800)
    chromium.get(PARENT + "/?refuse")  # first the player refuses: one sentence, no game shown
    chromium.switch_to.frame(chromium.find_element(By.ID, "activity"))
    try:
        wait(chromium, 20).until(lambda d: "didn't sign you in" in text_of(d, "message"),
                                 "the refusal said")
        record_property("first_load_transferred_bytes", chromium.execute_script(TRANSFERRED))  # nothing cached yet
        assert shown_version(chromium) is None
    finally:
        chromium.switch_to.default_content()
    started = time.perf_counter()
    chromium.get(PARENT + "/")
    chromium.switch_to.frame(chromium.find_element(By.ID, "activity"))
    try:
        wait(chromium, 20).until(lambda d: shown_version(d) is not None, "the table signed in inside the frame")
        # Figures for the docs (never asserted): launch to a playable board, and what the frame loaded.
        record_property("launch_to_board_seconds", round(time.perf_counter() - started, 3))
        record_property("second_load_transferred_bytes", chromium.execute_script(TRANSFERRED))
        view = stored(chromium)
        assert (view["deal"], view["moves_played"]) == (1, 0)  # Alice's chat game, not a guest's deal
        for size in ((400, 225), (390, 844)):  # Discord's picture-in-picture, and a phone
            chromium.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                     {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
            wait(chromium).until(lambda d, size=size: d.execute_script(LAID_OUT) == [*size, FACE_UP],
                                 f"the board at {size}")
        chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        # Back at the window's size, and laid out for it, before the taps look for their places: a tap
        # aimed at the phone's taller layout would land below the window.
        wait(chromium).until(_whole_at_window_size, "the board at the window's size again")
        tap_move(chromium, view, "76")
        wait(chromium, 10).until(lambda d: shown_version(d) == view["version"] + 1, "the tap answered")
    finally:
        chromium.switch_to.default_content()
    heard = chromium.execute_script("return window.heard")  # since the second load
    commands = [entry["cmd"] for entry in heard if entry["opcode"] == 1]
    assert heard[0]["opcode"] == 0 and commands[:2] == ["AUTHORIZE", "AUTHENTICATE"], heard
    assert heard[1]["args"]["scope"] == ["identify"] and heard[1]["args"]["client_id"] == str(fake.application_id)
    issued = heard[2]["args"]["access_token"]
    assert fake.state.oauth.tokens[issued].user.id == alice.id  # the token the table got for Alice's code

    edited = both.run(fake.wait_for(lambda: fake.message(board.id) if "1 move" in moves_on(fake.message(board.id))
                                    else None, timeout=10, what="the chat board edited"))
    assert any(custom.endswith(f":{view['version'] + 1}") for custom in edited.custom_ids())

    # Who else is here, as Discord's client says (Alice herself left out), and again when Carol joins.
    chromium.switch_to.frame(chromium.find_element(By.ID, "activity"))
    try:
        wait(chromium, 10).until(lambda d: d.find_element(By.ID, "here").text == "Also here: <b>Bob</b>",
                                 "the participants shown")
        assert not chromium.find_elements(By.CSS_SELECTOR, "#here b"), "a name is text, never markup"
        chromium.switch_to.default_content()
        chromium.execute_script("window.dispatch('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', arguments[0])", {
"participants": [me, him, carol]})
        chromium.switch_to.frame(chromium.find_element(By.ID, "activity"))
        wait(chromium, 10).until(lambda d: d.find_element(By.ID, "here").text
                                 == "Also here: <b>Bob</b>, carol", "the update shown")

        # The server's open challenge, never its deal; Play asks first (Alice's game is running), then starts it.
        card = wait(chromium, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".challenge"), "the challenge")[0]
        assert "Friday" in card.text and "Gate" in card.text and "424242" not in chromium.page_source
        card.find_element(By.TAG_NAME, "button").click()
        wait(chromium, 10).until(lambda d: card.find_element(By.TAG_NAME, "button").text == "Start my attempt",
                                 "the question asked")
        assert stored(chromium)["deal"] == 1  # nothing changed yet
        card.find_element(By.TAG_NAME, "button").click()
        wait(chromium, 10).until(lambda d: "Friday" in d.find_element(By.ID, "facts").text, "the attempt shown")
        assert stored(chromium)["deal"] is None and "424242" not in chromium.page_source
        card.find_element(By.TAG_NAME, "button").click()  # a second attempt: chat's sentence
        wait(chromium, 10).until(lambda d: "already played Friday" in text_of(d, "message"),
                                 "the second attempt refused")
    finally:
        chromium.switch_to.default_content()
    heard = chromium.execute_script("return window.heard")
    assert {"SUBSCRIBE", "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS"} <= {entry["cmd"] for entry in heard}
    assert friday.id == both.run(challenges.open_challenges(fake.guild.id))[0].id
    assert not fake.violations, fake.violations
