"""A yes/no question's buttons read in the asker's language, whoever else shares the server."""

from __future__ import annotations

from collections.abc import Callable

from gatebot.rules import Game
from tests.bot.gatebots import Running, button, confirmed, resign
from tests.bot.test_gatebot import board_of
from tests.fake_discord import FakeDiscord, FakeUser, StoredMessage


def labels(message: StoredMessage | None) -> list[str]:
    assert message is not None
    return [c["label"] for row in message.components for c in row["components"] if c.get("label")]


async def ask_for_a_new_game(fake: FakeDiscord, user: FakeUser) -> StoredMessage:
    """Deal a game for ``user`` and then ask for another: the question before abandoning the first."""
    await (await fake.send_command("gate new", {"deal": 1}, user=user)).response()
    asked = await fake.send_command("gate new", {"deal": 2}, user=user)
    assert (await asked.response()).ephemeral
    assert asked.original is not None
    return asked.original


async def test_the_new_game_question_has_german_buttons_for_a_german_player_and_english_for_an_english_one(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    bob.locale = "de"

    german = await ask_for_a_new_game(fake, bob)
    assert labels(german) == ["Neues Spiel starten", "Weiterspielen"]
    english = await ask_for_a_new_game(fake, alice)
    assert labels(english) == ["Start the new game", "Keep playing"]

    [keep] = [
        c["custom_id"] for row in german.components for c in row["components"] if c.get("label") == "Weiterspielen"
    ]
    kept = await (await fake.click(german, keep, user=bob)).response()
    assert kept.content == "Dein Spiel geht weiter."


async def test_resign_asks_first_and_only_the_asker_can_answer(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    await (await fake.send_command("gate new", {"deal": 617}, user=alice)).response()
    asked = await fake.send_command("gate resign", user=alice)
    question = await asked.response()
    assert question.ephemeral
    assert question.content == "Resign your game of Gate (deal 617)? It ends now, with a score of 0/52."
    assert labels(asked.original) == ["Resign", "Keep playing"]
    assert (await run.game_row()).status == "active"  # asking changed nothing

    refused = await (await fake.click(asked.original, button(asked.original, "Resign"), user=bob)).response()
    assert refused.ephemeral and refused.content == "Only the one who asked can answer this."
    assert (await run.game_row()).status == "active"

    kept = await (await fake.click(asked.original, button(asked.original, "Keep playing"), user=alice)).response()
    assert kept.content == "Your game goes on."
    assert (await run.game_row()).status == "active"

    said = await resign(fake, user=alice)
    assert said.ephemeral and "You resigned with a score of 0/52." in board_of(fake).content  # edited in place
    assert (await run.game_row()).status == "resigned"


async def test_restart_asks_then_shows_the_deal_again_with_the_moves_counted_as_undos(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    untouched = await (await fake.send_command("gate restart")).response()
    assert untouched.ephemeral and untouched.content == (
        "There is no move to take back: the cards are as they were dealt."
    )
    await (await fake.send_command("gate move", {"moves": "3f d"})).response()
    asked = await fake.send_command("gate restart")
    question = await asked.response()
    assert question.ephemeral and question.content == (
        "Restart deal 1? You keep the same cards; your 2 moves are taken back, counted as undos."
    )
    assert labels(asked.original) == ["Restart the deal", "Keep playing"]
    said = await confirmed(fake, "gate restart", "Restart the deal")
    assert said.ephemeral and "Back to the deal as it was dealt: 2 moves taken back." in board_of(fake).content
    row = await run.game_row()
    assert (row.log, row.undo_count, row.move_count, row.status) == ("3f d u u", 2, 0, "active")
    assert (await run.position()).to_text() == Game.new("gate", deal=1).to_text()
    assert len(await run.games()) == 1  # the same game, not a new one
