"""Ids are never reused, whichever way the schema went: down to any revision and up again, on SQLite too.

An old board's buttons name their game's id, an announcement's Play button its challenge's, and
a process that held a forgotten player's id must never find someone else's row under it. So
after the newest player, game and challenge are deleted, and the schema is taken down to each
revision that keeps data and up to head again, every new row gets an id never given before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import Connection

from gatebot.store import migrate
from gatebot.store.database import Database
from gatebot.store.migrate import head_revision, upgrade
from gatebot.store.models import Challenge, GameRecord, Player
from tests.store.conftest import run_on

WHEN = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
#: Every revision below head: a walk down to it and back must reuse no id.
BELOW_HEAD = ["0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009"]




def _walk(revision: str) -> Any:
    def run(connection: Connection) -> None:
        config = migrate.alembic_config(connection)
        command.downgrade(config, revision)
        command.upgrade(config, "head")

    return run


def _add(connection: Connection, name: str) -> dict[str, int]:
    """A player with a challenge they made and a game of it: the three new ids, by table."""
    player = connection.execute(sa.insert(Player).values(
        platform="discord", platform_user_id=name, display_name=name.title(), board_style="text",
        compact_board=True, four_colour=False, created_at=WHEN,
    )).inserted_primary_key[0]
    challenge = connection.execute(sa.insert(Challenge).values(
        guild_id=1, kind="custom", name=f"{name} cup", variant="gate", options="", deal=7, hints="allowed",
        undo="allowed", opens_at=WHEN, closes_at=WHEN + timedelta(days=1), created_by=player, created_at=WHEN,
    )).inserted_primary_key[0]
    game = connection.execute(sa.insert(GameRecord).values(
        player_id=player, variant="gate", options="", deal=7, log="", position="p", status="won",
        started_at=WHEN, updated_at=WHEN, finished_at=WHEN, challenge_id=challenge,
    )).inserted_primary_key[0]
    return {"players": player, "challenges": challenge, "games": game}


def _delete_newest(connection: Connection, ids: dict[str, int]) -> None:
    """Delete the newest game, challenge and player (as a forget-me and a server's removal would)."""
    connection.execute(sa.delete(GameRecord).where(GameRecord.id == ids["games"]))
    connection.execute(sa.delete(Challenge).where(Challenge.id == ids["challenges"]))
    connection.execute(sa.delete(Player).where(Player.id == ids["players"]))


@pytest.mark.parametrize("revision", BELOW_HEAD)
async def test_no_id_is_given_twice_after_a_walk_down_and_up(empty_db: Database, revision: str) -> None:
    await upgrade(empty_db)
    await run_on(empty_db, lambda connection: _add(connection, "alice"))
    newest = await run_on(empty_db, lambda connection: _add(connection, "bob"))
    await run_on(empty_db, lambda connection: _delete_newest(connection, newest))

    await run_on(empty_db, _walk(revision))
    assert await migrate.current_revision(empty_db) == head_revision()
    await run_on(empty_db, lambda connection: command.check(migrate.alembic_config(connection)))

    added = await run_on(empty_db, lambda connection: _add(connection, "carol"))
    for table, given in added.items():
        assert given > newest[table], f"{table}: id {given} was given before (newest was {newest[table]})"
    # And once more without any migration: the deletes above didn't open a gap that is reused later.
    await run_on(empty_db, lambda connection: _delete_newest(connection, added))
    again = await run_on(empty_db, lambda connection: _add(connection, "dave"))
    assert all(again[table] > added[table] for table in again)


#: Columns a later revision adds, left out of what the copy must keep (``0010``'s kept count is checked apart).
ADDED_LATER = {"ranked_attempts"}


def _everything(connection: Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the three tables, in id order: what 0008's copy of ``players`` must keep."""
    found = {}
    for table in ("players", "games", "challenges"):
        columns = [c["name"] for c in sa.inspect(connection).get_columns(table) if c["name"] not in ADDED_LATER]
        query = f"SELECT {', '.join(columns)} FROM {table} ORDER BY id"
        found[table] = [tuple(row) for row in connection.execute(sa.text(query))]
    return found


def _kept_counts(connection: Connection) -> list[tuple[int, int]]:
    return [tuple(row) for row in connection.execute(sa.text("SELECT id, ranked_attempts FROM challenges ORDER BY id"))]


async def test_0008_makes_player_ids_never_reused_and_keeps_every_game_and_maker(empty_db: Database) -> None:
    await run_on(empty_db, lambda connection: command.upgrade(migrate.alembic_config(connection), "0007"))
    for name in ("alice", "bob"):
        await run_on(empty_db, lambda connection, name=name: _add(connection, name))
    await run_on(empty_db, lambda connection: connection.execute(sa.insert(GameRecord).values(
        player_id=1, variant="gate", options="", deal=9, log="d", position="p", status="active",
        started_at=WHEN, updated_at=WHEN,
    )))
    before = await run_on(empty_db, _everything)
    assert [row[-2] for row in before["games"]][:2] == [1, 2]  # each game is its challenge's attempt

    assert await upgrade(empty_db) == ("0007", head_revision())
    assert await run_on(empty_db, _everything) == before, "no game, link or maker lost in the copy"
    assert await run_on(empty_db, _kept_counts) == [(1, 1), (2, 1)]  # each challenge's attempt, counted on the way up
    await run_on(empty_db, lambda connection: command.check(migrate.alembic_config(connection)))

    bob = {"players": 2, "games": 2, "challenges": 2}
    await run_on(empty_db, lambda connection: _delete_newest(connection, bob))
    carol = await run_on(empty_db, lambda connection: _add(connection, "carol"))
    assert carol["players"] == 3 and carol["games"] == 4 and carol["challenges"] == 3
