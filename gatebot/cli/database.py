"""``gatebot db``: the database's schema upgraded, shown or stamped by hand, and a server's challenges forgotten."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from gatebot.cli.output import refuse

if TYPE_CHECKING:
    from gatebot.store.database import Database


def db_upgrade_command(args: argparse.Namespace) -> int:
    """``gatebot db upgrade``: upgrade the database to head and say from where to where."""
    from gatebot.store.migrate import upgrade

    async def work(db: Database) -> str:
        before, after = await upgrade(db)
        if before == after:
            return f"The database is up to date (revision {after})."
        return f"Upgraded the database from {before or 'empty'} to {after}."

    return _with_database(work)


def db_current_command(args: argparse.Namespace) -> int:
    """``gatebot db current``: print the database's revision and how it compares to this gatebot's."""
    from gatebot.store.migrate import current_revision, head_revision, known_revisions

    async def work(db: Database) -> str:
        revision, head = await current_revision(db), head_revision()
        if revision == head:
            return f"{revision} (head)"
        if revision is None:
            return f"empty (gatebot db upgrade brings it to {head})"
        if revision in known_revisions():
            return f"{revision} (behind head {head}: gatebot db upgrade brings it there)"
        return f"{revision} (newer than this gatebot, whose head is {head})"

    return _with_database(work)


def db_stamp_command(args: argparse.Namespace) -> int:
    """``gatebot db stamp REVISION``: record the database's revision without migrating."""
    from gatebot.store.migrate import stamp

    async def work(db: Database) -> str:
        before = await stamp(db, args.revision)
        return f"The database now says it is at revision {args.revision} (it said {before or 'none'})."

    return _with_database(work)


def db_forget_server_command(args: argparse.Namespace) -> int:
    """``gatebot db forget-server ID``: delete a server's challenges, saying how many."""
    from gatebot.service import GameService
    from gatebot.service.challenges import ChallengeService
    from gatebot.store.migrate import ensure_schema

    async def work(db: Database) -> str:
        await ensure_schema(db)
        games = GameService(db)
        try:
            count = await ChallengeService(games).forget_server(args.guild_id)
        finally:
            games.close()
        plural = "" if count == 1 else "s"
        return f"Deleted {count} challenge{plural} and the daily schedule of server {args.guild_id}."

    return _with_database(work)


def _with_database(work: Callable[[Database], Awaitable[str]]) -> int:
    """Open the database named by ``DATABASE_URL``, run ``work``, print its line; exit 2 on DatabaseError.

    SQLAlchemy and Alembic are imported here, not at the top, so ``gatebot --help`` and argument
    mistakes answer without loading them.
    """
    from gatebot.store.database import Database, DatabaseError, database_url_from_env

    async def run() -> str:
        db = Database(database_url_from_env())
        try:
            return await work(db)
        finally:
            await db.dispose()

    try:
        line = asyncio.run(run())
    except DatabaseError as error:
        return refuse(str(error))
    sys.stdout.write(line + "\n")
    return 0
