"""A deal seldom won, over the fake Discord: it says how often once, and one press deals a proven one.

A player who types ``/gate new variant:little-gate`` is told at the deal that about 1 deal in
100 can be won, on the board's message, with a Proven winnable deal button under it; pressing it
is one interaction with one answer, a new board whose deal the solver proved winnable and which
says so. A variant won nearly always (Gate) gets neither the sentence nor the button.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from gatebot.rules import Game
from gatebot.solver import Verdict, solve
from gatebot.solver.deals import winnable_deals
from tests.bot.games.test_commands import board_of
from tests.bot.gatebots import Running
from tests.fake_discord import FakeDiscord

CHANCE = "About 1 deal in 100 of Little Gate can be won."
PROVEN = "This deal is proven winnable: the solver found a win."


def said(fake: FakeDiscord, sentence: str) -> int:
    """How many messages and edits of one, ephemeral ones too, say ``sentence`` (their lines joined)."""
    count = 0
    for message in fake.messages(fake.channel, include_deleted=True):
        for payload in [*message.history, message.payload]:
            count += sentence in " ".join((payload.get("content") or "").split())
    return count


async def test_a_little_gate_deal_says_how_seldom_it_is_won_and_one_press_deals_a_proven_one(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"variant": "little-gate", "deal": 3})).response()
    board = board_of(fake)
    assert said(fake, CHANCE) == 1, board.content
    assert "/gate new variant:Little Gate winnable:True" in " ".join(board.content.split())
    [proven] = [c for c in board.custom_ids() if c.startswith("gate:proven:")]
    label = next(c["label"] for row in board.components for c in row["components"] if c.get("custom_id") == proven)
    assert label == "Proven winnable deal"

    pressed = await fake.click(board, proven)
    answer = await pressed.settled(timeout=30)
    await asyncio.sleep(0.3)  # anything more the bot would say about this press is out by now
    assert pressed.record.callback is answer and len(pressed.followups) <= 1  # one answer to one press
    fresh = board_of(fake)
    assert fresh.id != board.id and said(fake, PROVEN) == 1, fresh.content
    assert "abandon it?" not in fresh.content  # nothing was played in deal 3: no question first
    assert not any(c.startswith("gate:proven:") for c in fresh.custom_ids())  # it is proven already
    row = await run.game_row()
    assert (row.variant, row.status) == ("little-gate", "active") and row.deal != 3
    assert row.deal in winnable_deals("little-gate") or solve(
        Game.new("little-gate", deal=row.deal), max_nodes=2_000_000, max_seconds=30
    ).verdict is Verdict.WINNABLE

    # The old board is redrawn as abandoned, without the button (its own edit, which may follow the new board).
    def redrawn() -> Any:
        first = fake.message(board.id)
        return None if any(c.startswith("gate:proven:") for c in first.custom_ids()) else first

    first = await fake.wait_for(redrawn, timeout=20, what="the old board redrawn without its button")
    # A client still showing the button (its edit not seen yet) presses it: nothing is dealt again.
    again = await (await fake.click(first, proven, strict=False)).response()
    assert again.ephemeral and again.content.startswith("That button no longer works here")
    assert (await run.game_row()).id == row.id  # the proven deal is still the one in play


async def test_a_gate_deal_has_no_note_nor_button(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    assert "can be won" not in board.content and "proven" not in board.content
    assert not any(c.startswith("gate:proven:") for c in board.custom_ids())
