"""Opening the games service for a long-running front end: its database first brought to this version.

The bot starts here (``gatebot run``, ``gatebot sync``), so it never reaches past the service
into the store: the database, its schema check and the service over it come as one step.
"""

from __future__ import annotations

from typing import Any

from gatebot.service.games import GameService
from gatebot.store.database import Database, DatabaseError
from gatebot.store.migrate import ensure_schema

__all__ = ["Database", "DatabaseError", "open_service"]


async def open_service(database_url: str, **options: Any) -> tuple[Database, GameService, str | None]:
    """The database at ``database_url``, upgraded when behind, and a :class:`GameService` over it (``options``).

    The third value is the upgrade's line for the log, None when the database was current. A
    database this gatebot can't use raises :class:`DatabaseError` (one sentence), its engine disposed.
    """
    db = Database(database_url)
    try:
        message = await ensure_schema(db)
    except BaseException:
        await db.dispose()
        raise
    return db, GameService(db, **options), message
