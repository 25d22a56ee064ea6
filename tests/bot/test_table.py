"""The bot's answers where Discord fails it: every request gets one true answer, whatever Discord does.

The real gatebot and the unmodified discord.py client run against the fake Discord, which is
told to fail chosen requests the way Discord does (400, 403, 404, 429, 500, a dropped socket).
What is asserted is what a person sees, and what the database holds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from gatebot.bot.errors import APOLOGY, UNKNOWN_COMPONENT
from gatebot.bot.views import STALE_PRESS
from gatebot.rules import Game
from tests.bot.gatebots import Running, shown
from tests.bot.test_gatebot import board_of, button
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.handles import MessageHandle

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"
REACT = "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
SAVED = "was saved, but I couldn't update the board: /gate board shows it."


async def settled() -> None:
    """Give the bot a moment to do anything more it was going to (for asserting it did nothing more)."""
    await asyncio.sleep(0.3)


def replies_to(fake: FakeDiscord, sent: MessageHandle) -> list[StoredMessage]:
    """The bot's replies to a typed message."""
    return [
        m for m in fake.messages(sent.message.channel_id)
        if m.origin == "bot" and (m.payload.get("message_reference") or {}).get("message_id") == str(sent.id)
    ]


async def started(run: Running) -> StoredMessage:
    """Alice's game of deal 1 and its board (answered at once, or after a deferral on a loaded machine)."""
    return await shown(await run.fake.send_command("gate new", {"deal": 1}))


# -- a saved change is never reported as unchanged ------------------------------------------


