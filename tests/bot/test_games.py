"""The /gate commands over the fake Discord: what a player reads after undo, a win, an ended game."""

from __future__ import annotations

from collections.abc import Callable

from tests.bot.gatebots import Running


async def test_undo_says_what_it_took_back(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    await (await fake.send_command("gate move", {"moves": "d 3f"})).response()
    ack = await (await fake.send_command("gate undo", {"count": 2})).response()
    assert ack.ephemeral and ack.content == "Took back 3f and d."
    assert (await run.game_row()).log == "d 3f u u"
