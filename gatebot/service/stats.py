"""What a player's finished games add up to: statistics per variant, daily challenges, result cards.

Read-only: nothing here changes a game. Each answer reads the database in one short
session with a few narrow queries (never one per game); streaks, which depend on order,
are counted here from the rows the query returns in order.

Only finished games count (won, lost, resigned, abandoned, or expired with their
challenge): a game in progress has no result yet, and a game set aside as unreadable has
none at all. A row saved by another gatebot version (a status, variant or option this one
doesn't know) is skipped, and logged once (:mod:`gatebot.service.saved`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.errors import UserError
from gatebot.messages import Number, _, joined, n_
from gatebot.render.card import DEALT, RANKS, Ascents, ResultCard, duration
from gatebot.render.results import KEPT_GAMES, ResultsChart
from gatebot.rules import Game, Move, RulesError, find_variant
from gatebot.service import saved
from gatebot.service.changes import UNDO_TOKEN, GameDamaged
from gatebot.service.variants import deck_size
from gatebot.store.database import Database
from gatebot.store.models import Challenge, ChallengeKind, GameRecord, GameStatus, Player, time_between, utcnow

log = logging.getLogger(__name__)

FINISHED = tuple(status.value for status in GameStatus if status.finished)


def counted() -> ColumnElement[bool]:
    """The finished games that statistics, streaks and the history count.

    Every finished game but one given up before its first move outside a challenge: a deal
    swapped for another at once (a proven deal asked for under a fresh one, or ``new`` before
    any move) was never played, so it is neither a game nor a loss and ends no streak. A
    challenge attempt always counts, since it was the one attempt.
    """
    return and_(GameRecord.status.in_(FINISHED),
                or_(GameRecord.status != GameStatus.ABANDONED, GameRecord.log != "",
                    GameRecord.challenge_id.is_not(None)))
#: How many of a player's latest finished games are looked at for the newest one with a card.
_LATEST = 10


@dataclass(frozen=True, slots=True)
class FastestWin:
    """A player's quickest win of a variant: from the deal to the last card home, in moves kept.

    ``moves`` is the game's stored count (:func:`gatebot.service.games.move_count`), the
    number its board and win sentence showed.
    """

    seconds: float
    moves: int


@dataclass(frozen=True, slots=True)
class DealBest:
    """One deal a player played more than once (with the same options): how often, and their bests on it.

    ``score`` is the most cards home in one game; ``fewest_moves`` the fewest moves of a win
    (None: never won).
    """

    deal: int
    options: tuple[str, ...]
    played: int
    wins: int
    score: int
    fewest_moves: int | None


@dataclass(frozen=True, slots=True)
class VariantStats:
    """A player's finished games of one variant; streaks count wins in the order games finished.

    ``deals`` are the deals played most often (more than once), ``recent`` the latest games'
    (won, cards home) oldest first, and ``scores[n]`` how many games ended with ``n`` cards home:
    what the statistics picture draws (:meth:`chart`).
    """

    variant: str
    title: str
    games: int
    wins: int
    current_streak: int
    best_streak: int
    average_score: float
    fastest_win: FastestWin | None
    best_score: int = 0
    deals: tuple[DealBest, ...] = ()
    recent: tuple[tuple[bool, int], ...] = ()
    scores: tuple[int, ...] = field(default=())

    @property
    def win_rate(self) -> float:
        """Wins as a fraction of games (0 with no games)."""
        return self.wins / self.games if self.games else 0.0

    def chart(self) -> ResultsChart:
        """The variant's figures for the statistics picture (:mod:`gatebot.render.results_image`)."""
        return ResultsChart(self.title, deck_size(self.variant), self.games, self.wins, self.recent, self.scores)


