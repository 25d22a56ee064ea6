"""One language per message: a player's board stays theirs, a server's standings stay the server's.

The real bot over the fake Discord. A board is its player's message, said in the language
of their own client whoever's message edits it (a typed move carries no language, so it used
to redraw the board in the server's); standings are the whole server's, said in its
``preferred_locale`` whoever presses their buttons. German numbers group thousands German's way.
"""

from __future__ import annotations

from collections.abc import Callable

from gatebot.locale import translator
from gatebot.messages import Number
from gatebot.service.lines import line_refusal
from tests.bot.challenges.test_challenges import add_attempts, create
from tests.bot.gatebots import Running
from tests.bot.test_gatebot import board_of
from tests.fake_discord import FakeDiscord


async def test_a_german_typed_move_leaves_an_english_players_board_english(
    fake: FakeDiscord, gatebot: Callable
) -> None:
    fake.guild.preferred_locale = "de"
    await gatebot()
    await (await fake.send_command("gate new", {"deal": 5})).response()  # alice's client is English
    board = board_of(fake)
    assert "deal 5 · 0 moves" in board.content
    sent = await fake.send_message(f"{fake.bot.mention} d")
    await fake.wait_for(lambda: "1 move" in fake.message(board.id).content or None, what="the board edited")
    content = fake.message(board.id).content
    assert "deal 5 · 1 move" in content and "Spiel" not in content and "Zug" not in content, content
    assert sent.id


async def test_a_german_players_board_stays_german_after_a_typed_move_in_an_english_server(
    fake: FakeDiscord, gatebot: Callable
) -> None:
    await gatebot()
    bob = fake.user("bob")
    bob.locale = "de"
    await (await fake.send_command("gate new", {"deal": 5}, user=bob)).response()
    board = board_of(fake)
    assert "Spiel 5 · 0 Züge" in board.content
    await fake.send_message(f"{fake.bot.mention} d", author=bob)
    await fake.wait_for(lambda: "1 Zug" in fake.message(board.id).content or None, what="the board edited")
    assert "deal" not in fake.message(board.id).content


async def test_an_english_press_leaves_a_german_servers_standings_german(fake: FakeDiscord, gatebot: Callable) -> None:
    fake.guild.preferred_locale = "de"
    run: Running = await gatebot()
    await create(run, name="Voll", deal=5)
    [row] = await run.challenges()
    await add_attempts(run, row.id, 12)
    asked = await fake.send_command("challenge leaderboard")  # alice's client is English
    first = await asked.response()
    assert not first.ephemeral and "Seite 1 von 2" in first.content, "public standings are the server's"
    message = asked.original
    assert message is not None
    _back, forward = message.custom_ids()
    turned = await fake.click(message, forward, user=fake.user("bob"))
    second = await turned.response()
    assert second.type == 7 and "Seite 2 von 2" in second.content and "Page" not in second.content, second.content


def test_german_groups_thousands_german_s_way() -> None:
    refusal = line_refusal("d " * 600)
    assert refusal is not None
    assert "(1,200 characters)" in refusal
    said = translator("de").say(refusal)
    assert "1.200" in said and "1,200" not in said, said
    assert str(Number(1200)) == "1,200" and translator("de").number(Number(1200)) == "1.200"


def test_a_name_is_escaped_for_discord_and_left_as_typed_for_the_terminal() -> None:
    from gatebot.bot.language import reader
    from gatebot.messages import Name, _

    sentence = _("{name} has already closed: see its results with /challenge leaderboard.",
                 name=Name("**Big** @everyone _cup_"))
    assert translator().say(sentence).startswith("**Big** @everyone _cup_"), "the terminal shows it as typed"
    said = reader("de").say(sentence)
    assert said.startswith("\\*\\*Big\\*\\* @\u200beveryone \\_cup\\_ "), said
