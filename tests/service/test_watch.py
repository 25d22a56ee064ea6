"""Watchers of committed changes: told after every change a game takes, never for a refusal or a look."""

from __future__ import annotations

from gatebot.service import Actor, GameChange, GameService
from gatebot.store import Database

ALICE = Actor("web", "alice", "Alice")


async def test_watchers_hear_each_committed_change_with_its_game_owner_and_version(db: Database) -> None:
    service = GameService(db)
    heard: list[GameChange] = []
    stop = service.watch(heard.append)
    dealt = await service.new_game(ALICE, "gate", deal=5)
    assert heard == [GameChange(dealt.game_id, ("web", "alice"), dealt.version)]
    moved = await service.play(ALICE, "d", expected_version=dealt.version)
    assert heard[-1] == GameChange(dealt.game_id, ("web", "alice"), moved.version)
    assert moved.version == dealt.version + 1
    undone = await service.act(ALICE, "undo", expected_version=moved.version)
    assert heard[-1].version == undone.version
    await service.resign(ALICE)
    assert len(heard) == 4
    stop()
    await service.new_game(ALICE, "gate", deal=6)
    assert len(heard) == 4


async def test_a_refused_move_a_stale_press_and_a_look_tell_nobody(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, "gate", deal=5)
    heard: list[GameChange] = []
    service.watch(heard.append)
    assert not (await service.play(ALICE, "kf")).saved
    assert not (await service.play(ALICE, "d", expected_version=dealt.version + 5)).saved
    await service.show(ALICE)
    assert heard == []


async def test_a_failing_watcher_neither_loses_the_move_nor_silences_the_others(db: Database) -> None:
    service = GameService(db)
    heard: list[GameChange] = []

    def broken(change: GameChange) -> None:
        raise RuntimeError("broken watcher")

    service.watch(broken)
    service.watch(heard.append)
    dealt = await service.new_game(ALICE, "gate", deal=5)
    assert dealt.saved and len(heard) == 1
    assert (await service.show(ALICE)).game_id == dealt.game_id