@dataclass(frozen=True, slots=True)
class DailyStats:
    """A player's daily challenges: attempts finished and won, and runs of consecutive days won.

    A day is won when the player won a daily challenge of that day (in any server counted).
    A streak is broken by a day lost or a day missed; the current one still stands while
    the last day won is today or yesterday, so today's daily can extend it.
    """

    played: int = 0
    won: int = 0
    current_streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything the statistics say about one player."""

    display_name: str
    variants: tuple[VariantStats, ...]
    daily: DailyStats

    @property
    def games(self) -> int:
        return sum(variant.games for variant in self.variants)

    def of(self, variant: str | None = None) -> VariantStats | None:
        """The statistics of ``variant`` (a variant's name), or of the one played most (None); None if not played."""
        if variant is None:
            return self.variants[0] if self.variants else None
        return next((stats for stats in self.variants if stats.variant == variant), None)


@dataclass(frozen=True, slots=True)
class Win:
    """One won game among its player's games of the variant: what the win message says about it.

    ``streak`` counts this win; ``fastest`` and ``fewest`` say it beat every earlier win of the
    variant (in time, in moves), and ``best_seconds`` / ``best_moves`` are those earlier bests
    (None before the first win).
    """

    title: str
    total: int
    seconds: float | None
    moves: int
    streak: int
    best_seconds: float | None
    best_moves: int | None

    @property
    def first(self) -> bool:
        """The player's first win of the variant."""
        return self.best_moves is None

    @property
    def fastest(self) -> bool:
        return self.seconds is not None and (self.best_seconds is None or self.seconds < self.best_seconds)

    @property
    def fewest(self) -> bool:
        return self.best_moves is None or self.moves < self.best_moves


def win_message(win: Win) -> str:
    """The one message of a won game, under its board: its time and moves, the streak and whether it is a best.

    ``That took 6:12 and 113 moves. Win streak: 3. A personal best: your fastest win and fewest
    moves of Gate.`` The board above it says the win and the score (``Won! Every card is home.
    Score 52/52.``; the web table its "You won!"), so this says only what the board doesn't. The
    moves are :func:`~gatebot.service.changes.move_count`'s.
    """
    if win.seconds is not None:
        result = n_("That took {time} and {n} move.", "That took {time} and {n} moves.", win.moves,
                    time=duration(win.seconds))
    else:
        result = n_("That took {n} move.", "That took {n} moves.", win.moves)
    lines = [result, _("Win streak: {streak}.", streak=win.streak)]
    if win.first:
        lines.append(_("Your first win of {game}.", game=win.title))
    elif win.fastest and win.fewest:
        lines.append(_("A personal best: your fastest win and fewest moves of {game}.", game=win.title))
    elif win.fastest:
        lines.append(_("A personal best: your fastest win of {game}.", game=win.title))
    elif win.fewest:
        lines.append(_("A personal best: your fewest moves of {game}.", game=win.title))
    else:
        moves = n_("{n} move", "{n} moves", win.best_moves or 0)
        if win.best_seconds is not None:
            lines.append(_("Your bests of {game}: {time} and {moves}.", game=win.title,
                           time=duration(win.best_seconds), moves=moves))
        else:
            lines.append(_("Your bests of {game}: {moves}.", game=win.title, moves=moves))
    return joined(*lines)


async def won_game(db: Database, game_id: int) -> Win | None:
    """The win ``game_id`` among its player's finished games of its variant; None unless it is a won game.

    One read of the game and one of the player's finished games of that variant, in the order
    they ended; the streak and the earlier bests are counted up to this game.
    """
    async with db.sessions() as session:
        game = (
            await session.execute(
                select(GameRecord.player_id, GameRecord.variant, GameRecord.status).where(GameRecord.id == game_id)
            )
        ).first()
        if game is None or game.status != GameStatus.WON:
            return None
        rows = (
            await session.execute(
                select(GameRecord.id, GameRecord.status, GameRecord.move_count, GameRecord.started_at,
                       GameRecord.finished_at, GameRecord.options)
                .where(GameRecord.player_id == game.player_id, GameRecord.variant == game.variant,
                       counted())
                .order_by(GameRecord.finished_at, GameRecord.id)
            )
        ).all()
    streak = 0
    best_seconds: float | None = None
    best_moves: int | None = None
    for row_id, status, moves, started_at, finished_at, options in rows:
        if not saved.readable(row_id, status, game.variant, options):
            continue
        won = status == GameStatus.WON
        streak = streak + 1 if won else 0
        seconds = None if finished_at is None else (finished_at - started_at).total_seconds()
        if row_id == game_id:
            return Win(_title(game.variant), deck_size(game.variant), seconds, moves, streak,
                       best_seconds, best_moves)
        if won:
            if seconds is not None and (best_seconds is None or seconds < best_seconds):
                best_seconds = seconds
            best_moves = moves if best_moves is None else min(best_moves, moves)
    return None


class NoCard(UserError):
    """Base class: a result card that can't be given; the message says why, in one sentence."""


class GameGone(NoCard):
    """No game has that id: it never existed, or its player had their data deleted."""

    def __init__(self, game_id: int) -> None:
        super().__init__(_("That game is no longer stored, so there is no result to share."))
        self.game_id = game_id


class NotYourGame(NoCard):
    """The game belongs to someone else: only its player shares its result."""

    def __init__(self, game_id: int, owner: str) -> None:
        super().__init__(_("Only {owner} can share their result.", owner=owner))
        self.game_id, self.owner = game_id, owner


class NoResultYet(NoCard):
    """The game has no result: it is still in progress, or was set aside as unreadable."""

    def __init__(self, game_id: int, status: GameStatus) -> None:
        text = (
            _("That game isn't over yet: its result can be shared once it ends.")
            if status is GameStatus.ACTIVE else _("That game has no result to share.")
        )
        super().__init__(text)
        self.game_id, self.status = game_id, status


class Statistics:
    """Answers questions about players' finished games, from the games' database."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] = utcnow) -> None:
        """``clock`` tells which day is today, for whether a daily streak still stands."""
        self._db = db
        self._clock = clock

    async def player(self, platform: str, user_id: str, *, guild_id: int | None = None) -> PlayerStats | None:
        """The player's statistics, or None if they never played; ``guild_id`` counts that server's dailies only."""
        async with self._db.sessions() as session:
            player = (
                await session.execute(
                    select(Player.id, Player.display_name).where(
                        Player.platform == platform, Player.platform_user_id == user_id
                    )
                )
            ).first()
            if player is None:
                return None
            variants = await _variant_stats(session, player.id, self._clock())
            daily = await self._daily_stats(session, player.id, guild_id)
        return PlayerStats(player.display_name, variants, daily)

    async def latest_result(self, platform: str, user_id: str) -> ResultCard | None:
        """The result card of the player's most recently finished game, or None if they have none.

        Games saved by another gatebot version are passed over for the newest one before them.
        """
        async with self._db.sessions() as session:
            rows = (
                await session.execute(
                    select(GameRecord, Challenge.name)
                    .join(Player, Player.id == GameRecord.player_id)
                    .outerjoin(Challenge, Challenge.id == GameRecord.challenge_id)
                    .where(
                        Player.platform == platform,
                        Player.platform_user_id == user_id,
                        counted(),
                        GameRecord.finished_at.is_not(None),
                    )
                    .order_by(GameRecord.finished_at.desc(), GameRecord.id.desc())
                    .limit(_LATEST)
                )
            ).all()
        row = next((row for row in rows if saved.readable(row[0].id, row[0].status, row[0].variant,
                                                            row[0].options)), None)
        if row is None:
            return None
        record, challenge = row
        try:
            return result_card(record, challenge)
        except GameDamaged as error:
            log.warning("game %s can't be replayed for its result card: %s", record.id, error)
            return None

    async def card(self, game_id: int, platform: str, user_id: str) -> ResultCard:
        """The result card of the game ``game_id``, for its own player only.

        Raises :class:`GameGone` if there is no such game, :class:`NotYourGame` if it is
        someone else's, :class:`NoResultYet` if it hasn't finished, and :class:`NoCard` if
        it can't be replayed or was saved by another gatebot version; each a
        :class:`~gatebot.errors.UserError` whose message is a sentence to show.
        """
        async with self._db.sessions() as session:
            row = (
                await session.execute(
                    select(GameRecord, Challenge.name, Player.platform, Player.platform_user_id, Player.display_name)
                    .join(Player, Player.id == GameRecord.player_id)
                    .outerjoin(Challenge, Challenge.id == GameRecord.challenge_id)
                    .where(GameRecord.id == game_id)
                )
            ).first()
        if row is None:
            raise GameGone(game_id)
        record, challenge, owner_platform, owner_id, owner_name = row
        if (owner_platform, owner_id) != (platform, user_id):
            raise NotYourGame(game_id, owner_name)
        status = GameStatus.read(record.status)
        if status is None or not saved.readable(record.id, record.status, record.variant, record.options):
            raise NoCard(_(
                "Your game #{game} was saved by a different version of gatebot and can't be loaded, "
                "so it has no result to share.", game=record.id
            ))
        if not status.finished:
            raise NoResultYet(game_id, status)
        try:
            return result_card(record, challenge)
        except GameDamaged as error:
            log.warning("game %s can't be replayed for its result card: %s", record.id, error)
            raise NoCard(_("That game can't be replayed, so it has no result card.")) from error

    async def _daily_stats(self, session: AsyncSession, player_id: int, guild_id: int | None) -> DailyStats:
        query = (
            select(Challenge.day, GameRecord.status, GameRecord.id, GameRecord.variant, GameRecord.options)
            .join(Challenge, Challenge.id == GameRecord.challenge_id)
            .where(
                GameRecord.player_id == player_id,
                counted(),
                Challenge.kind == ChallengeKind.DAILY,
                Challenge.day.is_not(None),
            )
            .order_by(Challenge.day)
        )
        if guild_id is not None:
            query = query.where(Challenge.guild_id == guild_id)
        rows = (await session.execute(query)).all()
        days = (
            (day, status == GameStatus.WON) for day, status, game_id, variant, options in rows
            if day is not None and saved.readable(game_id, status, variant, options)  # None: filtered out already
        )
        return daily_stats(days, self._clock().date())


async def _variant_stats(session: AsyncSession, player_id: int, now: datetime) -> tuple[VariantStats, ...]:
    """Each variant's statistics: one narrow query of the player's finished games in the order they ended.

    Streaks depend on that order, so the games are counted here, one pass over rows of six
    plain columns (the seconds a game took are worked out by the database, so no time is
    parsed here): for 10,000 games that is tens of milliseconds, most of it in the database's
    thread, not on the event loop. The deals played most are grouped and ranked by the
    database (:func:`_deal_bests`). A variant and options this gatebot can't read (a row from
    another version) are left out, and logged once.
    """
    rows = await session.execute(
        select(GameRecord.variant, GameRecord.options, GameRecord.status == GameStatus.WON, GameRecord.score,
               GameRecord.move_count, _seconds_taken(session))
        .where(GameRecord.player_id == player_id, counted())
        .order_by(GameRecord.finished_at, GameRecord.id)
    )
    tally: dict[str, _Tally] = {}
    readable: dict[tuple[str, str], bool] = {}
    for variant, options, won, score, moves, seconds in rows:
        if (variant, options) not in readable:
            readable[variant, options] = _readable_names(variant, options)
        if readable[variant, options]:
            if variant not in tally:
                tally[variant] = _Tally(deck_size(variant))
            tally[variant].add(bool(won), score, moves, None if seconds is None else round(float(seconds), 3))
    deals = await _deal_bests(session, player_id, now) if tally else {}
    return tuple(tally[variant].stats(variant, deals.get(variant, ()))
                 for variant in sorted(tally, key=lambda v: (-tally[v].games, v)))


def _seconds_taken(session: AsyncSession) -> ColumnElement[Any]:
    """A game's seconds from its deal to its end, as the database computes them."""
    dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
    return time_between(dialect, GameRecord.started_at, GameRecord.finished_at)


