"""What the store's tests share: a database with no tables yet, and a way to run synchronous work on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from gatebot.store.database import Database


@pytest.fixture
async def empty_db(database_url: str) -> AsyncIterator[Database]:
    """A :class:`Database` on a new database with no tables at all (not even Alembic's)."""
    database = Database(database_url)
    try:
        yield database
    finally:
        await database.dispose()


async def run_on(db: Database, work: Any) -> Any:
    """Run a synchronous ``work(connection)`` in one committed transaction of ``db``."""
    async with db.engine.begin() as connection:
        return await connection.run_sync(work)
