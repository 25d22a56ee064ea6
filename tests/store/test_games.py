"""The store's games queries and its one write path, on both databases: a change is written at its version only."""

import itertools
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.store import Database, GameRecord, GameStatus, Player
from gatebot.store import games as stored
from gatebot.store.games import Progress

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
_USERS = itertools.count(5000)


async def a_game(db: Database, user: str = "1001") -> int:
    async with db.sessions() as session, session.begin():
        player = Player(platform="discord", platform_user_id=user, display_name="Alice")
        session.add(player)
        await session.flush()
        game = GameRecord(player_id=player.id, variant="gate", options="", deal=1, log="", position="p0")
        session.add(game)
        await session.flush()
        return game.id


async def row(db: Database, game_id: int) -> GameRecord:
    async with db.sessions() as session:
        found = await session.get(GameRecord, game_id)
        assert found is not None
        return found


def step(log: str, status: GameStatus = GameStatus.ACTIVE, undos: int = 0) -> Progress:
    return Progress(log=log, position=f"after {log}", score=len(log.split()), status=status,
                    move_count=len(log.split()), undos=undos, proved_lost=False, now=NOW)


async def test_a_change_is_written_at_the_version_it_read_and_takes_the_next(db: Database) -> None:
    game_id = await a_game(db)
    async with db.engine.begin() as connection:
        assert await stored.save_progress(connection, game_id, 1, "", step("d"))
    saved = await row(db, game_id)
    assert (saved.version, saved.log, saved.position, saved.score, saved.status) == (2, "d", "after d", 1, "active")
    assert saved.finished_at is None and saved.updated_at == NOW


async def test_a_change_from_an_old_version_or_another_log_writes_nothing(db: Database) -> None:
    game_id = await a_game(db)
    async with db.engine.begin() as connection:
        assert await stored.save_progress(connection, game_id, 1, "", step("d"))
        assert not await stored.save_progress(connection, game_id, 1, "", step("45")), "version 1 is gone"
        assert not await stored.save_progress(connection, game_id, 2, "45", step("45 d")), "not the log read"
    assert (await row(db, game_id)).log == "d"


async def test_an_ending_change_stamps_the_finish_and_nothing_is_written_after_it(db: Database) -> None:
    game_id = await a_game(db)
    async with db.sessions() as session, session.begin():  # a session works as well as a connection
        assert await stored.save_progress(session, game_id, 1, "", step("3f", GameStatus.WON))
    ended = await row(db, game_id)
    assert (ended.status, ended.finished_at, ended.version) == ("won", NOW, 2)
    async with db.engine.begin() as connection:
        assert not await stored.save_progress(connection, game_id, 2, "3f", step("3f d"))
        assert not await stored.count_hint(connection, game_id, 2)


async def test_hints_proofs_and_board_messages_leave_the_version_alone(db: Database) -> None:
    game_id = await a_game(db)
    async with db.engine.begin() as connection:
        assert await stored.count_hint(connection, game_id, 1)
        assert await stored.prove_lost(connection, game_id, 1)
        assert await stored.set_board_message(connection, game_id, 555, 1180000000000000123)
        assert not await stored.count_hint(connection, game_id, 7), "a version the game never had"
        assert not await stored.set_board_message(connection, game_id + 1, 555, 1)
    kept = await row(db, game_id)
    assert (kept.version, kept.hint_count, kept.proved_lost) == (1, 1, True)
    async with db.sessions() as session:
        assert await stored.board_message(session, game_id) == (555, 1180000000000000123)
        assert await stored.board_message(session, game_id + 1) == (None, None)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(claims=st.lists(st.integers(1, 6), min_size=1, max_size=12))
async def test_only_a_writer_at_the_current_version_ever_writes(db: Database, claims: list[int]) -> None:
    game_id = await a_game(db, user=str(next(_USERS)))  # one database serves every example
    version, log, writes = 1, "", 0
    for claimed in claims:
        async with db.engine.begin() as connection:
            wrote = await stored.save_progress(connection, game_id, claimed, log, step(f"{log} d".strip()))
        assert wrote == (claimed == version)
        if wrote:
            version, log, writes = version + 1, f"{log} d".strip(), writes + 1
    saved = await row(db, game_id)
    assert (saved.version, saved.log.split()) == (1 + writes, ["d"] * writes)
