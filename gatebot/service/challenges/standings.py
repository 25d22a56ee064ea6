"""Ranking: a page of a challenge's standings, ranked by the database, and a player's best streak.

The ranking: won first, then more cards up, then fewer moves (with one more for every hint
or undo the challenge counts), then less time; equal results to the second share the better
place (1, 2, 2, 4), and among them the quicker, then the name, comes first.

The first page costs the same whatever the number of attempts. The database orders the
attempts by the whole-number part of the ranking -- won, cards up, counted moves -- through an
index on exactly those expressions (one for each way a challenge can count hints and undos, see
:data:`~gatebot.store.models.RANKING_INDEXES`), then by the time taken, and hands back one page;
a count of the attempts ahead, served by the same index, gives the first row's place. Only rows
tied with the page's first or last one on everything but the name are read besides, to order
them by name as the ranking does. The number of attempts ranked, which every page shows, is
kept on the challenge's row by the database (``Challenge.ranked_attempts``) rather than
counted; a page further down walks the index entries before it, and a player's own place
counts those ahead of them through the index.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Float, and_, cast, func, literal, literal_column, select
from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.service.attempts import penalty
from gatebot.service.challenges.info import ChallengeInfo, Leaderboard, Standing
from gatebot.store.models import GameRecord, GameStatus, Player, Rule, ranking_key, time_between

#: Rows on one page of a leaderboard.
PAGE_SIZE = 10

_GAMES = GameRecord.__table__.c


def _elapsed(dialect: str, now: datetime) -> ColumnElement[float]:
    """Milliseconds an attempt took (or has taken so far, if still running), never below 0, as SQL.

    Whole milliseconds, the finest SQLite reads from a stored time: so equal times are equal
    in either database, and the order by time, then by name, is the same wherever it is read.
    """
    until = func.coalesce(_GAMES.finished_at, literal(now, GameRecord.finished_at.type))
    ms = time_between(dialect, _GAMES.started_at, until, per_second=1000)
    if dialect == "sqlite":
        return func.max(func.round(ms), 0.0)
    return func.greatest(func.round(cast(ms, Float)), 0.0)


class _Ranking:
    """The SQL of one challenge's ranking at ``now``."""

    def __init__(self, session: AsyncSession, info: ChallengeInfo, now: datetime) -> None:
        self.session, self.info, self.now = session, info, now
        counts_hints, counts_undos = info.hints == Rule.COUNTED, info.undo == Rule.COUNTED
        self.key = ranking_key(counts_hints, counts_undos)
        self.elapsed = _elapsed(session.get_bind().dialect.name, now).label("elapsed")
        # An attempt is dealt with its challenge's game and options: a row naming others, or
        # a status this gatebot doesn't know (another version's, see ``saved``), is not ranked.
        self.attempts = and_(
            _GAMES.challenge_id == info.id, _GAMES.variant == info.variant, _GAMES.options == " ".join(info.options),
        )
        self.ranked = and_(self.attempts, self.key[0] < literal_column("2"))

    def rows(self, *key: int, player_id: int | None = None) -> Any:
        """The columns a standing is made of, its ranking key and time, for the attempts ranked (with ``key``).

        With ``player_id``, that player's attempt, ranked or not.
        """
        if player_id is not None:
            where: tuple[ColumnElement[bool], ...] = (self.attempts, _GAMES.player_id == player_id)
        else:
            # An attempt with a given ranked key is ranked: the index's full key, not its first part's range.
            where = (self.attempts, *self._equal(key)) if key else (self.ranked,)
        return (
            select(
                *(part.label(f"key{n}") for n, part in enumerate(self.key)), self.elapsed,
                Player.display_name, Player.platform_user_id, _GAMES.status, _GAMES.score,
                _GAMES.move_count, _GAMES.hint_count, _GAMES.undo_count, _GAMES.started_at, _GAMES.finished_at,
                _GAMES.id,
            )
            .join(Player, Player.id == _GAMES.player_id)
            .where(*where)
        )

    def _equal(self, key: Sequence[int]) -> list[ColumnElement[bool]]:
        return [part == value for part, value in zip(self.key[:len(key)], key, strict=True)]

    async def page(self, start: int, size: int) -> list[Any]:
        """``size`` attempts from place ``start + 1`` on, ordered by key, time and id (not yet by name).

        The key at that place is found by walking the index alone; the rows from there are read
        a range of the index at a time: the rest of that key, then of its first two parts, of its
        first part, and the keys after -- each query stops after the rows still wanted.
        """
        key = (await self.session.execute(
            select(*self.key).select_from(GameRecord).where(self.ranked).order_by(*self.key).offset(start).limit(1)
        )).first()
        if key is None:
            return []
        skip = start - await self.ahead(tuple(key)) if start else 0
        found: list[Any] = []
        # (the parts of the key a range fixes are left out of its order: SQLite then sorts less)
        for fixed in (3, 2, 1, 0):
            wanted = size - len(found)
            if wanted <= 0:
                break
            query = self.rows(*key[:fixed]) if fixed else self.rows()
            if fixed < 3:
                query = query.where(self.key[fixed] > key[fixed])
            found.extend((await self.session.execute(
                query.order_by(*self.key[fixed:], self.elapsed, _GAMES.id).offset(skip).limit(wanted)
            )).all())
            skip = 0
        return found

    async def ahead(self, key: tuple[int, int, int], elapsed: float | None = None, *, equal: bool = False) -> int:
        """How many attempts rank before ``key`` (or, with ``elapsed`` in ms, those with that key quicker than it)."""
        if elapsed is None:
            # One range of the index for each key: (a, b, c) < key as three counts of index ranges.
            conditions = [and_(*self._equal(key[:n]), self.key[n] < key[n]) for n in range(3)]
        else:
            quicker = self.elapsed <= elapsed if equal else self.elapsed < elapsed
            conditions = [and_(*self._equal(key), quicker)]
        total = 0
        for condition in conditions:
            total += await self.session.scalar(
                # Any key before one ranked is ranked too (its first key is at most that one's).
                select(func.count()).select_from(GameRecord).where(self.attempts, condition)
            ) or 0
        return total


