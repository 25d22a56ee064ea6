"""An open challenge keeps its deal secret, and its name shows as typed: through the real bot and the fake Discord.

Deals are the same everywhere, so a deal number seen on an attempt's board, in a replay or in
its animation lets anyone study the whole deal before playing. Until the challenge closes the
bot names the challenge instead; afterwards replays and boards name the deal as usual.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from gatebot.bot.replays import NOT_YOURS
from tests.bot.gatebots import Clock, Running, resign
from tests.fake_discord import FakeDiscord, StoredMessage

#: The challenge's deal: a number long enough never to appear in a message by chance.
DEAL = 4064381782
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2025, 1, 5, 12, 0, tzinfo=UTC))


@pytest.fixture
def service_options() -> dict[str, Any]:
    return {"hint_seconds": 0.3}


def said_anywhere(fake: FakeDiscord, since: int = 0) -> str:
    """Every body the bot sent Discord since request ``since`` (contents, embeds, file names), as one text."""
    return "\n".join(json.dumps(request.json, ensure_ascii=False) + " ".join(f.filename for f in request.files)
                     for request in fake.requests[since:])


async def open_challenge(run: Running, name: str = "Friday Gate", **options: object) -> None:
    made = await run.fake.send_command("challenge-admin create", {"name": name, "deal": DEAL, **options})
    answer = await made.response()
    assert answer.type == 4 and not answer.ephemeral, answer.content


async def attempt_board(run: Running, user: Any = None) -> StoredMessage:
    """``user`` (alice by default) starts an attempt at the open challenge: its public board."""
    started = await run.fake.send_command("challenge play", user=user)
    answer = await started.response()
    assert answer.type == 4 and not answer.ephemeral, answer.content
    assert started.original is not None
    return started.original


@pytest.mark.parametrize("style", ["text", "emoji", "words", "image"])
async def test_an_open_challenges_attempt_board_names_the_challenge_never_the_deal(
    gatebot: Callable, style: str
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate settings", {"style": style})).settled()
    await open_challenge(run)
    since = len(fake.requests)
    board = await attempt_board(run)
    await (await fake.send_command("gate move", {"moves": "d"})).settled()
    await (await fake.send_command("gate board")).settled()
    await resign(fake)
    shown = said_anywhere(fake, since)
    assert str(DEAL) not in shown, "the deal of an open challenge reached Discord"
    if style != "image":
        header = "\n".join(fake.message(board.id).content.splitlines()[:4])
        assert "Friday Gate" in header, header
    else:  # the picture's description (alt text) names the challenge too, and the request bodies above never the deal
        [attachment] = fake.message(board.id).attachments
        assert attachment["description"].startswith("Gate, Friday Gate. "), attachment
    assert (await run.games())[-1].status == "resigned"


async def test_after_the_challenge_closes_the_board_names_the_deal_again(gatebot: Callable, clock: Clock) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await open_challenge(run, hours=1)
    await attempt_board(run)
    clock.now += timedelta(hours=2)
    await (await fake.send_command("gate board")).settled()  # the attempt ends with its challenge
    since = len(fake.requests)
    await (await fake.send_command("gate board")).settled()
    assert str(DEAL) in said_anywhere(fake, since)


async def test_an_open_challenges_replay_is_private_names_the_challenge_and_never_the_deal(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await open_challenge(run)
    board = await attempt_board(run)
    await (await fake.send_command("gate move", {"moves": "d"})).settled()
    await resign(fake)
    since = len(fake.requests)

    opened = await fake.send_command("gate replay")
    answer = await opened.response()
    assert answer.ephemeral, "the owner's replay of an open challenge is for their eyes only"
    assert "Friday Gate" in (answer.content or "") and "only you see it" in (answer.content or "")
    replay = opened.original
    assert replay is not None
    step = next(cid for cid in replay.custom_ids() if cid.endswith(f":next:{fake.user('alice').id}"))
    pressed = await fake.click(replay, step)
    assert (await pressed.response()).type == 7
    gif = await fake.click(replay, next(cid for cid in replay.custom_ids() if cid.endswith(":gif")))
    await gif.response()
    animation = await gif.followup(0)
    assert animation.ephemeral and animation.attachments, "the animation of an open challenge is private too"

    replay_button = next(cid for cid in fake.message(board.id).custom_ids() if cid.startswith("gate:replay:"))
    again = await fake.click(fake.message(board.id), replay_button)
    assert (await again.response()).ephemeral, "the board's Replay button opens it privately too"
    assert str(DEAL) not in said_anywhere(fake, since)


async def test_a_replay_opened_after_the_close_is_public_and_names_the_deal(gatebot: Callable, clock: Clock) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await open_challenge(run, hours=1)
    await attempt_board(run)
    await resign(fake)
    clock.now += timedelta(hours=2)
    opened = await fake.send_command("gate replay")
    answer = await opened.response()
    assert not answer.ephemeral and str(DEAL) in (answer.content or "")


async def test_only_the_replays_owner_steps_it_and_anyone_else_is_refused_privately(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).settled()
    await (await fake.send_command("gate move", {"moves": "3f"})).settled()
    await resign(fake)
    opened = await fake.send_command("gate replay")
    assert not (await opened.response()).ephemeral
    replay = opened.original
    assert replay is not None
    before = replay.payload
    step = next(cid for cid in replay.custom_ids() if ":next:" in cid)

    bob = await fake.click(replay, step, user=fake.user("bob"))
    refusal = await bob.response()
    assert refusal.ephemeral and refusal.content == NOT_YOURS
    assert fake.message(replay.id).payload == before, "bob's press left alice's replay as it was"

    alice = await fake.click(replay, step)
    assert (await alice.response()).type == 7
    assert "Step 1 of" in fake.message(replay.id).content


async def test_a_challenges_name_shows_as_typed_on_the_attempt_board(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    role = "<@&123456789012345678>"
    await (await fake.send_command("gate settings", {"style": "emoji"})).settled()
    await open_challenge(run, name=f"**Big** {role} _cup_")
    board = await attempt_board(run)
    content = fake.message(board.id).content
    assert "**Big**" not in content and "\\*\\*Big\\*\\*" in content, content
    assert role not in content, "a role mention in a name must not render (nor ping)"
    assert "\\_cup\\_" in content


async def test_a_name_with_nothing_visible_is_refused_in_one_sentence(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    made = await fake.send_command("challenge-admin create", {"name": "\u200b\u2060\u3164", "deal": DEAL})
    answer = await made.response()
    assert answer.ephemeral or made.original is None or "shows" in (answer.content or "")
    said = answer.content or (await made.original_edited()).content
    assert "at least one character that shows" in said and said.count(".") <= 1
    assert await run.challenges() == []


async def test_a_new_game_that_ends_an_open_attempt_names_the_challenge_not_its_deal(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await open_challenge(run)
    await attempt_board(run)
    since = len(fake.requests)
    asked = await fake.send_command("gate new", {"deal": 7})
    assert (await asked.response()).ephemeral
    assert asked.original is not None
    button = next(c["custom_id"] for row in asked.original.components for c in row["components"]
                  if c.get("label") == "Start the new game")
    yes = await fake.click(asked.original, button)
    await yes.response()
    board = await yes.followup(0)
    assert "Your attempt at Friday Gate ended with a score of 0/52." in board.content, board.content
    assert str(DEAL) not in said_anywhere(fake, since)


async def test_a_challenge_made_to_open_later_keeps_its_deal_out_of_its_leaderboard(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await open_challenge(run, starts_in=5)
    since = len(fake.requests)
    shown = await (await fake.send_command("challenge leaderboard", {"challenge": 1})).response()
    assert "not open yet: it opens <t:" in (shown.content or ""), shown.content
    assert str(DEAL) not in said_anywhere(fake, since), "an upcoming challenge's leaderboard named its deal"
