"""Alembic's environment for gatebot: its async template with connection sharing.

Two ways in:

* :mod:`gatebot.store.migrate` (start-up, ``gatebot db``) opens a connection of the app's own
  engine and puts it in ``config.attributes["connection"]``; the migrations run on it, inside
  the caller's transaction (Alembic's "connection sharing with asyncio" recipe).
* The ``alembic`` command (developers, with the repository's ``alembic.ini``) has no
  connection, so an async engine is built from ``sqlalchemy.url`` in the config, else from
  ``DATABASE_URL``, else the default SQLite file — the same URL rules as the bot.

``render_as_batch`` makes autogenerate write ``batch_alter_table`` blocks, the only way SQLite
can alter a table; ``compare_type`` makes ``alembic check`` notice changed column types.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection

from gatebot.store.database import Database, database_url_from_env, parse_database_url
from gatebot.store.migrate import compared
from gatebot.store.models import Base

config = context.config

# Logging is set up only by the alembic command's ini file, never by an app that shares its
# connection (it has configured logging already).
if config.config_file_name is not None and "connection" not in config.attributes:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _configured_url() -> str:
    """The URL the alembic command was given: ``sqlalchemy.url``, else ``DATABASE_URL``, else the default."""
    return config.get_main_option("sqlalchemy.url") or database_url_from_env()


def run_migrations_offline() -> None:
    """Write the migrations' SQL to standard output instead of running it (``alembic upgrade --sql``)."""
    context.configure(
        url=parse_database_url(_configured_url()),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=True,
        compare_type=True,
        include_object=compared,
    )
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    """Run the migrations on a (synchronous view of a) connection."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        include_object=compared,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    """Build an engine for the configured URL, run the migrations on one connection, dispose of it."""
    database = Database(_configured_url(), poolclass=pool.NullPool)
    try:
        async with database.engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
            await connection.commit()
    finally:
        await database.dispose()


def run_migrations_online() -> None:
    """Run on the shared connection when the caller gave one, else on a connection of our own."""
    connection = config.attributes.get("connection")
    if connection is None:
        asyncio.run(run_async_migrations())
    else:
        do_run_migrations(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
