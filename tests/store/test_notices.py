"""Notices between processes on one PostgreSQL: sent with a commit, heard while listening, and a dropped connection."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.store import Database
from gatebot.store.notices import Listener, listener_dsn, notify

ON_POSTGRES = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
CHANNEL = "gatebot_test_notices"

#: A listening connection in pg_stat_activity: its last statement was its LISTEN, or (after the first
#: few seconds) the heartbeat it sends itself.
LISTENING = "(query LIKE 'LISTEN%' OR query LIKE 'NOTIFY gatebot_beat_%')"


async def until(check: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    """Wait for ``check()`` to hold (a notice travels through the server), failing after ``timeout`` s."""
    try:
        async with asyncio.timeout(timeout):
            while not check():
                await asyncio.sleep(0.005)
    except TimeoutError:
        pytest.fail(f"not within {timeout:g} s: {what}")


class Heard:
    """What a listener handed over: the payloads, and how often it said notices were lost."""

    def __init__(self) -> None:
        self.payloads: list[str] = []
        self.lost = 0

    def listen(self, db: Database) -> Listener:
        listener = db.listen(CHANNEL, on_notice=self.payloads.append, on_lost=self.lost_one)
        assert listener is not None
        return listener

    def lost_one(self) -> None:
        self.lost += 1


@ON_POSTGRES
async def test_a_notice_is_heard_only_when_its_transaction_commits(database_url: str) -> None:
    writer, reader = Database(database_url), Database(database_url)
    heard = Heard()
    try:
        listener = heard.listen(reader)
        await until(lambda: listener.listening, "the listener connected")
        with pytest.raises(RuntimeError):
            async with writer.sessions() as session, session.begin():
                await notify(session, CHANNEL, "rolled back")
                raise RuntimeError("the change fails")
        async with writer.sessions() as session, session.begin():
            await notify(session, CHANNEL, "player:discord:1001")
            await session.flush()
            await asyncio.sleep(0.05)  # the notice is queued, not sent, while the transaction is open
            assert heard.payloads == []
        await until(lambda: heard.payloads == ["player:discord:1001"], "the committed notice arrived")
        assert heard.lost == 0
    finally:
        await reader.dispose()
        await writer.dispose()
    assert not listener.listening, "disposing the database closes its listener"
    assert heard.lost == 0, "a listener closed on purpose lost nothing (no warning on a clean stop)"


@ON_POSTGRES
async def test_a_dropped_listening_connection_is_reported_and_made_again(database_url: str) -> None:
    writer, reader = Database(database_url), Database(database_url)
    heard = Heard()
    admin = await asyncpg.connect(listener_dsn(reader.url))
    try:
        listener = heard.listen(reader)
        await until(lambda: listener.listening, "the listener connected")
        killed = await admin.fetchval(
            f"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE {LISTENING}"
            " AND datname = current_database()"
        )
        assert killed == 1
        await until(lambda: heard.lost == 1, "the drop was reported")
        await until(lambda: listener.listening and listener.connections == 2, "the listener connected again")
        async with writer.sessions() as session, session.begin():
            await notify(session, CHANNEL, "board:7:555:999")
        await until(lambda: heard.payloads == ["board:7:555:999"], "a notice after reconnecting arrived")
    finally:
        await admin.close()
        await reader.dispose()
        await writer.dispose()


async def test_a_listener_that_cannot_connect_keeps_trying_and_never_claims_to_listen() -> None:
    attempts: list[str] = []
    tried_twice = asyncio.Event()

    async def refuse(dsn: str) -> object:
        attempts.append(dsn)
        if len(attempts) >= 2:
            tried_twice.set()
        raise ConnectionRefusedError(111, "Connection refused")

    listener = Listener("postgresql://nobody@127.0.0.1:1/none", CHANNEL, on_notice=print, on_lost=print,
                        connect=refuse, retry_seconds=0.01)
    listener.start()
    try:
        await asyncio.wait_for(tried_twice.wait(), 5)
        assert not listener.listening and listener.connections == 0
    finally:
        await listener.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_sqlite_sends_and_hears_nothing(database_url: str) -> None:
    db = Database(database_url)
    try:
        assert db.listen(CHANNEL, on_notice=print, on_lost=print) is None
        async with db.sessions() as session, session.begin():
            await notify(session, CHANNEL, "player:discord:1001")  # one process: nobody to tell, no error
    finally:
        await db.dispose()


@ON_POSTGRES
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=60))
async def test_any_payload_arrives_as_sent(database_url: str, payload: str) -> None:
    writer, reader = Database(database_url), Database(database_url)
    heard = Heard()
    try:
        listener = heard.listen(reader)
        await until(lambda: listener.listening, "the listener connected")
        async with writer.sessions() as session, session.begin():
            await notify(session, CHANNEL, payload)
        await until(lambda: heard.payloads == [payload], "the notice arrived unchanged")
    finally:
        await reader.dispose()
        await writer.dispose()
