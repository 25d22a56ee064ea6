"""Ids from outside (a button's custom id, a command's option) on a real database (SQLite and PostgreSQL).

Any integer may arrive: one too large for the database's INTEGER, a negative one, or the id
of a game that was deleted. Each is a game or challenge that isn't there, answered the usual
way; and an id once given is never given again, so an old board can't act on a new game.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.service import Actor, GameService, ReplyKind
from gatebot.service.challenges import ChallengeError, ChallengeService
from gatebot.service.stats import GameGone, Statistics
from gatebot.store import Database, GameRecord

ALICE = Actor("discord", "1180000000000000001", "Alice", guild_id=11, channel_id=42)
BOB = Actor("discord", "1180000000000000002", "Bob", guild_id=11, channel_id=42)
GONE = "That game no longer exists: start one with new."

#: Ids no row can have: past PostgreSQL's INTEGER, past SQLite's 64 bits, far past both, and below 1.
OUT_OF_RANGE = (2**31, 2**63 - 1, 2**63, 2**64, 10**30, 0, -1, -(2**63), -(2**63) - 1)
outside = st.one_of(st.sampled_from(OUT_OF_RANGE), st.integers(min_value=2**31), st.integers(max_value=0))


@pytest.fixture
async def games(db: Database) -> AsyncIterator[GameService]:
    service = GameService(db)
    yield service
    service.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game_id=outside)
async def test_a_game_id_out_of_range_is_no_such_game(db: Database, games: GameService, game_id: int) -> None:
    dealt = await games.new_game(ALICE, deal=1, confirm=True)  # each example deals afresh
    for action in ("draw", "undo", "auto", "hint", "resign", "end", "3f"):
        reply = await games.act(ALICE, action, game_id=game_id, expected_version=dealt.version)
        assert (reply.kind, reply.message) == (ReplyKind.ERROR, GONE), action
    assert await games.board_of(game_id) is None
    assert await games.board_message(game_id) == (None, None)
    await games.set_board_message(game_id, 42, 7)  # changes nothing, and doesn't fail
    with pytest.raises(GameGone):
        await Statistics(db).card(game_id, ALICE.platform, ALICE.user_id)
    # Alice's own game was never touched.
    shown = await games.show(ALICE)
    assert (shown.game_id, shown.version, shown.kind) == (dealt.game_id, dealt.version, ReplyKind.BOARD)
    assert await games.board_message(dealt.game_id) == (ALICE.channel_id, None)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(challenge_id=outside)
async def test_a_challenge_id_out_of_range_is_no_such_challenge(games: GameService, challenge_id: int) -> None:
    challenges = ChallengeService(games)
    await challenges.create(ALICE, 11, channel_id=42, deal=1)
    refusal = f"This server has no challenge number {challenge_id}: see /challenge list."
    for ask in (
        challenges.get(11, challenge_id),
        challenges.end(11, challenge_id),
        challenges.play(BOB, 11, challenge_id),
        challenges.leaderboard(11, challenge_id),
    ):
        with pytest.raises(ChallengeError) as refused:
            await ask
        assert str(refused.value) == refusal
    await challenges.record_announcement(challenge_id, 42, 7)  # changes nothing, and doesn't fail
    assert all(info.announcement_id is None for info in await challenges.listing(11))

async def test_game_ids_are_never_reused_after_the_newest_game_is_deleted(db: Database, games: GameService) -> None:
    """Forgetting the player whose game was newest must not let the next game take its id."""
    await games.new_game(BOB, deal=2)
    old = await games.new_game(ALICE, deal=1)
    assert await games.forget(ALICE)
    new = await GameService(db).new_game(BOB, deal=3, confirm=True)
    assert new.game_id > old.game_id
    # Alice comes back; a press on her old board names an id that is nobody's game now.
    mine = await games.new_game(ALICE, deal=4)
    assert mine.game_id > new.game_id
    for actor in (ALICE, BOB):
        pressed = await games.act(actor, "draw", game_id=old.game_id, expected_version=old.version)
        assert (pressed.kind, pressed.message) == (ReplyKind.ERROR, GONE)
    async with db.sessions() as session:
        for reply in (new, mine):
            record = await session.get(GameRecord, reply.game_id)
            assert record is not None and (record.log, record.version) == ("", reply.version)


async def test_challenge_ids_are_never_reused_after_a_server_is_forgotten(games: GameService) -> None:
    challenges = ChallengeService(games)
    await challenges.create(ALICE, 22, channel_id=43, deal=5)
    old = await challenges.create(ALICE, 11, channel_id=42, deal=1)
    assert await challenges.forget_server(11) == 1
    new = await challenges.create(ALICE, 11, channel_id=42, deal=2)
    assert new.id > old.id
    with pytest.raises(ChallengeError, match=f"no challenge number {old.id}"):
        await challenges.play(BOB, 11, old.id)
