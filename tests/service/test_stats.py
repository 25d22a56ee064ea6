"""Statistics on a real database (SQLite file and PostgreSQL), from games played through the real service."""

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select, update

from gatebot.render.card import DEALT, render_card
from gatebot.rules import Game
from gatebot.service import Actor, GameService, ReplyKind
from gatebot.service.attempts import AttemptRules
from gatebot.service.stats import (
    DailyStats,
    FastestWin,
    GameGone,
    NoCard,
    NoResultYet,
    NotYourGame,
    PlayerStats,
    Statistics,
    VariantStats,
    daily_stats,
    stats_text,
)
from gatebot.store import Challenge, Database, GameRecord, GameStatus
from tests.lines import LOST_DEAL_10, WIN_DEAL_1

ALICE = Actor("discord", "1180000000000000001", "Alice", guild_id=11, channel_id=42)
BOB = Actor("discord", "1180000000000000002", "Bob", guild_id=11, channel_id=42)
HERE, ELSEWHERE = 11, 22


def engine_score(deal: int, line: list[str]) -> int:
    """The score the rules engine itself gives a line: what the stored score must be."""
    game = Game.new("gate", deal=deal)
    game.play_line(" ".join(line))
    return game.score


async def win(service: GameService, actor: Actor, **new: object) -> int:
    dealt = await service.new_game(actor, deal=1, **new)
    assert dealt.kind is ReplyKind.BOARD, dealt.message
    reply = await service.play(actor, " ".join(WIN_DEAL_1))
    assert reply.status is GameStatus.WON
    return dealt.game_id


async def lose(service: GameService, actor: Actor) -> int:
    dealt = await service.new_game(actor, deal=10)
    reply = await service.play(actor, " ".join(LOST_DEAL_10))
    assert reply.status is GameStatus.LOST
    return dealt.game_id


async def resign(service: GameService, actor: Actor, line: str = "3f", **new: object) -> int:
    dealt = await service.new_game(actor, **{"deal": 1, **new})
    assert dealt.kind is ReplyKind.BOARD, dealt.message
    if line:
        await service.play(actor, line)
    reply = await service.resign(actor)
    assert reply.status is GameStatus.RESIGNED
    return dealt.game_id


async def set_times(db: Database, game_id: int, **values: datetime) -> None:
    async with db.sessions() as session, session.begin():
        await session.execute(update(GameRecord).where(GameRecord.id == game_id).values(**values))


async def finished_at(db: Database, game_id: int) -> datetime:
    async with db.sessions() as session:
        return await session.scalar(select(GameRecord.finished_at).where(GameRecord.id == game_id))


async def test_someone_who_never_played_has_no_statistics(db: Database) -> None:
    stats = Statistics(db)
    assert await stats.player("discord", "404") is None
    assert await stats.latest_result("discord", "404") is None


async def test_a_game_in_progress_counts_for_nothing(db: Database) -> None:
    service = GameService(db)
    await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f")
    found = await Statistics(db).player(ALICE.platform, ALICE.user_id)
    assert found is not None and found.display_name == "Alice"
    assert (found.variants, found.games, found.daily) == ((), 0, DailyStats())
    assert await Statistics(db).latest_result(ALICE.platform, ALICE.user_id) is None