#: Variant and options pairs already logged as unreadable, so each is logged once.
_unreadable_logged: set[tuple[str, str]] = set()


def _readable_names(variant: str, options: str) -> bool:
    """Whether this gatebot knows the variant and its options; if not, say so in the log once."""
    found = saved.problem(GameStatus.WON.value, variant, options)
    if found is not None and (variant, options) not in _unreadable_logged:
        _unreadable_logged.add((variant, options))
        log.warning("games of %s %r were saved by a different version of gatebot and are skipped: %s",
                    variant, options, found)
    return found is None


#: How many deals played more than once the statistics name per variant.
DEALS_SHOWN = 3


async def _deal_bests(session: AsyncSession, player_id: int, now: datetime) -> dict[str, tuple[DealBest, ...]]:
    """Each variant's deals the player finished more than once, the most played first (:data:`DEALS_SHOWN` each).

    Counted in the database (grouped by variant, deal and options, ranked per variant), so a
    player with thousands of games costs one short answer. An attempt at a challenge still
    open is left out: its deal is a secret until the challenge closes, and anyone may ask for
    a player's statistics.
    """
    won = case((GameRecord.status == GameStatus.WON, 1), else_=0)
    played = func.count().label("played")
    grouped = (
        select(GameRecord.variant, GameRecord.deal, GameRecord.options, played,
               func.sum(won).label("wins"), func.max(GameRecord.score).label("best"),
               func.min(case((GameRecord.status == GameStatus.WON, GameRecord.move_count))).label("fewest"),
               func.row_number().over(partition_by=GameRecord.variant,
                                      order_by=(func.count().desc(), GameRecord.deal)).label("rank"))
        .outerjoin(Challenge, Challenge.id == GameRecord.challenge_id)
        .where(GameRecord.player_id == player_id, counted(),
               or_(GameRecord.challenge_id.is_(None), Challenge.closed_at.is_not(None), Challenge.closes_at <= now))
        .group_by(GameRecord.variant, GameRecord.deal, GameRecord.options)
        .having(func.count() > 1)
        .subquery()
    )
    rows = await session.execute(
        select(grouped.c.variant, grouped.c.deal, grouped.c.options, grouped.c.played, grouped.c.wins,
               grouped.c.best, grouped.c.fewest)
        .where(grouped.c.rank <= DEALS_SHOWN)
        .order_by(grouped.c.variant, grouped.c.rank)
    )
    found: dict[str, list[DealBest]] = {}
    for variant, deal, options, count, wins, best, fewest in rows:
        found.setdefault(variant, []).append(DealBest(deal, tuple(options.split()), count, int(wins), best, fewest))
    return {variant: tuple(deals) for variant, deals in found.items()}


