"""The end of a game on Discord: one win message, then Play again, New deal and Share under the board.

The real gatebot over the fake Discord; random deals come from a counter, so which deal a
press dealt is known.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import re
import types
from collections.abc import Callable
from typing import Any

import discord.http
import discord.webhook.async_
import pytest
from PIL import Image

from gatebot.rules import VARIANTS, GateGame
from tests.bot.games.test_commands import win_sentences
from tests.bot.gatebots import Running, resign, told_privately
from tests.bot.test_gatebot import board_of
from tests.bot.test_stats_commands import ask_to_forget, labelled
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
    await resign(fake)
    return board_of(fake)


async def test_a_won_board_says_one_win_message_and_offers_play_again_new_deal_and_share(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)})).response()
    board = fake.message(board.id)
    assert f"That took 0:00 and {len(WIN_DEAL_1)} moves. Win streak: 1. Your first win of Gate." in board.content
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


async def test_a_german_player_is_told_in_german_whose_board_it_is_and_when_its_game_is_gone(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    bob.locale = "de"
    finished = await finish_little_gate(run)
    again = component(finished, "gate:again:")["custom_id"]
    theirs = await told_privately(await fake.click(finished, again, user=bob))
    assert theirs == "Das ist das Spiel von Alice: Starte mit /gate neu dein eigenes."
    nothing = await told_privately(await fake.send_command("gate share", user=bob))
    assert nothing == "Du hast noch kein beendetes Spiel zum Teilen: Beende eins und teile es dann."

    question = await ask_to_forget(run)  # Alice's games are deleted: her finished board stays in the channel
    await (await fake.click(question, labelled(question, "Delete everything"))).settled()
    gone = await told_privately(await fake.click(finished, again))
    assert gone == "That game is no longer stored: start a new one with /gate new."
    alice.locale = "de"
    gone = await told_privately(await fake.click(finished, again))
    assert gone == "Dieses Spiel ist nicht mehr gespeichert: Starte mit /gate neu ein neues."
    english = re.compile(r"\b(game|start|your|own|finished|share)\b")
    for said in (theirs, nothing, gone):
        assert not english.search(said), said
    assert await run.games() == [], "no press dealt a game"


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


CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


def posted_cards(fake: FakeDiscord) -> list[StoredMessage]:
    """The channel's messages with a picture attached beside a legend: shared result cards."""
    return [m for m in fake.messages(fake.channel) if m.attachments and "early · " in m.content]


