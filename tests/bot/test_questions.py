"""A yes/no question's buttons read in the asker's language, whoever else shares the server."""

from __future__ import annotations

from collections.abc import Callable

from tests.bot.gatebots import Running
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
