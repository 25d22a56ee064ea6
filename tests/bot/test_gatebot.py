"""gatebot end to end: the real bot, real discord.py, a real SQLite file, over the fake Discord."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from gatebot.bot.timely import SAFETY_DEFER
from gatebot.render.card import DEALT_SQUARE, NEVER, THIRDS
from gatebot.rules import Game
from gatebot.solver import Verdict, registry, solve
from gatebot.solver.deals import winnable_deals
from tests.bot.gatebots import Running, resign
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.records import LOADING
from tests.lines import LOST_DEAL_10, NO_WIN_DEAL_1, STOCK_OUT_DEAL_1, WIN_DEAL_1

BUTTON = re.compile(r"gate:(draw|undo|auto):(\d+):(\d+)")


def custom_ids(message: StoredMessage) -> list[str]:
    return message.custom_ids()


def button(message: StoredMessage, action: str) -> str:
    return next(cid for cid in custom_ids(message) if cid.startswith(f"gate:{action}:"))


def finished_board(message: StoredMessage) -> list[str]:
    """The enabled components of a finished game's board, after checking the rest are its disabled buttons."""
    components = [c for row in message.components for c in row["components"]]
    enabled = [c["custom_id"] for c in components if not c.get("disabled")]
    disabled = [c["custom_id"].split(":")[1] for c in components if c.get("disabled")]
    assert disabled == ["draw", "undo", "auto", "hint"]
    return enabled


def ending_components(game_id: int) -> list[str]:
    """The custom ids of what a finished board offers next: Play again, Share result, Replay, New deal."""
    return [f"gate:again:{game_id}", f"gate:share:{game_id}", f"gate:replay:{game_id}", f"gate:newdeal:{game_id}"]


def board_of(fake: FakeDiscord) -> StoredMessage:
    """The newest message with board buttons in #general."""
    return next(m for m in reversed(fake.messages(fake.channel)) if any(c.startswith("gate:") for c in m.custom_ids()))


