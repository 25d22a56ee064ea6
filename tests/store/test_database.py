"""The store on real databases: schema, round trips, constraints the database itself enforces,
optimistic locking, SQLite's connection settings, and how database URLs are read.

Tests taking ``db`` run on a fresh SQLite file and on a fresh PostgreSQL database (see
``tests/conftest.py``); each checks what a second session reads back, never only the
objects it wrote, so nothing passes on the strength of SQLAlchemy's identity map.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import delete, inspect, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from gatebot.store import Challenge, Database, DatabaseError, GameRecord, GameStatus, Player
from gatebot.store.database import parse_database_url

MAX_DEAL = 2**32 - 1
SNOWFLAKE = 1_180_000_000_000_000_000  # a Discord id: needs all 64 bits of a BIGINT

# -- helpers ------------------------------------------------------------------------------


def a_player(user_id: str = "42", **columns: object) -> Player:
    return Player(platform="discord", platform_user_id=user_id, display_name=f"player {user_id}", **columns)


def a_game(player: Player, status: GameStatus = GameStatus.ACTIVE, **columns: object) -> GameRecord:
    return GameRecord(player=player, variant="gate", deal=1, position="gate\n", status=status, **columns)


def columns_of(row: Player | GameRecord) -> dict[str, object]:
    """Every mapped column's value, by attribute name."""
    return {attr.key: getattr(row, attr.key) for attr in inspect(type(row)).column_attrs}


def one_sentence(message: str) -> bool:
    """One line, and no full stop followed by another sentence (URLs' dots are fine)."""
    return bool(message) and "\n" not in message and not re.search(r"[.!?]\s+[A-Z]", message)


async def save(db: Database, *rows: Player | GameRecord) -> None:
    async with db.sessions() as session:
        session.add_all(rows)
        await session.commit()


# -- schema and round trips ---------------------------------------------------------------


async def test_the_schema_exists(db: Database) -> None:
    def describe(connection: Connection) -> tuple[set[str], set[str]]:
        inspector = inspect(connection)
        indexes = {index["name"] for index in inspector.get_indexes("games")}
        return set(inspector.get_table_names()), indexes

    async with db.engine.connect() as connection:
        tables, game_indexes = await connection.run_sync(describe)
    assert {"players", "games"} <= tables
    assert "uq_games_one_active_per_player" in game_indexes


async def test_a_player_and_a_game_round_trip_through_a_new_session(db: Database) -> None:
    started = datetime(2024, 2, 29, 23, 59, 58, 123456, tzinfo=UTC)
    player = a_player(
        "180000000000000001", board_style="image", compact_board=True, created_at=started - timedelta(days=1)
    )
    game = GameRecord(
        player=player,
        variant="little-gate",
        options="single-moves stock-fill",
        deal=MAX_DEAL,
        log="d 3f u w5",
        position="gate\nL: JD 9H 5D 7C KD\n",
        status=GameStatus.WON,
        score=52,
        move_count=123,
        undo_count=4,
        hint_count=2,
        started_at=started,
        updated_at=started + timedelta(minutes=5),
        finished_at=started + timedelta(minutes=6),
        guild_id=SNOWFLAKE,
        channel_id=SNOWFLAKE + 1,
        board_message_id=2**63 - 1,
        problem="the log does not replay: move 3 is illegal",
    )
    await save(db, player, game)
    written_player, written_game = columns_of(player), columns_of(game)

    async with db.sessions() as session:
        read_player = await session.get(Player, player.id)
        read_game = await session.get(GameRecord, game.id)
        assert read_player is not player and read_game is not game  # read back, not cached
        assert columns_of(read_player) == written_player
        assert columns_of(read_game) == written_game
        # Aware, in UTC, on both backends: SQLite must not hand back naive datetimes.
        assert read_game.started_at.utcoffset() == timedelta(0)
        assert read_player.created_at.utcoffset() == timedelta(0)


async def test_column_defaults_are_filled_in(db: Database) -> None:
    player = a_player()
    game = GameRecord(player=player, variant="gate", deal=1, position="gate\n")
    await save(db, player, game)
    async with db.sessions() as session:
        read = await session.get(GameRecord, game.id)
        read_player = await session.get(Player, player.id)
    assert (read.status, read.options, read.log, read.score, read.move_count, read.version) == (
        GameStatus.ACTIVE, "", "", 0, 0, 1,
    )  # fmt: skip
    assert read.finished_at is None and read.guild_id is None and read.problem is None
    assert (read_player.board_style, read_player.compact_board) == ("text", True)  # the board that fits a phone
    assert datetime.now(UTC) - read.started_at < timedelta(minutes=1)


