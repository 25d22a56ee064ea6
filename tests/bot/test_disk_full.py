"""A full disk as a Discord player meets it: one private sentence, the board as it was, and play on once space returns.

The database is capped where it stands (``PRAGMA max_page_count``, see
``tests/service/test_disk_full.py``), so the player's next change needs room it hasn't got.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from gatebot.service import Actor
from gatebot.store import GameRecord
from tests.bot.gatebots import Running
from tests.bot.test_table import started
from tests.service.test_disk_full import SENTENCE, PageLimit, refused_request


async def test_a_full_disk_is_one_private_sentence_and_the_same_command_plays_once_space_returns(
    gatebot: Callable, caplog: pytest.LogCaptureFixture
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await started(run)
    service = run.bot.services.games
    alice = Actor("discord", str(fake.user("alice").id), "alice")
    limit = PageLimit(service.database)
    caplog.set_level(logging.INFO)
    await limit.fill(service)
    before, action = await refused_request(service, alice)
    assert before.game_id is not None

    async def alices_game() -> GameRecord:
        async with run.db.sessions() as session:
            record = await session.get(GameRecord, before.game_id)
            assert record is not None
            return record

    stored = (await alices_game()).log

    def command() -> tuple[str, dict[str, object]]:
        return ("gate undo", {}) if action == "undo" else ("gate move", {"moves": action})

    answer = await (await fake.send_command(*command())).response()
    assert answer.ephemeral and answer.content == SENTENCE
    assert (await alices_game()).log == stored  # nothing changed

    limit.free()
    answer = await (await fake.send_command(*command())).response()
    assert not (answer.ephemeral and answer.content == SENTENCE)
    row = await alices_game()
    assert row.version == before.version + 1
    assert row.log.startswith(stored) and len(row.log) > len(stored)  # the game's history, and the change
    bugs = [record for record in caplog.records
            if record.name.startswith("gatebot") and record.levelno >= logging.ERROR]
    assert bugs == []  # a full disk is no bug: its one warning is the store's
