"""The /gate commands over the fake Discord: what a player reads after undo, a win, an ended game."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from gatebot.render import layout_board
from gatebot.render.image import PHONE_SCALE
from gatebot.render.image_geometry import pip_centre
from gatebot.rules import Game, Suit
from tests.bot.gatebots import Running, resign
from tests.bot.test_gatebot import button, ending_components
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.lines import NO_WIN_DEAL_1, STOCK_OUT_DEAL_1, WIN_DEAL_1
from tests.render.gate.test_image import decode, patch
from tests.render.test_four_colour import is_blue, is_green
from tests.render.test_spoken import RANKS as RANK_WORDS
from tests.render.test_spoken import SUITS as SUIT_WORDS


def board_of(fake: FakeDiscord) -> StoredMessage:
    """The newest message with board buttons in #general."""
    return next(m for m in reversed(fake.messages(fake.channel)) if any(c.startswith("gate:") for c in m.custom_ids()))


def end_button(components: list[dict]) -> str | None:
    return next((c["custom_id"] for row in components for c in row["components"]
                 if c.get("custom_id", "").startswith("gate:end:")), None)


async def test_undo_says_what_it_took_back(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    await (await fake.send_command("gate move", {"moves": "d 3f"})).response()
    ack = await (await fake.send_command("gate undo", {"count": 2})).response()
    assert ack.ephemeral and ack.content == "Took back 3f and d."
    assert (await run.game_row()).log == "d 3f u u"


async def test_the_board_of_a_finished_game_shows_how_it_ended_and_shares_it(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    await (await fake.send_command("gate move", {"moves": "3f 76"})).response()
    await resign(fake)
    row = await run.game_row()

    asked = await fake.send_command("gate board")
    shown = await asked.response()
    assert not shown.ephemeral
    assert "That game is over: start a new one with /gate new." in shown.content
    assert "2 moves" in shown.content and "score 1/52" in shown.content  # the final board's header
    components = [c for line in shown.components for c in line["components"]]
    enabled = [c["custom_id"] for c in components if not c.get("disabled")]
    assert enabled == ending_components(row.id)  # the play buttons are there, disabled
    assert {c["custom_id"].split(":")[1] for c in components if c.get("disabled")} == {"draw", "undo", "auto", "hint"}

    board = asked.original
    assert board is not None
    shared = await (await fake.click(board, f"gate:share:{row.id}")).response()
    assert not shared.ephemeral and "Gate · deal 1 · 1/52" in shared.content


async def test_the_end_game_offer_survives_a_restart(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    await (await fake.send_command("gate move", {"moves": " ".join(NO_WIN_DEAL_1)})).response()
    await fake.wait_for(lambda: end_button(fake.message(board.id).components), timeout=10, what="End game")
    await run.bot.close()

    again: Running = await gatebot()  # a new process: nothing remembered but the database
    asked = await fake.send_command("gate board")
    shown = await asked.response()
    assert not shown.ephemeral and "No win is left from here" in shown.content
    end = end_button(shown.components)  # on the board as first posted, not added later by the solver
    assert end is not None
    assert asked.original is not None
    pressed = await (await fake.click(asked.original, end)).response()
    assert pressed.type == 7 and "You ended the game with a score of 9/52." in pressed.content
    assert ((await again.game_row()).status, (await again.game_row()).score) == ("resigned", 9)


async def test_one_move_count_on_the_board_the_win_the_card_the_statistics_and_the_leaderboard(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    made = await fake.send_command("challenge-admin create", {"name": "Cup", "deal": 1, "undo": "counted"})
    assert not (await made.response()).ephemeral
    await (await fake.send_command("challenge play")).response()
    board = board_of(fake)
    await (await fake.send_command("gate move", {"moves": "3f 45"})).response()
    await (await fake.send_command("gate undo")).response()  # 45 is taken back: it no longer counts
    await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1[1:])})).response()  # draws among them
    assert (await run.game_row()).status == "won"
    kept = len(WIN_DEAL_1)

    won = fake.message(board.id).content
    header = won.removeprefix("```\n").split("\n\n", 1)[0]  # under the code fence, before the piles
    # The challenge is still open: the board names it, never its deal.
    assert header.startswith("Gate · Cup · ") and f" · {kept} moves · " in header and "deal 1" not in won, header
    # The time is the wall clock's: a second or two on a busy machine.
    assert re.search(rf"That took 0:0\d and {kept} moves\. Win streak: 1\.", won), won
    card = await (await fake.send_command("gate share")).response()
    assert card.content.splitlines()[-1].startswith(f"{kept} moves · no hints · 1 undo · ")
    stats = await (await fake.send_command("gate stats")).response()
    assert "fastest win" in stats.content and f"in {kept} moves." in stats.content
    ranked = await (await fake.send_command("challenge leaderboard")).response()
    assert f"{kept} moves (+1 counted)" in ranked.content  # the ranking adds the counted undo, and says so


#: The board's last line at a win (its text style, wrapped in the compact layout) and the win's message under it.
WIN_SENTENCE = "Won! Every card is home."
WIN_MESSAGE = "Win streak: 1."


