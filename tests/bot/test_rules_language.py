"""``/gate rules`` and the ``options`` autocomplete in the reader's language, through the fake Discord.

A German client (``locale`` de) gets the rules summary of its game in German, with not one
English sentence of it left, and the rule options' help lines in German beside their names
(which are notation and stay as they are typed).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.bot.gatebots import Running

#: English words of the rules summaries that no German sentence of them holds (an option's name,
#: like partial-moves, is notation: a word inside one doesn't count).
ENGLISH_WORDS = re.compile(
    r"(?<![\w-])(the|foundations?|stock|waste|piles?|columns?|cards?|redeal|moves?|when|and)(?![\w-])", re.IGNORECASE
)


def english_left(text: str) -> set[str]:
    """The English words of ``text``, in lower case."""
    return {word.lower() for word in ENGLISH_WORDS.findall(text)}


async def test_a_german_player_gets_gates_rules_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    bob = run.fake.user("bob")
    bob.locale = "de"
    rules = await (await run.fake.send_command("gate rules", user=bob)).response()  # no game: plain Gate's
    assert rules.ephemeral
    text = rules.content
    words = " ".join(text.split())
    assert text.startswith("```\nGate: ") and text.endswith("```")
    for german in ("Ablagestapel", "Reserven L und R", "Spalten 1-8", "Talon S", "Abwurfstapel", "kein Neugeben"):
        assert german in words
    assert english_left(text) == set(), text
    assert all(len(line) <= 60 for line in text.splitlines())  # wrapped as the English is


async def test_a_german_player_gets_canfields_rules_with_its_options_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    bob = run.fake.user("bob")
    bob.locale = "de"
    dealt = await run.fake.send_command(
        "gate new", {"variant": "canfield", "deal": 1, "options": "draw-one passes-2 partial-moves"}, user=bob
    )
    await dealt.response()
    rules = await (await run.fake.send_command("gate rules", user=bob)).response()
    text = " ".join(rules.content.split())
    assert "Canfield:" in text and "Reserve R: 13 Karten" in text and "Stapel 1-4" in text
    assert "(partial-moves)" in text, "an option's name is notation and stays"
    assert "2 Durchgänge insgesamt" in text, "passes-2: two passes, said in German"
    assert english_left(text) == set(), text


async def test_an_english_player_still_gets_the_english_rules(gatebot: Callable) -> None:
    run: Running = await gatebot()
    rules = await (await run.fake.send_command("gate rules")).response()
    assert "Gate: put all 52 cards on the four foundations (F)" in " ".join(rules.content.split())


async def test_the_options_autocomplete_says_each_options_help_in_the_members_language(gatebot: Callable) -> None:
    run: Running = await gatebot()
    bob = run.fake.user("bob")
    bob.locale = "de"
    asked = await run.fake.send_autocomplete(
        "gate new", {"variant": "canfield", "options": ""}, focused="options", user=bob
    )
    choices = {choice["value"]: choice["name"] for choice in (await asked.response()).data["choices"]}
    assert list(choices) == ["draw-one", "passes-1", "passes-2", "partial-moves"]
    assert choices["draw-one"].startswith("draw-one — ") and "Talon" in choices["draw-one"]
    assert "Durchgang" in choices["passes-1"] and "Stapel" in choices["partial-moves"]
    for name in choices.values():
        assert english_left(name.split(" — ", 1)[1]) == set(), name
    english = await run.fake.send_autocomplete("gate new", {"variant": "archway", "options": ""}, focused="options")
    [kit] = (await english.response()).data["choices"]
    assert kit["name"] == "kit — a column's card may go back to the arch"
