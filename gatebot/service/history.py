"""A player's past games, newest first, a page at a time: each with the number that replays it.

The list is how a player finds a game's number for ``gatebot replay --game N`` or
``/gate replay game:N``: one line per finished game with its number, variant, deal, result,
cards home (the score the board shows), moves and the day it ended. Only the player's own
games, and only finished ones (a game still running has no result yet, and replays refuse it).

An attempt at a challenge still open names the challenge, never its deal, as its replay does
(:mod:`gatebot.service.replays`): the deal is a secret until the challenge closes.

Two short queries a page, however many games a player has: a count, and the page's rows
(``LIMIT``/``OFFSET`` on the games ordered by when they ended).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from gatebot.messages import Day, Name, Number, Text, _, joined, n_
from gatebot.render.results import RECENT_GAMES
from gatebot.service.replays import ENDINGS
from gatebot.service.stats import VariantStats, counted
from gatebot.service.variants import deck_size, variant_title
from gatebot.store.database import Database
from gatebot.store.models import Challenge, GameRecord, Player, utcnow

#: Games on one page of the history: ten lines fit a Discord message and a terminal screen.
PAGE_SIZE = 10


@dataclass(frozen=True, slots=True)
class PastGame:
    """One finished game as the history lists it.

    ``challenge`` is the name of the challenge still open that the game is an attempt at: the
    line names it instead of the deal. ``ended`` is when it ended (None for a row with no time).
    """

    game_id: int
    variant: str
    options: tuple[str, ...]
    deal: int
    status: str
    score: int
    moves: int
    ended: datetime | None
    challenge: str | None = None


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of a player's history: its games newest first, which page it is (from 1), of how many."""

    games: tuple[PastGame, ...]
    page: int
    pages: int
    total: int

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def has_next(self) -> bool:
        return self.page < self.pages


class History:
    """Reads a player's finished games a page at a time, from the games' database."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] = utcnow, page_size: int = PAGE_SIZE) -> None:
        """``clock`` tells whether a challenge has closed (the game service's clock)."""
        self._db = db
        self._clock = clock
        self.page_size = page_size

    async def page(self, platform: str, user_id: str, page: int = 1) -> HistoryPage:
        """Page ``page`` (from 1; one past the last is the last) of the player's finished games, newest first.

        A player who never played, or has no finished game, gets an empty page 1 of 1.
        """
        mine = (Player.platform == platform, Player.platform_user_id == user_id, counted())
        async with self._db.sessions() as session:
            total = await session.scalar(
                select(func.count()).select_from(GameRecord).join(Player, Player.id == GameRecord.player_id)
                .where(*mine)
            ) or 0
            pages = max(1, -(-total // self.page_size))
            page = max(1, min(page, pages))
            rows = (
                await session.execute(
                    select(GameRecord.id, GameRecord.variant, GameRecord.options, GameRecord.deal, GameRecord.status,
                           GameRecord.score, GameRecord.move_count, GameRecord.finished_at,
                           Challenge.name, Challenge.closed_at, Challenge.closes_at)
                    .join(Player, Player.id == GameRecord.player_id)
                    .outerjoin(Challenge, Challenge.id == GameRecord.challenge_id)
                    .where(*mine)
                    .order_by(GameRecord.finished_at.desc(), GameRecord.id.desc())
                    .limit(self.page_size).offset((page - 1) * self.page_size)
                )
            ).all()
        now = self._clock()
        games = tuple(
            PastGame(game_id, variant, tuple(options.split()), deal, status, score, moves, ended,
                     Name(name) if name is not None and closed_at is None and closes_at > now else None)
            for game_id, variant, options, deal, status, score, moves, ended, name, closed_at, closes_at in rows
        )
        return HistoryPage(games, page, pages, total)


def game_line(game: PastGame) -> Text:
    """``#12 · Gate deal 5 · won 52/52 · 98 moves · 4 Dec 2026``; an open challenge's attempt names the challenge."""
    facts = {
        "game": game.game_id,
        "ending": ENDINGS.get(game.status, game.status),
        "score": game.score,
        "deck": deck_size(game.variant),
        "moves": n_("{n} move", "{n} moves", game.moves),
    }
    day = Day.of(game.ended.date()) if game.ended is not None else None
    what: str = game.challenge if game.challenge is not None else _(
        "{title} deal {deal}", title=variant_title(game.variant, game.options), deal=game.deal)
    if day is None:
        return _("#{game} · {what} · {ending} {score}/{deck} · {moves}", what=what, **facts)
    return _("#{game} · {what} · {ending} {score}/{deck} · {moves} · {day}", what=what, day=day, **facts)


def history_text(page: HistoryPage, *, watch: Callable[[int], str], empty: str) -> str:
    """The page as lines to read: a heading, a line a game, and how to watch one again.

    ``watch`` is the front end's sentence saying how to replay a game by its number (``Watch
    one again: /gate replay game:12``), shown with the page's newest game; ``empty`` its
    sentence for a player with no finished game. Each is the front end's own, so a
    translation words its command as that front end's readers type it.
    """
    if not page.games:
        return empty
    heading = _("Your games, newest first (page {page} of {pages}, {total} in all):", page=page.page,
                pages=page.pages, total=page.total)
    return joined(heading, *(game_line(game) for game in page.games), watch(page.games[0].game_id), sep="\n")


def chart_description(stats: VariantStats) -> str:
    """The statistics picture in words, for its alt text: what it shows and its main figures."""
    recent = stats.recent[-RECENT_GAMES:]
    won = sum(win for win, _score in recent)
    average = sum(score for _win, score in recent) / len(recent) if recent else 0.0
    most = max(range(len(stats.scores)), key=lambda n: (stats.scores[n], n)) if any(stats.scores) else 0
    return joined(
        _("Statistics picture of {title}: {games}, {wins} won ({rate}).", title=stats.title,
          games=n_("{n} game", "{n} games", stats.games), wins=stats.wins, rate=Number(stats.win_rate, percent=True)),
        n_("Bars of the last game's cards home: {won} won, {average} cards home on average.",
           "Bars of the last {n} games' cards home: {won} won, {average} cards home on average.", len(recent),
           won=won, average=Number(average, 1)),
        n_("Score distribution: most often {score} cards home ({n} game).",
           "Score distribution: most often {score} cards home ({n} games).", stats.scores[most] if stats.scores else 0,
           score=most),
    )
