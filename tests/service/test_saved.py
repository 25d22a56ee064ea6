"""Game rows saved by another gatebot version, on a real database: their owner is told, everyone else goes on.

Each test damages one of Alice's rows by hand, with raw SQL, the way an older or newer
gatebot (or a hand edit) would leave it -- a status, a variant or an option this gatebot
doesn't know -- then asks every reader of games as Alice and as Bob. They run on a SQLite
file only: the readers' queries are the same on PostgreSQL, and the suite stays quick.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from gatebot.errors import UserError
from gatebot.locale import translator
from gatebot.messages import message_of
from gatebot.rules import Game, RulesError, find_variant, variant_names
from gatebot.service import Actor, GameService, ReplyKind, saved
from gatebot.service.challenges import ChallengeService
from gatebot.service.stats import NoCard, Statistics
from gatebot.store import Database, GameRecord, GameStatus
from tests.lines import WIN_DEAL_1

GUILD = 11
ALICE = Actor("discord", "1180000000000000001", "Alice", guild_id=GUILD, channel_id=42)
BOB = Actor("discord", "1180000000000000002", "Bob", guild_id=GUILD, channel_id=42)
NEW = "/gate new"
ON_SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
#: Each hand damage, as raw SQL: an unknown status, variant or option.
DAMAGES = {
    "status": "UPDATE games SET status = 'frozen' WHERE id = :id",
    "variant": "UPDATE games SET variant = 'klondike' WHERE id = :id",
    "options": "UPDATE games SET options = 'bogus' WHERE id = :id",
}


def set_aside(game_id: int) -> str:
    return (
        f"Your game #{game_id} was saved by a different version of gatebot and can't be loaded; "
        f"it is set aside, and {NEW} starts a fresh one."
    )


@dataclass
class Server:
    games: GameService
    challenges: ChallengeService
    stats: Statistics
    challenge_id: int
    #: Alice's resigned game of deal 2, finished before her attempt: her only readable result.
    resigned: int
    alices: int
    bobs: int


@pytest.fixture(autouse=True)
def fresh_log_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's database numbers its games from 1: forget which rows earlier tests logged."""
    monkeypatch.setattr(saved, "_logged", set())


@pytest.fixture
async def server(db: Database) -> AsyncIterator[Server]:
    """A server where Alice resigned a game, then both made an attempt at a challenge and Bob won his."""
    games = GameService(db, new_command=NEW)
    challenges = ChallengeService(games)
    resigned = await games.new_game(ALICE, deal=2)
    await games.play(ALICE, "d")
    await games.resign(ALICE)
    challenge = await challenges.create(ALICE, GUILD, channel_id=42, deal=1)
    alices = await challenges.play(ALICE, GUILD, challenge.id)
    bobs = await challenges.play(BOB, GUILD, challenge.id)
    won = await games.play(BOB, " ".join(WIN_DEAL_1))
    assert won.status == "won"
    yield Server(games, challenges, Statistics(db), challenge.id, resigned.game_id, alices.game_id, bobs.game_id)
    games.close()


async def damage(db: Database, column: str, game_id: int) -> None:
    async with db.engine.begin() as connection:
        await connection.execute(text(DAMAGES[column]), {"id": game_id})


async def row(db: Database, game_id: int) -> GameRecord:
    async with db.sessions() as session:
        record = await session.get(GameRecord, game_id)
        assert record is not None
        return record


@ON_SQLITE
@pytest.mark.parametrize("finished", [False, True], ids=["playing", "finished"])
@pytest.mark.parametrize("column", list(DAMAGES))
async def test_a_game_from_another_version_is_its_owners_alone(
    db: Database, server: Server, column: str, finished: bool, caplog: pytest.LogCaptureFixture
) -> None:
    if finished:
        await server.games.play(ALICE, " ".join(WIN_DEAL_1))
    before = await row(db, server.alices)
    await damage(db, column, server.alices)
    games = GameService(db, new_command=NEW)  # a fresh process: nothing remembered
    challenges, stats = ChallengeService(games), Statistics(db)
    sentence = set_aside(server.alices)

    # Alice is told, in one sentence, whichever way she asks.
    for ask in (
        games.show(ALICE), games.play(ALICE, "d"), games.hint(ALICE),
        games.act(ALICE, "draw", game_id=server.alices, expected_version=before.version),
        games.act(ALICE, "hint", game_id=server.alices, expected_version=before.version),
        games.show(ALICE),
    ):
        reply = await ask
        assert (reply.kind, reply.message) == (ReplyKind.ERROR, sentence)
    with pytest.raises(NoCard, match=f"^Your game #{server.alices} was saved by a different version of gatebot"):
        await stats.card(server.alices, ALICE.platform, ALICE.user_id)
    assert await games.board_of(server.alices) is None

    # Bob is told it isn't his, and everything else goes on without the row.
    pressed = await games.act(BOB, "draw", game_id=server.alices, expected_version=before.version)
    assert pressed.message == f"This is Alice's game: start your own with {NEW}."
    with caplog.at_level(logging.WARNING, logger="gatebot.service.saved"):
        for _ in range(2):
            for board in (
                await challenges.leaderboard(GUILD, server.challenge_id),
                await challenges.leaderboard(GUILD),
            ):
                assert [(s.rank, s.name, s.won) for s in board.standings] == [(1, "Bob", True)]
            everyone = await challenges.server_board(GUILD)
            assert [(s.name, s.played, s.wins) for s in everyone.standings] == [("Bob", 1, 1)]
            alice = await stats.player(ALICE.platform, ALICE.user_id, guild_id=GUILD)
            assert alice is not None
            assert [(v.variant, v.games, v.wins) for v in alice.variants] == [("gate", 1, 0)]
            assert alice.daily.played == 0
            latest = await stats.latest_result(ALICE.platform, ALICE.user_id)
            assert latest is not None and (latest.deal, latest.won) == (2, False)  # the resigned game
    if finished or column == "status":  # a running game is set aside before any board sees it otherwise
        skipped = [r for r in caplog.records if f"game {server.alices} " in r.getMessage()]
        assert len(skipped) == 1 and skipped[0].levelno == logging.WARNING
    bob = await stats.player(BOB.platform, BOB.user_id)
    assert bob is not None and [(v.games, v.wins) for v in bob.variants] == [(1, 1)]
    card = await stats.card(server.bobs, BOB.platform, BOB.user_id)
    assert card.won and card.deal == 1
    assert (await games.board_of(server.bobs)) is not None

    # What Alice's row holds is kept: a running game is only marked as set aside, to free her slot.
    after = await row(db, server.alices)
    fields = ("variant", "options", "log", "deal", "score")
    damaged = {"variant": "klondike", "options": "bogus"}
    expected = {field: damaged[field] if field == column else getattr(before, field) for field in fields}
    assert {field: getattr(after, field) for field in fields} == expected
    if column == "status":
        assert after.status == "frozen"
    elif finished:
        assert after.status == "won"
    else:
        assert after.status == "quarantined" and after.problem

    # A fresh game is dealt at once, with nothing to confirm or abandon.
    fresh = await games.new_game(ALICE, deal=5)
    assert (fresh.kind, fresh.message) == (ReplyKind.BOARD, "Dealt Gate deal 5.")
    assert fresh.game_id > server.bobs
    games.close()


