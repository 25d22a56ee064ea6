"""The history of past games and the statistics' new figures, on a real database, from games the service played."""

from __future__ import annotations

import asyncio
import shutil
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import insert, select

from gatebot.render.results import KEPT_GAMES
from gatebot.service import Actor, GameService
from gatebot.service.challenges import ChallengeService
from gatebot.service.history import History, game_line, history_text
from gatebot.service.stats import PlayerStats, Statistics, stats_text
from gatebot.store import Database, GameRecord, Player
from tests.lines import WIN_DEAL_1

ALICE = Actor("discord", "1180000000000000001", "Alice", guild_id=1180000000000000000, channel_id=42)
BOB = Actor("discord", "1180000000000000002", "Bob", guild_id=1180000000000000000, channel_id=42)
GUILD = 1180000000000000000


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.at += timedelta(seconds=1)  # every game ends at its own time
        return self.at


def streaks(results: list[bool]) -> tuple[int, int]:
    """The current and best run of wins, read off the results written as a string of W and L."""
    runs = "".join("W" if won else "L" for won in results).split("L")
    return len(runs[-1]), max(len(run) for run in runs)


#: One stored game: won, cards home when lost, seconds it took, moves; and whether it is Little Gate.
games = st.lists(st.tuples(st.booleans(), st.integers(0, 51), st.integers(1, 5000), st.integers(1, 400),
                           st.booleans()), max_size=40)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games)
def test_the_databases_figures_are_plain_countings(migrated_sqlite: Path, tmp_path_factory: pytest.TempPathFactory,
                                                    played: list[tuple[bool, int, int, int, bool]]) -> None:
    """Streaks, counts, the fastest win, the latest games and the distribution, against counting them in Python."""
    path = tmp_path_factory.mktemp("figures") / "gatebot.db"
    shutil.copyfile(migrated_sqlite, path)
    stats = asyncio.run(figures_of(f"sqlite+aiosqlite:///{path}", played))
    for variant in ("gate", "little-gate"):
        mine = [(won, 52 if won else score, seconds, moves) for won, score, seconds, moves, little in played
                if (variant == "little-gate") == little]
        found = stats.of(variant) if stats is not None else None
        if not mine:
            assert found is None
            continue
        assert found is not None
        results = [won for won, *_ in mine]
        assert (found.current_streak, found.best_streak) == streaks(results)
        assert (found.games, found.wins) == (len(mine), sum(results))
        assert found.average_score == pytest.approx(sum(score for _, score, _, _ in mine) / len(mine))
        assert found.best_score == max(score for _, score, _, _ in mine)
        assert list(found.recent) == [(won, score) for won, score, _, _ in mine][-KEPT_GAMES:]
        assert list(found.scores) == [sum(1 for _, score, _, _ in mine if score == n) for n in range(53)]
        wins = [(seconds, index) for index, (won, _, seconds, _) in enumerate(mine) if won]
        if wins:
            seconds, index = min(wins)
            assert found.fastest_win is not None
            assert (round(found.fastest_win.seconds), found.fastest_win.moves) == (seconds, mine[index][3])
        else:
            assert found.fastest_win is None


async def figures_of(url: str, played: list[tuple[bool, int, int, int, bool]]) -> PlayerStats | None:
    """The statistics of a player whose games, stored directly, are ``played`` in order, a minute apart."""
    db = Database(url)
    try:
        async with db.sessions() as session, session.begin():
            player = Player(platform="discord", platform_user_id="1", display_name="Ann")
            session.add(player)
            await session.flush()
            start = datetime(2026, 1, 1, tzinfo=UTC)
            session.add_all(
                GameRecord(player_id=player.id, variant="little-gate" if little else "gate", deal=1, position="",
                           status="won" if won else "lost", score=52 if won else score, move_count=moves,
                           started_at=start + timedelta(minutes=n) - timedelta(seconds=seconds),
                           finished_at=start + timedelta(minutes=n))
                for n, (won, score, seconds, moves, little) in enumerate(played)
            )
        return await Statistics(db).player("discord", "1")
    finally:
        await db.dispose()


