"""``gatebot db``: the database's schema upgraded, shown or stamped by hand, and a server's challenges forgotten."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from gatebot.cli.output import refuse, say
from gatebot.messages import _, message_of, n_

if TYPE_CHECKING:
    from gatebot.store.database import Database


def db_upgrade_command(args: argparse.Namespace) -> int:
    """``gatebot db upgrade``: upgrade the database to head and say from where to where."""
    from gatebot.store.migrate import upgrade

    async def work(db: Database) -> str:
        before, after = await upgrade(db)
        if before == after:
            return _("The database is up to date (revision {after}).", after=after)
        if not before:
            return _("Upgraded the database from empty to {after}.", after=after)
        return _("Upgraded the database from {before} to {after}.", before=before, after=after)

    return _with_database(work)


def db_current_command(args: argparse.Namespace) -> int:
    """``gatebot db current``: print the database's revision and how it compares to this gatebot's."""
    from gatebot.store.migrate import current_revision, head_revision, known_revisions

    async def work(db: Database) -> str:
        revision, head = await current_revision(db), head_revision()
        if revision == head:
            return _("{revision} (head)", revision=revision)
        if revision is None:
            return _("empty (gatebot db upgrade brings it to {head})", head=head)
        if revision in known_revisions():
            return _("{revision} (behind head {head}: gatebot db upgrade brings it there)", revision=revision,
                     head=head)
        return _("{revision} (newer than this gatebot, whose head is {head})", revision=revision, head=head)

    return _with_database(work)


def db_stamp_command(args: argparse.Namespace) -> int:
    """``gatebot db stamp REVISION``: record the database's revision without migrating."""
    from gatebot.store.migrate import stamp

    async def work(db: Database) -> str:
        before = await stamp(db, args.revision)
        if not before:
            return _("The database now says it is at revision {revision} (it said none).", revision=args.revision)
        return _("The database now says it is at revision {revision} (it said {before}).", revision=args.revision,
                 before=before)

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
        return n_("Deleted {n} challenge and the daily schedule of server {server}.",
                  "Deleted {n} challenges and the daily schedule of server {server}.", count, server=args.guild_id)

    return _with_database(work)


def _with_database(work: Callable[[Database], Awaitable[str]]) -> int:
    """Open the database named by ``DATABASE_URL``, run ``work``, say its line; exit 2 on DatabaseError.

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
        return refuse(message_of(error))
    sys.stdout.write(say(line) + "\n")
    return 0
