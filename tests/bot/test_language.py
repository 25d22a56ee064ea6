"""gatebot answers each Discord user in their client's language, and names its commands in it.

A German user (``"locale": "de"`` in their interactions) and an English one play in the same
run, on the same deal: each gets the board's words, the refusals and the hints in their own
language, and the synced commands carry German names and descriptions beside the English.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gatebot.rules import Game
from tests.bot.gatebots import Running
from tests.fake_discord import FakeDiscord

SUBCOMMAND = 1
#: A card named in German words, as sentences do ("Karo-König").
GERMAN_CARD = re.compile(
    r"\b(Kreuz|Karo|Herz|Pik)-(Ass|Zwei|Drei|Vier|Fünf|Sechs|Sieben|Acht|Neun|Zehn|Bube|Dame|König)\b"
)


async def test_a_german_and_an_english_player_each_get_their_own_language(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    bob.locale = "de"

    dealt = await (await fake.send_command("gate new", {"deal": 5}, user=bob)).response()
    assert not dealt.ephemeral
    assert "Gate\nSpiel 5 · 0 Züge · Punkte 0/52" in dealt.content  # too long for a phone line: title over its facts
    assert "S   34 Karten · d zieht eine" in dealt.content
    assert "Gate, Spiel 5, ist ausgeteilt." in dealt.content
    english = await (await fake.send_command("gate new", {"deal": 5}, user=alice)).response()
    assert "Gate · deal 5 · 0 moves · score 0/52" in english.content  # 36 characters: one line
    assert "Dealt Gate deal 5." in english.content
    assert "Spiel" not in english.content

    # Column 1 holds 9♣ and column 2 K♥ in deal 5: the same refusal, in each player's words.
    refused = await (await fake.send_command("gate move", {"moves": "12"}, user=bob)).response()
    assert refused.ephemeral
    assert refused.content == "Kreuz-Neun kann nicht auf Herz-König: Darauf passt eine schwarze Dame."
    refused = await (await fake.send_command("gate move", {"moves": "12"}, user=alice)).response()
    assert refused.content == "9♣ can't go on K♥: it takes a black Q."
    nothing = await (await fake.send_command("gate undo", user=bob)).response()
    assert nothing.ephemeral and nothing.content == "Es gibt keinen Zug zum Zurücknehmen."
    await (await fake.send_command("gate move", {"moves": "d"}, user=bob)).response()
    took = await (await fake.send_command("gate undo", user=bob)).response()
    assert took.ephemeral and took.content == "Zurückgenommen: d."

    said = (await (await fake.send_command("gate hint", user=bob)).original_edited()).content
    lead, _, reason = said.partition("): ")
    assert lead.startswith("Tipp: ") and GERMAN_CARD.search(lead), said
    assert reason and GERMAN_CARD.search(reason), said  # why the move helps, in German too
    assert not re.search(r"\b(the|it|Hint|and)\b|[♣♦♥♠]", said), said
    said = (await (await fake.send_command("gate hint", user=alice)).original_edited()).content
    assert said.startswith("Hint: ") and not GERMAN_CARD.search(said), said

    shown = await (await fake.send_command("gate help", user=bob)).response()
    assert shown.ephemeral and shown.content.startswith("**Gate mit gatebot spielen**")
    assert (await (await fake.send_command("gate help", user=alice)).response()).content.startswith(
        "**Playing Gate with gatebot**"
    )


async def test_typed_moves_are_answered_in_the_servers_language(fake: FakeDiscord, gatebot: Callable) -> None:
    fake.guild.preferred_locale = "de"  # a message carries no language of its own: the server's is used
    await gatebot()
    await (await fake.send_command("gate new", {"deal": 5})).response()  # from an English client
    sent = await fake.send_message(f"{fake.bot.mention} 12")
    assert "❌" in await sent.reaction()
    assert (await sent.reply()).content == "Kreuz-Neun kann nicht auf Herz-König: Darauf passt eine schwarze Dame."


def _walk(command: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """A command and everything under it (subcommands, options, choices), each with its path."""
    name = f"{path} {command['name']}".strip()
    found = [(name, command)]
    for option in command.get("options") or []:
        found.extend(_walk(option, name))
    for choice in command.get("choices") or []:
        found.append((f"{name} = {choice['name']}", choice))
    return found


async def test_the_gate_commands_are_named_and_described_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    synced = {command["name"]: command for command in run.fake.commands(run.fake.guild)}
    gate = synced["gate"]
    subcommands = {option["name"]: option for option in gate["options"] if option["type"] == SUBCOMMAND}
    assert (subcommands["new"].get("name_localizations") or {}).get("de") == "neu"
    assert (subcommands["hint"].get("description_localizations") or {}).get("de") == (
        "Ein Tipp für dein Spiel, nur für dich sichtbar (es wird nichts gespielt)"
    )
    undescribed = [
        path for path, part in _walk(gate)
        if "description" in part and not (part.get("description_localizations") or {}).get("de")
    ]
    assert undescribed == []
    for path, part in _walk(gate):  # within Discord's limits, or it refuses the whole sync
        german = (part.get("name_localizations") or {}).get("de")
        if german is not None and "=" not in path:
            assert re.fullmatch(r"[-_\w]{1,32}", german) and german == german.lower(), (path, german)
        described = (part.get("description_localizations") or {}).get("de")
        assert described is None or 1 <= len(described) <= 100, (path, described)


async def test_a_german_player_types_tipp_and_zurueck_in_chat(fake: FakeDiscord, gatebot: Callable) -> None:
    fake.guild.preferred_locale = "de"
    run: Running = await gatebot()
    await (await fake.send_command("gate new", {"deal": 1})).response()
    asked = await fake.send_message(f"{fake.bot.mention} was nun? Tipp bitte")
    hint = await asked.reply()
    assert hint.content.startswith("Tipp: ") and not asked.message.reactions  # a hint, not read as moves
    assert (await run.game_row()).hint_count == 1
    played = await fake.send_message(f"{fake.bot.mention} 45")
    assert await played.reaction() == ["✅"]
    back = await fake.send_message(f"{fake.bot.mention} zurück")
    assert await back.reaction() == ["✅"]
    again = await fake.send_message(f"{fake.bot.mention} 45 d")
    assert await again.reaction() == ["✅"]
    both = await fake.send_message(f"{fake.bot.mention} Zurueck 2")
    assert await both.reaction() == ["✅"]
    assert (await run.position()).to_text() == Game.new("gate", deal=1).to_text()  # every move taken back