def win_sentences(fake: FakeDiscord, sentence: str = WIN_SENTENCE) -> list[tuple[int, int]]:
    """(message id, version) of every message and every edit of one, ephemeral ones too, that says ``sentence``.

    Each text is read with its lines joined, as a board wraps a long line in the compact layout.
    """
    said = []
    for message in fake.messages(fake.channel, include_deleted=True):
        for version, payload in enumerate([*message.history, message.payload]):
            embeds = payload.get("embeds", [])
            texts = [payload.get("content") or "", *(embed.get("description") or "" for embed in embeds)]
            if any(sentence in " ".join(text.split()) for text in texts):
                said.append((message.id, version))
    return said


@pytest.mark.parametrize("way", ["auto button", "slash command", "typed move"])
async def test_a_win_is_announced_once(gatebot: Callable, way: str) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    if way == "auto button":
        await (await fake.send_command("gate move", {"moves": " ".join(STOCK_OUT_DEAL_1)})).response()
        board = fake.message(board.id)
        auto = next(cid for cid in board.custom_ids() if cid.startswith("gate:auto:"))
        await (await fake.click(board, auto)).response()
        await fake.wait_for(lambda: WIN_MESSAGE in fake.message(board.id).content or None, timeout=10, what="won")
    elif way == "slash command":  # the whole game in one line, so no End-game question comes first
        await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)})).response()
    else:
        sent = await fake.send_message(f"{fake.bot.mention} {' '.join(WIN_DEAL_1)}")
        assert "✅" in await sent.reaction()
    assert (await run.game_row()).status == "won"
    await (await fake.send_command("gate stats")).response()  # anything the bot still had to say is out by now
    last = [(board.id, len(fake.message(board.id).history))]
    assert win_sentences(fake) == win_sentences(fake, WIN_MESSAGE) == last  # the board's last edit only
    content = " ".join(fake.message(board.id).content.split())
    # One announcement in it: the board's line says the win and the score, the message the rest.
    assert content.count("Every card is home") == 1 and content.count("52/52") == 2, content  # the header's, the line's
    assert "You won" not in content, content


async def test_the_words_style_posts_the_board_as_plain_sentences(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    chosen = await (await fake.send_command("gate settings", {"style": "words"})).response()
    assert chosen.ephemeral and chosen.content == (
        "Your boards are drawn as words, compact layout, with a two-colour deck."
    )
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    game = Game.new("gate", deal=1)
    lines = board.content.splitlines()
    assert lines[0] == "Gate, deal 1. 0 moves, score 0 of 52."
    assert f"Column 1: {RANK_WORDS[game.columns[0][-1].rank - 1]} of" in board.content
    assert "```" not in board.content and not any(symbol in board.content for symbol in "♣♦♥♠♧♤🇦🇰")
    assert "Stock, S: 34 cards, face down." in lines

    update = await (await fake.click(board, button(board, "draw"))).response()
    game.play_line("d")
    top = game.waste[-1]
    assert update.type == 7
    assert f"Waste, W: {RANK_WORDS[top.rank - 1]} of {SUIT_WORDS[top.suit]}." in update.content.splitlines()


async def test_the_four_colour_deck_paints_the_emoji_and_the_image_board(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    chosen = await (await fake.send_command("gate settings", {"style": "emoji", "four_colour": True})).response()
    assert chosen.content == "Your boards are drawn as emoji, compact layout, with a four-colour deck."
    await (await fake.send_command("gate new", {"deal": 1})).response()
    emoji = board_of(fake).content
    assert "\u2618\ufe0f" in emoji and "\U0001f537" in emoji and "♧" not in emoji and "♦" not in emoji

    await (await fake.send_command("gate settings", {"style": "image"})).response()
    await (await fake.send_command("gate board")).response()
    board = board_of(fake)
    image = decode(next(iter(board.files.values())).data)
    game = Game.new("gate", deal=1)
    layout = layout_board(game, PHONE_SCALE, phone=True)  # a new player's compact layout: the phone board
    assert layout.size == image.size
    inks = {Suit(0): is_green, Suit(1): is_blue}
    sampled = [
        (spot.card, patch(image, pip_centre(spot, layout.metrics), radius=2))
        for spot in layout.cards if spot.exposed and spot.card.suit in inks
    ]
    assert {card.suit for card, _ in sampled} == set(inks)  # both suits were looked at
    for card, pixels in sampled:
        assert all(map(inks[card.suit], pixels)), (card, pixels)


async def test_a_german_player_is_told_their_settings_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    options = {"style": "emoji", "compact": False, "four_colour": True}
    chosen = await (await fake.send_command("gate settings", options, user=bob)).response()
    assert chosen.ephemeral
    assert chosen.content == "Deine Bretter werden als Emoji gezeichnet, in voller Breite, mit vierfarbigem Blatt."
    chosen = await (await fake.send_command("gate settings", {"style": "words", "compact": True}, user=bob)).response()
    assert chosen.content == "Deine Bretter werden als Wörter gezeichnet, kompakt, mit vierfarbigem Blatt."