async def test_counts_win_rate_streaks_and_average_score_per_variant(db: Database) -> None:
    service = GameService(db)
    await win(service, ALICE)
    await win(service, ALICE)
    await lose(service, ALICE)
    await win(service, ALICE)
    await resign(service, ALICE, "3f 45")
    await win(service, ALICE)
    await resign(service, ALICE, "", variant="little-gate")
    await service.new_game(ALICE, deal=2)
    await service.play(ALICE, "d")
    abandoned = await service.new_game(ALICE, deal=3, confirm=True)  # deal 2 abandoned with score 0
    assert abandoned.kind is ReplyKind.BOARD
    unplayed = await service.new_game(ALICE, deal=4, confirm=True)  # deal 3 given up before a move: not counted
    assert "had no move played" in unplayed.message
    await win(service, BOB)  # someone else's games stay theirs

    found = await Statistics(db).player(ALICE.platform, ALICE.user_id)
    assert found is not None
    gate, little = found.variants
    assert (gate.variant, gate.title, little.variant, little.title) == ("gate", "Gate", "little-gate", "Little Gate")
    # won, won, lost, won, resigned, won, abandoned
    assert (gate.games, gate.wins) == (7, 4)
    assert gate.win_rate == pytest.approx(4 / 7)
    assert (gate.best_streak, gate.current_streak) == (2, 0)
    lost_score = engine_score(10, LOST_DEAL_10)
    resigned_score = engine_score(1, ["3f", "45"])
    assert gate.average_score == pytest.approx((52 * 4 + lost_score + resigned_score + 0) / 7)
    assert (little.games, little.wins, little.best_streak, little.average_score) == (1, 0, 0, 0)
    assert little.fastest_win is None
    assert found.games == 8


async def test_streaks_follow_the_order_games_finished_in(db: Database) -> None:
    service = GameService(db)
    won = await win(service, ALICE)
    lost = await lose(service, ALICE)
    before = await Statistics(db).player(ALICE.platform, ALICE.user_id)
    assert (before.variants[0].current_streak, before.variants[0].best_streak) == (0, 1)
    # The win now finished after the loss: the streak stands.
    await set_times(db, won, finished_at=await finished_at(db, lost) + timedelta(minutes=1))
    after = await Statistics(db).player(ALICE.platform, ALICE.user_id)
    assert (after.variants[0].current_streak, after.variants[0].best_streak) == (1, 1)


async def test_the_fastest_win_is_the_shortest_from_deal_to_last_card(db: Database) -> None:
    service = GameService(db)
    slow = await win(service, ALICE)
    await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f d")
    await service.undo(ALICE)
    await service.play(ALICE, " ".join(WIN_DEAL_1[1:]))  # d taken back: 1 + 112 moves kept
    async with db.sessions() as session:
        quick = await session.scalar(select(GameRecord.id).order_by(GameRecord.id.desc()))
    await lose(service, ALICE)
    for game_id, seconds in ((slow, 300), (quick, 90)):
        end = await finished_at(db, game_id)
        await set_times(db, game_id, started_at=end - timedelta(seconds=seconds))
    [gate] = (await Statistics(db).player(ALICE.platform, ALICE.user_id)).variants
    assert gate.fastest_win == FastestWin(pytest.approx(90.0), len(WIN_DEAL_1))


async def add_daily(db: Database, guild_id: int, day: date, *, kind: str = "daily") -> AttemptRules:
    now = datetime.now(UTC)
    challenge = Challenge(
        guild_id=guild_id, kind=kind, name=f"Daily {day}", variant="gate", deal=1,
        day=day if kind == "daily" else None, opens_at=now, closes_at=now + timedelta(days=1),
    )
    async with db.sessions() as session, session.begin():
        session.add(challenge)
    return AttemptRules.of(challenge)


async def test_daily_participation_counts_days_won_in_a_row(db: Database) -> None:
    service = GameService(db)
    march = {n: date(2024, 3, n) for n in range(1, 10)}
    # Here: 1 won, 2 missed, 3 won, 4 won, 5 lost, 6 won. Elsewhere: 5 won. A custom challenge won too.
    for day, won in ((1, True), (3, True), (4, True), (5, False), (6, True)):
        attempt = await add_daily(db, HERE, march[day])
        if won:
            await win(service, ALICE, attempt=attempt)
        else:
            await resign(service, ALICE, attempt=attempt)
    await win(service, ALICE, attempt=await add_daily(db, ELSEWHERE, march[5]))
    await win(service, ALICE, attempt=await add_daily(db, HERE, march[8], kind="custom"))
    await win(service, BOB, attempt=await add_daily(db, HERE, march[7]))  # Bob's day, not Alice's

    def on(day: int) -> Statistics:
        return Statistics(db, clock=lambda: datetime(2024, 3, day, 18, tzinfo=UTC))

    here = (await on(7).player(ALICE.platform, ALICE.user_id, guild_id=HERE)).daily
    assert here == DailyStats(played=5, won=4, current_streak=1, best_streak=2)
    everywhere = (await on(7).player(ALICE.platform, ALICE.user_id)).daily
    assert everywhere == DailyStats(played=6, won=5, current_streak=4, best_streak=4)
    assert (await on(6).player(ALICE.platform, ALICE.user_id)).daily.current_streak == 4
    # A day missed since the last one won: the streak is over, the best stays.
    later = (await on(8).player(ALICE.platform, ALICE.user_id)).daily
    assert (later.current_streak, later.best_streak) == (0, 4)
    [gate] = (await on(7).player(ALICE.platform, ALICE.user_id)).variants
    assert (gate.games, gate.wins) == (7, 6)  # challenge attempts are games too


