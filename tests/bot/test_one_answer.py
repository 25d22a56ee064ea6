"""One interaction, one answer: the safety deferral, a slow or lost first answer, and Discord's "already acknowledged".

The fake Discord holds or loses the bot's first answer the way Discord does: a callback that
is slow to be answered (``delay``), a socket that closes before the answer (``drop``), with the
work done or not (``processed``). Each test gives the bot a safety deferral far shorter than the
held callback, so the deferral's timer is certain to fire while the first answer is in flight,
however busy the machine. What is asserted is what the person is shown, and what is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from gatebot.bot.timely import SAFETY_DEFER
from tests.bot.gatebots import Running
from tests.bot.test_gatebot import board_of, button
from tests.bot.test_stats_commands import public, share_button, win_deal_1
from tests.bot.test_timely import hold
from tests.fake_discord import FakeDiscord, Overwrite, Permission, StoredMessage
from tests.fake_discord.handles import InteractionHandle
from tests.fake_discord.records import LOADING

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
#: The safety deferral of these bots: far below how long the fake holds a callback.
DEFER = 0.05
#: How long the fake holds the first callback before closing its socket.
HELD = 0.6


async def started(gatebot: Callable, *, safety_defer: float = DEFER) -> Running:
    """A bot that defers after ``safety_defer``, with Alice's game of deal 1 on its board."""
    run: Running = await gatebot(safety_defer=safety_defer)
    await (await run.fake.send_command("gate new", {"deal": 1})).response()
    fake = run.fake
    await fake.wait_for(lambda: next((m for m in fake.messages(fake.channel) if m.custom_ids()), None),
                        what="the board")
    return run


async def settled(fake: FakeDiscord, handle: InteractionHandle) -> None:
    """Wait until the bot has stopped answering ``handle`` (nothing new for a moment)."""
    seen = -1
    while seen != len(fake.requests):
        seen = len(fake.requests)
        await asyncio.sleep(0.4)


def thinking_left(fake: FakeDiscord) -> list[StoredMessage]:
    """Messages still showing "thinking…" in the test channel, public or private."""
    return [m for m in fake.messages(fake.channel) if m.flags & LOADING and not m.deleted]


# -- the safety deferral waits for an answer already on its way ---------------------------------


async def test_a_hint_whose_private_deferral_is_slow_then_lost_gets_one_private_answer(gatebot: Callable) -> None:
    run = await started(gatebot)
    fake = run.fake
    lost = fake.fail(CALLBACK, 500, delay=HELD, drop=True)  # the hint's own private "thinking…"
    asked = await fake.send_command("gate hint")
    first = await asked.response()
    assert lost.hits == 1
    assert first.type == 5 and first.ephemeral, "the deferral Discord keeps is the private one, sent again"
    hint = await asked.original_edited()
    assert hint.ephemeral and hint.content and "wrong" not in hint.content
    await settled(fake, asked)
    assert not thinking_left(fake), "no \"thinking…\" is left unresolved"
    assert not asked.followups
    assert not fake.state.interactions[asked.id].rejected, "no second callback was tried"


async def test_a_move_whose_private_answer_is_slow_then_lost_is_acknowledged_once(gatebot: Callable) -> None:
    run = await started(gatebot)
    fake = run.fake
    lost = fake.fail(CALLBACK, 500, delay=HELD, drop=True)
    move = await fake.send_command("gate move", {"moves": "45"})
    said = await move.response()
    assert lost.hits == 1
    assert said.type == 4 and said.ephemeral and said.content.startswith("Played 45")
    await settled(fake, move)
    assert (await run.game_row()).log == "45"
    assert not move.followups and not thinking_left(fake)
    assert not fake.state.interactions[move.id].rejected, "the safety deferral waited, and found the answer given"


