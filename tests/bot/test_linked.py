"""A Discord player's way to the web table, and chat boards that follow moves made elsewhere, over the fake Discord.

``/gate table`` answers privately with a link button; a move made outside the bot's own answer
(the web table plays through the same service, signed in as the Discord player) edits the chat
board once, coalesced, in the player's style, and survives Discord's failures.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from yarl import URL

from gatebot.service import Actor
from gatebot.service.links import Link, LinkExpired, Links
from gatebot.settings import WebSettings
from gatebot.web import build_app
from gatebot.web.guard import RateLimit
from tests.bot.challenges.test_challenges import create
from tests.bot.gatebots import Running, told_privately
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.lines import WIN_DEAL_1

KEY = bytes(range(32))
PUBLIC = "https://table.example.org/play/"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"


@pytest.fixture
def settings_options() -> dict[str, Any]:
    return {"web_link": WebSettings(secret_key=KEY, public_url=PUBLIC)}


def alice(fake: FakeDiscord) -> Actor:
    """Alice as the web table plays for her once she followed her link."""
    return Actor("discord", str(fake.user("alice").id), "alice", guessed_locale=True)


def edits_of(fake: FakeDiscord, board: StoredMessage) -> list[Any]:
    return [r for r in fake.requests_to(EDIT) if r.path.endswith(f"/{board.id}")]


def header(message: StoredMessage) -> str:
    return message.content.removeprefix("```\n").split("\n", 1)[0]


async def dealt(run: Running) -> StoredMessage:
    """Deal 1 by /gate new in #general: the board message."""
    fake = run.fake
    handle = await fake.send_command("gate new", {"deal": 1})
    await handle.response()
    assert handle.original is not None
    return handle.original


@pytest.mark.parametrize("settings_options", [{}])
async def test_without_a_public_address_the_command_says_the_table_is_not_set_up(gatebot: Callable) -> None:
    run: Running = await gatebot()
    said = await told_privately(await run.fake.send_command("gate table"))
    assert "isn't set up" in said and said.count(".") == 1


