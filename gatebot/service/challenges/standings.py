"""Ranking: a challenge's attempts ordered into standings, a page of them, and a player's best streak."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.service import saved
from gatebot.service.attempts import penalty
from gatebot.service.challenges.info import ChallengeInfo, Leaderboard, Standing
from gatebot.store.models import GameRecord, GameStatus, Player

#: Rows on one page of a leaderboard.
PAGE_SIZE = 10


async def ranked_standings(session: AsyncSession, info: ChallengeInfo, now: datetime) -> list[Standing]:
    """Every attempt at a challenge, ranked: won, then cards up, then fewer (counted) moves, then less time."""
    games = GameRecord
    rows = (await session.execute(
        select(
            Player.display_name, Player.platform_user_id, games.status, games.score, games.move_count,
            games.hint_count, games.undo_count, games.started_at, games.finished_at, games.id, games.variant,
            games.options,
        )
        .join(Player, Player.id == games.player_id)
        .where(games.challenge_id == info.id, games.status != GameStatus.QUARANTINED)
    )).all()
    scored = []
    for name, user_id, status, score, moves, hints, undos, started_at, finished_at, game_id, variant, options in rows:
        if not saved.readable(game_id, status, variant, options):
            continue  # saved by another gatebot version: its owner is told, the ranking goes on without it
        seconds = max(0.0, ((finished_at or now) - started_at).total_seconds())
        ranked_moves = moves + penalty(info.hints, info.undo, hints, undos)
        # What the ranking compares: won, cards up, fewer counted moves, less time (to the second).
        tie = (0 if status == GameStatus.WON else 1, -score, ranked_moves, round(seconds))
        fields = (name, user_id, GameStatus(status), score, moves, ranked_moves, seconds, hints, undos, game_id)
        scored.append((tie, seconds, name.casefold(), fields))
    scored.sort(key=lambda entry: entry[:3])
    standings: list[Standing] = []
    rank, previous = 0, None
    for place, (tie, _, _, fields) in enumerate(scored, start=1):
        if tie != previous:  # equal results share the better place: 1, 2, 2, 4
            rank, previous = place, tie
        standings.append(Standing(rank, *fields))
    return standings


def leaderboard_page(
    info: ChallengeInfo, standings: Sequence[Standing], page: int, *, size: int = PAGE_SIZE
) -> Leaderboard:
    """Page ``page`` of ``standings`` (clamped to the pages there are), ``size`` to a page."""
    pages = max(1, math.ceil(len(standings) / size))
    page = min(max(page, 0), pages - 1)
    return Leaderboard(info, tuple(standings[page * size:(page + 1) * size]), page, pages, len(standings))


def best_streak(results: Sequence[str]) -> int:
    """The longest run of wins in ``results``, a player's statuses in the order played."""
    best = run = 0
    for status in results:
        run = run + 1 if status == GameStatus.WON else 0
        best = max(best, run)
    return best
