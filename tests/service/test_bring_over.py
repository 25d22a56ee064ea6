"""A guest's game brought over to a Discord player (the web table's sign-in): moved whole, nothing lost."""

from __future__ import annotations

from sqlalchemy import select

from gatebot.service import Actor, GameChange, GameService, GameStatus
from gatebot.store import Database
from gatebot.store.models import GameRecord

GUEST = Actor("web", "guest-1", "Guest")
ALICE = Actor("discord", "1001", "Alice")


async def test_the_guests_game_becomes_the_players_and_the_players_own_is_abandoned_into_history(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(GUEST, "gate", deal=5)
    drawn = await service.play(GUEST, "d", expected_version=dealt.version)
    assert drawn.saved and drawn.game is not None
    own = await service.new_game(ALICE, "canfield", deal=7)
    heard: list[GameChange] = []
    service.watch(heard.append)

    assert await service.bring_over(GUEST, ALICE)

    now = await service.show(ALICE)
    assert now.status is GameStatus.ACTIVE and now.game_id == dealt.game_id and now.game is not None
    assert now.game.deal == 5 and now.game.to_text() == drawn.game.to_text()
    assert now.version is not None and drawn.version is not None and now.version > drawn.version
    assert {change.owner for change in heard} == {("web", "guest-1"), ("discord", "1001")}
    # The guest's page, still at the old version, plays nothing; Alice plays on.
    stale = await service.play(GUEST, "d", expected_version=drawn.version)
    assert not stale.saved
    assert (await service.play(ALICE, "d", expected_version=now.version)).saved
    async with db.sessions() as session:
        rows = {row.id: (row.deal, row.status) for row in (await session.scalars(select(GameRecord))).all()}
    assert rows == {dealt.game_id: (5, GameStatus.ACTIVE), own.game_id: (7, GameStatus.ABANDONED)}


async def test_nothing_to_bring_leaves_the_players_game_alone(db: Database) -> None:
    service = GameService(db)
    own = await service.new_game(ALICE, "gate", deal=7)
    assert not await service.bring_over(GUEST, ALICE)
    assert (await service.show(ALICE)).game_id == own.game_id
    finished = await service.new_game(GUEST, "gate", deal=5)
    await service.resign(GUEST)
    assert not await service.bring_over(GUEST, ALICE)
    shown = await service.show(ALICE)
    assert shown.game_id == own.game_id and shown.status is GameStatus.ACTIVE
    assert (await service.show(GUEST)).game_id == finished.game_id