async def test_times_are_stored_as_instants_and_read_back_in_utc(db: Database) -> None:
    paris = timezone(timedelta(hours=2))
    player = a_player(created_at=datetime(2024, 6, 1, 12, 0, tzinfo=paris))
    game = a_game(player, started_at=datetime(2024, 6, 1, 12, 0))  # naive: taken as UTC
    await save(db, player, game)
    async with db.sessions() as session:
        read_player = await session.get(Player, player.id)
        read_game = await session.get(GameRecord, game.id)
    assert read_player.created_at == datetime(2024, 6, 1, 10, 0, tzinfo=UTC)
    assert read_game.started_at == datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
    assert read_player.created_at.tzinfo is UTC and read_game.started_at.tzinfo is UTC


# -- constraints the database enforces ----------------------------------------------------


async def test_a_second_active_game_for_a_player_is_refused_by_the_database(db: Database) -> None:
    player = a_player()
    await save(db, player, a_game(player))
    async with db.sessions() as session:
        session.add(GameRecord(player_id=player.id, variant="gate", deal=2, position="gate\n"))
        with pytest.raises(IntegrityError):
            await session.commit()
    async with db.sessions() as session:
        assert len((await session.scalars(select(GameRecord))).all()) == 1


async def test_finished_games_are_unlimited_and_each_player_has_an_active_one(db: Database) -> None:
    alice, bob = a_player("1"), a_player("2")
    finished = [a_game(alice, status) for status in GameStatus if status is not GameStatus.ACTIVE]
    await save(db, alice, bob, *finished, a_game(alice, GameStatus.WON), a_game(alice), a_game(bob))
    async with db.sessions() as session:
        active = (await session.scalars(select(GameRecord.player_id).where(GameRecord.status == "active"))).all()
        total = len((await session.scalars(select(GameRecord))).all())
    assert sorted(active) == sorted([alice.id, bob.id])
    assert total == len(finished) + 3


async def test_finishing_the_active_game_frees_the_slot(db: Database) -> None:
    player = a_player()
    game = a_game(player)
    await save(db, player, game)
    async with db.sessions() as session:
        (await session.get(GameRecord, game.id)).status = GameStatus.RESIGNED
        await session.commit()
    await save(db, GameRecord(player_id=player.id, variant="gate", deal=3, position="gate\n"))


async def test_a_player_is_unique_per_platform(db: Database) -> None:
    await save(db, a_player("7"), Player(platform="terminal", platform_user_id="7", display_name="me"))
    async with db.sessions() as session:
        session.add(a_player("7"))
        with pytest.raises(IntegrityError):
            await session.commit()


async def test_a_game_needs_an_existing_player_and_goes_with_it(db: Database) -> None:
    async with db.sessions() as session:
        session.add(GameRecord(player_id=999, variant="gate", deal=1, position="gate\n"))
        with pytest.raises(IntegrityError):
            await session.commit()
    player = a_player()
    await save(db, player, a_game(player), a_game(player, GameStatus.LOST))
    async with db.sessions() as session:
        await session.execute(delete(Player).where(Player.id == player.id))
        await session.commit()
        assert (await session.scalars(select(GameRecord))).all() == []


# -- optimistic locking -------------------------------------------------------------------


async def test_the_version_goes_up_with_every_update(db: Database) -> None:
    player = a_player()
    game = a_game(player)
    await save(db, player, game)
    assert game.version == 1
    for expected, move in ((2, "d"), (3, "d 3f")):
        async with db.sessions() as session:
            loaded = await session.get(GameRecord, game.id)
            loaded.log, loaded.move_count = move, loaded.move_count + 1
            await session.commit()
            assert loaded.version == expected
    async with db.sessions() as session:
        assert await session.scalar(select(GameRecord.version).where(GameRecord.id == game.id)) == 3


@pytest.mark.parametrize("outside", [0, -1, 2**31, 2**63 - 1, 2**63, 10**30, -(10**30)])
async def test_an_id_no_row_can_have_finds_nothing_instead_of_failing(db: Database, outside: int) -> None:
    """Ids from outside may be any integer: past the column's range they bind as an id no row has."""
    player = a_player()
    game = a_game(player)
    await save(db, player, game)
    async with db.sessions() as session:
        assert await session.get(GameRecord, outside) is None
        assert await session.get(Challenge, outside) is None
        assert (await session.scalars(select(GameRecord.id).where(GameRecord.id.in_([outside, game.id])))).all() == [
            game.id
        ]
        assert await session.get(GameRecord, game.id) is not None


async def test_a_stale_update_is_refused(db: Database) -> None:
    player = a_player()
    game = a_game(player)
    await save(db, player, game)
    async with db.sessions() as first, db.sessions() as second:
        mine = await first.get(GameRecord, game.id)
        theirs = await second.get(GameRecord, game.id)
        mine.log, theirs.log = "d", "3f"
        await first.commit()
        with pytest.raises(StaleDataError):
            await second.commit()
    async with db.sessions() as session:
        read = await session.get(GameRecord, game.id)
    assert (read.log, read.version) == ("d", 2)


