"""What front ends are shown of challenges: frozen values read from the rows, never the rows themselves.

A challenge with its rules (:class:`ChallengeInfo`), the standings and leaderboard pages of
one challenge or of a whole server, what is to be announced, and a server's daily settings.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, datetime

from gatebot.messages import Name
from gatebot.service.attempts import rules_line
from gatebot.service.variants import has_stock, variant_title
from gatebot.store.models import Challenge, ChallengeKind, GameStatus, Rule


@dataclass(frozen=True, slots=True)
class ChallengeInfo:
    """A challenge as front ends show it."""

    id: int
    guild_id: int
    kind: ChallengeKind
    name: str
    variant: str
    options: tuple[str, ...]
    deal: int
    hints: Rule
    undo: Rule
    opens_at: datetime
    closes_at: datetime
    closed_at: datetime | None
    channel_id: int | None
    announcement_id: int | None
    day: date | None
    #: Its attempts so far that its ranking counts (all but those set aside), as the database keeps them.
    attempts: int = 0

    @classmethod
    def of(cls, row: Challenge, attempts: int = 0) -> ChallengeInfo:
        return cls(
            row.id, row.guild_id, ChallengeKind(row.kind), Name(row.name), row.variant, tuple(row.options.split()),
            row.deal, Rule(row.hints), Rule(row.undo), row.opens_at, row.closes_at, row.closed_at,
            row.channel_id, row.announcement_id, row.day, attempts,
        )

    @property
    def title(self) -> str:
        return variant_title(self.variant, self.options)

    def is_open(self, now: datetime) -> bool:
        return self.closed_at is None and self.opens_at <= now < self.closes_at

    def is_closed(self, now: datetime) -> bool:
        """Over: ended, or its time is up (a tick may not have closed it yet). Its deal is no longer a secret."""
        return self.closed_at is not None or self.closes_at <= now

    def is_upcoming(self, now: datetime) -> bool:
        """Made to open later, and not open yet."""
        return self.closed_at is None and now < self.opens_at

    @property
    def rules_line(self) -> str:
        return rules_line(self.hints, self.undo, stock=has_stock(self.variant))


@dataclass(frozen=True, slots=True)
class Standing:
    """One attempt's place on a challenge's leaderboard."""

    rank: int
    name: str
    user_id: str
    status: GameStatus
    score: int
    moves: int
    #: Moves plus one for every hint or undo the challenge counts: what the ranking compares.
    ranked_moves: int
    seconds: float
    hints: int
    undos: int
    #: The attempt's stored game (its replay, once the challenge has closed).
    game_id: int | None = None

    @property
    def won(self) -> bool:
        return self.status is GameStatus.WON

    @property
    def playing(self) -> bool:
        return self.status is GameStatus.ACTIVE


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A page of a challenge's standings (``page`` counts from 0)."""

    challenge: ChallengeInfo
    standings: tuple[Standing, ...]
    page: int
    pages: int
    total: int


@dataclass(frozen=True, slots=True)
class ServerStanding:
    """A member's record over all of a server's challenges."""

    rank: int
    name: str
    user_id: str
    played: int
    wins: int
    best_streak: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class ServerBoard:
    """A page of a server's all-time leaderboard."""

    guild_id: int
    standings: tuple[ServerStanding, ...]
    page: int
    pages: int
    total: int
    challenges: int


class Happening(enum.StrEnum):
    OPENED = "opened"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Announcement:
    """Something the server should be told: a challenge opened, or closed (with its final standings)."""

    happening: Happening
    challenge: ChallengeInfo
    leaderboard: Leaderboard | None = None
    #: The games its closing ended (attempts still running): their boards should show the end.
    ended: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DailySettings:
    """A server's daily challenge as set up."""

    guild_id: int
    channel_id: int
    variant: str
    options: tuple[str, ...]
    winnable: bool
    hints: Rule
    undo: Rule
    enabled: bool

    @property
    def title(self) -> str:
        return variant_title(self.variant, self.options)

    @property
    def rules_line(self) -> str:
        return rules_line(self.hints, self.undo, stock=has_stock(self.variant))