@dataclass(slots=True)
class _Tally:
    """Counts for one variant of ``total`` cards, fed its games in the order they finished."""

    total: int
    games: int = 0
    wins: int = 0
    points: int = 0
    streak: int = 0
    best: int = 0
    best_score: int = 0
    fastest: FastestWin | None = None
    recent: deque[tuple[bool, int]] = field(default_factory=lambda: deque(maxlen=KEPT_GAMES))
    scores: dict[int, int] = field(default_factory=dict)

    def add(self, won: bool, score: int, moves: int, seconds: float | None) -> None:
        self.games += 1
        self.points += score
        self.best_score = max(self.best_score, score)
        self.recent.append((won, score))
        self.scores[score] = self.scores.get(score, 0) + 1
        if not won:
            self.streak = 0
            return
        self.wins += 1
        self.streak += 1
        self.best = max(self.best, self.streak)
        if seconds is not None and (self.fastest is None or seconds < self.fastest.seconds):
            self.fastest = FastestWin(seconds, moves)

    def stats(self, variant: str, deals: tuple[DealBest, ...] = ()) -> VariantStats:
        scores = tuple(self.scores.get(n, 0) for n in range(self.total + 1))
        return VariantStats(variant, _title(variant), self.games, self.wins, self.streak, self.best,
                            self.points / self.games, self.fastest, self.best_score, deals,
                            tuple(self.recent), scores)