def test_a_lost_day_after_the_last_win_ends_the_current_streak() -> None:
    days = [(date(2024, 3, 1), True), (date(2024, 3, 2), True), (date(2024, 3, 3), False)]
    assert daily_stats(days, date(2024, 3, 3)) == DailyStats(3, 2, 0, 2)
    assert daily_stats(days[:2], date(2024, 3, 3)) == DailyStats(2, 2, 2, 2)
    assert daily_stats([], date(2024, 3, 3)) == DailyStats()


def test_the_statistics_in_words() -> None:
    gate = VariantStats("gate", "Gate", 7, 4, 0, 2, 33.57, FastestWin(372.0, 114))
    stats = PlayerStats("Bob", (gate,), DailyStats(5, 4, 1, 2))
    mine, theirs = stats_text(stats, own=True, here=True), stats_text(stats, own=False)
    assert mine.splitlines() == [
        "Your games:",
        "Gate: 7 games, 4 won (57%); streak 0, best 2; average score 33.6/52; fastest win 6:12 in 114 moves.",
        "Daily challenges here: 5 played, 4 won; streak 1 day, best 2 days.",
    ]
    assert theirs.startswith("Bob's games:\n") and "Daily challenges: 5 played" in theirs
    nobody = PlayerStats("Bob", (), DailyStats())
    own = stats_text(nobody, own=True, new_command="/gate new")
    assert own == "Your games: none finished yet: start one with /gate new."
    assert stats_text(nobody, own=False) == "Bob's games: none finished yet."


async def test_the_latest_result_is_the_game_that_finished_last(db: Database) -> None:
    service = GameService(db)
    lost = await lose(service, ALICE)
    won = await win(service, ALICE)
    await service.new_game(ALICE, deal=5)  # in progress: not a result
    await service.play(ALICE, "d")
    card = await Statistics(db).latest_result(ALICE.platform, ALICE.user_id)
    assert card is not None
    assert (card.title, card.deal, card.won, card.score, card.moves, card.undos, card.hints) == (
        "Gate", 1, True, 52, len(WIN_DEAL_1), 0, 0,
    )
    assert card.challenge is None and card.steps == len(WIN_DEAL_1)
    assert sum(step is not None for row in card.ascents for step in row) == 52
    assert card.seconds is not None and 0 <= card.seconds < 60
    await set_times(db, lost, finished_at=await finished_at(db, won) + timedelta(seconds=1))
    card = await Statistics(db).latest_result(ALICE.platform, ALICE.user_id)
    assert (card.deal, card.won, card.score) == (10, False, engine_score(10, LOST_DEAL_10))
    assert sum(step is not None for row in card.ascents for step in row) == card.score


async def test_a_challenge_result_names_the_challenge(db: Database) -> None:
    service = GameService(db)
    attempt = await add_daily(db, HERE, date(2024, 3, 1))
    await service.new_game(ALICE, deal=1, attempt=attempt)
    await service.play(ALICE, "3f 45")
    await service.undo(ALICE)
    await service.resign(ALICE)
    card = await Statistics(db).latest_result(ALICE.platform, ALICE.user_id)
    assert (card.challenge, card.won, card.score, card.undos, card.moves, card.steps) == (
        "Daily 2024-03-01", False, 1, 1, 1, 3,
    )
    assert [row.count(None) for row in card.ascents] == [13, 12, 13, 13]  # A♦ went up at step 0
    assert card.ascents[1][0] == 0


