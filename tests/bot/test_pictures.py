"""Pictures on Discord: the phone board by default, the wide one when asked, and each described in words.

Everything is read from what the fake Discord received: the PNG's own pixels, and each
attachment's ``description`` (Discord's alt text, what a screen reader says for the picture),
which the fake keeps only when the bot sent it within Discord's own attachment schema.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image

from gatebot.render import layout_board
from gatebot.render.image import PHONE_SCALE
from gatebot.rules import Game
from tests.bot.gatebots import Running
from tests.bot.test_gatebot import board_of, button
from tests.bot.test_replays import opened, played, press
from tests.bot.test_stats_commands import win_deal_1
from tests.render.test_phone_image import SMALLEST_RANK, measured

#: Discord's limit on an attachment's description.
ALT_LIMIT = 1024
RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")


def picture(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("RGB")


async def test_a_new_players_image_board_is_the_phone_picture_described_in_words(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate settings", {"style": "image"})).response()
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    [attachment] = board.attachments
    image = picture(board.file(attachment["filename"]).data)
    game = Game.new("gate", deal=1)
    layout = layout_board(game, PHONE_SCALE, phone=True)
    assert image.size == layout.size and image.width < 700
    heights = [height for _, height in measured(layout, image)]
    assert heights and min(heights) >= SMALLEST_RANK, heights  # as a phone 320 px wide shows it

    alt = attachment["description"]
    assert alt.startswith("Gate, deal 1. 0 moves, score 0 of 52.") and len(alt) <= ALT_LIMIT
    # The deal's columns are 9♠ 5♠ A♦ Q♣ K♥ 3♥ 2♠ K♠ (the text board's); the stock is only counted.
    assert "Column 1: nine of spades." in alt and "Column 8: king of spades." in alt
    assert "Stock, S: 34 cards, face down." in alt

    drawn = await (await fake.click(board, button(board, "draw"))).response()
    assert drawn.type == 7
    [attachment] = fake.message(board.id).attachments
    assert attachment["description"].startswith("Gate, deal 1. 1 move, score 0 of 52.")
    assert "Waste, W: " in attachment["description"] and "Waste, W: empty" not in attachment["description"]


async def test_compact_off_gives_the_wide_picture_and_on_the_phone_one_again(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    chosen = await (await fake.send_command("gate settings", {"style": "image", "compact": False})).response()
    assert chosen.content == "Your boards are drawn as image, normal layout, with a two-colour deck."
    await (await fake.send_command("gate new", {"deal": 1})).response()
    wide = picture(next(iter(board_of(fake).files.values())).data)
    assert wide.size == layout_board(Game.new("gate", deal=1)).size and wide.width > 1000
    assert board_of(fake).attachments[0]["description"].startswith("Gate, deal 1.")

    await (await fake.send_command("gate settings", {"compact": True})).response()
    await (await fake.send_command("gate board")).response()
    phone = picture(next(iter(board_of(fake).files.values())).data)
    assert phone.width < wide.width and phone.height / phone.width > wide.height / wide.width


async def test_a_german_players_picture_is_described_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    fake.user("alice").locale = "de"
    await (await fake.send_command("gate settings", {"style": "image"})).response()
    await (await fake.send_command("gate new", {"deal": 1})).response()
    alt = board_of(fake).attachments[0]["description"]
    assert alt.startswith("Gate, Spiel 1. 0 Züge, 0 von 52 Punkten.")
    assert "Pik-Neun" in alt and "nine of spades" not in alt


async def test_an_archway_pictures_description_names_every_piles_top_within_discords_limit(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate settings", {"style": "image"})).response()
    await (await fake.send_command("gate new", {"variant": "archway", "deal": 1})).response()
    board = board_of(fake)
    alt = board.attachments[0]["description"]
    assert len(alt) <= ALT_LIMIT and alt.startswith("Archway, deal 1.")
    game = Game.new("archway", deal=1)
    for number, column in enumerate(game.columns, start=1):  # the exposed card, the one that plays
        card = column[-1]
        assert f"Column {number}: " in alt
        assert alt.split(f"Column {number}: ")[1].startswith(
            f"{RANKS[card.rank - 1]} of {('clubs', 'diamonds', 'hearts', 'spades')[card.suit]}"
        )
    image = picture(board.file(board.attachments[0]["filename"]).data)
    assert image.size == layout_board(game, PHONE_SCALE, phone=True).size



async def test_the_shared_result_card_and_the_replay_animation_are_described(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    sharing = await fake.send_command("gate share")
    await sharing.response()
    assert sharing.original is not None
    [card] = sharing.original.attachments
    assert card["filename"] == "result.png"
    alt = card["description"]
    assert alt.startswith("Gate · deal 1 · won 52/52. ") and "Cards by when they went home: " in alt
    counts = [int(part.split()[0]) for part in alt.split("went home: ")[1].rstrip(".").split(", ")]
    assert sum(counts) == 52  # every card of the grid, in words

    other: Running = await gatebot()
    await played(other)
    _handle, replay = await opened(other.fake)
    pressed = await press(other.fake, replay, "Animation")
    await pressed.response()
    posted = await pressed.followup(0, timeout=20)
    [gif] = posted.attachments
    assert gif["description"].startswith("An animation of the game, move by move, from the deal to its end. ")
    assert "Alice's Gate deal 1, resigned after 4 moves" in gif["description"]