def daily_stats(days: Iterable[tuple[date, bool]], today: date) -> DailyStats:
    """Daily statistics from each finished attempt's (day, won), in order of day."""
    played = wins = 0
    won_days: list[date] = []
    last_day: date | None = None
    for day, won in days:
        played += 1
        wins += won
        last_day = day
        if won and (not won_days or won_days[-1] != day):
            won_days.append(day)
    best = streak = 0
    previous: date | None = None
    for day in won_days:
        streak = streak + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, streak)
        previous = day
    # The run ending at the last day won stands if nothing was played after it and it is recent.
    stands = bool(won_days) and last_day == won_days[-1] and won_days[-1] >= today - timedelta(days=1)
    return DailyStats(played, wins, streak if stands else 0, best)


def result_card(record: GameRecord, challenge: str | None = None) -> ResultCard:
    """The result card of a stored game, its grid found by replaying the log; :class:`GameDamaged` if it can't be."""
    steps = record.log.split()
    seconds = None
    if record.finished_at is not None:
        seconds = (record.finished_at - record.started_at).total_seconds()
    return ResultCard(
        title=_title(record.variant),
        deal=record.deal,
        won=record.status == GameStatus.WON,
        score=record.score,
        moves=record.move_count,
        hints=record.hint_count,
        undos=record.undo_count,
        seconds=seconds,
        ascents=ascents(record.variant, record.deal, record.options.split(), steps),
        steps=len(steps),
        options=tuple(record.options.split()),
        challenge=challenge,
        total=deck_size(record.variant),
    )