async def test_a_games_card_is_the_one_its_latest_result_gives(db: Database) -> None:
    service = GameService(db)
    lost = await lose(service, ALICE)
    won = await win(service, ALICE)
    stats = Statistics(db)
    latest = await stats.latest_result(ALICE.platform, ALICE.user_id)
    assert latest is not None and latest.won
    assert await stats.card(won, ALICE.platform, ALICE.user_id) == latest
    older = await stats.card(lost, ALICE.platform, ALICE.user_id)  # any finished game, not just the latest
    assert (older.deal, older.won, older.score) == (10, False, engine_score(10, LOST_DEAL_10))
    assert older != latest


async def test_a_challenge_games_card_names_the_challenge(db: Database) -> None:
    service = GameService(db)
    attempt = await add_daily(db, HERE, date(2024, 3, 1))
    game_id = await resign(service, ALICE, attempt=attempt)
    card = await Statistics(db).card(game_id, ALICE.platform, ALICE.user_id)
    assert (card.challenge, card.score) == ("Daily 2024-03-01", 1)
    assert card == await Statistics(db).latest_result(ALICE.platform, ALICE.user_id)


async def test_only_its_player_gets_a_games_card(db: Database) -> None:
    service = GameService(db)
    game_id = await win(service, ALICE)
    await win(service, BOB)  # Bob has finished games of his own
    stats = Statistics(db)
    with pytest.raises(NotYourGame, match=r"^Only Alice can share their result\.$") as refused:
        await stats.card(game_id, BOB.platform, BOB.user_id)
    assert refused.value.owner == "Alice"
    with pytest.raises(NotYourGame):  # the same user id on another platform is someone else
        await stats.card(game_id, "terminal", ALICE.user_id)