async def test_a_game_with_slash_commands(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    new = await fake.send_command("gate new", {"deal": 1})
    response = await new.response()
    assert response.type == 4 and not response.ephemeral
    assert "9♠" in response.content  # the text board of deal 1: column 1 holds 9♠
    board = board_of(fake)
    assert any(BUTTON.fullmatch(cid) for cid in custom_ids(board))
    expected = Game.new("gate", deal=1)
    rng = random.Random(7)
    for _ in range(40):
        legal = [str(m) for m in expected.legal_moves()]
        if not legal:
            break
        token = rng.choice(legal)
        handle = await fake.send_command("gate move", {"moves": token})
        ack = await handle.response()
        assert ack.ephemeral and ack.content.startswith(f"Played {token}")
        expected.play(token)
        assert (await run.position()).to_text() == expected.to_text()
    edited = fake.message(board.id)
    assert edited.history, "the board message is edited in place"
    assert len([m for m in fake.messages(fake.channel) if m.custom_ids()]) == 1, "one board, no spam"
    assert (await resign(fake)).ephemeral  # asked first; the yes edits the board in place
    assert (await run.game_row()).status == "resigned"
    assert finished_board(fake.message(board.id)) == ending_components((await run.game_row()).id)


async def test_a_mistyped_move_is_one_private_sentence_and_changes_nothing(gatebot: Callable) -> None:
    run: Running = await gatebot()
    await (await run.fake.send_command("gate new", {"deal": 1})).response()
    before = (await run.game_row()).version
    reply = await (await run.fake.send_command("gate move", {"moves": "9f"})).response()
    assert reply.ephemeral
    assert reply.content == "Column 9 doesn't exist: Gate has columns 1–8."
    assert (await run.game_row()).version == before


async def test_typed_mentions_play_and_edit_the_board(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    sent = await fake.send_message(f"{fake.bot.mention} 3f 45")
    assert "✅" in await sent.reaction()
    expected = Game.new("gate", deal=1)
    expected.play_line("3f 45")
    assert (await run.position()).to_text() == expected.to_text()
    assert fake.message(board.id).history
    bad = await fake.send_message(f"{fake.bot.mention} 9f")
    assert "❌" in await bad.reaction()
    assert "Column 9 doesn't exist" in (await bad.reply()).content


async def test_buttons_and_the_move_menu(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    click = await fake.click(board, button(board, "draw"))
    update = await click.response()
    assert update.type == 7
    assert (await run.game_row()).log == "d"
    board = fake.message(board.id)
    menu = next(cid for cid in custom_ids(board) if cid.startswith("gate:move:"))
    picked = await fake.select(board, menu, ["45"])
    assert (await picked.response()).type == 7
    assert (await run.game_row()).log == "d 45"


async def test_another_user_cannot_press_the_owners_buttons(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    click = await fake.click(board, button(board, "draw"), user=fake.user("bob"))
    answer = await click.response()
    assert answer.ephemeral
    assert answer.content == "This is Alice's game: start your own with /gate new."
    assert (await run.game_row()).log == ""


async def test_two_fast_clicks_play_once(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    draw = button(board, "draw")
    first = await fake.click(board, draw)
    second = await fake.click(board, draw)
    await first.response()
    await second.response()
    assert (await run.game_row()).log == "d"


async def test_a_board_from_before_a_restart_still_works(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    await run.bot.close()
    again: Running = await gatebot()
    click = await fake.click(fake.message(board.id), button(fake.message(board.id), "draw"))
    assert (await click.response()).type == 7
    assert (await again.game_row()).log == "d"


async def test_direct_messages(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    await run.bot.tree.sync()  # what `gatebot sync` does: global commands, usable in DMs
    start = await fake.send_command("gate new", {"deal": 2}, user=bob, dm=True)
    assert (await start.response()).type == 4
    sent = await fake.send_message("d", author=bob, dm=True)
    assert "✅" in await sent.reaction()
    row = await run.game_row()
    assert row.log == "d"


async def test_autocomplete_lists_the_legal_moves_in_words(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    asked = await fake.send_autocomplete("gate move", {"moves": ""}, focused="moves")
    answer = await asked.response()
    assert answer.type == 8
    values = {choice["value"] for choice in answer.data["choices"]}
    assert values == {str(m) for m in Game.new("gate", deal=1).legal_moves()}
    assert any(choice["name"] == "3f — A♦ from column 3 to the foundation" for choice in answer.data["choices"])


async def test_a_reply_to_the_board_plays_the_moves(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    sent = await fake.send_message("45", reply_to=board)  # a reply pings its author by default
    assert "✅" in await sent.reaction()
    assert (await run.game_row()).log == "45"


async def test_image_boards_are_sent_as_png_attachments(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    chosen = await (await fake.send_command("gate settings", {"style": "image"})).response()
    assert chosen.ephemeral and "image" in chosen.content
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    files = list(board.files.values())
    assert files and files[0].data.startswith(b"\x89PNG")
    click = await fake.click(board, button(board, "draw"))
    update = await click.response()
    assert update.type == 7 and update.files and update.files[0].data.startswith(b"\x89PNG")


# -- whole games, start to end, in every input style ---------------------------------------


async def won(run: Running) -> None:
    row = await run.game_row()
    assert (row.status, row.score) == ("won", 52)
    assert Game.from_text(row.position).is_won


async def test_a_whole_game_won_with_slash_commands(gatebot: Callable) -> None:
    run: Running = await gatebot()
    await (await run.fake.send_command("gate new", {"deal": 1})).response()
    for token in WIN_DEAL_1:
        await (await run.fake.send_command("gate move", {"moves": token})).response()
    await won(run)
    board = board_of(run.fake)
    assert "Win streak:" in board.content
    assert finished_board(board) == ending_components((await run.game_row()).id)


async def test_a_whole_game_won_with_typed_mentions(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    for start in range(0, len(WIN_DEAL_1), 12):
        sent = await fake.send_message(f"{fake.bot.mention} " + " ".join(WIN_DEAL_1[start : start + 12]))
        assert "✅" in await sent.reaction()
    await won(run)


async def test_a_whole_game_won_with_buttons_and_the_move_menu(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    by_component = 0
    for token in WIN_DEAL_1:
        board = fake.message(board.id)
        menu = [cid for cid in custom_ids(board) if cid.startswith("gate:move:")]
        if token == "d":
            handle = await fake.click(board, button(board, "draw"))
        elif menu:
            handle = await fake.select(board, menu[0], [token])
        else:  # more than 25 legal moves: the board has no menu, so the player types the move
            await (await fake.send_command("gate move", {"moves": token})).response()
            continue
        assert (await handle.response()).type == 7
        by_component += 1
    await won(run)
    assert by_component >= len(WIN_DEAL_1) * 0.8


async def test_a_whole_game_in_direct_messages(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await run.bot.tree.sync()
    bob = fake.user("bob")
    await (await fake.send_command("gate new", {"deal": 10}, user=bob, dm=True)).response()
    sent = await fake.send_message(" ".join(LOST_DEAL_10), author=bob, dm=True)
    assert "✅" in await sent.reaction()
    dm = fake.dm_channel(bob)
    over = "Game over: no move left. Score 12/52."
    board = await fake.wait_for(
        lambda: next((m for m in fake.messages(dm) if over in " ".join(m.content.split())), None),
        what="the board saying the game is over",
    )
    assert board.custom_ids(), "it is the board, with its buttons"
    row = await run.game_row()
    assert row.status == "lost"
    said = [m for m in fake.messages(dm) if "no move left" in m.content.lower() or "No legal move" in m.content]
    assert said == [board], "the end of the game is said once"
    assert " ".join(board.content.split()).count("12/52") == 2, board.content  # the header's score and the last line


async def test_slow_work_is_acknowledged_in_time_then_answered(gatebot: Callable, monkeypatch) -> None:
    """Work still under way after the bot's safety deferral is acknowledged first, then answered.

    The service is held until the acknowledgement has arrived, so how busy the machine is
    can't decide which comes first.
    """
    import asyncio

    run: Running = await gatebot(safety_defer=0.05)
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    # Even dealing may outlast so short a deferral: then the board takes the "thinking…" message's place.
    board = await fake.wait_for(lambda: next((m for m in fake.messages(fake.channel) if m.custom_ids()), None),
                                what="the new board")
    assert not [m for m in fake.messages(fake.channel) if m.flags & LOADING], "no \"thinking…\" left behind"
    drawn = len(board.history)
    service = run.bot.services.games
    act, play = service.act, service.play
    release = asyncio.Event()

    async def held_act(*args, **kwargs):
        await release.wait()
        return await act(*args, **kwargs)

    async def held_play(*args, **kwargs):
        await release.wait()
        return await play(*args, **kwargs)

    monkeypatch.setattr(service, "act", held_act)
    monkeypatch.setattr(service, "play", held_play)
    click = await fake.click(board, button(board, "draw"))
    acknowledged = await click.response()
    assert acknowledged.type == 6  # a deferred update, while the work waits
    assert acknowledged.latency < SAFETY_DEFER  # after the deferral the bot was given, not its default
    assert (await run.game_row()).log == "" and len(fake.message(board.id).history) == drawn
    release.set()
    await fake.wait_for(lambda: (len(fake.message(board.id).history) > drawn and "W" in fake.message(board.id).content)
                        or None, what="the board edited after the deferral")
    assert (await run.game_row()).log == "d"
    release.clear()
    command = await fake.send_command("gate move", {"moves": "45"})
    thinking = await command.response()
    assert thinking.type == 5  # "gatebot is thinking…", while the work waits
    assert thinking.ephemeral, "the answer will be the player's alone, and so is its deferral"
    assert (await run.game_row()).log == "d"
    release.set()
    said = await command.original_edited()
    assert said.content.startswith("Played 45") and said.ephemeral
    assert not command.followups, "the answer took the deferral's place"
    assert (await run.game_row()).log == "d 45"


# -- hints, the endgame, winnable deals --------------------------------------------------


async def test_gate_hint_answers_privately_and_leaves_the_board_usable(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    before = await run.game_row()
    asked = await fake.send_command("gate hint")
    deferred = await asked.response()
    assert deferred.type == 5 and deferred.ephemeral and deferred.latency < 1
    answer = await asked.original_edited()
    assert answer.ephemeral and answer.content.startswith("Hint: ")
    token = re.search(r"\(`([^`]+)`\)", answer.content)[1]
    assert token in {str(m) for m in Game.new("gate", deal=1).legal_moves()}
    row = await run.game_row()
    assert (row.hint_count, row.version, row.log) == (1, before.version, "")
    assert not fake.message(board.id).history, "a hint doesn't touch the board"
    click = await fake.click(board, button(board, "draw"))  # the board's buttons still work
    assert (await click.response()).type == 7
    assert (await run.game_row()).log == "d"


async def test_the_hint_button_answers_the_owner_privately(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    hint_id = button(board, "hint")
    assert hint_id == f"gate:hint:{(await run.game_row()).id}:{(await run.game_row()).version}"
    pressed = await fake.click(board, hint_id)
    assert (await pressed.response()).ephemeral
    answer = await pressed.original_edited()
    assert answer.ephemeral and answer.content.startswith("Hint: ")
    assert (await run.game_row()).hint_count == 1
    someone = await fake.click(board, hint_id, user=fake.user("bob"))
    assert (await someone.response()).ephemeral
    refused = await someone.original_edited()
    assert refused.content == "This is Alice's game: start your own with /gate new."
    assert (await run.game_row()).hint_count == 1


async def test_a_mention_asking_for_a_hint_gets_one_in_reply(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    sent = await fake.send_message(f"{fake.bot.mention} what now? hint please")
    reply = await sent.reply()
    assert reply.content.startswith("Hint: ")
    assert reply.payload.get("message_reference", {}).get("message_id") == str(sent.id)
    assert not sent.message.reactions  # not read as moves
    row = await run.game_row()
    assert (row.log, row.hint_count) == ("", 1)


async def test_new_winnable_deals_a_deal_the_solver_wins(gatebot: Callable) -> None:
    run: Running = await gatebot()
    new = await run.fake.send_command("gate new", {"winnable": True})
    response = await new.response(timeout=10)
    board = response if response.type == 4 else await new.followup(0, timeout=10)
    assert "Dealt Gate deal" in board.content
    assert proved((await run.game_row()).deal)


async def test_a_new_game_over_a_running_one_asks_with_buttons(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    # A deal nothing was played in is replaced by a proven deal without a question: play a move first.
    await (await fake.send_command("gate move", {"moves": "d"})).response()
    asked = await fake.send_command("gate new", {"winnable": True})
    question = await asked.response()
    assert question.ephemeral and "abandon" in question.content
    message = asked.original
    [yes] = [c["custom_id"] for row in message.components for c in row["components"]
             if c.get("label") == "Start the new game"]
    click = await fake.click(message, yes)
    assert (await click.response()).type == 7
    board = await click.followup(0, timeout=10)
    assert "Dealt Gate deal" in board.content and "abandoned with a score of 0/52" in board.content
    row = await run.game_row()
    assert row.status == "active" and (row.deal in winnable_deals("gate") or proved(row.deal))


def proved(deal: int) -> bool:
    return solve(Game.new("gate", deal=deal), max_nodes=2_000_000, max_seconds=30).verdict is Verdict.WINNABLE


async def test_auto_finishes_a_game_the_solver_wins(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    await (await fake.send_command("gate move", {"moves": " ".join(STOCK_OUT_DEAL_1)})).response()
    board = board_of(fake)
    click = await fake.click(board, button(board, "auto"))
    assert (await click.response()).type in (6, 7)
    await fake.wait_for(lambda: "Win streak:" in fake.message(board.id).content or None, timeout=10,
                        what="the won board")
    await won(run)


async def test_a_game_that_can_no_longer_be_won_gets_an_end_game_button(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    played = await fake.send_command("gate move", {"moves": " ".join(NO_WIN_DEAL_1)})
    assert (await played.response()).content.startswith("Played")

    def offered() -> str | None:
        message = fake.message(board.id)
        return next((cid for cid in message.custom_ids() if cid.startswith("gate:end:")), None)

    end = await fake.wait_for(offered, timeout=10, what="the End game button")
    shown = fake.message(board.id)
    assert "No win is left from here — 9 cards are home. Press End game to finish, or play on." in shown.content
    assert (await run.game_row()).status == "active"
    click = await fake.click(shown, end)
    assert (await click.response()).type == 7
    row = await run.game_row()
    assert (row.status, row.score) == ("resigned", 9)
    assert "You ended the game with a score of 9/52." in fake.message(board.id).content


async def test_canfield_with_the_move_menu_and_buttons(gatebot: Callable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._SOLVERS, "canfield", None)
    run: Running = await gatebot()
    fake = run.fake
    new = await fake.send_command("gate new", {"variant": "canfield", "deal": 1})
    assert not (await new.response()).ephemeral
    board = board_of(fake)
    menu = next(cid for cid in custom_ids(board) if cid.startswith("gate:move:"))
    picked = await fake.select(board, menu, ["r3"])
    assert (await picked.response()).type == 7
    moved = await (await fake.send_command("gate move", {"moves": "32"})).response()
    assert moved.ephemeral and moved.content.startswith("Played 32")
    board = fake.message(board.id)
    assert (await (await fake.click(board, button(board, "draw"))).response()).type == 7
    expected = Game.new("canfield", deal=1)
    expected.play_line("r3 32 d")
    assert (await run.position()).to_text() == expected.to_text()
    assert (await run.game_row()).log == "r3 32 d"
    assert fake.message(board.id).history, "the board message is edited in place"
    rules = await (await fake.send_command("gate rules")).response()
    assert "Canfield" in rules.content and "Reserve R" in rules.content
    answer = await (await fake.send_command("gate hint")).original_edited()
    assert answer.content == "Hints don't exist for Canfield yet."


async def test_archway_with_kit_by_typed_moves_the_menu_and_buttons(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._SOLVERS, "archway", None)
    run: Running = await gatebot()
    fake = run.fake
    new = await fake.send_command("gate new", {"variant": "archway", "deal": 1, "options": "kit"})
    dealt = await new.response()
    assert not dealt.ephemeral and "Archway" in dealt.content and "/104" in dealt.content
    board = board_of(fake)
    components = {c["custom_id"].split(":")[1]: c for row in board.components for c in row["components"]}
    assert "draw" not in components, "Archway has no stock: no Draw button"
    assert components["hint"].get("disabled") and not components["auto"].get("disabled")

    sent = await fake.send_message(f"{fake.bot.mention} 2c a, q♥ king")  # docs/archway.md §5, as typed
    assert "✅" in await sent.reaction()
    expected = Game.new("archway", deal=1, options=("kit",))
    expected.play_line("2ca qhk")
    assert (await run.position()).to_text() == expected.to_text()
    bad = await fake.send_message(f"{fake.bot.mention} 3 2")
    assert "❌" in await bad.reaction()
    assert (await bad.reply()).content == (
        "Column 2 isn't a space: in Archway cards go only onto the foundations or into an empty column."
    )
    board = fake.message(board.id)
    menu = next(cid for cid in custom_ids(board) if cid.startswith("gate:move:"))
    picked = await fake.select(board, menu, ["3p"])
    assert (await picked.response()).type == 7
    undone = await fake.click(fake.message(board.id), button(fake.message(board.id), "undo"))
    assert (await undone.response()).type == 7
    assert (await run.game_row()).log == "2ca qhk 3p u"
    assert (await run.position()).to_text() == expected.to_text()
    drawn = await (await fake.send_command("gate draw")).response()
    assert drawn.ephemeral and drawn.content.startswith("Archway has no stock")
    rules = await (await fake.send_command("gate rules")).response()
    assert "Archway" in rules.content and "(kit)" in rules.content
    answer = await (await fake.send_command("gate hint")).original_edited()
    assert answer.content == "Hints don't exist for Archway yet."

    await resign(fake)
    stats = await (await fake.send_command("gate stats")).response()
    assert f"Archway: 1 game, 0 won (0%); streak 0, best 0; average score {expected.score:.1f}/104." in stats.content
    shared = await (await fake.send_command("gate share")).response()
    lines = shared.content.splitlines()
    assert lines[0] == f"Archway, kit · deal 1 · {expected.score}/104"
    rows = lines[1:9]
    assert len(lines) == 11 and [len(row) for row in rows] == [13] * 8
    assert sum(row.count(DEALT_SQUARE) for row in rows) == 8  # the bases, there from the deal
    assert sum(row.count(square) for row in rows for square in THIRDS) == expected.score - 8
    assert sum(row.count(NEVER) for row in rows) == 104 - expected.score
