"""The end of a game on Discord: one win message, then Play again, New deal and Share under the board.

The real gatebot over the fake Discord; random deals come from a counter, so which deal a
press dealt is known.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from gatebot.rules import VARIANTS
from tests.bot.games.test_commands import win_sentences
from tests.bot.gatebots import Running
from tests.bot.test_gatebot import board_of
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.lines import WIN_DEAL_1

#: The deals a "random" deal takes, in order.
RANDOM_DEALS = (617, 618, 619, 620, 621)


@pytest.fixture
def service_options() -> dict[str, Any]:
    deals = itertools.cycle(RANDOM_DEALS)
    return {"deal_picker": lambda: next(deals)}


def component(board: StoredMessage, custom_id_start: str) -> dict[str, Any]:
    """The component of ``board`` whose custom id starts so (StopIteration if it has none)."""
    return next(c for row in board.components for c in row["components"]
                if c.get("custom_id", "").startswith(custom_id_start))


def boards(fake: FakeDiscord) -> list[StoredMessage]:
    return [m for m in fake.messages(fake.channel) if any(c.startswith("gate:draw:") for c in m.custom_ids())]


async def finish_little_gate(run: Running) -> StoredMessage:
    """Alice's Little Gate with single-moves, deal 5, resigned: a finished board."""
    fake = run.fake
    await (await fake.send_command("gate new", {"variant": "little-gate", "deal": 5,
                                                "options": "single-moves"})).response()
    await (await fake.send_command("gate resign")).response()
    return board_of(fake)


async def test_a_won_board_says_one_win_message_and_offers_play_again_new_deal_and_share(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)})).response()
    board = fake.message(board.id)
    assert f"in 0:00 and {len(WIN_DEAL_1)} moves. Win streak: 1. Your first win of Gate." in board.content
    assert len(win_sentences(fake)) == 1, "the win is said once, on the board"
    game_id = (await run.game_row()).id
    again, share = component(board, "gate:again:"), component(board, "gate:share:")
    assert (again["label"], again["custom_id"]) == ("Play again", f"gate:again:{game_id}") and not again.get("disabled")
    assert share["label"] == "Share result" and not share.get("disabled")
    menu = component(board, "gate:newdeal:")
    assert menu["custom_id"] == f"gate:newdeal:{game_id}" and menu["type"] == 3
    assert [option["value"] for option in menu["options"]] == [cls.name for cls in VARIANTS]
    assert [option["label"] for option in menu["options"]] == [cls.title for cls in VARIANTS]
    row_of = {c["custom_id"]: index for index, row in enumerate(board.components) for c in row["components"]}
    assert row_of[again["custom_id"]] == row_of[share["custom_id"]] != row_of[menu["custom_id"]]
    assert len(board.components[row_of[share["custom_id"]]]["components"]) < 5, "room for one more button"


async def test_play_again_deals_a_random_deal_of_the_same_variant_and_options_as_a_new_board(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    finished = await finish_little_gate(run)
    edits = len(finished.history)
    pressed = await (await fake.click(finished, component(finished, "gate:again:")["custom_id"])).response()
    assert pressed.type == 4 and not pressed.ephemeral
    assert "Dealt Little Gate deal 617." in pressed.content
    row = await run.game_row()
    assert (row.variant, row.options, row.deal, row.status) == ("little-gate", "single-moves", 617, "active")
    assert len(boards(fake)) == 2 and boards(fake)[-1].id != finished.id, "the new board is the press's answer"
    assert len(fake.message(finished.id).history) == edits, "the finished board is left as it was"
    assert (await run.games())[0].status == "resigned"


@pytest.mark.parametrize(("picked", "title"), [("little-gate", "Little Gate"), ("canfield", "Canfield")])
async def test_new_deal_deals_a_random_deal_of_the_variant_picked(gatebot: Callable, picked: str, title: str) -> None:
    run: Running = await gatebot()
    fake = run.fake
    finished = await finish_little_gate(run)
    menu = component(finished, "gate:newdeal:")["custom_id"]
    pressed = await (await fake.select(finished, menu, [picked])).response()
    assert pressed.type == 4 and not pressed.ephemeral and f"Dealt {title} deal 617." in pressed.content
    row = await run.game_row()
    assert (row.variant, row.options, row.deal, row.status) == (picked, "", 617, "active")
    assert [game.deal for game in await run.games()] == [5, 617], "a new deal, not the one just played"


async def test_another_players_press_is_refused_privately_and_deals_nothing(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    finished = await finish_little_gate(run)
    bob = fake.user("bob")
    again = await (await fake.click(finished, component(finished, "gate:again:")["custom_id"], user=bob)).response()
    menu = component(finished, "gate:newdeal:")["custom_id"]
    picked = await (await fake.select(finished, menu, ["gate"], user=bob)).response()
    for refused in (again, picked):
        assert refused.type == 4 and refused.ephemeral
        assert refused.content == "That's Alice's game: start one of your own with /gate new."
    assert len(await run.games()) == 1 and len(boards(fake)) == 1


async def test_a_press_over_a_running_game_asks_first_and_loses_nothing(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    finished = await finish_little_gate(run)
    again = component(finished, "gate:again:")["custom_id"]
    await (await fake.click(finished, again)).response()  # deal 617 is running now
    await (await fake.send_command("gate move", {"moves": "d"})).response()
    asked = await fake.click(finished, again)
    question = await asked.response()
    assert question.ephemeral and "abandon" in question.content
    assert [(g.deal, g.status, g.log) for g in await run.games()][-1] == (617, "active", "d"), "nothing lost yet"
    message = asked.original
    assert message is not None
    [yes] = [c["custom_id"] for row in message.components for c in row["components"]
             if c.get("label") == "Start the new game"]
    click = await fake.click(message, yes)
    assert (await click.response()).type == 7
    board = await click.followup(0, timeout=10)
    new = await run.game_row()
    assert f"Dealt Little Gate deal {new.deal}." in board.content and "(deal 617) was abandoned" in board.content
    assert [(g.deal, g.status) for g in await run.games()] == [(5, "resigned"), (617, "abandoned"),
                                                               (new.deal, "active")]
    assert new.deal in RANDOM_DEALS[1:] and (new.variant, new.options) == ("little-gate", "single-moves")


async def test_play_again_and_new_deal_work_after_a_restart(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    finished = await finish_little_gate(run)
    await run.bot.close()
    await gatebot()  # a new process: only the database and the board's custom ids remain
    finished = fake.message(finished.id)
    menu = component(finished, "gate:newdeal:")["custom_id"]
    pressed = await (await fake.select(finished, menu, ["gate"])).response()
    assert pressed.type == 4 and not pressed.ephemeral and "Dealt Gate deal 617." in pressed.content
    assert [(g.variant, g.deal, g.status) for g in await run.games()] == [("little-gate", 5, "resigned"),
                                                                          ("gate", 617, "active")]
