"""A challenge's standings ranked by the database: the same as ranking every attempt by hand, at any size.

The reference here ranks in plain Python, from the rules as the players read them: won
first, more cards up, fewer moves (plus the hints and undos the challenge counts), less
time; equal results to the second share the better place; set-aside rows are not ranked.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, insert

from gatebot.service import Actor, GameService
from gatebot.service.challenges import ChallengeService
from gatebot.store import Challenge, Database, GameRecord, Player

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
NOW = START + timedelta(hours=5)
#: Names whose order needs case folding, and names shared by several players.
NAMES = ("ann", "Ann", "Bob", "bob", "Éve", "éve", "Zoë", "carl")
#: What a row's status may be: the ranked ones, one set aside, and one another version wrote.
STATUSES = ("won", "won", "lost", "active", "expired", "resigned", "abandoned", "quarantined", "frozen")
RULES = ("allowed", "counted", "forbidden")


@dataclass(frozen=True)
class Attempt:
    name: str
    status: str
    score: int
    moves: int
    hints: int
    undos: int
    #: Half-seconds the attempt took (halves round to even, as Python rounds); None: still running.
    halves: int | None
    started: int


attempts = st.builds(
    Attempt, st.sampled_from(NAMES), st.sampled_from(STATUSES), st.integers(5, 8), st.integers(60, 63),
    st.integers(0, 2), st.integers(0, 2), st.none() | st.integers(0, 12), st.integers(0, 6),
)


def reference(found: list[Attempt], hints: str, undo: str) -> list[tuple[int, Attempt]]:
    """Every ranked attempt with its place, best first, ranked by hand."""
    ranked = [a for a in found if a.status not in ("quarantined", "frozen")]

    def seconds(a: Attempt) -> float:
        start = START + timedelta(seconds=a.started)
        end = NOW if a.halves is None else start + timedelta(seconds=a.halves / 2)
        return (end - start).total_seconds()

    def result(a: Attempt) -> tuple[Any, ...]:
        counted = a.moves + (a.hints if hints == "counted" else 0) + (a.undos if undo == "counted" else 0)
        return (a.status != "won", -a.score, counted, round(seconds(a)))

    ordered = sorted(ranked, key=lambda a: (result(a)[:3], seconds(a), a.name.casefold()))
    return [(1 + sum(result(b) < result(a) for b in ranked), a) for a in ordered]


async def fill(db: Database, number: int, found: list[Attempt], hints: str, undo: str) -> None:
    """Challenge ``number`` (in server ``number``) with ``found`` as its attempts, each by a new player."""
    async with db.engine.begin() as connection:
        await connection.execute(insert(Challenge.__table__), [{
            "id": number, "guild_id": number, "kind": "custom", "name": "Big", "variant": "gate", "options": "",
            "deal": 1, "hints": hints, "undo": undo, "opens_at": START, "closes_at": START + timedelta(days=1),
            "created_at": START,
        }])
        for index, a in enumerate(found):
            player = (await connection.execute(insert(Player.__table__).returning(Player.id), [{
                "platform": "discord", "platform_user_id": f"{number}-{index}", "display_name": a.name,
                "board_style": "text", "compact_board": False, "created_at": START,
            }])).scalar_one()
            started = START + timedelta(seconds=a.started)
            await connection.execute(insert(GameRecord.__table__), [{
                "player_id": player, "variant": "gate", "options": "", "deal": 1, "log": "", "position": "",
                "status": a.status, "score": a.score, "move_count": a.moves, "hint_count": a.hints,
                "undo_count": a.undos, "started_at": started, "updated_at": started,
                "finished_at": None if a.halves is None else started + timedelta(seconds=a.halves / 2),
                "challenge_id": number, "version": 1,
            }])


def shown(rank: int, name: str, status: str, score: int, moves: int, hints: int, undos: int) -> tuple[Any, ...]:
    return rank, name, status, score, moves, hints, undos


@pytest.fixture
def sqlite_file(migrated_sqlite: Path, tmp_path: Path) -> Path:
    path = tmp_path / "gatebot.db"
    shutil.copyfile(migrated_sqlite, path)
    return path


@pytest.fixture
def numbers() -> Iterator[int]:
    """A new challenge number for each example (the examples share one database file)."""
    return iter(range(1, 10_000))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(attempts, max_size=14), st.sampled_from(RULES), st.sampled_from(RULES), st.integers(1, 4))
def test_every_page_and_place_is_the_hand_ranking(
    sqlite_file: Path, numbers: Iterator[int], found: list[Attempt], hints: str, undo: str, size: int
) -> None:
    expected = reference(found, hints, undo)
    want = [shown(rank, a.name, a.status, a.score, a.moves, a.hints, a.undos) for rank, a in expected]
    number = next(numbers)

    async def read() -> tuple[list[Any], list[int], dict[str, int | None], int]:
        db = Database(f"sqlite+aiosqlite:///{sqlite_file}")
        games = GameService(db, clock=lambda: NOW)
        try:
            await fill(db, number, found, hints, undo)
            challenges = ChallengeService(games)
            pages, users, totals = [], [], set()
            page = 0
            while True:
                board = await challenges.standings(number, page=page, size=size)
                totals.add((board.total, board.pages))
                if board.page != page:
                    break  # past the last page: clamped to it
                pages.extend(shown(s.rank, s.name, s.status, s.score, s.moves, s.hints, s.undos)
                             for s in board.standings)
                users.extend(int(s.user_id.split("-")[1]) for s in board.standings)
                page += 1
            own = {}
            for index in range(len(found)):
                standing = await challenges.own_standing(number, Actor("discord", f"{number}-{index}", "x"))
                own[str(index)] = None if standing is None else standing.rank
            assert len(totals) == 1
            return pages, users, own, totals.pop()[0]
        finally:
            games.close()
            await db.dispose()

    pages, users, own, total = asyncio.run(read())
    assert total == len(expected)
    # Attempts tied on everything shown may stand in either order: compare them as they are shown.
    assert pages == want or (not want and pages == [])
    assert sorted(users) == sorted(i for i, a in enumerate(found) if a.status not in ("quarantined", "frozen"))
    ranks_by_row = {i: rank for (rank, _), i in zip(expected, _rows_in(expected, found), strict=True)}
    assert own == {str(i): ranks_by_row.get(i) for i in range(len(found))}


def _rows_in(expected: list[tuple[int, Attempt]], found: list[Attempt]) -> list[int]:
    """Each expected attempt's index in ``found`` (equal attempts matched in turn)."""
    left = list(enumerate(found))
    indexes = []
    for _, a in expected:
        at = next(n for n, (_, b) in enumerate(left) if b is a)
        indexes.append(left.pop(at)[0])
    return indexes


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("hints", ["allowed", "counted"])
async def test_a_page_reads_the_ranking_index_not_every_attempt(db: Database, hints: str) -> None:
    """As many statements for a page of 400 attempts as of 40, and none of them scans or sorts every attempt."""
    statements: list[tuple[str, Any]] = []

    def seen(_connection: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        statements.append((statement, parameters))

    event.listen(db.engine.sync_engine, "before_cursor_execute", seen)
    games = GameService(db, clock=lambda: NOW)
    challenges = ChallengeService(games)
    counts = []
    for number, size in ((1, 40), (2, 400)):
        await fill(db, number, [
            Attempt(NAMES[n % len(NAMES)], STATUSES[n % 7], 5 + n % 40, 60 + n % 37, n % 3, n % 2, n % 500, n % 9)
            for n in range(size)
        ], hints, "counted")
        statements.clear()
        for page in (0, size // 20):
            await challenges.standings(number, page=page)
        await challenges.own_standing(number, Actor("discord", f"{number}-{size // 2}", "x"))
        counts.append(len(statements))
        taken = list(statements)
        async with db.engine.connect() as connection:
            for statement, parameters in taken:
                if "FROM games" not in statement or ("count(*)" in statement and "variant" not in statement):
                    continue  # the challenge's own row, and ChallengeInfo's count of every attempt
                plan = " / ".join(row[3] for row in await connection.exec_driver_sql(
                    "EXPLAIN QUERY PLAN " + statement, parameters
                ))
                assert "ix_games_ranking" in plan or "uq_games_one_attempt_per_challenge" in plan, plan
                assert "SCAN games" not in plan, plan
                if "USE TEMP B-TREE FOR ORDER BY" in plan:  # only attempts won alike with as many cards
                    assert "options=? AND <expr>=? AND <expr>=? AND <expr>" in plan, plan
    event.remove(db.engine.sync_engine, "before_cursor_execute", seen)
    games.close()
    assert counts[0] == counts[1]
