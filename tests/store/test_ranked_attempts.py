"""A challenge's count of ranked attempts, kept by the database's triggers, whoever writes the games.

The count is what every leaderboard page shows ("Standings (N players)") without counting: so
after any mix of attempts added, played, finished, set aside (quarantined), moved to another
challenge, deleted or their player forgotten, it must equal the number of attempts a ranking
counts. The test keeps its own list of the rows it wrote and works the number out from that
alone (an attempt counts when it names the challenge, is dealt with the challenge's game and
options, and its status is one the ranking knows), on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Connection

from gatebot.store.database import Database
from gatebot.store.migrate import ensure_schema
from gatebot.store.models import Challenge, GameRecord, Player
from tests.store.conftest import run_on

GAMES, PLAYERS, CHALLENGES = GameRecord.__table__, Player.__table__, Challenge.__table__

#: Statuses a ranking counts, and two it doesn't: a corrupted game set aside, and one a newer gatebot might write.
COUNTED = ("won", "active", "lost", "resigned", "abandoned", "expired")
STATUSES = (*COUNTED, "quarantined", "mystery")

#: The two challenges the attempts go to: one of Gate without options, one of Canfield dealt with one.
DEALT = (("gate", ""), ("canfield", "draw=1"))

_ids = count(1)


@dataclass
class Row:
    """What the test wrote about one game: enough to say whether a ranking counts it."""

    game_id: int
    player_id: int
    challenge: int | None  # an index into the test's challenges
    variant: str
    options: str
    status: str


@pytest.fixture
async def db(empty_db: Database) -> AsyncIterator[Database]:
    await ensure_schema(empty_db)
    yield empty_db


def _challenges(connection: Connection) -> list[int]:
    now = datetime(2026, 12, 5, tzinfo=UTC)
    return [
        connection.execute(CHALLENGES.insert().values(
            guild_id=1, name=f"Cup {n}", variant=variant, options=options, deal=7,
            opens_at=now, closes_at=now + timedelta(days=1), created_at=now,
        )).inserted_primary_key[0]
        for n, (variant, options) in enumerate(DEALT)
    ]


def _add(connection: Connection, challenge_id: int | None, variant: str, options: str, status: str) -> tuple[int, int]:
    now = datetime(2026, 12, 5, tzinfo=UTC)
    number = next(_ids)
    player_id = connection.execute(PLAYERS.insert().values(
        platform="discord", platform_user_id=f"u{number}", display_name=f"Player {number}", created_at=now,
    )).inserted_primary_key[0]
    game_id = connection.execute(GAMES.insert().values(
        player_id=player_id, variant=variant, options=options, deal=7, position="", status=status,
        challenge_id=challenge_id, started_at=now, updated_at=now,
    )).inserted_primary_key[0]
    return player_id, game_id


# One step of what the store may do to a game: the row it picks is an index into those still there.
_add_step = st.tuples(
    st.just("add"), st.sampled_from((0, 1, None)), st.sampled_from((True, True, True, False)), st.sampled_from(STATUSES)
)
_step = st.one_of(
    _add_step, _add_step, _add_step,  # (most steps add an attempt, so there are rows to change)
    st.tuples(st.just("status"), st.integers(0, 50), st.sampled_from(STATUSES)),
    st.tuples(st.just("move"), st.integers(0, 50)),
    st.tuples(st.just("challenge"), st.integers(0, 50), st.sampled_from((0, 1, None))),
    st.tuples(st.just("delete"), st.integers(0, 50)),
    st.tuples(st.just("forget"), st.integers(0, 50)),
)


def _play(connection: Connection, challenges: list[int], steps: list[tuple[Any, ...]]) -> list[Row]:
    rows: list[Row] = []
    for step in steps:
        kind = step[0]
        if kind == "add":
            _, which, as_dealt, status = step
            variant, options = DEALT[which if which is not None else 0]
            if not as_dealt:  # dealt otherwise than its challenge (another gatebot's row): never ranked
                variant, options = ("archway", "") if variant == "gate" else ("canfield", "draw=3")
            challenge_id = challenges[which] if which is not None else None
            player_id, game_id = _add(connection, challenge_id, variant, options, status)
            rows.append(Row(game_id, player_id, which, variant, options, status))
            continue
        if not rows:
            continue
        row = rows[step[1] % len(rows)]
        where = GAMES.c.id == row.game_id
        if kind == "status":
            connection.execute(GAMES.update().where(where).values(status=step[2]))
            row.status = step[2]
        elif kind == "move":  # a move changes none of what counts, and must not change the count
            connection.execute(GAMES.update().where(where).values(
                move_count=GAMES.c.move_count + 1, score=GAMES.c.score + 1, status=row.status,
            ))
        elif kind == "challenge":
            which = step[2]
            connection.execute(GAMES.update().where(where).values(
                challenge_id=challenges[which] if which is not None else None
            ))
            row.challenge = which
        elif kind == "delete":
            connection.execute(GAMES.delete().where(where))
            rows.remove(row)
        else:  # the player forgotten: their games go with them
            connection.execute(PLAYERS.delete().where(PLAYERS.c.id == row.player_id))
            rows.remove(row)
    return rows


def _expected(rows: list[Row], which: int) -> int:
    variant, options = DEALT[which]
    return sum(
        row.challenge == which and (row.variant, row.options) == (variant, options) and row.status in COUNTED
        for row in rows
    )


def _kept(connection: Connection, challenges: list[int]) -> list[int]:
    kept = dict(connection.execute(sa.select(CHALLENGES.c.id, CHALLENGES.c.ranked_attempts)).all())
    return [kept[challenge_id] for challenge_id in challenges]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_step, min_size=1, max_size=30))
async def test_the_kept_count_is_the_number_of_ranked_attempts_whatever_is_written(
    db: Database, steps: list[tuple[Any, ...]]
) -> None:
    challenges = await run_on(db, _challenges)
    rows = await run_on(db, lambda connection: _play(connection, challenges, steps))
    assert await run_on(db, lambda connection: _kept(connection, challenges)) == [
        _expected(rows, which) for which in range(len(DEALT))
    ]


async def test_a_rolled_back_attempt_leaves_the_count_as_it_was(db: Database) -> None:
    challenges = await run_on(db, _challenges)
    await run_on(db, lambda connection: _add(connection, challenges[0], "gate", "", "active"))

    with pytest.raises(RuntimeError):
        async with db.engine.begin() as connection:
            await connection.run_sync(lambda sync: _add(sync, challenges[0], "gate", "", "won"))
            raise RuntimeError("the writer gave up")

    assert await run_on(db, lambda connection: _kept(connection, challenges)) == [1, 0]
