"""Replays through the service, on a real database: a finished game for its owner, a closed challenge's for anyone.

Games are played through :class:`GameService` as players play them (moves, an undo, a
resignation), and the replay is checked against that history: the deal first, every action
after it in order, the game as it ended last. Refusals are one sentence, and a refusal
changes nothing.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from gatebot.errors import UserError
from gatebot.rules import Game
from gatebot.service import Actor, GameService, GameStatus
from gatebot.service.challenges import ChallengeService
from gatebot.service.replays import ReplayRefused
from gatebot.store import Database, GameRecord
from tests.lines import WIN_DEAL_1

ALICE = Actor("discord", "1180000000000000001", "Alice", guild_id=1180000000000000000, channel_id=42)
BOB = Actor("discord", "1180000000000000002", "Bob", guild_id=1180000000000000000, channel_id=42)
GUILD = 1180000000000000000


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


def one_sentence(text: str) -> bool:
    """A message for a person: one line, one sentence, capitalised and stopped."""
    one_line = "\n" not in text and text[0].isupper() and text.endswith(".")
    return one_line and re.search(r"[.!?]\s+[A-Z]", text[:-1]) is None


async def refusal(service: GameService, actor: Actor, game_id: int | None = None) -> str:
    with pytest.raises(ReplayRefused) as caught:
        await service.replays.replay(actor, game_id)
    assert isinstance(caught.value, UserError)
    message = str(caught.value)
    assert one_sentence(message), message
    return message


async def test_the_owner_watches_their_last_finished_game_undos_as_they_happened(db: Database) -> None:
    service = GameService(db)
    first = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f 45")
    await service.undo(ALICE)
    await service.play(ALICE, "d")
    await service.resign(ALICE)
    replay = await service.replays.replay(ALICE)
    assert (replay.game_id, replay.owner, replay.deal) == (first.game_id, "Alice", 1)
    assert replay.status is GameStatus.RESIGNED
    expected = Game.new("gate", deal=1)
    texts = [expected.to_text()]
    for action in ("3f", "45", "undo", "d"):
        if action == "undo":
            expected.undo()
        else:
            expected.play_line(action)
        texts.append(expected.to_text())
    assert [position.to_text() for position in replay.positions] == texts
    assert replay.moves == 2


async def test_a_won_game_replays_to_the_won_board_and_by_its_id(db: Database) -> None:
    service = GameService(db)
    started = await service.new_game(ALICE, deal=1)
    won = await service.play(ALICE, " ".join(WIN_DEAL_1))
    assert won.status is GameStatus.WON
    replay = await service.replays.replay(ALICE, started.game_id)
    assert replay.status is GameStatus.WON and replay.positions[-1].is_won
    assert len(replay.positions) == len(WIN_DEAL_1) + 1 and not replay.positions[0].moves


async def test_a_game_still_running_is_refused_until_it_is_finished(db: Database) -> None:
    service = GameService(db)
    started = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f")
    assert "finish it first" in await refusal(service, ALICE)
    assert "finish it first" in await refusal(service, ALICE, started.game_id)
    await service.resign(ALICE)
    assert (await service.replays.replay(ALICE)).game_id == started.game_id


async def test_the_last_finished_game_is_shown_while_a_newer_one_runs(db: Database) -> None:
    service = GameService(db)
    old = await service.new_game(ALICE, deal=1)
    await service.resign(ALICE)
    await service.new_game(ALICE, deal=2)
    assert (await service.replays.replay(ALICE)).game_id == old.game_id


async def test_someone_with_no_game_or_a_missing_game_is_told_so(db: Database) -> None:
    service = GameService(db)
    assert "no finished game" in await refusal(service, ALICE)
    assert "no game #999" in await refusal(service, ALICE, 999)


async def test_another_players_game_outside_a_challenge_is_refused(db: Database) -> None:
    service = GameService(db)
    theirs = await service.new_game(BOB, deal=1)
    await service.resign(BOB)
    assert "another player's" in await refusal(service, ALICE, theirs.game_id)
    assert (await service.replays.replay(BOB, theirs.game_id)).owner == "Bob"


async def test_a_challenge_attempt_is_anyones_to_watch_once_the_challenge_closed(db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    challenges = ChallengeService(service)
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hours=2)
    attempt = await challenges.play(BOB, GUILD, info.id)
    await service.play(BOB, "3f 45")
    await service.resign(BOB)
    assert "once the challenge has closed" in await refusal(service, ALICE, attempt.game_id)
    assert (await service.replays.replay(BOB, attempt.game_id)).game_id == attempt.game_id  # its owner may
    clock.at += timedelta(hours=3)  # its time is up, whether or not a tick has closed it yet
    watched = await service.replays.replay(ALICE, attempt.game_id)
    assert (watched.owner, watched.status, len(watched.positions)) == ("Bob", GameStatus.RESIGNED, 3)


async def test_an_attempt_running_when_its_challenge_closed_is_watched_as_it_ended(db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    challenges = ChallengeService(service)
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hours=2)
    attempt = await challenges.play(BOB, GUILD, info.id)
    await service.play(BOB, "3f")
    await challenges.end(GUILD, info.id)
    watched = await service.replays.replay(ALICE, attempt.game_id)
    assert watched.status is GameStatus.EXPIRED and [str(m) for m in watched.positions[-1].moves] == ["3f"]


async def test_a_game_whose_log_does_not_replay_is_refused_and_logged(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    service = GameService(db)
    started = await service.new_game(ALICE, deal=1)
    await service.resign(ALICE)
    async with db.sessions() as session, session.begin():
        await session.execute(update(GameRecord).where(GameRecord.id == started.game_id).values(log="3f zz"))
    assert "can't be played back" in await refusal(service, ALICE)
    assert f"game {started.game_id} can't be replayed" in caplog.text


async def test_a_game_set_aside_is_refused(db: Database) -> None:
    service = GameService(db)
    started = await service.new_game(ALICE, deal=1)
    async with db.sessions() as session, session.begin():
        await session.execute(
            update(GameRecord).where(GameRecord.id == started.game_id).values(status=GameStatus.QUARANTINED)
        )
    assert "set aside" in await refusal(service, ALICE, started.game_id)
