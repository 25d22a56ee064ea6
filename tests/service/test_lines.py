"""What one request may ask: long lines refused before they are read, and at most MAX_MOVES moves a request."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game
from gatebot.service import Actor, GameService, ReplyKind
from gatebot.service.lines import EXCERPT, MAX_LINE, MAX_MOVES, excerpt, line_refusal
from gatebot.store import Database, GameRecord

ALICE = Actor("terminal", "alice", "Alice")


async def log_of(db: Database, game_id: int) -> str:
    async with db.sessions() as session:
        record = await session.get(GameRecord, game_id)
        assert record is not None
        return record.log


async def test_a_ten_megabyte_line_is_refused_at_once_and_changes_nothing(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, deal=1)
    started = time.perf_counter()
    reply = await service.play(ALICE, "3f " * 3_500_000)
    assert time.perf_counter() - started < 1.0
    assert reply.kind is ReplyKind.ERROR and not reply.saved
    assert reply.message is not None and "too long" in reply.message and len(reply.message) < 150
    assert await log_of(db, dealt.game_id) == ""


async def test_a_line_of_many_draws_plays_at_most_the_bound_and_says_so(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, "canfield", deal=1)
    line = " ".join(["d"] * (MAX_MOVES + 50))  # Canfield's stock goes round without end: every draw is legal
    assert len(line) <= MAX_LINE
    reply = await service.play(ALICE, line)
    assert reply.saved and len(reply.played) == MAX_MOVES
    assert reply.message is not None and f"first {MAX_MOVES} moves" in reply.message
    assert len((await log_of(db, dealt.game_id)).split()) == MAX_MOVES
    expected = Game.new("canfield", deal=1)
    expected.play_line(" ".join(["d"] * MAX_MOVES))
    assert reply.game is not None and reply.game.to_text() == expected.to_text()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=2 * MAX_LINE))
def test_a_refusal_quotes_at_most_an_excerpt(text: str) -> None:
    refusal = line_refusal(text)
    if refusal is not None:
        assert len(refusal) < 150
        for word in text.split():
            if len(word) > EXCERPT:
                assert word not in refusal


@given(st.text())
def test_an_excerpt_is_short_and_one_line(text: str) -> None:
    cut = excerpt(text)
    assert len(cut) <= EXCERPT and "\n" not in cut
    if len(" ".join(text.split())) <= EXCERPT:
        assert cut == " ".join(text.split())
    else:
        assert cut.endswith("…")
