"""Shared fixtures: a real database of each supported kind, fresh for every test.

Store tests take ``db`` (or ``database_url``) and so run twice, ids ``sqlite`` and
``postgresql``: once on a new SQLite file, once on a new, empty database of a real
PostgreSQL server. The server is the one named by ``GATEBOT_TEST_POSTGRES_URL`` (CI starts
one and sets it), else a throwaway one this session starts with ``tests/postgres.py`` when
``initdb`` and ``pg_ctl`` are on ``PATH`` or in Debian's ``/usr/lib/postgresql``, else the
PostgreSQL half is skipped, visibly, except under ``CI=true``, where a missing server is an
error: CI must never pass by skipping it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from tests.postgres import PostgresServer, find_bindir

POSTGRES_URL_VARIABLE = "GATEBOT_TEST_POSTGRES_URL"
WHEEL_SKIPPED = "builds and installs the wheel (slow): runs under CI=true, or with -m wheel"
NO_POSTGRES = "PostgreSQL binaries (initdb, pg_ctl) not found; PostgreSQL tests skipped"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests marked ``wheel`` unless under CI or asked for by marker (``-m wheel``)."""
    if os.environ.get("CI") == "true" or "wheel" in (config.getoption("markexpr") or ""):
        return
    for item in items:
        if item.get_closest_marker("wheel") is not None:
            item.add_marker(pytest.mark.skip(reason=WHEEL_SKIPPED))


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The SQLAlchemy URL of a PostgreSQL server's maintenance database, as a superuser.

    Session-scoped and synchronous, so one server serves every test whatever event loop
    each test runs in; a server started here is stopped when the session ends.
    """
    configured = os.environ.get(POSTGRES_URL_VARIABLE)
    if configured:
        yield configured
        return
    bindir = find_bindir(system_dirs=True)
    if bindir is None:
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"PostgreSQL binaries (initdb, pg_ctl) not found and {POSTGRES_URL_VARIABLE} is not set: "
                "with CI=true the PostgreSQL tests must run, not skip",
                pytrace=False,
            )
        pytest.skip(NO_POSTGRES)
    server = PostgresServer.start(bindir=bindir)
    try:
        yield server.url
    finally:
        server.stop()


def _asyncpg_dsn(url: str) -> str:
    """A SQLAlchemy ``postgresql+asyncpg://`` URL as a plain DSN that asyncpg accepts."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a new database: a SQLite file, or a database created on the server.

    Empty, but for a test that also takes ``db``: its PostgreSQL database is made from
    :func:`migrated_postgres`, the tables already in place.
    """
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/gatebot.db"
        return
    # Asked for only here, so SQLite tests never start (or skip for want of) a server.
    server_url: str = request.getfixturevalue("postgres_url")
    template = request.getfixturevalue("migrated_postgres") if "db" in request.fixturenames else None
    name = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(_asyncpg_dsn(server_url))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        # FORCE: a test that failed half-way may have left a connection open.
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def create_schema(db: Database) -> None:
    """Create the tables in an empty database the way gatebot does: by running its migrations."""
    await ensure_schema(db)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file that gatebot's migrations brought up to date, once per test process, to copy.

    Running the migrations takes a few tenths of a second; copying their result takes a
    millisecond and gives the same bytes. They run on an event loop of their own, in a thread,
    so the tests' loops are left alone. The tests of migrating itself start from ``empty_db``.
    """
    path = tmp_path_factory.mktemp("migrated") / "gatebot.db"

    async def migrate() -> None:
        database = Database(f"sqlite+aiosqlite:///{path}")
        try:
            await ensure_schema(database)
        finally:
            await database.dispose()

    _in_a_thread(migrate)
    with closing(sqlite3.connect(path)) as connection:  # everything in the main file, nothing in a -wal beside it
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture(scope="session")
def migrated_postgres(postgres_url: str) -> Iterator[str]:
    """The name of a PostgreSQL database that gatebot's migrations brought up to date, once per test process.

    A test's database is created from it as a template (a copy made by the server), which is
    quicker than running the migrations again; it is dropped when the session ends.
    """
    name = f"migrated_{uuid.uuid4().hex[:16]}"
    url = make_url(postgres_url).set(database=name).render_as_string(hide_password=False)

    async def create() -> None:
        admin = await asyncpg.connect(_asyncpg_dsn(postgres_url))
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        database = Database(url)
        try:
            await ensure_schema(database)
        finally:
            await database.dispose()  # a template has no connection open while it is copied

    async def drop() -> None:
        admin = await asyncpg.connect(_asyncpg_dsn(postgres_url))
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    _in_a_thread(create)
    try:
        yield name
    finally:
        _in_a_thread(drop)


def _in_a_thread(work: Callable[[], Coroutine[object, object, None]]) -> None:
    """Run ``work()`` to its end on an event loop of its own, in a thread (the tests' loops are left alone)."""
    failed: list[BaseException] = []
    worker = threading.Thread(target=lambda: _capture(failed, lambda: asyncio.run(work())))
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


def _capture(failed: list[BaseException], work: Callable[[], object]) -> None:
    try:
        work()
    except BaseException as error:  # handed to the test that asked, as its own failure
        failed.append(error)


@pytest.fixture
async def db(database_url: str, request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    """A :class:`Database` on a fresh database with the schema in place, disposed afterwards.

    A SQLite one is a copy of :func:`migrated_sqlite`; a PostgreSQL one was made from
    :func:`migrated_postgres` (see :func:`database_url`).
    """
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database:
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), url.database)
    database = Database(database_url)
    try:
        yield database
    finally:
        await database.dispose()
