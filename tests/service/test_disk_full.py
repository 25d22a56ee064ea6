"""A full disk: the write is refused in one sentence, nothing changes, and the game plays on once space returns.

SQLite's ``PRAGMA max_page_count`` caps the database where it stands, so a write that needs
a new page fails exactly as on a full disk (SQLITE_FULL, "database or disk is full") with no
mount; PostgreSQL's own disk_full error (SQLSTATE 53100, asyncpg's ``DiskFullError``) is raised
by the real server from a trigger. A real full filesystem is tried in
``tests/terminal/test_disk_full.py``.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import event, text

from gatebot.service import Actor, GameService, Reply, ReplyKind
from gatebot.store import Database
from gatebot.store.database import DiskFull, is_disk_full
from gatebot.store.migrate import ensure_schema

ALICE = Actor("discord", "1001", "Alice")
SENTENCE = "I couldn't save that: the server's disk is full, so nothing changed. Please try again later."


class PageLimit:
    """Caps a SQLite database at its size: every connection checked out gets ``PRAGMA max_page_count``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.pages: int | None = None
        event.listen(db.engine.sync_engine, "checkout", self._checkout)

    def _checkout(self, connection: Any, _record: object, _proxy: object) -> None:
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA max_page_count = {self.pages if self.pages is not None else 1_073_741_823}")
        cursor.close()

    async def fill(self, service: GameService) -> None:
        """Cap the database and use up its room: other players' games, then filler rows, until writes are refused."""
        async with self.db.engine.begin() as connection:
            await connection.execute(text("CREATE TABLE filler (x BLOB)"))
            self.pages = (await connection.execute(text("PRAGMA page_count"))).scalar_one()
        for number in range(1000):  # fills the games' last page, where the player's game is
            try:
                await service.new_game(Actor("discord", str(5000 + number), "Filler"), deal=number + 100)
            except DiskFull:
                break
        for size in (16384, 4096, 1024, 256, 64, 16, 1):
            while True:
                try:
                    async with self.db.engine.begin() as connection:
                        await connection.execute(text(f"INSERT INTO filler VALUES (zeroblob({size}))"))
                except DiskFull:
                    break

    def free(self) -> None:
        self.pages = None


async def refused_request(service: GameService, actor: Actor = ALICE) -> tuple[Reply, str]:
    """The player's board just before a request of theirs was refused for the full disk, and that request.

    The request is a button's action (``undo``, or a move token). Moves and undos in turn grow
    the game's row until it needs a page the full database hasn't got.
    """
    for turn in range(2000):
        before = await service.show(actor)
        assert before.game is not None
        action = "undo" if turn % 2 else (before.moves or ("undo",))[0]
        try:
            await service.act(actor, action)
        except DiskFull as refusal:
            assert str(refusal) == SENTENCE
            return before, action
    raise AssertionError("no request was refused")


async def test_a_full_sqlite_database_refuses_a_change_in_one_sentence_and_the_game_plays_on(
    tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/full.db")
    service = GameService(db)
    try:
        await ensure_schema(db)
        limit = PageLimit(db)
        await service.new_game(ALICE, deal=1)
        await service.play(ALICE, "d")
        caplog.set_level(logging.INFO)
        await limit.fill(service)

        before, action = await refused_request(service)
        after = await service.show(ALICE)  # nothing changed: the same version, the same moves
        assert before.game is not None and after.game is not None
        assert (after.version, after.game.moves) == (before.version, before.game.moves)
        with pytest.raises(DiskFull):  # refused again, as long as the disk is full
            await service.act(ALICE, action)

        limit.free()
        played = await service.act(ALICE, action)
        assert played.kind is ReplyKind.BOARD and played.saved and played.version == before.version + 1
        shown = await service.show(ALICE)
        assert shown.game is not None and shown.game.moves[:len(before.game.moves)] == before.game.moves

        # Dozens of refusals, one log line: a warning without a traceback, nothing logged as a bug.
        said = [record for record in caplog.records if record.name.startswith("gatebot")
                and record.levelno >= logging.WARNING]
        assert [(record.name, record.levelno, record.exc_info) for record in said] == [
            ("gatebot.store.database", logging.WARNING, None)
        ]
        assert "is full" in said[0].getMessage()
    finally:
        service.close()
        await db.dispose()


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_postgresqls_disk_full_is_the_same_one_sentence_and_the_game_plays_on(db: Database) -> None:
    service = GameService(db)
    try:
        dealt = await service.new_game(ALICE, deal=1)
        async with db.engine.begin() as connection:
            await connection.execute(text(
                "CREATE FUNCTION disk_is_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                "RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; "
                "END $$"
            ))
            await connection.execute(text(
                "CREATE TRIGGER disk_is_full BEFORE UPDATE ON games FOR EACH ROW EXECUTE FUNCTION disk_is_full()"
            ))
        with pytest.raises(DiskFull) as refused:
            await service.play(ALICE, "d")
        assert str(refused.value) == SENTENCE
        assert is_disk_full(refused.value.__cause__)  # asyncpg's DiskFullError, as SQLAlchemy wraps it
        shown = await service.show(ALICE)
        assert shown.version == dealt.version and shown.game is not None and not shown.game.moves

        async with db.engine.begin() as connection:
            await connection.execute(text("DROP TRIGGER disk_is_full ON games"))
        played = await service.play(ALICE, "d")
        assert played.saved and played.version == dealt.version + 1
        assert [str(move) for move in (await service.show(ALICE)).game.moves] == ["d"]  # type: ignore[union-attr]
    finally:
        service.close()


def test_what_counts_as_a_full_disk() -> None:
    import errno
    import sqlite3

    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    locked = sqlite3.OperationalError("database is locked")
    locked.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
    wrapped = RuntimeError("while saving")
    wrapped.__cause__ = OSError(errno.ENOSPC, "No space left on device")
    assert is_disk_full(full) and is_disk_full(wrapped)
    assert not is_disk_full(locked) and not is_disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not is_disk_full(None)