def ascents(variant: str, deal: int, options: Iterable[str], steps: Iterable[str]) -> Ascents:
    """When each foundation card last went up: the deal replayed step by step (``u`` takes one back).

    Cards on a foundation from the deal (Canfield's first, Archway's bases) are ``DEALT``.
    """
    try:
        game = Game.new(variant, deal=deal, options=options)
        heights = _heights(game)
        when: list[list[int | None]] = [[DEALT] * height + [None] * (RANKS - height) for height in heights]
        for index, step in enumerate(steps):
            if step == UNDO_TOKEN:
                game.undo()
            else:
                game.play(Move.from_text(step))
            now = _heights(game)
            for suit, (before, after) in enumerate(zip(heights, now, strict=True)):
                for rank in range(min(before, after), max(before, after)):
                    when[suit][rank] = index if after > before else None
            heights = now
    except (RulesError, ValueError) as error:
        raise GameDamaged(str(error)) from error
    return tuple(tuple(row) for row in when)


def stats_text(stats: PlayerStats, *, own: bool, here: bool = False, new_command: str = _("new")) -> str:
    """The statistics as a few lines a player reads, for every front end.

    ``own``: the asker's own statistics (``Your games``) or someone else's (``Bob's games``);
    ``here``: the dailies counted are this server's only.
    """
    name = stats.display_name
    lines: list[str]
    if stats.variants:
        heading = _("Your games:") if own else _("{name}'s games:", name=name)
        lines = [heading]
        for variant in stats.variants:
            lines.append(_variant_line(variant))
            if variant.deals:
                lines.append(_deals_line(variant))
    elif own:
        lines = [_("Your games: none finished yet: start one with {command}.", command=new_command)]
    else:
        lines = [_("{name}'s games: none finished yet.", name=name)]
    daily = stats.daily
    if daily.played:
        counts = {"played": daily.played, "won": daily.won,
                  "streak": _days(daily.current_streak), "best": _days(daily.best_streak)}
        lines.append(
            _("Daily challenges here: {played} played, {won} won; streak {streak}, best {best}.", **counts)
            if here else _("Daily challenges: {played} played, {won} won; streak {streak}, best {best}.", **counts)
        )
    return joined(*lines, sep="\n")


def _variant_line(variant: VariantStats) -> str:
    facts = {
        "title": variant.title,
        "games": n_("{n} game", "{n} games", variant.games),
        "wins": variant.wins,
        "rate": Number(variant.win_rate, percent=True),
        "streak": variant.current_streak,
        "best": variant.best_streak,
        "average": Number(variant.average_score, 1),
        "deck": deck_size(variant.variant),
    }
    fastest = variant.fastest_win
    if fastest is None:
        return _("{title}: {games}, {wins} won ({rate}); streak {streak}, best {best}; "
                 "average score {average}/{deck}.", **facts)
    return _("{title}: {games}, {wins} won ({rate}); streak {streak}, best {best}; "
             "average score {average}/{deck}; fastest win {time} in {moves}.", **facts,
             time=duration(fastest.seconds), moves=n_("{n} move", "{n} moves", fastest.moves))


def _deals_line(variant: VariantStats) -> str:
    """The deals played most: ``Gate deals played more than once: deal 5, 3 times, 2 won, fewest 98 moves; …``."""
    deck = deck_size(variant.variant)
    parts = []
    for best in variant.deals:
        deal = (_("deal {deal} ({options})", deal=best.deal, options=", ".join(best.options)) if best.options
                else _("deal {deal}", deal=best.deal))
        times = n_("{n} time", "{n} times", best.played)
        if best.fewest_moves is not None:
            parts.append(_("{deal}, {times}, {wins} won, fewest {moves}", deal=deal, times=times, wins=best.wins,
                           moves=n_("{n} move", "{n} moves", best.fewest_moves)))
        else:
            parts.append(_("{deal}, {times}, best {score}/{deck}", deal=deal, times=times, score=best.score,
                           deck=deck))
    return _("{title} deals played more than once: {deals}.", title=variant.title, deals=joined(*parts, sep="; "))


def _heights(game: Game) -> tuple[int, ...]:
    """How many cards each foundation holds, one row of the result card each.

    The variant says (:meth:`~gatebot.rules.game.Game.foundation_heights`): Gate's rows are
    its four foundations by rank, Canfield's count up from the deal's base rank, Archway's
    are two per suit, the Ace foundation then the King foundation.
    """
    return game.foundation_heights()


def _days(count: int) -> str:
    return n_("{n} day", "{n} days", count)


def _title(variant: str) -> str:
    try:
        return find_variant(variant).title
    except RulesError:
        return variant
