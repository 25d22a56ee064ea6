"""The rules' refusals of a new game's options, as a German and an English Discord user read them."""

from __future__ import annotations

from collections.abc import Callable

from tests.bot.gatebots import Running

REFUSALS = [
    # (variant, options, German, English)
    ("canfield", "draw-one passes-1 passes-2", "Canfield nimmt entweder passes-1 oder passes-2, nicht beide.",
     "Canfield takes one of passes-1 and passes-2, not both."),
    ("canfield", "passes-1", "passes-1 und passes-2 gehen nur mit draw-one: Wer je drei Karten umdreht, hat "
     "unbegrenzt viele Durchgänge.", "passes-1 and passes-2 go with draw-one: turning three at a time, the passes "
     "are unlimited."),
    ("gate", "kit", "Gate hat keine Option 'kit': Seine Optionen sind single-moves, stock-fill.",
     "Gate has no option 'kit': its options are single-moves, stock-fill."),
]


async def test_a_new_games_options_are_refused_in_the_readers_language(gatebot: Callable) -> None:
    """Canfield's option conflicts and an option a variant lacks: one sentence each, in each reader's words."""
    run: Running = await gatebot()
    fake = run.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    bob.locale = "de"
    for variant, options, german, english in REFUSALS:
        asked = {"variant": variant, "options": options, "deal": 3}
        refused = await (await fake.send_command("gate new", asked, user=bob)).response()
        assert refused.ephemeral and refused.content == german
        refused = await (await fake.send_command("gate new", asked, user=alice)).response()
        assert refused.ephemeral and refused.content == english