async def test_a_press_saved_while_discord_refuses_its_answer_says_it_was_saved(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    fault = fake.fail(CALLBACK, 400, code=50035, message="Invalid Form Body")
    press = await fake.click(board, button(board, "draw"))
    answer = await press.response()
    assert fault.hits == 1
    assert (await run.game_row()).log == "d", "the draw was stored"
    assert answer.ephemeral
    assert answer.content == f"Your move {SAVED}"
    assert "unchanged" not in answer.content


async def test_a_command_saved_while_its_answer_fails_says_it_was_saved(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await started(run)
    fake.fail(EDIT, 400, code=50035)  # Discord refuses the board's edit
    move = await fake.send_command("gate move", {"moves": "45"})
    answer = await move.response()
    assert (await run.game_row()).log == "45"
    assert answer.ephemeral and answer.content == f"Your move {SAVED}"


async def test_a_board_the_bot_may_not_edit_is_replaced_by_a_fresh_one(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    fake.fail(EDIT, 403, code=50013, times=10)  # the bot lost access to the board's channel
    move = await fake.send_command("gate move", {"moves": "45"})
    answer = await move.response()
    await settled()
    assert answer.type == 4 and not answer.ephemeral, "the board comes as the interaction's answer"
    fresh = board_of(fake)
    assert fresh.id != board.id and fresh.content != board.content
    row = await run.game_row()
    assert row.log == "45" and row.board_message_id == fresh.id


async def test_a_transient_500_on_the_answer_costs_the_player_nothing(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    fake.fail(CALLBACK, 500)
    press = await fake.click(board, button(board, "draw"))
    answer = await press.response(timeout=10)
    assert answer.type == 7, "the board itself was redrawn once Discord recovered"
    assert (await run.game_row()).log == "d"
    assert not press.followups


async def test_an_answer_discord_took_but_reported_failed_is_not_followed_by_an_apology(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    fake.fail(CALLBACK, 500, processed=True)  # the board was redrawn, then Discord answered 500
    press = await fake.click(board, button(board, "draw"))
    answer = await press.response()
    assert answer.type == 7
    await fake.wait_for(lambda: len(fake.requests_to(CALLBACK)) >= 3 or None, timeout=10, what="the retry")
    await settled()
    assert not press.followups, "no second answer"
    assert (await run.game_row()).log == "d"


async def test_a_rate_limited_answer_arrives_after_the_wait(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    fake.fail(CALLBACK, 429, retry_after=0.2)
    press = await fake.click(board, button(board, "draw"))
    answer = await press.response()
    assert answer.type == 7
    last_two = [r.status for r in fake.requests_to(CALLBACK)][-2:]
    assert last_two[0] == 429 and last_two[1] is not None and last_two[1] < 300


async def test_a_bug_while_answering_a_saved_move_still_says_it_was_saved(gatebot: Callable, monkeypatch) -> None:
    import gatebot.bot.table as table

    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)

    async def broken(*_args, **_kwargs):
        raise RuntimeError("the board drawing broke")

    monkeypatch.setattr(table, "board_message", broken)
    press = await fake.click(board, button(board, "draw"))
    answer = await press.response()
    assert (await run.game_row()).log == "d"
    assert answer.content == f"Your move {SAVED}"


async def test_a_bugs_own_text_never_reaches_the_player(gatebot: Callable, monkeypatch) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await started(run)

    async def broken(*_args, **_kwargs):
        raise ValueError("invalid literal for int() with base 10: 'internal'")

    monkeypatch.setattr(run.bot.services.games, "play", broken)
    answer = await (await fake.send_command("gate move", {"moves": "45"})).response()
    assert answer.ephemeral and answer.content == APOLOGY
    sent = await fake.send_message(f"{fake.bot.mention} 45")
    reply = await sent.reply()
    assert reply.content == APOLOGY and "❌" in await sent.reaction()


# -- every interaction gets exactly one answer ----------------------------------------------


async def test_unknown_and_malformed_custom_ids_get_one_private_sentence(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    for custom_id in ("gate:explode:1:1", "other-app:vote:3", "gate:draw:1", "gate:replay:1:2", "x" * 100):
        press = await fake.click(board, custom_id, strict=False)
        answer = await press.response()
        assert answer.ephemeral and answer.content == UNKNOWN_COMPONENT, custom_id
    await settled()
    assert all(len(fake.state.interactions[i].rejected) == 0 for i in fake.state.interactions)
    assert (await run.game_row()).log == ""


async def test_a_question_from_before_a_restart_is_answered(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await started(run)
    asked = await fake.send_command("gate new", {"deal": 2})
    question = await asked.response()
    assert question.ephemeral and question.components
    await run.bot.close()
    await gatebot()  # a restart: the question's buttons were only in the old process's memory
    yes = next(c["custom_id"] for row in asked.original.components for c in row["components"])
    press = await fake.click(asked.original, yes)
    answer = await press.response()
    assert answer.ephemeral and answer.content == UNKNOWN_COMPONENT
    assert (await run.game_row()).deal == 1, "nothing was dealt"


async def test_a_double_click_tells_only_the_presser_and_the_board_stays_clean(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    draw = button(board, "draw")
    await (await fake.click(board, draw)).response()
    edits = len(fake.message(board.id).history)
    # Pressed again before the client had the redrawn board: the press names a button the message no longer has.
    late = await fake.click(board, draw, strict=False)
    told = await late.response()
    assert told.ephemeral and told.content == STALE_PRESS
    await settled()
    assert "out of date" not in fake.message(board.id).content
    assert len(fake.message(board.id).history) == edits
    assert (await run.game_row()).log == "d"


async def test_a_refused_press_leaves_the_public_board_alone(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    undo = button(board, "undo")  # nothing to take back yet (the button is disabled; a stale client shows it)
    edits = len(fake.message(board.id).history)
    press = await fake.click(board, undo, strict=False)
    answer = await press.response()
    assert answer.ephemeral and "no move to take back" in answer.content.lower()
    assert len(fake.message(board.id).history) == edits


# -- typed messages -------------------------------------------------------------------------


async def test_a_typed_mistake_gets_one_cross_and_one_reply_and_no_board_edit(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    edits = len(fake.message(board.id).history)
    sent = await fake.send_message(f"{fake.bot.mention} 9f")
    reply = await sent.reply()
    await settled()
    assert sent.message.reactions == ["❌"]
    assert replies_to(fake, sent) == [reply] and reply.content == "Column 9 doesn't exist: Gate has columns 1–8."
    assert len(fake.message(board.id).history) == edits, "a refusal doesn't touch the public board"


async def test_a_typed_move_whose_board_edit_fails_is_marked_saved_and_says_so_once(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await started(run)
    fake.fail(EDIT, 500, times=10, drop=True)  # the socket drops on every try of the edit
    sent = await fake.send_message(f"{fake.bot.mention} 45")
    reply = await sent.reply(timeout=10)
    await settled()
    assert (await run.game_row()).log == "45"
    assert sent.message.reactions == ["✅"]
    assert reply.content == f"Your move {SAVED}"
    assert replies_to(fake, sent) == [reply]


async def test_a_typed_move_in_a_channel_where_the_board_cant_be_edited_or_posted(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await started(run)
    fake.fail(EDIT, 403, code=50013)
    fake.fail(POST, 403, code=50013)  # the fresh board can't be posted either; the reply then can
    sent = await fake.send_message(f"{fake.bot.mention} 45")
    reply = await sent.reply()
    assert sent.message.reactions == ["✅"]
    assert reply.content == f"Your move {SAVED}"
    assert (await run.game_row()).log == "45"


async def test_a_typed_move_whose_reaction_fails_still_gets_its_board(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    fake.fail(REACT, 403, code=50013)
    sent = await fake.send_message(f"{fake.bot.mention} 45")
    await fake.wait_for(lambda: fake.message(board.id).history or None, what="the board edited")
    await settled()
    assert "45" in fake.message(board.id).content or (await run.game_row()).log == "45"
    assert replies_to(fake, sent) == []


async def test_a_reply_to_another_players_board_says_whose_it_is(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    bob = fake.user("bob")
    await (await fake.send_command("gate new", {"deal": 2}, user=bob)).response()
    sent = await fake.send_message("45", author=bob, reply_to=board)
    reply = await sent.reply()
    assert "Alice's board" in reply.content
    assert sent.message.reactions == ["❌"]
    games = await run.games()
    assert [g.log for g in games] == ["", ""], "neither game was played"


# -- nothing sent breaks Discord's limits -----------------------------------------------------


async def test_a_very_long_typed_message_gets_a_short_refusal(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    edits = len(fake.message(board.id).history)
    sent = await fake.send_message(f"{fake.bot.mention} " + "3f " * 1330)
    reply = await sent.reply()
    assert len(reply.content) < 150 and "too long" in reply.content
    assert sent.message.reactions == ["❌"]
    await settled()
    assert len(fake.message(board.id).history) == edits
    assert all(r.status is not None and r.status < 400 for r in fake.requests)


async def test_a_long_word_is_quoted_as_a_short_excerpt(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await started(run)
    answer = await (await fake.send_command("gate move", {"moves": "q" * 900})).response()
    assert answer.ephemeral and "q" * 20 not in answer.content and "…" in answer.content
    assert len(answer.content) < 120


async def test_typed_undo_takes_back_a_move_and_nothing_to_undo_is_one_refusal(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    edits = len(fake.message(board.id).history)
    nothing = await fake.send_message(f"{fake.bot.mention} undo")
    reply = await nothing.reply()
    await settled()
    assert nothing.message.reactions == ["❌"] and reply.content == "There is no move to take back."
    assert replies_to(fake, nothing) == [reply]
    assert len(fake.message(board.id).history) == edits
    played = await fake.send_message(f"{fake.bot.mention} 45")
    assert await played.reaction() == ["✅"]
    back = await fake.send_message(f"{fake.bot.mention} UNDO 1")
    assert await back.reaction() == ["✅"]
    assert (await run.position()).to_text() == Game.new("gate", deal=1).to_text()


async def test_a_press_on_a_board_left_behind_redraws_it_clean_and_tells_only_the_presser(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    played = await fake.send_message("45", dm=True)  # the game moves on in a DM; the #general board stays behind
    assert await played.reaction() == ["✅"]
    press = await fake.click(fake.message(board.id), button(fake.message(board.id), "draw"))
    answer = await press.response()
    assert answer.type == 7, "the board is redrawn as the game is now"
    told = await press.followup(0)
    assert told.ephemeral and "out of date" in told.content
    assert "out of date" not in fake.message(board.id).content
    assert (await run.game_row()).log == "45"


# -- one press, one request ------------------------------------------------------------------


def count_service_calls(run: Running, monkeypatch) -> list[str]:
    """Record every request the bot makes to its game service, by method name, from now on."""
    import inspect

    called: list[str] = []
    service = run.bot.services.games
    for name, method in inspect.getmembers(service, inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue

        def counting(method=method, name=name):
            async def counted(*args, **kwargs):
                called.append(name)
                return await method(*args, **kwargs)
            return counted

        monkeypatch.setattr(service, name, counting())
    return called


def count_renders(monkeypatch) -> list[int]:
    """Record every board the bot draws from now on."""
    import gatebot.bot.table as table

    drawn: list[int] = []
    draw = table.board_message

    async def counted(*args, **kwargs):
        drawn.append(1)
        return await draw(*args, **kwargs)

    monkeypatch.setattr(table, "board_message", counted)
    return drawn


async def test_a_move_press_is_one_service_call_one_drawing_and_one_callback(gatebot: Callable, monkeypatch) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board = await started(run)
    await settled()  # the new board's message is recorded
    called, drawn = count_service_calls(run, monkeypatch), count_renders(monkeypatch)
    for action in ("draw", "move"):
        board = fake.message(board.id)
        before = len(fake.requests)
        if action == "draw":
            press = await fake.click(board, button(board, "draw"))
        else:
            press = await fake.select(board, button(board, "move"), ["45"])
        answer = await press.response()
        await settled()
        assert answer.type == 7, "the pressed board itself was redrawn"
        assert called == ["act"], f"{action}: one request to the service"
        assert len(drawn) == 1, f"{action}: one drawing"
        assert [request.route for request in fake.requests[before:]] == [CALLBACK], f"{action}: one REST call"
        called.clear()
        drawn.clear()
    assert (await run.game_row()).log == "d 45"