async def test_the_command_gives_a_private_link_that_names_the_asker_and_expires(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    fake.user("alice").locale = "de"
    handle = await fake.send_command("gate table")
    callback = await handle.response()
    shown = handle.original if callback.type == 4 else await handle.original_edited()
    assert shown is not None and shown.ephemeral
    assert "10 Minuten" in shown.content  # in the asker's language
    buttons = [c for row in shown.components for c in row["components"]]
    assert len(buttons) == 1 and buttons[0]["style"] == 5  # a link button, no custom id
    url = URL(buttons[0]["url"])
    assert str(url).startswith(f"{PUBLIC}link/")
    link = Links(KEY).open(url.name)
    assert link.user_id == str(fake.user("alice").id)
    assert link.player_id == await run.bot.services.games.player_id(alice(fake))
    later = Links(KEY, clock=lambda: time.time() + 11 * 60)
    with pytest.raises(LinkExpired):
        later.open(url.name)


async def test_a_move_made_elsewhere_edits_the_chat_board_once_and_a_chat_move_is_not_drawn_twice(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake, service = run.fake, run.bot.services.games
    board = await dealt(run)
    assert "0 moves" in header(board)

    # A chat move edits its own board once; the follower sees the change but the bot drew it already.
    await (await fake.send_command("gate move", {"moves": "3f"})).response()
    await fake.wait_for(lambda: edits_of(fake, board) or None, what="the chat move's edit")
    await asyncio.sleep(1.5)  # room for a second edit, if one were coming
    assert len(edits_of(fake, board)) == 1

    # A move made elsewhere (as the web table makes it): the chat board follows within about a second.
    row = await run.game_row()
    played = await service.play(alice(fake), "76", expected_version=row.version)
    assert played.saved
    await fake.wait_for(lambda: "2 moves" in header(fake.message(board.id)) or None, timeout=10,
                        what="the board redrawn")
    assert "2 moves" in header(fake.message(board.id))
    assert len(edits_of(fake, board)) == 2
    assert f"gate:draw:{row.id}:{played.version}" in fake.message(board.id).custom_ids()  # fresh buttons: usable

    # A burst of moves elsewhere is coalesced: the board ends on the latest, with fewer edits than moves.
    before = len(edits_of(fake, board))
    version = played.version
    for _ in range(6):
        reply = await service.play(alice(fake), "d", expected_version=version)
        assert reply.saved
        version = reply.version
    await fake.wait_for(lambda: f":{version}" in " ".join(fake.message(board.id).custom_ids()) or None,
                        timeout=10, what="the latest version on the board")
    await asyncio.sleep(1.5)
    assert 1 <= len(edits_of(fake, board)) - before <= 3
    assert any(c.endswith(f":{version}") for c in fake.message(board.id).custom_ids())


async def test_a_failed_edit_is_tried_again_and_a_deleted_board_is_forgotten(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake, service = run.fake, run.bot.services.games
    board = await dealt(run)
    row = await run.game_row()

    fake.fail(EDIT, 503, times=1)  # Discord unavailable once: discord.py doesn't retry a 503 itself
    reply = await service.play(alice(fake), "3f", expected_version=row.version)
    await fake.wait_for(lambda: any(c.endswith(f":{reply.version}") for c in fake.message(board.id).custom_ids())
                        or None, timeout=15, what="the board redrawn after the failure")
    statuses = [r.status for r in edits_of(fake, board)]
    assert statuses[0] == 503 and statuses[-1] == 200

    fake.fail(EDIT, 404, code=10008)  # the board message was deleted
    again = await service.play(alice(fake), "d", expected_version=reply.version)
    await fake.wait_for(lambda: any(r.status == 404 for r in edits_of(fake, board)) or None, what="the 404")
    assert await stored_board(run, lambda board_id: board_id is None) is None
    # The next chat move posts a fresh board rather than editing a message that is gone.
    moved = await fake.send_command("gate move", {"moves": "d"})
    await moved.response()
    fresh = await stored_board(run, lambda board_id: board_id is not None)
    assert fresh is not None and fresh != board.id and moved.original is not None and fresh == moved.original.id
    assert again.saved


async def stored_board(run: Running, wanted: Callable[[int | None], bool], timeout: float = 10) -> int | None:
    """The game's stored board message id, once ``wanted`` holds for it (else as it is after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        board_id = (await run.game_row()).board_message_id
        if wanted(board_id) or time.monotonic() > deadline:
            return board_id
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("settings_options", [{"web_link": WebSettings(secret_key=KEY, public_url=PUBLIC),
                                               "shard_count": 1, "shard_ids": (0,)}])
async def test_with_shards_named_a_board_in_a_direct_message_follows_too(gatebot: Callable) -> None:
    """Direct messages are shard 0's, yet discord.py caches no channel of a DM that only interactions came from."""
    run: Running = await gatebot()
    fake, service = run.fake, run.bot.services.games
    await run.bot.tree.sync()  # global commands, usable in DMs
    handle = await fake.send_command("gate new", {"deal": 1}, dm=True)
    await handle.response()
    assert handle.original is not None
    board = handle.original
    row = await run.game_row()
    played = await service.play(alice(fake), "3f", expected_version=row.version)
    await fake.wait_for(lambda: any(c.endswith(f":{played.version}") for c in fake.message(board.id).custom_ids())
                        or None, timeout=10, what="the direct message's board redrawn")
    again = await service.play(alice(fake), "d", expected_version=played.version)
    await fake.wait_for(lambda: any(c.endswith(f":{again.version}") for c in fake.message(board.id).custom_ids())
                        or None, timeout=10, what="the board redrawn again")
    assert [r.status for r in edits_of(fake, board)] == [200, 200]
    looked_up = fake.requests_to("GET /channels/{channel_id}")
    assert [r.path for r in looked_up] == [f"/channels/{board.channel_id}"], "looked up once, then remembered"


def won_boards(fake: FakeDiscord) -> list[StoredMessage]:
    """The bot's messages in #general that show a won game."""
    return [m for m in fake.messages(fake.channel) if "Win streak:" in m.content]


def labels(message: StoredMessage) -> list[str]:
    return [str(c.get("label")) for row in message.components for c in row["components"]]


async def test_a_challenge_played_on_the_table_is_counted_and_its_win_posted_in_chat_once_as_in_chat(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake, service = run.fake, run.bot.services.games
    bob = fake.user("bob")
    announcement = await create(run, name="Friday", deal=1)
    friday = (await run.challenges())[0]

    # Bob plays and wins in chat: his board says so, and nothing more is posted for it.
    await (await fake.send_command("challenge play", {"challenge": friday.id}, user=bob)).response()
    await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)}, user=bob)).response()
    in_chat = await fake.wait_for(lambda: won_boards(fake) or None, what="Bob's board saying he won")
    await fake.wait_for(lambda: "1 has played" in fake.message(announcement.id).content or None,
                        what="the announcement counting Bob")
    await asyncio.sleep(1.5)  # room for the follower to redraw Bob's board, were it to
    bobs_edits = len(edits_of(fake, in_chat[0]))

    # Alice starts her attempt on the table (the Activity's Play) and wins it there: no board of hers in chat yet.
    app = build_app(service, WebSettings(), KEY, rate=RateLimit(rate=1000, burst=1000))
    async with TestClient(TestServer(app)) as client:
        player_id = await service.sign_in(alice(fake))
        followed = await client.get(f"/link/{Links(KEY).seal(Link(str(fake.user('alice').id), player_id, 'alice'))}")
        assert followed.status == 200
        token = (await followed.text()).split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
        started = await client.post("/api/activity/challenge", json={"guild": str(fake.guild.id)},
                                    headers={"X-CSRF-Token": token})
        assert started.status == 200, await started.text()
        version = (await started.json())["view"]["version"]
        # Her attempt counts on the announcement, as one begun with chat's Play does.
        await fake.wait_for(lambda: "2 have played" in fake.message(announcement.id).content or None, timeout=10,
                            what="the announcement's count")
        assert not [m for m in fake.messages(fake.channel) if "alice" in m.content.casefold()]
        fake.fail(POST, 503, times=1)  # Discord unavailable once: the post is tried again, and made once
        won = await client.post("/api/play", json={"move": " ".join(WIN_DEAL_1), "version": version},
                                headers={"X-CSRF-Token": token})
        assert won.status == 200 and (await won.json())["view"]["status"] == "won"
    posted = await fake.wait_for(lambda: won_boards(fake)[1:] or None, timeout=10, what="Alice's win posted")
    await asyncio.sleep(1.5)  # room for a second post or edit, if one were coming
    assert won_boards(fake) == [in_chat[0], posted[0]], "each win shown once"
    board = posted[0]
    assert [r.status for r in fake.requests_to(POST)][-2:] == [503, 200]
    assert labels(board) == labels(in_chat[0])  # the same won board: Share result, Play again, Replay...
    assert "Friday" in board.content and "deal 1" not in board.content.casefold()
    said, bob_said = board.content.rsplit("```", 1)[1], fake.message(in_chat[0].id).content.rsplit("```", 1)[1]
    assert "That took " in said and "Win streak: 1." in said  # the win message, as Bob's
    assert said.split(":")[0] == bob_said.split(":")[0] and "Your first win of Gate." in said
    assert (await run.game_row()).board_message_id == board.id  # her board now: a later change edits it
    assert len(edits_of(fake, in_chat[0])) == bobs_edits, "Bob's chat win is not drawn again"
    assert len(edits_of(fake, announcement)) == 2, "counted once for Bob, once for Alice"