@ON_SQLITE
@pytest.mark.parametrize("column", ["variant", "options"])
async def test_a_new_game_over_a_running_game_from_another_version_sets_it_aside(
    db: Database, server: Server, column: str
) -> None:
    """Nothing to confirm: the running game can't be played, so it is set aside, not abandoned."""
    await damage(db, column, server.alices)
    games = GameService(db, new_command=NEW)
    fresh = await games.new_game(ALICE, deal=5)
    assert fresh.kind is ReplyKind.BOARD
    assert fresh.message == (
        f"Dealt Gate deal 5. Your game #{server.alices} was saved by a different version of gatebot, "
        "so it is set aside unchanged."
    )
    assert fresh.game is not None and fresh.game.to_text() == Game.new("gate", deal=5).to_text()
    old = await row(db, server.alices)
    assert old.status == "quarantined" and old.problem
    games.close()


@ON_SQLITE
async def test_a_german_owner_is_told_in_german_that_their_game_is_set_aside(db: Database, server: Server) -> None:
    await damage(db, "variant", server.alices)
    games = GameService(db, new_command=NEW)
    german = translator("de")
    fresh = await games.new_game(ALICE, deal=5)
    assert fresh.message is not None
    assert german.say(fresh.message) == (
        f"Gate, Spiel 5, ist ausgeteilt. Dein Spiel #{server.alices} wurde von einer anderen Version von gatebot "
        "gespeichert, also wird es unverändert beiseitegelegt."
    )
    with pytest.raises(UserError) as refused:
        await games.replays.replay(ALICE, server.alices)
    assert german.say(message_of(refused.value)) == (
        f"Spiel #{server.alices} ist als unlesbar beiseitegelegt, deshalb lässt es sich nicht wiederholen."
    )
    assert fresh.game_id is not None
    await damage(db, "options", fresh.game_id)
    games = GameService(db, new_command=NEW)  # a fresh process: nothing remembered
    shown = await games.show(ALICE)
    assert shown.kind is ReplyKind.ERROR and shown.message == set_aside(fresh.game_id)
    assert german.say(shown.message) == (
        f"Dein Spiel #{fresh.game_id} wurde von einer anderen Version von gatebot gespeichert und lässt sich nicht "
        f"laden; es ist beiseitegelegt, und {NEW} startet ein neues."
    )
    games.close()


@pytest.mark.parametrize(
    ("status", "variant", "options", "readable"),
    [
        ("won", "gate", "", True),
        ("quarantined", "canfield", "draw-one", True),
        ("expired", "archway", "kit", True),
        ("frozen", "gate", "", False),
        ("WON", "gate", "", False),
        ("won", "klondike", "", False),
        ("won", "gate", "bogus", False),
        ("won", "gate", "single-moves bogus", False),
        ("won", "archway", "draw-one", False),
    ],
)
def test_a_row_is_readable_when_this_gatebot_knows_its_status_variant_and_options(
    status: str, variant: str, options: str, readable: bool
) -> None:
    assert saved.readable(7, status, variant, options) is readable
    assert (saved.problem(status, variant, options) is None) is readable


OPTIONS = sorted({option for name in variant_names() for option in find_variant(name).known_options})


@settings(max_examples=80, deadline=None)
@given(
    status=st.one_of(st.sampled_from([status.value for status in GameStatus]), st.text(max_size=16)),
    variant=st.one_of(st.sampled_from(variant_names()), st.text(max_size=16)),
    options=st.lists(st.one_of(st.sampled_from(OPTIONS), st.text(max_size=12)), max_size=3).map(" ".join),
)
def test_any_text_in_a_row_is_readable_or_a_reason_to_skip_it(status: str, variant: str, options: str) -> None:
    """Whatever another version wrote, the answer is a verdict, never an exception.

    Readable means: a status this gatebot has, and a variant its rules can deal with those
    options (which also checks combinations, like Canfield's passes only with draw-one).
    """
    try:
        Game.new(variant, deal=1, options=options.split())
        dealable = True
    except RulesError:
        dealable = False
    known = status in {status.value for status in GameStatus} and dealable
    found = saved.problem(status, variant, options)
    assert (found is None) is known
    assert found is None or (found and "\n" not in found)