async def test_a_game_in_progress_or_set_aside_has_no_card(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f")
    stats = Statistics(db)
    with pytest.raises(NoResultYet, match="isn't over yet") as refused:
        await stats.card(dealt.game_id, ALICE.platform, ALICE.user_id)
    assert refused.value.status is GameStatus.ACTIVE
    async with db.sessions() as session, session.begin():
        await session.execute(
            update(GameRecord).where(GameRecord.id == dealt.game_id).values(status=GameStatus.QUARANTINED)
        )
    with pytest.raises(NoResultYet, match=r"^That game has no result to share\.$"):
        await stats.card(dealt.game_id, ALICE.platform, ALICE.user_id)


async def test_a_game_that_is_gone_or_unreadable_has_no_card(db: Database) -> None:
    service = GameService(db)
    game_id = await win(service, ALICE)
    stats = Statistics(db)
    with pytest.raises(GameGone):
        await stats.card(game_id + 1000, ALICE.platform, ALICE.user_id)
    async with db.sessions() as session, session.begin():
        await session.execute(update(GameRecord).where(GameRecord.id == game_id).values(log="3f zz"))
    with pytest.raises(NoCard, match="can't be replayed") as damaged:
        await stats.card(game_id, ALICE.platform, ALICE.user_id)
    assert type(damaged.value) is NoCard and isinstance(damaged.value, ValueError)
    assert await service.forget(ALICE)
    with pytest.raises(GameGone, match="no longer stored"):
        await stats.card(game_id, ALICE.platform, ALICE.user_id)


async def test_each_variant_is_counted_apart_and_scored_out_of_its_own_cards(db: Database) -> None:
    service = GameService(db)
    statistics = Statistics(db)
    await resign(service, ALICE, "2ca qck", variant="archway")
    await resign(service, ALICE, "r3 32 d", variant="canfield", options=("draw-one",))
    await resign(service, ALICE, "3f")
    found = await statistics.player("discord", ALICE.user_id)
    by_variant = {variant.variant: variant for variant in found.variants}
    assert set(by_variant) == {"gate", "canfield", "archway"}
    archway, canfield = Game.new("archway", deal=1), Game.new("canfield", deal=1, options=("draw-one",))
    archway.play_line("2ca qck")
    canfield.play_line("r3 32 d")
    assert (by_variant["archway"].games, by_variant["archway"].average_score) == (1, archway.score)
    assert by_variant["canfield"].average_score == canfield.score
    lines = stats_text(found, own=True).splitlines()
    assert f"Archway: 1 game, 0 won (0%); streak 0, best 0; average score {archway.score:.1f}/104." in lines
    assert f"Canfield: 1 game, 0 won (0%); streak 0, best 0; average score {canfield.score:.1f}/52." in lines
    assert f"Gate: 1 game, 0 won (0%); streak 0, best 0; average score {engine_score(1, ['3f']):.1f}/52." in lines


async def test_an_archway_result_card_has_two_rows_a_suit_out_of_104(db: Database) -> None:
    service = GameService(db)
    game_id = await resign(service, ALICE, "2ca qck 2da", variant="archway", options=("kit",))
    card = await Statistics(db).card(game_id, "discord", ALICE.user_id)
    assert (card.title, card.options, card.total, card.score) == ("Archway", ("kit",), 104, 11)
    assert len(card.ascents) == 8 and all(len(row) == 13 for row in card.ascents)
    text = render_card(card)
    assert text.splitlines()[0] == "Archway, kit · deal 1 · 11/104"
    # Rows by suit, each suit's Ace foundation (up) then its King foundation (down): clubs got 2♣ and Q♣.
    clubs_up, clubs_down, diamonds_up = card.ascents[:3]
    assert clubs_up[:3] == (DEALT, 0, None) and clubs_down[:3] == (DEALT, 1, None)
    assert diamonds_up[:3] == (DEALT, 2, None)
    assert sum(step == DEALT for row in card.ascents for step in row) == 8


class Clock:
    """A clock the test moves by hand: games start and finish when the test says."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def timed_win(service: GameService, clock: Clock, minutes: int) -> str:
    """Win deal 1 in ``minutes`` by the service's clock; the win's message."""
    await service.new_game(ALICE, deal=1)
    clock.now += timedelta(minutes=minutes)
    reply = await service.play(ALICE, " ".join(WIN_DEAL_1))
    assert reply.status is GameStatus.WON and reply.message is not None
    return reply.message


async def test_the_win_message_gives_time_moves_streak_and_personal_bests(db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    moves = len(WIN_DEAL_1)
    first = await timed_win(service, clock, 10)
    # The board says the win and the score ("Won! Every card is home. Score 52/52."): the message says the rest.
    assert first == f"That took 10:00 and {moves} moves. Win streak: 1. Your first win of Gate."
    # Quicker, in as many moves: a best in time only.
    assert (await timed_win(service, clock, 7)) == (
        f"That took 7:00 and {moves} moves. Win streak: 2. A personal best: your fastest win of Gate.")
    async with db.sessions() as session, session.begin():  # the earlier wins took more moves
        await session.execute(update(GameRecord).values(move_count=moves + 40))
    assert (await timed_win(service, clock, 5)).endswith(
        "Win streak: 3. A personal best: your fastest win and fewest moves of Gate.")
    await lose(service, ALICE)
    assert (await timed_win(service, clock, 6)).endswith(
        f"That took 6:00 and {moves} moves. Win streak: 1. Your bests of Gate: 5:00 and {moves} moves.")


async def test_the_win_message_counts_the_variants_apart(db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    await timed_win(service, clock, 3)
    await resign(service, ALICE, "", variant="little-gate")  # another variant's loss breaks no Gate streak
    assert (await timed_win(service, clock, 4)).endswith(f"Win streak: 2. Your bests of Gate: 3:00 and "
                                                          f"{len(WIN_DEAL_1)} moves.")
