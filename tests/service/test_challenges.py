"""Servers' challenges through the services, on a real database (SQLite file and PostgreSQL).

Time is a fake clock given to the game service, which the challenge service reads too, so
closing times, midnights and missed days are reached by moving the clock, not by waiting.
The solver runs in a thread pool (only the hint and Auto tests ask it anything).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from gatebot.locale import translator
from gatebot.rules import MAX_DEAL, Game
from gatebot.service import Actor, GameService, ReplyKind
from gatebot.service.challenges import (
    DAILY_LIST_MINIMUM,
    MAX_HOURS,
    PAGE_SIZE,
    Announcement,
    ChallengeError,
    ChallengeInfo,
    ChallengeService,
    Happening,
    Leaderboard,
    daily_deal,
)
from gatebot.service.thinking import solve_text
from gatebot.solver import registry
from gatebot.solver.deals import winnable_deals
from gatebot.store import (
    Challenge,
    ChallengeKind,
    DailySchedule,
    Database,
    GameRecord,
    GameStatus,
    Player,
    Rule,
)
from tests.lines import NEEDS_SOLVER_DEAL_1, NO_WIN_DEAL_1, STOCK_OUT_DEAL_1, WIN_DEAL_1

GUILD = 1180000000000000000
OTHER_GUILD = 1190000000000000000
CHANNEL = 42
START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
DAY_1 = date(2026, 12, 1)


def member(number: int, name: str, guild: int = GUILD) -> Actor:
    return Actor("discord", f"11800000000000{number:05d}", name, guild_id=guild, channel_id=CHANNEL)


ALICE, BOB, CAROL, DAVE, EVE = (member(i, n) for i, n in enumerate(["Alice", "Bob", "Carol", "Dave", "Eve"], 1))


class Clock:
    """A clock that stands still until a test moves it."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **how_long: float) -> datetime:
        self.at += timedelta(**how_long)
        return self.at

    def set(self, at: datetime) -> datetime:
        self.at = at
        return at


