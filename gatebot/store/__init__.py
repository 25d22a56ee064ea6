"""Saved games: SQLAlchemy models, the database engine and sessions (SQLite or PostgreSQL)."""

from gatebot.store.database import Database, DatabaseError, database_url_from_env, default_database_url
from gatebot.store.models import Base, GameRecord, GameStatus, Player

__all__ = [
    "Base",
    "Database",
    "DatabaseError",
    "GameRecord",
    "GameStatus",
    "Player",
    "database_url_from_env",
    "default_database_url",
]