async def test_share_on_a_finished_board_posts_the_card_with_its_picture_attached(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await finish_little_gate(run)
    pressed = await (await fake.click(board, component(board, "gate:share:")["custom_id"])).response()
    assert pressed.type == 4 and not pressed.ephemeral
    lines = pressed.content.splitlines()
    assert lines[0] == "Little Gate, single-moves · deal 5 · 0/52"
    assert lines[-2].startswith("🟩 early · 🟨 mid-game · 🟧 late"), "the legend under the grid"
    [posted] = posted_cards(fake)
    assert posted.content == pressed.content
    [attachment] = posted.attachments
    picture = Image.open(io.BytesIO(posted.file(attachment["filename"]).data))
    assert attachment["filename"].endswith(".png") and picture.format == "PNG"
    assert picture.mode == "P" and len(posted.file(attachment["filename"]).data) < 10_000
    picture.load()  # the whole picture decodes, not only its header
    command = await (await fake.send_command("gate share")).response()
    assert command.content == pressed.content and [f.data for f in command.files] == [
        posted.file(attachment["filename"]).data], "/gate share posts the same card and picture"


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py waits 1, 3, 5 and 7 s between its tries of a request Discord answered 5xx: here, none of that.

    Only its REST clients' clock is changed (interaction answers go through the webhook one).
    """
    sleep = asyncio.sleep

    async def at_once(delay: float, result: Any = None) -> Any:
        return await sleep(0, result)

    quick = types.SimpleNamespace(**{**vars(asyncio), "sleep": at_once})
    for module in (discord.http, discord.webhook.async_):
        monkeypatch.setattr(module, "asyncio", quick)


async def test_a_share_whose_upload_discord_fails_gets_a_short_apology_and_leaves_the_game(
    gatebot: Callable, quick_retries: None
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await finish_little_gate(run)
    before = await run.game_row()
    edits = len(fake.message(board.id).history)
    fault = fake.fail(CALLBACK, 500, times=5)  # every try discord.py makes of the card and its picture
    answer = await (await fake.click(board, component(board, "gate:share:")["custom_id"])).response()
    assert fault.hits == 5
    assert all(r.files and r.status == 500 for r in fake.requests_to(CALLBACK)[-6:-1]), "the upload failed"
    assert answer.ephemeral and answer.content.startswith("Sorry") and len(answer.content) < 120
    assert not answer.files and posted_cards(fake) == []
    after = await run.game_row()
    assert (after.version, after.log, after.status, after.board_message_id) == (
        before.version, before.log, before.status, before.board_message_id)
    assert len(fake.message(board.id).history) == edits, "the board is left as it was"


async def test_a_german_players_board_labels_its_buttons_and_menus_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    await (await fake.send_command("gate new", {"deal": 1}, user=bob)).response()
    board = board_of(fake)
    labels = [component(board, f"gate:{action}:")["label"] for action in ("draw", "undo", "auto", "hint")]
    assert labels == ["Ziehen", "Zurück", "Auto", "Tipp"]
    assert component(board, "gate:move:")["placeholder"] == "Wähle einen Zug …"
    menu = {option["value"]: option["label"] for option in component(board, "gate:move:")["options"]}
    # Deal 1: the A♦ tops column 3 (docs/rules.md#deal-numbers), so 3f plays it home.
    assert menu["3f"] == "3f — Karo-Ass von Spalte 3 auf den Ablagestapel"
    assert menu["d"] == "d — ziehe vom Talon"
    typed = await (await fake.send_autocomplete("gate move", {"moves": "3"}, "moves", user=bob)).response()
    assert "3f — Karo-Ass von Spalte 3 auf den Ablagestapel" in [choice["name"] for choice in typed.data["choices"]]
    await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)}, user=bob)).response()
    board = fake.message(board.id)
    finished = [component(board, f"gate:{action}:")["label"] for action in ("again", "share", "replay")]
    assert finished == ["Noch einmal spielen", "Ergebnis teilen", "Wiederholung"]
    assert component(board, "gate:newdeal:")["placeholder"] == "Neues Spiel von …"
    every = [c.get("label") or c.get("placeholder") for row in board.components for c in row["components"]]
    assert all(len(label) <= 80 for label in every), every
    english = {"Draw", "Undo", "Hint", "Play again", "Share result", "Replay", "New deal of…", "Choose a move…"}
    assert not english & set(every), every
    refused = await (await fake.click(board, component(board, "gate:share:")["custom_id"])).response()
    assert refused.ephemeral and refused.content == "Only Bob can share their result.", "alice's client is English"
    fake.user("alice").locale = "de"  # the refusal is said in the presser's language
    refused = await (await fake.click(board, component(board, "gate:share:")["custom_id"])).response()
    assert refused.ephemeral and refused.content == "Nur Bob kann dieses Ergebnis teilen."


async def test_the_move_menu_follows_the_position_and_language_it_is_drawn_for(gatebot: Callable) -> None:
    """A menu's labels are kept by position: a move changes them, an undo brings the first ones back, and a
    reader of another language gets the same position's menu in theirs."""
    run: Running = await gatebot()
    fake = run.fake

    def menu() -> dict[str, str]:
        return {option["value"]: option["label"] for option in component(board_of(fake), "gate:move:")["options"]}

    await (await fake.send_command("gate new", {"deal": 1})).response()
    dealt = menu()
    # Deal 1: the A♦ tops column 3 (docs/rules.md#deal-numbers), so 3f plays it home.
    assert dealt["3f"] == "3f — A♦ from column 3 to the foundation"
    await (await fake.send_command("gate move", {"moves": "3f"})).response()
    played = menu()
    game = GateGame.new(deal=1)
    game.play("3f")
    assert list(played) == [str(move) for move in game.legal_moves()][:25]
    assert "3f — A♦ from column 3 to the foundation" not in played.values()
    await (await fake.send_command("gate undo")).response()
    assert menu() == dealt
    bob = fake.user("bob")
    bob.locale = "de"
    await (await fake.send_command("gate new", {"deal": 1}, user=bob)).response()
    assert menu()["3f"] == "3f — Karo-Ass von Spalte 3 auf den Ablagestapel"
    assert menu().keys() == dealt.keys()
