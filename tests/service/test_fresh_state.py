"""Two real processes on one database: what one forgets or changes, the other never serves from memory.

This test process is "B": it holds Alice's game, her board message, her preferences and a hint
in memory. "A" is a second Python process on the same SQLite file or PostgreSQL database,
started with :data:`OTHER`, that forgets Alice or plays a move. B's next answers must be the
database's: after a forget, those to a new player (no game, default boards); after a move, a
hint for the stored position, never one from the position B remembered.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import make_url
from sqlalchemy.pool import NullPool

from gatebot.rules import Move
from gatebot.service import Actor, GameService, Preferences, ReplyKind, replay
from gatebot.service.players import player_key
from gatebot.store import Database, GameRecord
from gatebot.store.notices import Heartbeat
from tests.conftest import create_schema
from tests.tcp_proxy import Proxy

ALICE = Actor("discord", "1180000000000000001", "Alice")

#: Process A: ``forget`` Alice, ``play`` a line of moves for her, or ``deal`` Bob a game; prints what it did.
OTHER = """
import asyncio, sys

from gatebot.service import Actor, GameService
from gatebot.store import Database

async def main(url, what, line):
    db = Database(url)
    service = GameService(db)
    alice = Actor("discord", "1180000000000000001", "Alice")
    if what == "forget":
        print(await service.forget(alice))
    elif what == "deal":
        print((await service.new_game(Actor("discord", "1180000000000000002", "Bob"), deal=int(line))).game_id)
    else:
        reply = await service.play(alice, line)
        print(reply.version, " ".join(reply.played))
    service.close()
    await db.dispose()

asyncio.run(main(*sys.argv[1:4]))
"""


@pytest.fixture
def solver() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool


def other_process(db: Database, tmp_path: Path, what: str, line: str = "") -> str:
    """Run process A on ``db`` to its end; its output."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-c", OTHER, db.url.render_as_string(hide_password=False), what, line],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


async def listening(service: GameService) -> None:
    """On PostgreSQL, wait until the service hears other processes' notices (at once on SQLite)."""
    if service.database.is_sqlite:
        return
    await service.preferences(ALICE)  # starts the listener
    async with asyncio.timeout(10):
        while not service.players.hears_changes:
            await asyncio.sleep(0.01)


async def test_a_player_forgotten_by_another_process_is_a_new_player_here(
    db: Database, tmp_path: Path, solver: ThreadPoolExecutor
) -> None:
    b = GameService(db, solver=solver, hint_seconds=0.2)
    try:
        await listening(b)
        await b.set_preferences(ALICE, board_style="emoji", four_colour=True)
        dealt = await b.new_game(ALICE, deal=1)
        await b.set_board_message(dealt.game_id, 555, 1180000000000000123)
        hinted = await b.hint(ALICE)
        assert hinted.kind is ReplyKind.HINT and hinted.board_message_id == 1180000000000000123
        assert (await b.preferences(ALICE)).board_style == "emoji"
        assert b.memory.current(player_key(ALICE), None, None, b.now()) is not None  # B holds it all

        assert other_process(db, tmp_path, "forget") == "True"

        # At once, on both databases: a hint or a board is never answered from the deleted game.
        again = await b.hint(ALICE)
        assert again.kind is ReplyKind.ERROR and again.game is None and again.game_id is None
        assert again.board_message_id is None and "no game in progress" in again.message
        shown = await b.show(ALICE)
        assert shown.kind is ReplyKind.ERROR and shown.game is None and shown.board_message_id is None
        pressed = await b.act(ALICE, "draw", game_id=dealt.game_id, expected_version=dealt.version)
        assert pressed.kind is ReplyKind.ERROR and pressed.game is None

        async with asyncio.timeout(5):  # on PostgreSQL the forget's notice travels; on SQLite it is read at once
            while await b.preferences(ALICE) != Preferences():
                await asyncio.sleep(0.01)
        assert shown.preferences == Preferences() or not db.is_sqlite
        fresh = await b.new_game(ALICE, deal=2)
        assert fresh.ok and fresh.preferences == Preferences() and fresh.game_id > dealt.game_id
        assert fresh.board_message_id is None
    finally:
        b.close()


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_on_postgresql_a_forget_elsewhere_empties_this_process_memory_by_itself(
    db: Database, tmp_path: Path, solver: ThreadPoolExecutor
) -> None:
    b = GameService(db, solver=solver, hint_seconds=0.2)
    try:
        await listening(b)
        await b.set_preferences(ALICE, board_style="image")
        await b.new_game(ALICE, deal=1)
        await b.preferences(ALICE)
        key = player_key(ALICE)
        assert b.memory.current(key, None, None, b.now()) is not None and b.players.known_id(ALICE) is not None

        assert other_process(db, tmp_path, "forget") == "True"
        async with asyncio.timeout(5):  # no request here: the notice alone drops what B held
            while b.memory.current(key, None, None, b.now()) is not None or b.players.known_id(ALICE) is not None:
                await asyncio.sleep(0.01)
        assert b.players._preferences.get(key) is None
    finally:
        b.close()


