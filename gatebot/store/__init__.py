"""Saved games: SQLAlchemy models, the database engine and sessions (SQLite or PostgreSQL)."""

from gatebot.store.database import Database, DatabaseError, database_url_from_env, default_database_url
from gatebot.store.models import Base, Challenge, ChallengeKind, DailySchedule, GameRecord, GameStatus, Player, Rule

__all__ = [
    "Base",
    "Challenge",
    "ChallengeKind",
    "DailySchedule",
    "Database",
    "DatabaseError",
    "GameRecord",
    "GameStatus",
    "Player",
    "Rule",
    "database_url_from_env",
    "default_database_url",
]
