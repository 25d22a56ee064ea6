"""What a challenge changes about playing a game: the rules of one attempt, and their sentences.

A game that is an attempt at a challenge carries the challenge's rules for hints and undo
and its closing time. The game service asks here what those rules allow; the words a
player reads when a rule stops them are here too, so every front end says the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from cachetools import LRUCache
from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.messages import Name, _, n_
from gatebot.rules import DEFAULT_VARIANT, Game
from gatebot.service.variants import has_stock
from gatebot.store.database import Database
from gatebot.store.models import Challenge, GameRecord, Rule


@dataclass(frozen=True, slots=True)
class AttemptRules:
    """The rules a challenge sets for every attempt at it."""

    challenge_id: int
    name: str
    hints: Rule
    undo: Rule
    closes_at: datetime
    #: The variant played: its rules line says "never past a draw" only where there are draws.
    variant: str = DEFAULT_VARIANT

    @classmethod
    def of(cls, challenge: Challenge) -> AttemptRules:
        return cls(
            challenge.id,
            Name(challenge.name),
            Rule(challenge.hints),
            Rule(challenge.undo),
            challenge.closes_at,
            challenge.variant,
        )

    @property
    def hints_allowed(self) -> bool:
        return self.hints is not Rule.FORBIDDEN

    @property
    def undo_allowed(self) -> bool:
        return self.undo is not Rule.FORBIDDEN

    def closed(self, now: datetime) -> bool:
        return now >= self.closes_at

    def can_undo(self, game: Game) -> bool:
        """Whether the last move may be taken back: never one that turned up a stock card."""
        return self.undo_allowed and bool(game.moves) and not game.last_move_showed_stock

    def no_hints(self) -> str:
        return _("Hints are off in {name}: this attempt is all your own work.", name=self.name)

    def hint_counted(self) -> str:
        return _("In {name} each hint adds a move to your count for the ranking.", name=self.name)

    def finish_counted(self) -> str:
        return _("In {name} the solver's finish counts as one hint.", name=self.name)

    def no_undo(self) -> str:
        return _("Undo is off in {name}: every move stands.", name=self.name)

    def undo_stops(self) -> str:
        return _("In {name} undo stops at your last draw: a card once seen can't be unseen.", name=self.name)

    def began(self, now: datetime) -> str:
        rules = rules_line(self.hints, self.undo, stock=has_stock(self.variant))
        return _("Your attempt at {name} has begun: {rules}, closes {when}.",
                 name=self.name, rules=rules, when=when(self.closes_at, now))

    def has_closed(self, score: str) -> str:
        return _("{name} has closed, so your attempt ended with a score of {score}.", name=self.name, score=score)

    def played_already(self) -> str:
        return _("You have already played {name}: one attempt each, so see its results with /challenge leaderboard.",
                 name=self.name)


_HINTS = {Rule.ALLOWED: _("hints allowed"), Rule.COUNTED: _("hints counted"), Rule.FORBIDDEN: _("hints forbidden")}
_UNDO = {
    Rule.ALLOWED: _("undo allowed (never past a draw)"),
    Rule.COUNTED: _("undo counted (never past a draw)"),
    Rule.FORBIDDEN: _("undo forbidden"),
}
_UNDO_NO_STOCK = {Rule.ALLOWED: _("undo allowed"), Rule.COUNTED: _("undo counted"), Rule.FORBIDDEN: _("undo forbidden")}


def rules_line(hints: Rule, undo: Rule, *, stock: bool = True) -> str:
    """A challenge's two rules in a few words: "hints counted, undo allowed (never past a draw)".

    ``stock``: the variant draws from a stock; without one (Archway) nothing is ever drawn,
    so undo has no draw to stop at and the words say nothing of it.
    """
    return _("{hints}, {undo}", hints=_HINTS[hints], undo=(_UNDO if stock else _UNDO_NO_STOCK)[undo])


def when(moment: datetime, now: datetime) -> str:
    """A closing time in words: "in 3 hours", "in 25 minutes"."""
    left = moment - now
    hours = left.total_seconds() / 3600
    if hours >= 48:
        return n_("in {n} day", "in {n} days", round(hours / 24))
    if hours >= 1.5:
        return n_("in {n} hour", "in {n} hours", round(hours))
    minutes = max(1, round(left.total_seconds() / 60))
    return n_("in {n} minute", "in {n} minutes", minutes)


def penalty(rules_hints: str, rules_undo: str, hints: int, undos: int) -> int:
    """Moves added to an attempt's count for the ranking: one per hint or undo its challenge counts."""
    return (hints if rules_hints == Rule.COUNTED else 0) + (undos if rules_undo == Rule.COUNTED else 0)


#: Games whose challenge rules (or the fact that they are ordinary games) are kept in memory.
KNOWN_ATTEMPTS = 4096
_MISSING = object()


class Attempts:
    """Each game's challenge rules (None for an ordinary game), read once and then kept.

    Stale-safe: a challenge's rules never change once it is created, and a game never joins or
    leaves a challenge. A challenge that closes early or is removed is dropped from here by the
    challenge service (:meth:`forget_challenge`); another process's early close is caught by
    the closing time each request checks, and a removed challenge's attempts are ordinary
    games kept by their players.
    """

    def __init__(self, db: Database) -> None:
        self._db = db
        self._rules: LRUCache[int, AttemptRules | None] = LRUCache(maxsize=KNOWN_ATTEMPTS)

    def known(self, game_id: int) -> AttemptRules | None:
        """The game's rules if kept (None for an ordinary game or one not kept)."""
        return self._rules.get(game_id)

    def note(self, game_id: int, rules: AttemptRules | None) -> None:
        """Keep a new game's rules (None: an ordinary game)."""
        self._rules[game_id] = rules

    async def of_record(self, session: AsyncSession, record: GameRecord) -> AttemptRules | None:
        """The challenge rules of a game row (None outside challenges), read once per game."""
        if record.challenge_id is None:
            self._rules[record.id] = None
            return None
        rules = self._rules.get(record.id)
        if rules is None or rules.challenge_id != record.challenge_id:
            challenge = await session.get(Challenge, record.challenge_id)
            rules = None if challenge is None else AttemptRules.of(challenge)
            self._rules[record.id] = rules
        return rules

    async def of_game(self, game_id: int) -> AttemptRules | None:
        """A game's challenge rules by its id, from memory or else from the database."""
        found = self._rules.get(game_id, _MISSING)
        if found is not _MISSING:
            return cast(AttemptRules | None, found)
        async with self._db.sessions() as session:
            record = await session.get(GameRecord, game_id)
            return None if record is None else await self.of_record(session, record)

    def forget_games(self, game_ids: Iterable[int]) -> None:
        """Drop the kept rules of games that were deleted."""
        for game_id in game_ids:
            self._rules.pop(game_id, None)

    def forget_challenge(self, challenge_id: int) -> None:
        """Drop the kept rules of a challenge's attempts (it closed, or was removed)."""
        for game_id in [key for key, rules in self._rules.items() if rules is not None
                        and rules.challenge_id == challenge_id]:
            self._rules.pop(game_id, None)