async def test_a_forgotten_players_id_held_here_never_shows_a_newcomers_game(
    db: Database, tmp_path: Path, solver: ThreadPoolExecutor
) -> None:
    b = GameService(db, solver=solver, hint_seconds=0.2)
    try:
        dealt = await b.new_game(ALICE, deal=1)  # B now holds Alice's player id (the newest) and her game
        assert (await b.show(ALICE)).game_id == dealt.game_id
        assert other_process(db, tmp_path, "forget") == "True"
        bobs = int(other_process(db, tmp_path, "deal", "7"))  # Bob joins after her: a new player, a new game

        for answer in (await b.show(ALICE), await b.hint(ALICE), await b.act(ALICE, "draw")):
            assert answer.game_id != bobs and answer.game is None, "never Bob's game, under Alice's old id"
            assert answer.kind is ReplyKind.ERROR
        async with db.sessions() as session:
            record = await session.get(GameRecord, bobs)
        assert record is not None and record.log == "" and record.hint_count == 0, "Bob's game untouched"
    finally:
        b.close()


async def test_a_hint_after_another_process_moved_is_for_the_stored_position(
    db: Database, tmp_path: Path, solver: ThreadPoolExecutor
) -> None:
    b = GameService(db, solver=solver, hint_seconds=0.2)
    try:
        dealt = await b.new_game(ALICE, deal=1)
        first = await b.hint(ALICE)  # B keeps the hint, counted, and the game at its first version
        assert first.kind is ReplyKind.HINT and first.suggestion is not None and first.version == dealt.version

        version, played = other_process(db, tmp_path, "play", first.suggestion).split(" ", 1)
        assert int(version) == dealt.version + 1 and played == first.suggestion

        again = await b.hint(ALICE)
        async with db.sessions() as session:
            record = await session.get(GameRecord, dealt.game_id)
        assert record is not None
        stored = replay(record)
        assert again.version == record.version, "the hint is for the version stored, not the one remembered"
        assert again.game is not None and again.game.to_text() == stored.to_text()
        if again.kind is ReplyKind.HINT and again.suggestion is not None:
            assert Move.from_text(again.suggestion) in stored.legal_moves(), "a hint names a move legal now"
        else:
            assert again.kind is ReplyKind.HINT, again.message  # a hint without a move: no win left
    finally:
        b.close()


#: A heartbeat fit for a test: checked every 0.2 s, answered within 0.5 s.
QUICK = Heartbeat(every=0.2, deadline=0.5)
#: What a loaded machine may add to the heartbeat's own bound before a change must be seen.
MARGIN = 3.0


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_hung_listening_connection_is_noticed_and_changes_are_read_meanwhile(database_url: str) -> None:
    url = make_url(database_url)
    writer = Database(database_url)
    a = GameService(writer)
    async with Proxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        # B reaches the server through the proxy; a new connection for each query, so only its
        # LISTEN connection stays open to be hung.
        reader = Database(url.set(host="127.0.0.1", port=proxy.port), heartbeat=QUICK, poolclass=NullPool)
        b = GameService(reader)
        try:
            await create_schema(writer)
            await a.set_preferences(ALICE, board_style="image")
            await listening(b)
            assert (await b.preferences(ALICE)).board_style == "image"  # kept by B: it hears changes
            listener = b.players._notices
            assert listener is not None and listener.connections == 1

            assert proxy.hang() == 1, "only B's listening connection was open"
            await a.set_preferences(ALICE, board_style="words")  # its notice never reaches B

            bound = QUICK.every + QUICK.deadline + MARGIN
            async with asyncio.timeout(bound):
                while (await b.preferences(ALICE)).board_style != "words":
                    await asyncio.sleep(0.02)
            async with asyncio.timeout(bound):  # and B listens again, on a new connection
                while listener.connections < 2 or not listener.listening:
                    await asyncio.sleep(0.02)
            await a.set_preferences(ALICE, board_style="emoji")
            async with asyncio.timeout(MARGIN):
                while (await b.preferences(ALICE)).board_style != "emoji":
                    await asyncio.sleep(0.02)
        finally:
            a.close()
            b.close()
            await reader.dispose()
            await writer.dispose()