# -- SQLite's connection settings ---------------------------------------------------------


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_sqlite_pragmas_are_in_force_on_every_connection(db: Database) -> None:
    async with db.engine.connect() as first, db.engine.connect() as second:
        for connection in (first, second):  # two pooled connections: each one is set up
            pragmas = {
                name: (await connection.exec_driver_sql(f"PRAGMA {name}")).scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout")
            }
            assert pragmas["journal_mode"] == "wal"
            assert pragmas["foreign_keys"] == 1
            assert pragmas["busy_timeout"] > 0


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_connection_back_in_the_pool_is_rolled_back_only_while_in_a_transaction(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    import aiosqlite

    rollbacks: list[object] = []
    original = aiosqlite.Connection.rollback

    async def counted(self: aiosqlite.Connection) -> None:
        rollbacks.append(self)
        await original(self)

    await save(db, a_player("1"))  # the pool's connection made (SQLAlchemy rolls back once after its first look)
    monkeypatch.setattr(aiosqlite.Connection, "rollback", counted)
    async with db.engine.begin() as connection:  # a write committed
        await connection.execute(text("UPDATE players SET display_name = 'saved'"))
    assert rollbacks == [], "a committed transaction's connection goes back as it is"
    async with db.engine.connect() as connection:  # a write left open when the connection goes back
        await connection.execute(text("UPDATE players SET display_name = 'never saved'"))
    assert len(rollbacks) == 1, "and one still in its transaction is rolled back"
    async with db.engine.begin() as connection:  # the pool's connection holds no lock: another write goes through
        await connection.execute(text("UPDATE players SET board_style = 'emoji'"))
    async with db.sessions() as session:
        assert (await session.execute(select(Player.display_name, Player.board_style))).all() == [("saved", "emoji")]


# -- URLs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "driver"),
    [
        ("postgresql://gatebot:secret@db.example/gatebot", "postgresql+asyncpg"),
        ("postgres://gatebot@localhost/gatebot", "postgresql+asyncpg"),
        ("postgresql+asyncpg://gatebot@localhost/gatebot", "postgresql+asyncpg"),
        ("sqlite:///relative/gatebot.db", "sqlite+aiosqlite"),
        ("sqlite:////var/lib/gatebot/gatebot.db", "sqlite+aiosqlite"),
        ("sqlite+aiosqlite:///gatebot.db", "sqlite+aiosqlite"),
    ],
)
def test_plain_urls_get_their_async_driver(raw: str, driver: str) -> None:
    url = parse_database_url(raw)
    assert url.drivername == driver
    assert url.database == raw.split("/", 3)[3]  # the database name or SQLite path is kept


@pytest.mark.parametrize(
    "raw",
    ["mysql://gatebot@localhost/gatebot", "postgresql+psycopg2://u@h/db", "sqlite+pysqlite:///x.db"],
)
def test_an_unsupported_database_is_one_sentence(raw: str) -> None:
    with pytest.raises(DatabaseError) as caught:
        Database(raw)
    message = str(caught.value)
    assert one_sentence(message), message
    assert "sqlite+aiosqlite" in message and "postgresql+asyncpg" in message


@pytest.mark.parametrize("raw", ["not a url", "", "://", "gatebot.db", "postgresql//nohost"])
def test_garbage_is_not_a_url_in_one_sentence(raw: str) -> None:
    with pytest.raises(DatabaseError) as caught:
        Database(raw)
    assert one_sentence(str(caught.value)), str(caught.value)


async def test_safe_url_hides_the_password() -> None:
    database = Database("postgresql://gatebot:s3cr3t-pw@db.example:5433/gatebot")
    try:
        assert "s3cr3t-pw" not in database.safe_url
        assert database.safe_url == "postgresql+asyncpg://gatebot:***@db.example:5433/gatebot"
    finally:
        await database.dispose()


@pytest.mark.parametrize("below", ["gatebot.db", "sub/dir/gatebot.db"])
def test_an_unwritable_sqlite_location_is_refused(tmp_path: Path, below: str) -> None:
    # Tests run as root, which ignores permissions: a folder that is a regular file can't be
    # written into by anyone.
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    with pytest.raises(DatabaseError) as caught:
        Database(f"sqlite+aiosqlite:///{blocker}/{below}")
    assert one_sentence(str(caught.value)), str(caught.value)
    assert "DATABASE_URL" in str(caught.value)


async def test_a_new_sqlite_file_gets_its_folders(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "gatebot.db"
    database = Database(f"sqlite:///{path}")
    try:
        async with database.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
        assert path.is_file()
    finally:
        await database.dispose()
