"""What the bot's buttons need from the service: owners, finished boards, auto."""

import pytest
from sqlalchemy import update

from gatebot.rules import Game
from gatebot.service import Actor, GameService, ReplyKind
from gatebot.service.stats import NoCard, Statistics
from gatebot.store import Database, GameRecord, GameStatus

ALICE = Actor("discord", "1001", "Alice")
BOB = Actor("discord", "1002", "Bob")


async def test_only_the_owner_can_press_a_boards_buttons(db: Database) -> None:
    service = GameService(db)
    alices = await service.new_game(ALICE, deal=1)
    reply = await service.act(BOB, "draw", game_id=alices.game_id, expected_version=alices.version)
    assert reply.kind is ReplyKind.ERROR
    assert reply.message == "This is Alice's game: start your own with new."
    again = await service.show(ALICE)
    assert again.version == alices.version and again.game.to_text() == alices.game.to_text()


async def test_a_finished_games_board_is_refused_and_shown_as_it_ended(db: Database) -> None:
    service = GameService(db)
    old = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f")
    await service.new_game(ALICE, deal=2, confirm=True)
    reply = await service.act(ALICE, "draw", game_id=old.game_id, expected_version=old.version)
    assert reply.kind is ReplyKind.STALE and "over" in reply.message
    expected = Game.new("gate", deal=1)
    expected.play("3f")
    assert reply.game.to_text() == expected.to_text()
    current = await service.show(ALICE)
    assert current.game.deal == 2 and current.game.moves == ()


async def test_buttons_act_on_the_owners_game(db: Database) -> None:
    service = GameService(db)
    start = await service.new_game(ALICE, deal=1)
    drawn = await service.act(ALICE, "draw", game_id=start.game_id, expected_version=start.version)
    assert drawn.played == ("d",)
    moved = await service.act(ALICE, "45", game_id=start.game_id, expected_version=drawn.version)
    assert moved.played == ("45",)
    undone = await service.act(ALICE, "undo", game_id=start.game_id, expected_version=moved.version)
    assert undone.kind is ReplyKind.BOARD and undone.game.moves == drawn.game.moves


async def test_auto_plays_the_safe_foundation_moves(db: Database) -> None:
    service = GameService(db)
    await service.new_game(ALICE, deal=1)
    reply = await service.auto(ALICE)
    assert reply.played == ("3f",)
    nothing = await service.auto(ALICE)
    assert nothing.kind is ReplyKind.ERROR and "safely" in nothing.message


async def test_a_finished_games_button_with_a_damaged_log_says_so_in_one_sentence(db: Database) -> None:
    """An old board's press (or its Share button) on a game whose log can't be replayed: no apology for a bug."""
    service = GameService(db, new_command="/gate new")
    old = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f")
    finished = await service.resign(ALICE)
    async with db.sessions() as session, session.begin():
        await session.execute(update(GameRecord).where(GameRecord.id == old.game_id).values(log="3f zz"))
    fresh = GameService(db, new_command="/gate new")
    for action in ("draw", "undo", "resign", "3f"):
        reply = await fresh.act(ALICE, action, game_id=old.game_id, expected_version=finished.version)
        assert reply.kind is ReplyKind.ERROR
        assert reply.message == (
            "Your saved game (deal 1) couldn't be read back, so it has been set aside unchanged: "
            "start a new one with /gate new."
        )
    with pytest.raises(NoCard, match=r"^That game can't be replayed, so it has no result card\.$"):
        await Statistics(db).card(old.game_id, ALICE.platform, ALICE.user_id)
    async with db.sessions() as session:
        record = await session.get(GameRecord, old.game_id)
        assert record is not None and (record.status, record.log) == (GameStatus.RESIGNED, "3f zz")