async def ranked_page(
    session: AsyncSession, info: ChallengeInfo, now: datetime, page: int, *, size: int = PAGE_SIZE
) -> Leaderboard:
    """Page ``page`` of a challenge's standings (clamped to the pages there are), ``size`` to a page.

    ``info`` comes from the challenge's row, so its ``attempts`` is the count of ranked attempts
    the database keeps there: the page reads it rather than the row again.
    """
    ranking = _Ranking(session, info, now)
    total = info.attempts
    pages = max(1, math.ceil(total / size))
    page = min(max(page, 0), pages - 1)
    start = page * size
    found = await ranking.page(start, size)
    if not found:
        return Leaderboard(info, (), page, pages, total)
    # Rows tied with the page's ends on all but the name may stand on either side of its edges:
    # read them all, and order them by name as the ranking does.
    first, last = found[0], found[-1]
    # (On the first page nothing stands before it: rows tied with its first row are on it, or tied with its last.)
    edges = {(tuple(row[:3]), row[3]) for row in ((first, last) if start else (last,))}
    tied: list[Any] = []
    for key, elapsed in edges:  # one query for each: an OR of them would not use the index
        tied.extend((await session.execute(ranking.rows(*key).where(ranking.elapsed == elapsed))).all())
    first_key = (tuple(first[:3]), first[3])
    before = await ranking.ahead(first_key[0]) + await ranking.ahead(first_key[0], first_key[1]) if start else 0
    rows = {row.id: row for row in (*found, *tied)}
    ordered = sorted(rows.values(), key=lambda row: (tuple(row[:4]), row.display_name.casefold(), row.id))
    shown = ordered[start - before:start - before + size]
    return Leaderboard(info, tuple(await _standings(info, now, shown, start, ranking)), page, pages, total)


async def _standings(
    info: ChallengeInfo, now: datetime, rows: Sequence[Any], start: int, ranking: _Ranking
) -> list[Standing]:
    """The standings of consecutive ranked ``rows``, the first of them at place ``start + 1``."""
    standings: list[Standing] = []
    previous: tuple[int, ...] | None = None
    rank = 0
    for place, row in enumerate(rows, start=start + 1):
        seconds = max(0.0, ((row.finished_at or now) - row.started_at).total_seconds())
        tie = (*row[:3], round(seconds))
        if tie != previous:  # equal results share the better place: 1, 2, 2, 4
            rank = place if previous is not None or place == 1 else await _first_rank(ranking, row, seconds)
            previous = tie
        standings.append(_standing(info, now, row, rank))
    return standings


def _standing(info: ChallengeInfo, now: datetime, row: Any, rank: int) -> Standing:
    seconds = max(0.0, ((row.finished_at or now) - row.started_at).total_seconds())
    ranked_moves = row.move_count + penalty(info.hints, info.undo, row.hint_count, row.undo_count)
    return Standing(
        rank, row.display_name, row.platform_user_id, GameStatus(row.status), row.score, row.move_count,
        ranked_moves, seconds, row.hint_count, row.undo_count, row.id,
    )


async def _first_rank(ranking: _Ranking, row: Any, seconds: float) -> int:
    """The place of a page's first row: one after every attempt whose result is better to the second."""
    whole = round(seconds)
    # Times that round below ``whole`` (Python rounds halves to even, as the ranking did), in ms.
    bound, equal = whole * 1000 - 500, (whole - 1) % 2 == 0
    return 1 + await ranking.ahead(tuple(row[:3])) + await ranking.ahead(tuple(row[:3]), bound, equal=equal)


async def player_standing(session: AsyncSession, info: ChallengeInfo, now: datetime, player_id: int) -> Standing | None:
    """A player's own place in a challenge's standings, without reading the others; None if not ranked."""
    ranking = _Ranking(session, info, now)
    row = (await session.execute(ranking.rows().where(_GAMES.player_id == player_id))).first()
    if row is None:
        return None
    seconds = max(0.0, ((row.finished_at or now) - row.started_at).total_seconds())
    return _standing(info, now, row, await _first_rank(ranking, row, seconds))


def best_streak(results: Sequence[str]) -> int:
    """The longest run of wins in ``results``, a player's statuses in the order played."""
    best = run = 0
    for status in results:
        run = run + 1 if status == GameStatus.WON else 0
        best = max(best, run)
    return best
