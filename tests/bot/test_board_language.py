"""A German player's emoji and image boards and shared result card are worded in German, end to end.

The real bot over the fake Discord: the player's client says ``"locale": "de"``, and what the
bot posts for them is compared with what an English player gets on the same deal.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from PIL import Image

from gatebot.locale import translator
from gatebot.render.image import PHONE_SCALE, render_png
from gatebot.rules import Game
from tests.bot.gatebots import Running
from tests.bot.test_gatebot import board_of
from tests.lines import WIN_DEAL_1

#: English words of an emoji board's header and piles (card glyphs and pile letters are in both).
BOARD_ENGLISH = re.compile(r"\b(deal|moves?|score|empty|free|space|cards?|draws|one|under)\b")


async def test_a_german_player_sees_the_emoji_board_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob, alice = fake.user("bob"), fake.user("alice")
    bob.locale = "de"
    for user in (bob, alice):
        await (await fake.send_command("gate settings", {"style": "emoji"}, user=user)).response()
    dealt = await (await fake.send_command("gate new", {"deal": 5}, user=bob)).response()
    assert "Spiel 5 · 0 Züge · Punkte 0/52" in dealt.content
    assert "`W` *leer*" in dealt.content and "`S` **34** Karten · `d` zieht eine" in dealt.content
    board = dealt.content.split("\n\n", 1)[1].rsplit("\n\n", 1)[0]  # the piles, without the header and line
    assert not BOARD_ENGLISH.search(board), board
    english = await (await fake.send_command("gate new", {"deal": 5}, user=alice)).response()
    assert "deal 5 · 0 moves · score 0/52" in english.content and "`W` *empty*" in english.content


async def test_a_german_player_sees_the_image_board_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    await (await fake.send_command("gate settings", {"style": "image"}, user=bob)).response()
    await (await fake.send_command("gate new", {"deal": 5}, user=bob)).response()
    posted = next(iter(board_of(fake).files.values())).data
    game = Game.new("gate", deal=5)
    # A new player's compact layout: the phone picture.
    german = render_png(game, scale=PHONE_SCALE, phone=True, language=translator("de"))
    assert posted == german != render_png(game, scale=PHONE_SCALE, phone=True)
    assert Image.open(io.BytesIO(posted)).format == "PNG"


async def test_a_german_players_shared_card_is_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    await (await fake.send_command("gate new", {"deal": 1}, user=bob)).response()
    await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)}, user=bob)).response()
    await fake.wait_for(lambda: "52/52" in board_of(fake).content or None, what="the board saying the game is won")
    posted = await (await fake.send_command("gate share", user=bob)).response()
    assert not posted.ephemeral
    lines = posted.content.splitlines()
    assert lines[0] == "Gate · Spiel 1 · gewonnen 52/52"
    assert lines[5] == "🟩 früh · 🟨 Spielmitte · 🟧 spät"
    assert lines[6].startswith(f"{len(WIN_DEAL_1)} Züge · keine Tipps · keine Rücknahmen")
    assert posted.files, "the card's picture is attached"