class Recording(ThreadPoolExecutor):
    """A thread pool that remembers what it was asked to run."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.calls: list[object] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls.append(fn)
        return super().submit(fn, *args, **kwargs)


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def solver() -> Iterator[Recording]:
    with Recording() as pool:
        yield pool


@pytest.fixture
def games(db: Database, clock: Clock, solver: Recording) -> GameService:
    # No random deal is proved on the spot: a winnable deal comes from the shipped list.
    return GameService(db, clock=clock, solver=solver, winnable_tries=0, rng=random.Random(5),
                       new_command="/gate new", hint_seconds=0.2)


@pytest.fixture
def challenges(games: GameService) -> ChallengeService:
    return ChallengeService(games, rng=random.Random(7))


def one_sentence(text: str | None) -> bool:
    """A message for a person: one line, one sentence, capitalised and stopped."""
    return (
        bool(text) and "\n" not in text and text[0].isupper() and text.endswith((".", "!", "?"))
        and re.search(r"[.!?]\s+[A-Z]", text[:-1]) is None
    )


async def stored(db: Database, game_id: int) -> GameRecord:
    async with db.sessions() as session:
        record = await session.get(GameRecord, game_id)
        assert record is not None
        return record


async def attempt_of(db: Database, challenge_id: int, actor: Actor) -> GameRecord | None:
    async with db.sessions() as session:
        return await session.scalar(
            select(GameRecord).join(Player, Player.id == GameRecord.player_id)
            .where(GameRecord.challenge_id == challenge_id, Player.platform_user_id == actor.user_id)
        )


async def row_of(db: Database, challenge_id: int) -> Challenge | None:
    async with db.sessions() as session:
        return await session.get(Challenge, challenge_id)


async def secret_of(db: Database, guild_id: int) -> str:
    async with db.sessions() as session:
        found = await session.scalar(select(DailySchedule.secret).where(DailySchedule.guild_id == guild_id))
        assert found is not None
        return found


def midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def ranks(board: Leaderboard) -> list[tuple[int, str]]:
    return [(standing.rank, standing.name) for standing in board.standings]


def happenings(announcements: list[Announcement]) -> list[tuple[Happening, str]]:
    return [(announcement.happening, announcement.challenge.name) for announcement in announcements]


# -- creating ---------------------------------------------------------------------------


async def test_a_challenge_opens_now_for_a_day_by_default(challenges: ChallengeService, clock: Clock) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=CHANNEL, name="  Friday \t cup ")
    assert info.name == "Friday cup"
    assert (info.guild_id, info.kind, info.channel_id, info.day) == (GUILD, ChallengeKind.CUSTOM, CHANNEL, None)
    assert (info.variant, info.options, info.hints, info.undo) == ("gate", (), Rule.ALLOWED, Rule.ALLOWED)
    assert info.opens_at == START and info.closes_at == START + timedelta(hours=24) and info.closed_at is None
    assert 1 <= info.deal <= MAX_DEAL
    assert info.is_open(START) and not info.is_open(START + timedelta(hours=24))
    assert await challenges.get(GUILD, info.id) == info  # read back from the database as made

    await challenges.record_announcement(info.id, 77, 123456789)
    again = await challenges.get(GUILD, info.id)
    assert (again.channel_id, again.announcement_id) == (77, 123456789)


async def test_a_challenge_takes_its_variant_options_deal_and_rules(challenges: ChallengeService) -> None:
    info = await challenges.create(
        ALICE, GUILD, channel_id=None, variant=" Little-Gate ", options=("STOCK-FILL", "single-moves"), deal=617,
        hours=MAX_HOURS, hints=Rule.FORBIDDEN, undo=Rule.COUNTED,
    )
    assert (info.variant, info.deal, info.hints, info.undo) == ("little-gate", 617, Rule.FORBIDDEN, Rule.COUNTED)
    assert set(info.options) == {"single-moves", "stock-fill"}
    assert info.closes_at - info.opens_at == timedelta(hours=MAX_HOURS)
    assert "Little Gate" in info.title and "stock-fill" in info.title
    shortest = await challenges.create(ALICE, GUILD, channel_id=None, hours=1, name="x" * 100)
    assert shortest.closes_at - shortest.opens_at == timedelta(hours=1) and len(shortest.name) == 100


async def test_a_winnable_challenge_plays_a_proven_deal(challenges: ChallengeService) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, winnable=True)
    assert info.deal in winnable_deals("gate")
    with pytest.raises(ChallengeError) as refused:  # no list with options, and no proof on the spot here
        await challenges.create(ALICE, GUILD, channel_id=None, winnable=True, options=("single-moves",))
    assert one_sentence(str(refused.value))


BAD_CHALLENGES = [  # what is asked, and a word the refusal must quote
    ({"variant": "chess"}, "chess"),
    ({"options": ("sideways",)}, "sideways"),
    ({"deal": 0}, "0"),
    ({"deal": MAX_DEAL + 1}, str(MAX_DEAL + 1)),
    ({"deal": 5, "winnable": True}, "not both"),
    ({"hours": 0}, "0"),
    ({"hours": MAX_HOURS + 1}, str(MAX_HOURS + 1)),
    ({"name": "x" * 101}, "100"),
]


async def test_a_bad_challenge_is_refused_in_one_sentence_and_nothing_is_made(challenges: ChallengeService) -> None:
    for request_, words in BAD_CHALLENGES:
        with pytest.raises(ChallengeError) as refused:
            await challenges.create(ALICE, GUILD, channel_id=None, **request_)
        message = str(refused.value)
        assert one_sentence(message) and words in message, (request_, message)
    assert await challenges.listing(GUILD) == []


async def test_unnamed_challenges_are_numbered_per_server(challenges: ChallengeService) -> None:
    first = await challenges.create(ALICE, GUILD, channel_id=None)
    elsewhere = await challenges.create(ALICE, OTHER_GUILD, channel_id=None)
    second = await challenges.create(ALICE, GUILD, channel_id=None, name="   ")
    assert (first.name, second.name, elsewhere.name) == ("Challenge 1", "Challenge 2", "Challenge 1")


# -- finding ----------------------------------------------------------------------------


async def test_listing_shows_open_challenges_closing_soonest_then_the_latest_closed(
    challenges: ChallengeService, clock: Clock
) -> None:
    long = await challenges.create(ALICE, GUILD, channel_id=None, name="Long", hours=48)
    short = await challenges.create(ALICE, GUILD, channel_id=None, name="Short", hours=2)
    old = await challenges.create(ALICE, GUILD, channel_id=None, name="Old")
    ended = await challenges.create(ALICE, GUILD, channel_id=None, name="Ended")
    await challenges.create(ALICE, OTHER_GUILD, channel_id=None, name="Elsewhere")
    await challenges.end(GUILD, old.id)
    clock.advance(minutes=5)
    await challenges.end(GUILD, ended.id)

    assert [info.name for info in await challenges.listing(GUILD)] == ["Short", "Long", "Ended", "Old"]
    assert [info.name for info in await challenges.listing(GUILD, closed=1)] == ["Short", "Long", "Ended"]
    assert [info.id for info in await challenges.open_challenges(GUILD)] == [short.id, long.id]
    clock.advance(hours=3)  # Short has run out (no tick yet): it is no longer open
    assert [info.id for info in await challenges.open_challenges(GUILD)] == [long.id]
    assert [info.name for info in await challenges.open_challenges(OTHER_GUILD)] == ["Elsewhere"]


async def test_another_servers_challenge_is_not_found(challenges: ChallengeService) -> None:
    info = await challenges.create(ALICE, OTHER_GUILD, channel_id=None)
    for number in (info.id, info.id + 1000):
        with pytest.raises(ChallengeError) as refused:
            await challenges.get(GUILD, number)
        assert one_sentence(str(refused.value)) and str(number) in str(refused.value)
    with pytest.raises(ChallengeError):
        await challenges.end(GUILD, info.id)
    with pytest.raises(ChallengeError):
        await challenges.play(BOB, GUILD, info.id)
    with pytest.raises(ChallengeError):
        await challenges.leaderboard(GUILD, info.id)
    assert (await challenges.get(OTHER_GUILD, info.id)).closed_at is None


# -- playing ----------------------------------------------------------------------------


async def test_playing_starts_the_attempt_on_the_challenges_deal(
    db: Database, challenges: ChallengeService, games: GameService
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, variant="little-gate",
                                   options=("single-moves",), deal=617, hours=3)
    reply = await challenges.play(BOB, GUILD)
    assert reply.kind is ReplyKind.BOARD
    expected = Game.new("little-gate", deal=617, options=("single-moves",))
    assert reply.game is not None and reply.game.to_text() == expected.to_text()
    assert one_sentence(reply.message) and info.name in reply.message and "3 hours" in reply.message
    record = await stored(db, reply.game_id)
    assert (record.challenge_id, record.deal, record.variant, record.status) == (info.id, 617, "little-gate", "active")
    assert (await games.show(BOB)).game_id == reply.game_id  # the attempt is the player's game
    assert (await challenges.get(GUILD, info.id)).attempts == 1


async def test_the_played_count_is_the_ranked_attempts_the_standings_show(
    db: Database, challenges: ChallengeService
) -> None:
    """Every view of a challenge gives one number of attempts: a set-aside one is in none of them."""
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=3)
    attempts = [(await challenges.play(someone, GUILD)).game_id for someone in (BOB, CAROL, DAVE)]
    async with db.sessions() as session, session.begin():  # Dave's attempt is found corrupted and set aside
        row = await session.get(GameRecord, attempts[2])
        assert row is not None
        row.status = GameStatus.QUARANTINED
    assert (await challenges.get(GUILD, info.id)).attempts == 2
    assert [listed.attempts for listed in await challenges.listing(GUILD)] == [2]
    board = await challenges.standings(info.id)
    assert board.total == 2 and board.challenge.attempts == 2
    assert {standing.name for standing in board.standings} == {"Bob", "Carol"}


async def test_one_attempt_each_even_after_it_ended(
    db: Database, challenges: ChallengeService, games: GameService
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=3)
    first = await challenges.play(BOB, GUILD)
    await games.play(BOB, "d")
    while_playing = await challenges.play(BOB, GUILD, confirm=True)
    assert while_playing.kind is ReplyKind.ERROR
    assert (await stored(db, first.game_id)).status == "active"  # not abandoned for a second try
    await games.resign(BOB)
    again = await challenges.play(BOB, GUILD)
    assert again.kind is ReplyKind.ERROR and info.name in again.message  # its wording: test_attempts.py
    shown = await games.show(BOB)  # no second game was dealt: the board is the resigned attempt
    assert (shown.game_id, shown.status) == (first.game_id, GameStatus.RESIGNED)
    assert (await challenges.play(CAROL, GUILD)).ok  # others still may
    assert (await challenges.get(GUILD, info.id)).attempts == 2

    # The database refuses a second attempt row whatever the service does.
    bob = (await stored(db, first.game_id)).player_id
    async with db.sessions() as session:
        session.add(GameRecord(player_id=bob, variant="gate", deal=3, position="gate", status=GameStatus.WON,
                               challenge_id=info.id))
        with pytest.raises(IntegrityError):
            await session.commit()


async def test_a_running_game_is_asked_about_before_the_attempt_begins(
    db: Database, challenges: ChallengeService, games: GameService
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=3)
    running = await games.new_game(BOB, deal=5)
    await games.play(BOB, "d")
    ask = await challenges.play(BOB, GUILD)
    assert ask.kind is ReplyKind.CONFIRM and ask.game_id == running.game_id
    assert await attempt_of(db, info.id, BOB) is None
    assert (await stored(db, running.game_id)).status == "active"

    done = await challenges.play(BOB, GUILD, confirm=True)
    assert done.kind is ReplyKind.BOARD and done.game.deal == 3
    assert info.name in done.message and "deal 5" in done.message
    assert (await stored(db, running.game_id)).status == "abandoned"
    assert (await attempt_of(db, info.id, BOB)).id == done.game_id


async def test_with_several_open_challenges_the_player_chooses(
    challenges: ChallengeService, games: GameService
) -> None:
    first = await challenges.create(ALICE, GUILD, channel_id=None, deal=3)
    second = await challenges.create(ALICE, GUILD, channel_id=None, deal=4)
    with pytest.raises(ChallengeError) as refused:
        await challenges.play(BOB, GUILD)
    message = str(refused.value)
    assert one_sentence(message) and str(first.id) in message and str(second.id) in message
    assert (await games.show(BOB)).kind is ReplyKind.ERROR
    chosen = await challenges.play(BOB, GUILD, second.id)
    assert chosen.ok and chosen.game.deal == 4


async def test_a_closed_challenge_cannot_be_played(
    challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    with pytest.raises(ChallengeError) as none_yet:
        await challenges.play(BOB, GUILD)
    assert one_sentence(str(none_yet.value))
    ended = await challenges.create(ALICE, GUILD, channel_id=None, deal=3)
    await challenges.end(GUILD, ended.id)
    with pytest.raises(ChallengeError) as refused:
        await challenges.play(BOB, GUILD, ended.id)
    assert one_sentence(str(refused.value)) and ended.name in str(refused.value)
    with pytest.raises(ChallengeError):
        await challenges.play(BOB, GUILD)  # the ended one is not the server's open challenge

    run_out = await challenges.create(ALICE, GUILD, channel_id=None, deal=4, hours=1)
    clock.advance(hours=1)  # its time is up, though no tick has closed it yet
    with pytest.raises(ChallengeError):
        await challenges.play(BOB, GUILD, run_out.id)
    assert (await games.show(BOB)).kind is ReplyKind.ERROR


async def test_a_numbered_deal_is_refused_while_a_challenge_plays_it(
    challenges: ChallengeService, games: GameService
) -> None:
    info = await challenges.create(ALICE, OTHER_GUILD, channel_id=None, deal=77)
    refused = await games.new_game(BOB, deal=77)
    assert refused.kind is ReplyKind.ERROR and one_sentence(refused.message) and "77" in refused.message
    assert (await games.show(BOB)).kind is ReplyKind.ERROR
    assert (await games.new_game(BOB, deal=78)).ok
    assert (await games.new_game(BOB, "little-gate", deal=77, confirm=True)).ok  # another variant's deal 77
    await challenges.end(OTHER_GUILD, info.id)
    allowed = await games.new_game(BOB, deal=77, confirm=True)
    assert allowed.ok and allowed.game.deal == 77


async def test_a_challenges_deal_is_free_once_its_time_is_up(
    challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    await challenges.create(ALICE, GUILD, channel_id=None, deal=77, hours=1)
    assert (await games.new_game(BOB, deal=77)).kind is ReplyKind.ERROR
    clock.advance(hours=1, seconds=1)  # closed by the clock; the tick may not have run yet
    assert (await games.new_game(BOB, deal=77)).ok


# -- the challenge's rules in play ------------------------------------------------------


async def test_forbidden_hints_are_refused_and_not_counted(
    db: Database, challenges: ChallengeService, games: GameService, clock: Clock, solver: Recording
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hints=Rule.FORBIDDEN)
    start = await challenges.play(BOB, GUILD)
    assert "hint" not in start.actions
    played = await games.play(BOB, "3f")
    assert "hint" not in played.actions
    asked = await games.hint(BOB)
    assert asked.kind is ReplyKind.ERROR and one_sentence(asked.message) and info.name in asked.message
    assert "hint" not in asked.actions
    pressed = await games.act(BOB, "hint", game_id=start.game_id, expected_version=played.version)
    assert pressed.kind is ReplyKind.ERROR
    restarted = await GameService(db, clock=clock, solver=solver).hint(BOB)  # no cache: read from the database
    assert restarted.kind is ReplyKind.ERROR
    assert (await stored(db, start.game_id)).hint_count == 0
    assert solver.calls == []


@pytest.mark.parametrize("undo", [Rule.ALLOWED, Rule.FORBIDDEN])
async def test_an_attempt_never_restarts_and_asks_before_it_is_resigned(
    db: Database, challenges: ChallengeService, games: GameService, undo: Rule
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, undo=undo)
    start = await challenges.play(BOB, GUILD)
    played = await games.play(BOB, "3f")
    for refused in (await games.restart(BOB), await games.restart(BOB, confirm=True)):
        assert refused.kind is ReplyKind.ERROR and one_sentence(refused.message) and info.name in refused.message
    record = await stored(db, start.game_id)
    assert (record.log, record.version, record.undo_count) == ("3f", played.version, 0)
    asked = await games.resign(BOB, confirm=False)
    assert asked.kind is ReplyKind.CONFIRM and info.name in asked.message and "deal" not in asked.message
    assert (await stored(db, start.game_id)).status == "active"


async def test_forbidden_hints_stay_forbidden_when_the_service_has_forgotten_the_attempt(
    db: Database, challenges: ChallengeService, clock: Clock, solver: Recording, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gatebot.service.attempts

    monkeypatch.setattr(gatebot.service.attempts, "KNOWN_ATTEMPTS", 2)  # a busy process: memory holds two games
    games = GameService(db, clock=clock, solver=solver)
    busy = ChallengeService(games)
    await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hints=Rule.FORBIDDEN)
    start = await busy.play(BOB, GUILD)
    await games.play(BOB, " ".join(NO_WIN_DEAL_1[:-1]))
    for number, name in ((3, "Carol"), (4, "Dave"), (5, "Eve")):  # three more games push Bob's out
        assert (await games.new_game(member(number, name), deal=number)).ok
    last = await games.play(BOB, NO_WIN_DEAL_1[-1])  # the quick path: Bob's game is still in hand
    assert last.ok and last.game.stock_count == 0
    assert await games.end_offer(last) is None  # the solver would prove it lost: advice
    assert (await games.hint(BOB)).kind is ReplyKind.ERROR
    assert "end" not in (await games.auto(BOB)).actions
    assert (await stored(db, start.game_id)).hint_count == 0
    assert solver.calls == []


@pytest.mark.parametrize("rule", [Rule.ALLOWED, Rule.COUNTED])
async def test_allowed_and_counted_hints_work(
    db: Database, challenges: ChallengeService, games: GameService, rule: Rule
) -> None:
    await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hints=rule)
    start = await challenges.play(BOB, GUILD)
    assert "hint" in start.actions
    await games.play(BOB, "3f")
    asked = await games.hint(BOB)
    assert asked.kind is ReplyKind.HINT and asked.suggestion is not None
    told = "each hint adds a move to your count for the ranking" in asked.message
    assert told is (rule is Rule.COUNTED)
    assert (await stored(db, start.game_id)).hint_count == 1
    [standing] = (await challenges.leaderboard(GUILD)).standings
    assert (standing.moves, standing.hints) == (1, 1)
    assert standing.ranked_moves == (2 if rule is Rule.COUNTED else 1)


async def test_forbidden_undo_is_refused_even_after_a_restart(
    db: Database, challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, undo=Rule.FORBIDDEN)
    start = await challenges.play(BOB, GUILD)
    played = await games.play(BOB, "3f 45")
    assert "undo" not in played.actions
    refused = await games.undo(BOB)
    assert refused.kind is ReplyKind.ERROR and one_sentence(refused.message) and info.name in refused.message
    pressed = await games.act(BOB, "undo", game_id=start.game_id, expected_version=played.version)
    assert pressed.kind is ReplyKind.ERROR
    assert (await GameService(db, clock=clock).undo(BOB)).kind is ReplyKind.ERROR
    record = await stored(db, start.game_id)
    assert (record.log, record.undo_count, record.version) == ("3f 45", 0, played.version)


async def test_undo_never_takes_back_a_draw_but_takes_back_moves_after_it(
    db: Database, challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1)
    start = await challenges.play(BOB, GUILD)
    drawn = await games.play(BOB, "d")
    assert "undo" not in drawn.actions
    refused = await games.undo(BOB)
    assert refused.kind is ReplyKind.ERROR and one_sentence(refused.message) and info.name in refused.message
    assert (await stored(db, start.game_id)).log == "d"

    moved = await games.play(BOB, "3f 45")
    assert "undo" in moved.actions
    taken = await games.undo(BOB, 5)  # takes back 45 and 3f, then stops at the draw, saying so
    assert taken.kind is ReplyKind.BOARD and taken.message is not None and info.name in taken.message
    assert taken.game.to_text() == drawn.game.to_text()
    assert "undo" not in taken.actions
    record = await stored(db, start.game_id)
    assert (record.log, record.undo_count, record.move_count) == ("d 3f 45 u u", 2, 1)  # d is kept

    await games.play(BOB, "3f")
    fresh = GameService(db, clock=clock)  # the rule holds in another process too
    assert (await fresh.undo(BOB, 3)).game.to_text() == drawn.game.to_text()
    assert (await fresh.undo(BOB)).kind is ReplyKind.ERROR
    assert (await stored(db, start.game_id)).log == "d 3f 45 u u 3f u"


@pytest.mark.parametrize("rule", [Rule.ALLOWED, Rule.COUNTED])
async def test_undos_cost_a_move_on_the_leaderboard_only_when_counted(
    challenges: ChallengeService, games: GameService, rule: Rule
) -> None:
    await challenges.create(ALICE, GUILD, channel_id=None, deal=1, undo=rule)
    await challenges.play(BOB, GUILD)
    await games.play(BOB, "3f 45")
    await games.undo(BOB)
    await games.act(BOB, "undo")
    [standing] = (await challenges.leaderboard(GUILD)).standings
    assert (standing.moves, standing.undos) == (0, 2)  # both moves were taken back
    assert standing.ranked_moves == (2 if rule is Rule.COUNTED else 0)


async def test_auto_never_finishes_with_the_solver_when_hints_are_forbidden(
    db: Database, challenges: ChallengeService, games: GameService, solver: Recording
) -> None:
    await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hints=Rule.FORBIDDEN)
    start = await challenges.play(BOB, GUILD)
    before = await games.play(BOB, " ".join(NEEDS_SOLVER_DEAL_1))
    assert before.game.stock_count == 0 and before.status is GameStatus.ACTIVE
    auto = await games.auto(BOB)
    assert auto.status is GameStatus.ACTIVE and not auto.game.is_won and auto.played == ()
    assert await games.end_offer(before) is None
    record = await stored(db, start.game_id)
    assert (record.status, record.hint_count) == ("active", 0)
    assert solver.calls == []

    # Nor does it offer to end a game it could prove lost: that too would be the solver's advice.
    await challenges.create(ALICE, OTHER_GUILD, channel_id=None, deal=1, hints=Rule.FORBIDDEN)
    carol = member(3, "Carol", OTHER_GUILD)
    await challenges.play(carol, OTHER_GUILD)
    stuck = await games.play(carol, " ".join(NO_WIN_DEAL_1))
    assert stuck.game.stock_count == 0 and "end" not in stuck.actions
    assert await games.end_offer(stuck) is None
    assert "end" not in (await games.auto(carol)).actions
    assert solver.calls == []


@pytest.mark.parametrize(("rule", "charged"), [(Rule.ALLOWED, 0), (Rule.COUNTED, 1)])
async def test_auto_finishes_with_the_solver_when_hints_are_allowed(
    db: Database, challenges: ChallengeService, games: GameService, solver: Recording, rule: Rule, charged: int
) -> None:
    await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hints=rule)
    start = await challenges.play(BOB, GUILD)
    before = await games.play(BOB, " ".join(NEEDS_SOLVER_DEAL_1))
    auto = await games.auto(BOB)
    assert auto.status is GameStatus.WON and auto.played and before.game.score < 52
    assert auto.message.startswith("That took ")
    assert ("the solver's finish counts as one hint" in auto.message) is bool(charged)
    assert solve_text in solver.calls
    record = await stored(db, start.game_id)
    assert (record.status, record.hint_count) == ("won", charged)
    [standing] = (await challenges.leaderboard(GUILD)).standings
    assert standing.won and standing.ranked_moves == record.move_count + charged


# -- leaderboards -----------------------------------------------------------------------


async def test_the_leaderboard_ranks_won_then_cards_then_moves_then_time(
    challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1)

    async def attempt(actor: Actor, line: str, seconds: float, *, resign: bool = True) -> None:
        assert (await challenges.play(actor, GUILD)).ok
        clock.advance(seconds=seconds)
        if line:
            await games.play(actor, line)
        if resign:
            await games.resign(actor)

    await attempt(member(1, "Wendy"), " ".join(WIN_DEAL_1), 3000)  # won, though slowest
    await attempt(member(2, "Max"), " ".join(STOCK_OUT_DEAL_1), 600)  # most cards up
    await attempt(member(3, "bob"), "3f", 30)
    await attempt(member(4, "Alice"), "3f", 30)  # the same result as bob: the same rank
    await attempt(member(5, "Carol"), "3f", 90)  # slower
    await attempt(member(6, "Dave"), "3f d", 10)  # faster, but a move more
    await attempt(member(7, "Zed"), "", 5)  # nothing up
    await attempt(member(8, "Eve"), "3f 45", 0, resign=False)
    clock.advance(seconds=40)  # Eve has been playing 40 seconds so far

    board = await challenges.leaderboard(GUILD)
    assert board.challenge.id == info.id and (board.page, board.pages, board.total) == (0, 1, 8)
    assert ranks(board) == [(1, "Wendy"), (2, "Max"), (3, "Alice"), (3, "bob"), (5, "Carol"), (6, "Dave"),
                            (7, "Eve"), (8, "Zed")]
    by_name = {standing.name: standing for standing in board.standings}
    assert by_name["Wendy"].won and by_name["Wendy"].score == 52 and by_name["Wendy"].moves == len(WIN_DEAL_1)
    assert not by_name["Max"].won and by_name["Max"].score > by_name["Alice"].score
    assert by_name["Alice"].seconds == 30 and by_name["Dave"].moves == 2
    assert by_name["Eve"].playing and by_name["Eve"].status is GameStatus.ACTIVE and by_name["Eve"].seconds == 40
    assert not any(standing.playing for standing in board.standings if standing.name != "Eve")
    assert by_name["Zed"].status is GameStatus.RESIGNED


async def test_the_leaderboard_pages(challenges: ChallengeService, clock: Clock) -> None:
    await challenges.create(ALICE, GUILD, channel_id=None, deal=1)
    count = PAGE_SIZE + 2
    for number in range(count):
        await challenges.play(member(100 + number, f"Player {number:02d}"), GUILD)
        clock.advance(seconds=10)  # the later a player started, the less time they have taken
    first = await challenges.leaderboard(GUILD)
    assert (first.page, first.pages, first.total, len(first.standings)) == (0, 2, count, PAGE_SIZE)
    assert [s.rank for s in first.standings] == list(range(1, PAGE_SIZE + 1))
    assert first.standings[0].name == f"Player {count - 1:02d}"
    last = await challenges.leaderboard(GUILD, page=1)
    assert (last.page, [s.rank for s in last.standings]) == (1, [PAGE_SIZE + 1, PAGE_SIZE + 2])
    assert [s.name for s in last.standings] == ["Player 01", "Player 00"]
    assert (await challenges.leaderboard(GUILD, page=9)).standings == last.standings
    assert (await challenges.leaderboard(GUILD, page=-2)).standings == first.standings


async def test_an_empty_leaderboard_has_one_empty_page(challenges: ChallengeService) -> None:
    await challenges.create(ALICE, GUILD, channel_id=None)
    board = await challenges.leaderboard(GUILD, page=3)
    assert (board.standings, board.page, board.pages, board.total) == ((), 0, 1, 0)


async def test_the_leaderboard_shown_by_default(challenges: ChallengeService, clock: Clock) -> None:
    with pytest.raises(ChallengeError) as none:
        await challenges.leaderboard(GUILD)
    assert one_sentence(str(none.value))
    first = await challenges.create(ALICE, GUILD, channel_id=None, name="First")
    second = await challenges.create(ALICE, GUILD, channel_id=None, name="Second")
    await challenges.end(GUILD, second.id)
    clock.advance(minutes=1)
    await challenges.end(GUILD, first.id)
    assert (await challenges.leaderboard(GUILD)).challenge.name == "First"  # the latest closed
    third = await challenges.create(ALICE, GUILD, channel_id=None, name="Third")
    assert (await challenges.leaderboard(GUILD)).challenge.id == third.id  # the open one
    assert (await challenges.leaderboard(GUILD, second.id)).challenge.name == "Second"
    await challenges.create(ALICE, GUILD, channel_id=None, name="Fourth")
    with pytest.raises(ChallengeError) as several:  # two open: which one is for the asker to say
        await challenges.leaderboard(GUILD)
    assert one_sentence(str(several.value)) and str(third.id) in str(several.value)
    with pytest.raises(ChallengeError):
        await challenges.leaderboard(OTHER_GUILD)


# -- closing ----------------------------------------------------------------------------


async def test_ending_a_challenge_closes_it_now_and_expires_its_attempts(
    db: Database, challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1)
    elsewhere = GameService(db, clock=clock)  # another process, which remembers Bob's game
    bob = await challenges.play(BOB, GUILD)
    await elsewhere.play(BOB, "3f")
    carol = await challenges.play(CAROL, GUILD)
    await games.play(CAROL, "3f 45")
    await games.resign(CAROL)
    dave = await challenges.play(DAVE, GUILD)
    await games.play(DAVE, "3f")
    clock.advance(hours=1)

    closed = await challenges.end(GUILD, info.id)
    now = clock()
    assert closed.happening is Happening.CLOSED and closed.challenge.id == info.id
    assert closed.challenge.closed_at == now and closed.challenge.closes_at == now
    assert closed.leaderboard is not None and closed.leaderboard.total == 3
    statuses = {standing.name: standing.status for standing in closed.leaderboard.standings}
    assert statuses == {"Bob": GameStatus.EXPIRED, "Carol": GameStatus.RESIGNED, "Dave": GameStatus.EXPIRED}
    assert (await stored(db, bob.game_id)).finished_at == now
    assert (await stored(db, carol.game_id)).finished_at < now

    with pytest.raises(ChallengeError) as twice:
        await challenges.end(GUILD, info.id)
    assert one_sentence(str(twice.value))
    assert await challenges.tick() == []  # already closed: nothing more to announce

    # The players' next moves (one through the process that remembered the game) change nothing,
    # and each is told why in one sentence.
    clock.advance(minutes=1)
    messages = []
    for service, actor, game_id in ((elsewhere, BOB, bob.game_id), (games, DAVE, dave.game_id)):
        before = await stored(db, game_id)
        moved = await service.play(actor, "45")
        assert moved.kind is ReplyKind.ERROR and moved.played == ()
        after = await stored(db, game_id)
        assert (after.log, after.version, after.status) == (before.log, before.version, "expired")
        messages.append(moved.message)
    for message in messages:
        assert one_sentence(message), message
        assert info.name in message and "closed" in message, message


async def test_a_move_after_the_closing_time_ends_the_attempt(
    db: Database, challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hours=1)
    start = await challenges.play(BOB, GUILD)
    await games.play(BOB, "3f")
    await challenges.play(CAROL, GUILD)
    clock.advance(hours=1)

    late = await games.play(BOB, "45")
    assert late.kind is ReplyKind.ERROR and late.status is GameStatus.EXPIRED and late.played == ()
    assert one_sentence(late.message) and info.name in late.message and "1" in late.message
    record = await stored(db, start.game_id)
    assert (record.status, record.log, record.score, record.finished_at) == ("expired", "3f", 1, clock())
    assert (await games.play(BOB, "45")).kind is ReplyKind.ERROR
    assert (await stored(db, start.game_id)).log == "3f"

    clock.advance(seconds=5)
    [closed] = await challenges.tick()  # the scheduler closes it and expires the attempt nobody touched
    assert closed.happening is Happening.CLOSED and closed.challenge.id == info.id
    assert closed.challenge.closes_at == info.closes_at and closed.challenge.closed_at == clock()
    assert {s.name: s.status for s in closed.leaderboard.standings} == {
        "Bob": GameStatus.EXPIRED, "Carol": GameStatus.EXPIRED,
    }
    assert await challenges.tick() == []


# -- the daily challenge ----------------------------------------------------------------


async def test_the_tick_opens_todays_daily_once_whoever_ticks(
    db: Database, challenges: ChallengeService, clock: Clock
) -> None:
    settings = await challenges.set_daily(GUILD, CHANNEL, hints=Rule.COUNTED, undo=Rule.FORBIDDEN)
    assert (settings.guild_id, settings.channel_id, settings.variant) == (GUILD, CHANNEL, "gate")
    assert settings.enabled and not settings.winnable
    [opened] = await challenges.tick()
    assert opened.happening is Happening.OPENED and opened.leaderboard is None
    info = opened.challenge
    assert (info.guild_id, info.kind, info.day, info.channel_id) == (GUILD, ChallengeKind.DAILY, DAY_1, CHANNEL)
    assert (info.opens_at, info.closes_at) == (midnight(DAY_1), midnight(DAY_1 + timedelta(days=1)))
    assert (info.hints, info.undo) == (Rule.COUNTED, Rule.FORBIDDEN)
    assert "Daily" in info.name and "2026" in info.name
    assert info.deal == daily_deal(await secret_of(db, GUILD), DAY_1, "gate")
    assert [c.id for c in await challenges.open_challenges(GUILD)] == [info.id]

    assert await challenges.tick() == []
    clock.advance(hours=5)
    assert await challenges.tick() == []
    assert await ChallengeService(GameService(db, clock=clock)).tick() == []  # a restart
    other = Database(db.url)  # another process on the same database
    try:
        assert await ChallengeService(GameService(other, clock=clock)).tick() == []
    finally:
        await other.dispose()
    async with db.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Challenge)) == 1


async def test_after_midnight_the_tick_closes_yesterday_before_opening_today(
    db: Database, challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    await challenges.set_daily(GUILD, CHANNEL)
    [opened] = await challenges.tick()
    start = await challenges.play(BOB, GUILD)
    await games.play(BOB, start.moves[0])

    clock.set(midnight(DAY_1 + timedelta(days=1)) + timedelta(seconds=3))
    closed, new = await challenges.tick()
    assert (closed.happening, closed.challenge.id) == (Happening.CLOSED, opened.challenge.id)
    assert closed.challenge.closes_at == midnight(DAY_1 + timedelta(days=1))
    assert [(s.name, s.status, s.moves) for s in closed.leaderboard.standings] == [("Bob", GameStatus.EXPIRED, 1)]
    record = await stored(db, start.game_id)
    assert (record.status, record.finished_at) == ("expired", clock())
    assert (new.happening, new.challenge.day) == (Happening.OPENED, DAY_1 + timedelta(days=1))
    assert new.challenge.name != closed.challenge.name
    assert await challenges.tick() == []

    today = await challenges.play(BOB, GUILD)  # a new day, a new attempt
    assert today.ok and today.game.deal == new.challenge.deal


async def test_after_missed_days_only_todays_daily_opens(
    db: Database, challenges: ChallengeService, clock: Clock
) -> None:
    await challenges.set_daily(GUILD, CHANNEL)
    [first] = await challenges.tick()
    day_4 = DAY_1 + timedelta(days=3)
    clock.set(midnight(day_4) + timedelta(hours=7))
    announced = await challenges.tick()
    assert [(a.happening, a.challenge.day) for a in announced] == [(Happening.CLOSED, DAY_1), (Happening.OPENED, day_4)]
    closed = announced[0].challenge
    assert closed.id == first.challenge.id and closed.closed_at == clock()
    assert closed.closes_at == midnight(DAY_1 + timedelta(days=1))  # it ran its day, not until now
    async with db.sessions() as session:
        days = sorted(await session.scalars(select(Challenge.day)))
    assert days == [DAY_1, day_4]


async def test_ending_todays_daily_early_does_not_open_another(challenges: ChallengeService, clock: Clock) -> None:
    await challenges.set_daily(GUILD, CHANNEL)
    [opened] = await challenges.tick()
    await challenges.end(GUILD, opened.challenge.id)
    clock.advance(minutes=1)
    assert await challenges.tick() == []
    assert await challenges.open_challenges(GUILD) == []


def test_the_daily_deal_is_a_stable_secret_function_of_the_day() -> None:
    days = [DAY_1 + timedelta(days=n) for n in range(40)]
    secret, other = "a" * 64, "b" * 64
    deals = [daily_deal(secret, day, "gate") for day in days]
    assert deals == [daily_deal(secret, day, "gate") for day in days]
    assert all(1 <= deal <= MAX_DEAL for deal in deals)
    assert len(set(deals)) == len(days)  # a new deal every day
    others = [daily_deal(other, day, "gate") for day in days]
    assert all(1 <= deal <= MAX_DEAL for deal in others)
    assert sum(a != b for a, b in zip(deals, others, strict=True)) == len(days)  # each server its own
    assert daily_deal(secret, DAY_1, "little-gate") != deals[0]


@pytest.mark.parametrize("variant", ["gate", "little-gate"])
def test_a_winnable_daily_deal_is_a_listed_one(variant: str) -> None:
    listed = winnable_deals(variant)
    assert listed
    picked = [daily_deal("c" * 64, DAY_1 + timedelta(days=n), variant, winnable=True) for n in range(40)]
    assert set(picked) <= set(listed)
    assert len(set(picked)) > min(len(listed), len(picked)) // 2  # spread over the list, not one deal
    assert picked[0] == daily_deal("c" * 64, DAY_1, variant, winnable=True)


async def test_a_winnable_daily_plays_a_listed_deal(challenges: ChallengeService) -> None:
    await challenges.set_daily(GUILD, CHANNEL, winnable=True)
    [opened] = await challenges.tick()
    assert opened.challenge.deal in winnable_deals("gate")


async def test_switching_the_daily_off_stops_new_ones_but_lets_todays_run(
    challenges: ChallengeService, clock: Clock
) -> None:
    assert await challenges.daily_off(GUILD) is False  # never on
    await challenges.set_daily(GUILD, CHANNEL)
    [opened] = await challenges.tick()
    assert await challenges.daily_off(GUILD) is True
    assert await challenges.daily_off(GUILD) is False
    assert (await challenges.daily(GUILD)).enabled is False
    assert [c.id for c in await challenges.open_challenges(GUILD)] == [opened.challenge.id]
    clock.set(midnight(DAY_1 + timedelta(days=1)) + timedelta(minutes=1))
    assert happenings(await challenges.tick()) == [(Happening.CLOSED, opened.challenge.name)]
    clock.advance(days=1)
    assert await challenges.tick() == []
    await challenges.set_daily(GUILD, CHANNEL)  # on again
    [again] = await challenges.tick()
    assert again.happening is Happening.OPENED and again.challenge.day == DAY_1 + timedelta(days=2)


async def test_changing_the_daily_keeps_its_secret(
    db: Database, challenges: ChallengeService, clock: Clock
) -> None:
    assert await challenges.daily(GUILD) is None
    await challenges.set_daily(GUILD, CHANNEL)
    secret = await secret_of(db, GUILD)
    changed = await challenges.set_daily(GUILD, 43, variant="little-gate", options=("single-moves",),
                                         hints=Rule.FORBIDDEN, undo=Rule.COUNTED)
    assert await secret_of(db, GUILD) == secret
    assert changed == await challenges.daily(GUILD)
    assert (changed.channel_id, changed.variant, changed.options) == (43, "little-gate", ("single-moves",))
    assert (changed.hints, changed.undo, changed.winnable, changed.enabled) == (
        Rule.FORBIDDEN, Rule.COUNTED, False, True,
    )
    [opened] = await challenges.tick()
    info = opened.challenge
    assert (info.variant, info.options, info.channel_id) == ("little-gate", ("single-moves",), 43)
    assert info.deal == daily_deal(secret, DAY_1, "little-gate")
    await challenges.set_daily(OTHER_GUILD, CHANNEL)
    assert await secret_of(db, OTHER_GUILD) != secret


async def test_a_bad_daily_is_refused_in_one_sentence(challenges: ChallengeService) -> None:
    bad = ({"variant": "chess"}, {"options": ("sideways",)}, {"winnable": True, "options": ("single-moves",)})
    for request_ in bad:
        with pytest.raises(ChallengeError) as refused:
            await challenges.set_daily(GUILD, CHANNEL, **request_)
        assert one_sentence(str(refused.value)), (request_, str(refused.value))
    assert await challenges.daily(GUILD) is None


async def test_concurrent_ticks_announce_each_happening_once(
    db: Database, challenges: ChallengeService, clock: Clock
) -> None:
    await challenges.set_daily(GUILD, CHANNEL)
    await challenges.set_daily(OTHER_GUILD, CHANNEL)
    other = Database(db.url)  # a second process on the same database
    try:
        pairs = [challenges, ChallengeService(GameService(db, clock=clock)),
                 ChallengeService(GameService(other, clock=clock))]
        for day in range(3):
            clock.set(midnight(DAY_1 + timedelta(days=day)) + timedelta(seconds=1))
            results = await asyncio.gather(*(pair.tick() for pair in pairs))
            announced = [announcement for result in results for announcement in result]
            for guild in (GUILD, OTHER_GUILD):
                mine = [a.happening for a in announced if a.challenge.guild_id == guild]
                assert sorted(mine) == ([Happening.CLOSED] if day else []) + [Happening.OPENED]
    finally:
        await other.dispose()
    async with db.sessions() as session:
        rows = (await session.execute(select(Challenge.guild_id, Challenge.day))).all()
    assert sorted(rows) == sorted((guild, DAY_1 + timedelta(days=n)) for guild in (GUILD, OTHER_GUILD)
                                  for n in range(3))


# -- forgetting -------------------------------------------------------------------------


async def test_forgetting_a_server_keeps_its_attempts_as_ordinary_games(
    db: Database, challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    custom = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, undo=Rule.FORBIDDEN)
    await challenges.set_daily(GUILD, CHANNEL)
    await challenges.tick()
    kept = await challenges.create(ALICE, OTHER_GUILD, channel_id=None, hours=72)
    bob = await challenges.play(BOB, GUILD, custom.id)
    await games.play(BOB, "3f 45")
    carol = await challenges.play(CAROL, GUILD, custom.id)
    await games.resign(CAROL)

    assert await challenges.forget_server(GUILD) == 2
    assert await challenges.listing(GUILD) == []
    assert await challenges.daily(GUILD) is None
    assert [info.id for info in await challenges.listing(OTHER_GUILD)] == [kept.id]
    bob_game, carol_game = await stored(db, bob.game_id), await stored(db, carol.game_id)
    assert (bob_game.challenge_id, bob_game.status, bob_game.log) == (None, "active", "3f 45")
    assert (carol_game.challenge_id, carol_game.status) == (None, "resigned")
    undone = await games.undo(BOB)  # no longer bound by the challenge's rules
    assert undone.ok and (await stored(db, bob.game_id)).log == "3f 45 u"

    clock.advance(days=1)
    assert await challenges.tick() == []
    assert await challenges.forget_server(GUILD) == 0


async def test_forgetting_a_player_keeps_the_challenges_they_made(
    db: Database, challenges: ChallengeService, games: GameService
) -> None:
    await games.new_game(ALICE, deal=3)  # Alice is a player before she makes a challenge
    info = await challenges.create(ALICE, GUILD, channel_id=None, deal=4)
    alice_id = (await row_of(db, info.id)).created_by
    assert alice_id is not None
    await challenges.play(ALICE, GUILD, confirm=True)
    bob = await challenges.play(BOB, GUILD)

    assert await games.forget(ALICE) is True
    async with db.sessions() as session:
        assert await session.get(Player, alice_id) is None
        owners = list(await session.scalars(select(GameRecord.player_id)))
    assert owners == [(await stored(db, bob.game_id)).player_id]
    row = await row_of(db, info.id)
    assert row is not None and row.created_by is None
    board = await challenges.leaderboard(GUILD)
    assert [s.name for s in board.standings] == ["Bob"] and board.challenge.attempts == 1
    assert await games.forget(ALICE) is False


# -- the server's all-time board ----------------------------------------------------------


async def test_the_server_board_ranks_wins_then_win_rate_then_streak(
    challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    made: list[ChallengeInfo] = []
    for _ in range(3):
        made.append(await challenges.create(ALICE, GUILD, channel_id=None, deal=1))
        clock.advance(minutes=1)
    c1, c2, c3 = made

    async def result(actor: Actor, challenge: ChallengeInfo, won: bool, guild: int = GUILD) -> None:
        assert (await challenges.play(actor, guild, challenge.id)).ok
        if won:
            assert (await games.play(actor, " ".join(WIN_DEAL_1))).status is GameStatus.WON
        else:
            await games.resign(actor)

    bob, alice, gina, carol, dave, eve, frank = (
        member(20 + i, name) for i, name in enumerate(["Bob", "Alice", "Gina", "Carol", "Dave", "Eve", "Frank"])
    )
    for challenge in made:
        await result(bob, challenge, True)
    # Alice plays them out of order: won c2, lost c3, won c1 -- in the challenges' order W W L.
    await result(alice, c2, True)
    await result(alice, c3, False)
    await result(alice, c1, True)
    await result(gina, c1, True)
    await result(carol, c1, True)
    await result(carol, c2, False)
    await result(dave, c3, False)
    await result(dave, c2, True)
    await result(eve, c1, False)
    assert (await challenges.play(frank, GUILD, c3.id)).ok  # still playing: not counted yet
    elsewhere = await challenges.create(ALICE, OTHER_GUILD, channel_id=None, deal=1)
    await result(member(40, "Eve", OTHER_GUILD), elsewhere, True, OTHER_GUILD)  # another server's win

    board = await challenges.server_board(GUILD)
    assert (board.guild_id, board.challenges, board.total, board.page, board.pages) == (GUILD, 3, 6, 0, 1)
    rows = [(s.rank, s.name, s.played, s.wins, s.best_streak) for s in board.standings]
    assert rows == [
        (1, "Bob", 3, 3, 3),
        (2, "Alice", 3, 2, 2),
        (3, "Gina", 1, 1, 1),
        (4, "Carol", 2, 1, 1),
        (4, "Dave", 2, 1, 1),
        (6, "Eve", 1, 0, 0),
    ]
    rates = {s.name: s.win_rate for s in board.standings}
    assert rates["Bob"] == 1.0 and rates["Alice"] == pytest.approx(2 / 3) and rates["Eve"] == 0.0
    assert (await challenges.server_board(GUILD, page=4)).standings == board.standings
    empty = await challenges.server_board(1170000000000000000)
    assert (empty.standings, empty.total, empty.challenges, empty.pages) == ((), 0, 0, 1)


async def test_an_expired_attempt_counts_as_played_and_breaks_a_streak(
    challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    first = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hours=1)
    await challenges.play(BOB, GUILD, first.id)
    await games.play(BOB, " ".join(WIN_DEAL_1))
    await challenges.play(CAROL, GUILD, first.id)
    clock.advance(minutes=10)
    second = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hours=1)
    await challenges.play(BOB, GUILD, second.id)  # runs out of time
    clock.advance(minutes=10)
    third = await challenges.create(ALICE, GUILD, channel_id=None, deal=1, hours=5)
    clock.advance(hours=1)
    await challenges.tick()
    await challenges.play(BOB, GUILD, third.id)
    await games.play(BOB, " ".join(WIN_DEAL_1))
    board = await challenges.server_board(GUILD)
    assert [(s.name, s.played, s.wins, s.best_streak) for s in board.standings] == [
        ("Bob", 3, 2, 1), ("Carol", 1, 0, 0),
    ]


# -- challenges made to open later ------------------------------------------------------------


async def test_a_challenge_made_to_open_later_is_announced_once_when_it_opens(
    challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    later = await challenges.create(ALICE, GUILD, channel_id=CHANNEL, name="Weekend", deal=77, starts_in=5,
                                    hours=2)
    assert later.opens_at == START + timedelta(hours=5) and later.closes_at == START + timedelta(hours=7)
    assert later.is_upcoming(clock()) and not later.is_open(clock())
    assert [info.id for info in await challenges.listing(GUILD)] == [later.id]
    assert await challenges.open_challenges(GUILD) == []
    with pytest.raises(ChallengeError) as early:
        await challenges.play(BOB, GUILD, later.id)
    assert str(early.value) == "Weekend opens in 5 hours: come back then." and one_sentence(str(early.value))
    with pytest.raises(ChallengeError) as unnamed:
        await challenges.play(BOB, GUILD)
    assert str(unnamed.value) == "No challenge is open yet: Weekend opens in 5 hours."
    refused = await games.new_game(BOB, deal=77)  # nobody practises it before it opens
    assert refused.kind is ReplyKind.ERROR and "challenge" in refused.message
    assert await challenges.tick() == []

    clock.advance(hours=5)
    [opened] = await challenges.tick()
    assert opened.happening is Happening.OPENED and opened.challenge.id == later.id
    assert await challenges.tick() == []
    assert await ChallengeService(GameService(games.database, clock=clock)).tick() == []  # another process
    assert (await challenges.play(BOB, GUILD)).ok


async def test_a_challenge_opened_at_once_is_never_announced_by_the_tick(
    challenges: ChallengeService, clock: Clock
) -> None:
    await challenges.create(ALICE, GUILD, channel_id=CHANNEL)  # its maker announces it
    clock.advance(minutes=1)
    assert await challenges.tick() == []


async def test_a_challenge_that_opened_and_closed_while_nobody_ticked_is_only_closed(
    challenges: ChallengeService, clock: Clock
) -> None:
    made = await challenges.create(ALICE, GUILD, channel_id=CHANNEL, starts_in=1, hours=1)
    clock.advance(hours=3)
    assert [(a.happening, a.challenge.id) for a in await challenges.tick()] == [(Happening.CLOSED, made.id)]
    assert await challenges.tick() == []


async def test_starts_in_out_of_range_is_refused(challenges: ChallengeService) -> None:
    for hours in (-1, MAX_HOURS + 1):
        with pytest.raises(ChallengeError) as refused:
            await challenges.create(ALICE, GUILD, channel_id=CHANNEL, starts_in=hours)
        assert str(hours) in str(refused.value) and one_sentence(str(refused.value))
    assert await challenges.listing(GUILD) == []


# -- the boards of attempts a closing ends ------------------------------------------------------


async def test_a_closing_names_the_games_it_ended_and_their_boards_show_the_end(
    challenges: ChallengeService, games: GameService, clock: Clock
) -> None:
    made = await challenges.create(ALICE, GUILD, channel_id=CHANNEL, deal=1, hours=1)
    alices = await challenges.play(ALICE, GUILD)
    bobs = await challenges.play(BOB, GUILD)
    await games.play(ALICE, "3f")
    await games.resign(BOB)
    clock.advance(hours=1)
    [closed] = await challenges.tick()
    assert closed.happening is Happening.CLOSED and closed.ended == (alices.game_id,)  # Bob's had ended
    owner, board = await games.board_of(alices.game_id)
    assert (owner.platform, owner.user_id, owner.display_name) == ("discord", ALICE.user_id, "Alice")
    assert board.status is GameStatus.EXPIRED and board.game.score == 1 and board.actions == ()
    assert board.message == f"{made.name} has closed, so your attempt ended with a score of 1/52."
    _, resigned = await games.board_of(bobs.game_id)
    assert resigned.status is GameStatus.RESIGNED and resigned.message is None
    assert await games.board_of(10**9) is None


async def test_an_archway_challenge_with_kit_is_played_and_ranked_out_of_its_own_rules(
    challenges: ChallengeService, games: GameService
) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=CHANNEL, name="Arch", variant="archway",
                                   options=("kit",), deal=1, undo=Rule.COUNTED)
    assert (info.variant, info.options, info.title) == ("archway", ("kit",), "Archway (kit)")
    assert info.rules_line == "hints allowed, undo counted"  # nothing is drawn in Archway: no "past a draw"
    began = await challenges.play(BOB, GUILD)
    assert began.message.startswith("Your attempt at Arch has begun: hints allowed, undo counted, closes in")
    played = await games.play(BOB, "2ca qck 3p")
    assert played.played == ("2ca", "qck", "3p")
    undone = await games.undo(BOB)  # every move of Archway may be taken back, even in a challenge
    assert undone.ok and "undo" in undone.actions
    await challenges.play(CAROL, GUILD)
    await games.play(CAROL, "2ca")
    board = await challenges.leaderboard(GUILD)
    # Bob kept two moves and took one back, which this challenge counts.
    assert [(s.name, s.score, s.ranked_moves) for s in board.standings] == [("Bob", 10, 3), ("Carol", 9, 1)]


async def test_a_canfield_challenge_and_daily_keep_their_options(challenges: ChallengeService) -> None:
    info = await challenges.create(ALICE, GUILD, channel_id=None, variant="canfield",
                                   options=("partial-moves", "draw-one", "passes-1"), deal=5)
    assert info.options == ("draw-one", "passes-1", "partial-moves")
    assert info.rules_line == "hints allowed, undo allowed (never past a draw)"
    attempt = await challenges.play(BOB, GUILD)
    assert attempt.game is not None and attempt.game.options == info.options and attempt.game.deal == 5
    settings = await challenges.set_daily(OTHER_GUILD, CHANNEL, variant="archway", options=("kit",))
    assert (settings.variant, settings.options, settings.title) == ("archway", ("kit",), "Archway (kit)")
    opened = [a.challenge for a in await challenges.tick() if a.challenge.guild_id == OTHER_GUILD]
    assert [(c.variant, c.options) for c in opened] == [("archway", ("kit",))]
    with pytest.raises(ChallengeError, match="Gate has no option 'draw-one'"):
        await challenges.create(ALICE, GUILD, channel_id=None, options=("draw-one",))


@pytest.mark.parametrize(("variant", "title"), [("canfield", "Canfield"), ("archway", "Archway")])
async def test_a_winnable_challenge_of_a_variant_without_a_solver_is_refused_in_one_sentence(
    challenges: ChallengeService, solver: Recording, monkeypatch: pytest.MonkeyPatch, variant: str, title: str
) -> None:
    monkeypatch.setitem(registry._SOLVERS, variant, None)
    with pytest.raises(ChallengeError) as refused:
        await challenges.create(ALICE, GUILD, channel_id=None, variant=variant, winnable=True)
    assert str(refused.value) == f"Winnable deals don't exist for {title} yet."
    assert solver.calls == []


async def test_a_winnable_daily_needs_a_long_list_of_proven_deals(challenges: ChallengeService) -> None:
    assert 0 < len(winnable_deals("archway")) < DAILY_LIST_MINIMUM <= len(winnable_deals("canfield"))
    with pytest.raises(ChallengeError) as daily:
        await challenges.set_daily(GUILD, CHANNEL, variant="archway", winnable=True)
    message = str(daily.value)
    assert one_sentence(message) and "for Archway" in message
    assert all(title in message.split("only")[1] for title in ("Canfield", "Gate", "Little Gate"))
    assert await challenges.daily(GUILD) is None
    await challenges.set_daily(GUILD, CHANNEL, variant="canfield", winnable=True)
    opened = [a.challenge for a in await challenges.tick() if a.challenge.guild_id == GUILD]
    assert len(opened) == 1 and opened[0].deal in winnable_deals("canfield")


async def test_a_servers_default_names_are_said_as_its_caller_says_them_and_stored_as_said(
    challenges: ChallengeService, clock: Clock
) -> None:
    german = translator("de").say
    await challenges.set_daily(GUILD, CHANNEL)
    await challenges.set_daily(OTHER_GUILD, CHANNEL)
    challenges.server_say = lambda guild: german if guild == GUILD else str
    opened = await challenges.tick()
    names = {announcement.challenge.guild_id: announcement.challenge.name for announcement in opened}
    assert names == {GUILD: "Tagesherausforderung 1. Dezember 2026", OTHER_GUILD: "Daily 1 Dec 2026"}  # DAY_1's
    made = await challenges.create(ALICE, GUILD, channel_id=CHANNEL, deal=3, say=german)
    assert made.name == "Herausforderung 1"
    listed = await challenges.listing(GUILD)
    assert {info.name for info in listed} == {names[GUILD], "Herausforderung 1"}  # read back as stored, in any language