async def test_the_history_lists_finished_games_newest_first_in_pages(db: Database) -> None:
    service = GameService(db, clock=Clock())
    ids = []
    for deal in (1, 2, 3, 1, 4):
        ids.append((await service.new_game(ALICE, deal=deal)).game_id)
        if deal == 1:
            await service.play(ALICE, " ".join(WIN_DEAL_1))
        else:
            await service.resign(ALICE)
    running = (await service.new_game(ALICE, deal=5)).game_id  # still running: not listed
    history = History(db, clock=service.now, page_size=2)
    first = await history.page(ALICE.platform, ALICE.user_id)
    assert (first.page, first.pages, first.total) == (1, 3, 5)
    assert [game.game_id for game in first.games] == [ids[4], ids[3]]
    last = await history.page(ALICE.platform, ALICE.user_id, 99)  # past the end: the last page
    assert last.page == 3 and [game.game_id for game in last.games] == [ids[0]]
    every = [game.game_id for n in (1, 2, 3) for game in (await history.page(ALICE.platform, ALICE.user_id, n)).games]
    assert every == ids[::-1] and running not in every
    text = history_text(first, watch=lambda game: f"Watch #{game}", empty="None")
    assert text.splitlines()[1].startswith(f"#{ids[4]} · Gate deal 4 · resigned ")
    assert text.splitlines()[2].startswith(f"#{ids[3]} · Gate deal 1 · won 52/52 · {len(WIN_DEAL_1)} moves · ")
    assert text.splitlines()[-1] == f"Watch #{ids[4]}"
    nobody = await history.page(BOB.platform, BOB.user_id)
    assert (nobody.games, nobody.pages) == ((), 1)


async def test_an_open_challenges_attempt_names_the_challenge_not_its_deal(db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    challenges = ChallengeService(service)
    for _ in range(2):  # the deal played twice before it became a challenge
        await service.new_game(BOB, deal=4321)
        await service.resign(BOB)
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=4321, hours=2, name="Friday fun")
    await challenges.play(BOB, GUILD, info.id)
    await service.play(BOB, "3f")
    await service.resign(BOB)
    history = History(db, clock=clock)
    [attempt, *_others] = (await history.page(BOB.platform, BOB.user_id)).games
    assert attempt.challenge == "Friday fun"
    assert "4321" not in game_line(attempt) and "Friday fun" in game_line(attempt)
    stats = await Statistics(db, clock=clock).player(BOB.platform, BOB.user_id)
    assert stats is not None
    [deal] = stats.variants[0].deals
    assert (deal.deal, deal.played) == (4321, 2), "the open challenge's attempt is not counted with its deal"
    clock.at += timedelta(hours=3)  # closed: the deal is no secret any more
    [attempt, *_others] = (await history.page(BOB.platform, BOB.user_id)).games
    assert attempt.challenge is None and "deal 4321" in game_line(attempt)
    stats = await Statistics(db, clock=clock).player(BOB.platform, BOB.user_id)
    assert stats is not None and stats.variants[0].deals[0].played == 3


async def test_deals_played_more_than_once_show_their_bests(db: Database) -> None:
    service = GameService(db, clock=Clock())
    for deal, won in ((1, True), (1, False), (1, True), (2, False), (2, False), (3, False)):
        await service.new_game(ALICE, deal=deal)
        if won:
            await service.play(ALICE, " ".join(WIN_DEAL_1))
        else:
            await service.play(ALICE, "3f" if deal == 1 else "d")
            await service.resign(ALICE)
    stats = await Statistics(db).player(ALICE.platform, ALICE.user_id)
    assert stats is not None
    gate = stats.variants[0]
    assert [(d.deal, d.played, d.wins, d.score, d.fewest_moves) for d in gate.deals] == [
        (1, 3, 2, 52, len(WIN_DEAL_1)), (2, 2, 0, 0, None)]
    assert "Gate deals played more than once: deal 1, 3 times, 2 won, fewest 113 moves; deal 2, 2 times, " \
        "best 0/52." in stats_text(stats, own=True)


async def test_ten_thousand_games_are_counted_and_paged_quickly(db: Database) -> None:
    service = GameService(db, clock=Clock())
    await service.new_game(ALICE, deal=1)
    await service.resign(ALICE)
    async with db.sessions() as session, session.begin():
        player = await session.scalar(select(Player.id).where(Player.platform_user_id == ALICE.user_id))
        start = datetime(2025, 1, 1, tzinfo=UTC)
        await session.execute(insert(GameRecord), [
            {"player_id": player, "variant": "gate", "deal": n % 700, "position": "", "status":
             "won" if n % 3 == 0 else "lost", "score": 52 if n % 3 == 0 else n % 40, "move_count": 100 + n % 50,
             "started_at": start + timedelta(minutes=n), "finished_at": start + timedelta(minutes=n, seconds=30)}
            for n in range(10_000)
        ])
    began = time.perf_counter()
    stats = await Statistics(db).player(ALICE.platform, ALICE.user_id)
    page = await History(db).page(ALICE.platform, ALICE.user_id, 500)
    took = time.perf_counter() - began
    assert stats is not None and stats.variants[0].games == 10_001 and len(stats.variants[0].deals) == 3
    assert page.pages == 1001 and len(page.games) == 10
    assert took < 3.0, f"statistics and a page of 10,000 games took {took:.2f} s"