async def test_a_slow_new_board_is_deferred_in_the_open_and_takes_the_deferrals_place(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run: Running = await gatebot(safety_defer=DEFER)
    fake = run.fake
    release = hold(monkeypatch, run.bot.services.games, "new_game")
    dealt = await fake.send_command("gate new", {"deal": 1})
    deferred = await dealt.response()
    assert deferred.type == 5 and not deferred.ephemeral, "a board is for everyone, and so is its deferral"
    release.set()
    board = await dealt.original_edited()
    assert board.custom_ids() and not board.ephemeral, "the board took the \"thinking…\" message's place"
    await settled(fake, dealt)
    assert not thinking_left(fake) and not dealt.followups
    assert (await run.game_row()).board_message_id == board.id


async def test_a_slow_question_before_a_new_board_takes_a_public_deferrals_place_privately(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = await started(gatebot)
    fake = run.fake
    release = hold(monkeypatch, run.bot.services.games, "new_game")
    dealt = await fake.send_command("gate new", {"deal": 2})
    deferred = await dealt.response()
    assert deferred.type == 5 and not deferred.ephemeral
    release.set()
    asked = await dealt.followup(0)
    assert asked.ephemeral and asked.custom_ids(), "the question (a game is running) is the asker's alone"
    await settled(fake, dealt)
    assert not thinking_left(fake), "the public \"thinking…\" went"
    assert [game.deal for game in await run.games()] == [1]


# -- a lost answer Discord had: decided by what Discord says (40060) ------------------------------


async def test_an_acknowledgement_discord_took_before_the_socket_dropped_is_said_once(gatebot: Callable) -> None:
    run = await started(gatebot, safety_defer=SAFETY_DEFER)  # the answer, not a deferral, is the callback
    fake = run.fake
    dropped = fake.fail(CALLBACK, 500, drop=True, processed=True)
    move = await fake.send_command("gate move", {"moves": "45"})
    said = await move.response()
    await settled(fake, move)
    assert dropped.hits == 1
    assert said.ephemeral and said.content.startswith("Played 45")
    assert (await run.game_row()).log == "45"
    assert not move.followups, "the acknowledgement Discord took is not sent again as a follow-up"
    assert [r.status for r in fake.state.interactions[move.id].rejected] == [400], "the resend was told 40060"


async def test_a_board_redrawn_before_the_socket_dropped_is_not_reported_unupdated(gatebot: Callable) -> None:
    run = await started(gatebot, safety_defer=SAFETY_DEFER)  # the answer, not a deferral, is the callback
    fake = run.fake
    board = board_of(fake)
    dropped = fake.fail(CALLBACK, 500, drop=True, processed=True)
    press = await fake.click(board, button(board, "draw"))
    answer = await press.response()
    await settled(fake, press)
    assert dropped.hits == 1
    assert answer.type == 7, "the board itself was redrawn"
    assert (await run.game_row()).log == "d"
    assert not press.followups, "no \"I couldn't update the board\" after a board that was updated"


async def test_a_lost_answer_discord_never_had_is_sent_again_and_arrives(gatebot: Callable) -> None:
    run = await started(gatebot, safety_defer=SAFETY_DEFER)  # the answer, not a deferral, is the callback
    fake = run.fake
    board = board_of(fake)
    lost = fake.fail(CALLBACK, 500, drop=True)  # closed before Discord did anything
    press = await fake.click(board, button(board, "draw"))
    answer = await press.response()
    await settled(fake, press)
    assert lost.hits == 1
    assert answer.type == 7 and "W" in fake.message(board.id).content
    assert (await run.game_row()).log == "d"
    assert not press.followups


# -- one press, one card -----------------------------------------------------------------------


async def test_a_double_click_on_share_result_posts_one_card(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    board = board_of(fake)
    share = share_button(board)["custom_id"]
    before = public(run)
    first, second = await fake.click(board, share), await fake.click(board, share)  # before either is answered
    answers = [await first.response(), await second.response()]
    await settled(fake, second)
    cards = [m for m in public(run) if m not in before]
    assert len(cards) == 1 and cards[0].content.startswith("Gate · deal 1 · won 52/52")
    [again] = [a for a in answers if a.ephemeral]
    assert again.content == "You shared this result here a moment ago: its card is in this channel."
    bob = await (await fake.click(board, share, user=fake.user("bob"))).response()
    assert bob.content == "Only Alice can share their result.", "another member is still told whose it is"


async def test_a_card_that_failed_to_post_can_be_shared_again_at_once(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    board = board_of(fake)
    share = share_button(board)["custom_id"]
    before = public(run)
    fake.fail(CALLBACK, 400, code=50035, message="Invalid Form Body")
    failed = await (await fake.click(board, share)).response()
    assert failed.ephemeral
    retried = await (await fake.click(board, share)).response()
    assert not retried.ephemeral and retried.content.startswith("Gate · deal 1 · won 52/52")
    assert len([m for m in public(run) if m not in before]) == 1


# -- a hint asked where the bot may not post ---------------------------------------------------


def mute_bot(fake: FakeDiscord) -> None:
    """Take Send Messages from the bot's role in the test channel (it still sees it, and may react)."""
    bot_role = next(role for role in fake.guild.roles if role.managed)
    fake.channel.overwrites.append(Overwrite(id=bot_role.id, type=0, deny=Permission.SEND_MESSAGES))


async def test_a_hint_asked_where_the_bot_may_not_post_comes_by_dm_with_a_sign_on_the_message(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    mute_bot(fake)
    sent = await fake.send_message(f"{fake.bot.mention} hint please")
    assert await sent.reaction() == ["📨"], "the message shows its answer went elsewhere"
    dm = fake.dm_channel(fake.user("alice"))
    [note] = await fake.wait_for(lambda: fake.messages(dm) or None, what="the hint in Alice's DM")
    assert note.content.startswith(f"I may not post in <#{fake.channel.id}>, so here is my answer: Hint: ")
    assert not [m for m in fake.messages(fake.channel) if m.origin == "bot" and m.id != sent.id and not m.components]
    assert (await run.game_row()).hint_count == 1


async def test_a_hint_that_reaches_neither_channel_nor_dm_still_gets_a_cross(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    mute_bot(fake)
    fake.fail("POST /channels/{channel_id}/messages", 403, code=50007, message="Cannot send messages to this user",
              times=2)
    sent = await fake.send_message(f"{fake.bot.mention} hint please")
    assert await sent.reaction() == ["❌"]


# -- challenges where there can be none --------------------------------------------------------

NO_CHALLENGES = "Challenges are played in servers that added gatebot, so there are none here."


async def test_challenge_commands_where_no_server_added_gatebot_say_there_are_none_there(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await run.bot.tree.sync()  # global commands, as `gatebot sync` makes them
    alice = fake.user("alice")
    fake.install_for_user(alice)
    group = fake.group_dm(alice, fake.user("bob"))
    # A client with an old copy of the commands can still send them where they are not offered.
    elsewhere = fake.world.add_guild("Elsewhere", owner=alice, with_bot=False).text_channels[0]
    for where in ({"channel": group}, {"dm": True}, {"channel": elsewhere}):
        for path in ("challenge list", "challenge daily", "challenge-admin daily off"):
            asked = await fake.send_command(path, user=alice, strict=False, **where)
            said = await asked.response()
            assert said.ephemeral and said.content == NO_CHALLENGES, (path, where)
            assert "/challenge-admin" not in said.content
    assert await run.challenges() == []
