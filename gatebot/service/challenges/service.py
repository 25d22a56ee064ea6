"""The challenge service: challenges made, listed, played, ended and ranked, and the time that passes.

A challenge is one deal a whole server plays, each member once (the database holds one
attempt per player per challenge). Its attempts are ordinary games with the challenge's
rules for hints and undo (:mod:`gatebot.service.attempts`), played through the
:class:`~gatebot.service.games.GameService` like any other game.

Time passes in :meth:`ChallengeService.tick`, which a front end calls every so often (the
bot every few seconds, and at once when it starts). It closes challenges whose time is up,
announces those made to open later once they open, and opens each server's daily challenge
for the day, and returns what must be announced. Each step is claimed in the database
before anything is announced -- a close or an opening by one conditional UPDATE, a daily by
the unique (server, day) pair -- so however many processes tick, and however often the bot
restarts, each is announced at most once.
"""

from __future__ import annotations

import logging
import math
import random
import secrets
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, case, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from gatebot.errors import UserError
from gatebot.messages import Name, _, message_of
from gatebot.rules import DEFAULT_VARIANT, MAX_DEAL, RulesError, find_variant, variant_names
from gatebot.service import saved
from gatebot.service.advice import sentence
from gatebot.service.attempts import AttemptRules, when
from gatebot.service.challenges.daily import DAILY_LIST_MINIMUM, daily_deal, daily_name, midnight
from gatebot.service.challenges.info import (
    Announcement,
    ChallengeInfo,
    DailySettings,
    Happening,
    Leaderboard,
    ServerBoard,
    ServerStanding,
    Standing,
)
from gatebot.service.challenges.standings import PAGE_SIZE, best_streak, player_standing, ranked_page
from gatebot.service.games import GameService, no_winnable_deals
from gatebot.service.names import visible
from gatebot.service.replies import Actor, Reply
from gatebot.service.variants import variant_title
from gatebot.solver.deals import winnable_deals
from gatebot.store.games import GAMES_TABLE
from gatebot.store.models import (
    Challenge,
    ChallengeKind,
    DailySchedule,
    GameRecord,
    GameStatus,
    Player,
    Rule,
)

log = logging.getLogger(__name__)
#: How a server says a marked name it is given by default: in its language (English, ``str``, unless told).
Say = Callable[[str], str]

#: How long a challenge made with ``/challenge-admin create`` runs, by default and at most.
DEFAULT_HOURS = 24
MAX_HOURS = 14 * 24


class ChallengeError(UserError):
    """A challenge request that can't be done; the message says why and what to do, in one sentence."""


class ChallengeService:
    """Challenges of servers, over the game service that plays their attempts."""

    def __init__(self, games: GameService, *, rng: random.Random | None = None) -> None:
        self._games = games
        self._db = games.database
        self._rng = rng or random.SystemRandom()
        #: For a server's id, how it says the name its daily challenge is given (a front end that
        #: knows the servers' languages sets it); English, ``Daily 5 Mar 2026``, by default.
        self.server_say: Callable[[int], Say] = lambda _guild_id: str

    def now(self) -> datetime:
        return self._games.now()

    # -- making and ending ----------------------------------------------------------------

    async def create(
        self,
        actor: Actor,
        guild_id: int,
        *,
        channel_id: int | None,
        name: str | None = None,
        variant: str = DEFAULT_VARIANT,
        options: Iterable[str] = (),
        deal: int | None = None,
        winnable: bool = False,
        hours: int = DEFAULT_HOURS,
        starts_in: int = 0,
        hints: Rule = Rule.ALLOWED,
        undo: Rule = Rule.ALLOWED,
        say: Say = str,
    ) -> ChallengeInfo:
        """Make a challenge in a server, open for ``hours`` from now or ``starts_in`` hours from now.

        One that opens now counts as announced (its maker announces it); one that opens
        later is announced by the :meth:`tick` that finds it open. The caller checks the
        asker may make challenges. Without a ``name`` it is named ``Challenge N`` as ``say``
        words it, in the language its announcement is said in; the name is stored as said.
        """
        try:
            cls = find_variant(variant)
            chosen = cls.check_options(options)
            if deal is not None:
                cls.new(deal=deal, options=chosen)
        except (RulesError, ValueError) as error:
            raise ChallengeError(sentence(message_of(error))) from None
        if deal is not None and winnable:
            raise ChallengeError(_("Choose a deal number or a winnable deal, not both."))
        if not 1 <= hours <= MAX_HOURS:
            raise ChallengeError(
                _("A challenge runs from 1 to {most} hours, not {hours}.", most=MAX_HOURS, hours=hours)
            )
        if not 0 <= starts_in <= MAX_HOURS:
            raise ChallengeError(
                _("A challenge can open from now to {most} hours ahead, not {hours}.", most=MAX_HOURS, hours=starts_in)
            )
        name = " ".join((name or "").split())
        if len(name) > 100:
            raise ChallengeError(_("A challenge's name has at most 100 characters."))
        if name and not visible(name):
            raise ChallengeError(
                _("A challenge's name needs at least one character that shows: choose another, or leave it out.")
            )
        if winnable:
            refusal = no_winnable_deals(cls.name, chosen)
            if refusal is not None:
                raise ChallengeError(refusal)
            deal = await self._games.find_winnable_deal(cls.name, chosen)
            if deal is None:
                raise ChallengeError(
                    _("I couldn't find a winnable deal of {game} just now: try again, or give a deal number.",
                      game=cls.title)
                )
        number = deal if deal is not None else self._rng.randint(1, MAX_DEAL)
        now = self.now()
        opens_at = now + timedelta(hours=starts_in)
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            if not name:
                made = await session.scalar(
                    select(func.count()).select_from(Challenge)
                    .where(Challenge.guild_id == guild_id, Challenge.kind == ChallengeKind.CUSTOM)
                )
                name = say(_("Challenge {n}", n=(made or 0) + 1))
            row = Challenge(
                guild_id=guild_id, kind=ChallengeKind.CUSTOM, name=name, variant=cls.name, options=" ".join(chosen),
                deal=number, hints=hints, undo=undo, channel_id=channel_id, opens_at=opens_at,
                closes_at=opens_at + timedelta(hours=hours), announced_at=now if not starts_in else None,
                created_by=await _player_id(session, actor), created_at=now,
            )
            session.add(row)
            await session.flush()
            return ChallengeInfo.of(row)

    async def end(self, guild_id: int, challenge_id: int) -> Announcement:
        """Close a challenge now (an admin's ``end``): its attempts stop, and its final standings are returned."""
        info = await self.get(guild_id, challenge_id)
        closed = await self._close(info.id, self.now())
        if closed is None:
            raise ChallengeError(
                _("{name} has already closed: see its results with /challenge leaderboard.", name=info.name)
            )
        return closed

    async def record_announcement(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        """Remember the message that announced a challenge (its Play button lives there)."""
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            await session.execute(
                update(Challenge).where(Challenge.id == challenge_id)
                .values(channel_id=channel_id, announcement_id=message_id)
            )

    async def forget_server(self, guild_id: int) -> int:
        """Delete a server's challenges and daily schedule; their attempts stay their players' games.

        Returns how many challenges were deleted.
        """
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            ids = list(await session.scalars(select(Challenge.id).where(Challenge.guild_id == guild_id)))
            if ids:
                await session.execute(
                    update(GameRecord).where(GameRecord.challenge_id.in_(ids)).values(challenge_id=None)
                    .execution_options(synchronize_session=False)
                )
                await session.execute(delete(Challenge).where(Challenge.id.in_(ids)))
            await session.execute(delete(DailySchedule).where(DailySchedule.guild_id == guild_id))
        for challenge_id in ids:
            self._games.forget_attempts(challenge_id)
        return len(ids)

    # -- finding --------------------------------------------------------------------------

    async def get(self, guild_id: int, challenge_id: int) -> ChallengeInfo:
        """A server's challenge by number; :class:`ChallengeError` if the server has none by that number."""
        async with self._db.sessions() as session:
            row = await session.get(Challenge, challenge_id)
            if row is None or row.guild_id != guild_id:
                raise ChallengeError(
                    _("This server has no challenge number {number}: see /challenge list.", number=challenge_id)
                )
            return ChallengeInfo.of(row, row.ranked_attempts)

    async def listing(self, guild_id: int, *, closed: int = 5) -> list[ChallengeInfo]:
        """The server's challenges not yet closed, closing soonest first, then its ``closed`` latest closed ones.

        Those not yet closed include any made to open later.
        """
        async with self._db.sessions() as session:
            rows = list(await session.scalars(
                select(Challenge).where(Challenge.guild_id == guild_id, Challenge.closed_at.is_(None))
                .order_by(Challenge.closes_at, Challenge.id)
            ))
            done = list(await session.scalars(
                select(Challenge).where(Challenge.guild_id == guild_id, Challenge.closed_at.is_not(None))
                .order_by(Challenge.closed_at.desc(), Challenge.id.desc()).limit(closed)
            ))
            return [ChallengeInfo.of(row, row.ranked_attempts) for row in [*rows, *done]]

    async def attempt_channel(self, game_id: int) -> int | None:
        """The channel of the challenge a game is an attempt at (where its announcement is); None for any other game."""
        found = await self._attempt_of(game_id)
        return None if found is None else found[2]

    async def attempt_challenge(self, game_id: int) -> tuple[int, int] | None:
        """The (server id, challenge id) of the challenge a game is an attempt at; None for any other game."""
        found = await self._attempt_of(game_id)
        return None if found is None else (found[0], found[1])

    async def _attempt_of(self, game_id: int) -> tuple[int, int, int | None] | None:
        async with self._db.sessions() as session:
            row = (await session.execute(
                select(Challenge.guild_id, Challenge.id, Challenge.channel_id)
                .join(GameRecord, GameRecord.challenge_id == Challenge.id).where(GameRecord.id == game_id)
            )).first()
        return None if row is None else (row[0], row[1], row[2])

    async def open_challenges(self, guild_id: int) -> list[ChallengeInfo]:
        """The server's challenges open now (not those made to open later), closing soonest first."""
        now = self.now()
        return [info for info in await self.listing(guild_id, closed=0) if info.is_open(now)]

    async def _choose(self, guild_id: int, challenge_id: int | None) -> ChallengeInfo:
        """The challenge a request names, else the server's one open challenge."""
        if challenge_id is not None:
            return await self.get(guild_id, challenge_id)
        found = await self.open_challenges(guild_id)
        if not found:
            now = self.now()
            upcoming = [info for info in await self.listing(guild_id, closed=0) if info.is_upcoming(now)]
            if upcoming:
                soonest = min(upcoming, key=lambda info: info.opens_at)
                raise ChallengeError(_(
                    "No challenge is open yet: {name} opens {when}.",
                    name=soonest.name, when=when(soonest.opens_at, now),
                ))
            raise ChallengeError(_("No challenge is open in this server right now: see /challenge list."))
        if len(found) > 1:
            names = Name(", ".join(f"{info.id} ({info.name})" for info in found[:5]))
            raise ChallengeError(
                _("Several challenges are open ({names}): choose one with the challenge option.", names=names)
            )
        return found[0]

    # -- playing --------------------------------------------------------------------------

    async def play(
        self, actor: Actor, guild_id: int, challenge_id: int | None = None, *, confirm: bool = False
    ) -> Reply:
        """Start the player's one attempt at a challenge as their game (asking first if one is running)."""
        info = await self._choose(guild_id, challenge_id)
        now = self.now()
        if info.is_upcoming(now):
            raise ChallengeError(
                _("{name} opens {when}: come back then.", name=info.name, when=when(info.opens_at, now))
            )
        if not info.is_open(now):
            raise ChallengeError(_("{name} has closed: see its results with /challenge leaderboard.", name=info.name))
        rules = AttemptRules(info.id, info.name, info.hints, info.undo, info.closes_at, info.variant)
        return await self._games.new_game(
            actor, info.variant, deal=info.deal, options=info.options, confirm=confirm, attempt=rules
        )

    # -- ranking --------------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, challenge_id: int | None = None, *, page: int = 0) -> Leaderboard:
        """A page of a challenge's standings: the named one, else the open one, else the latest closed."""
        if challenge_id is None:
            shown = await self.listing(guild_id, closed=1)
            now = self.now()
            open_now = [info for info in shown if info.is_open(now)]
            if len(open_now) > 1:
                return await self.leaderboard(guild_id, (await self._choose(guild_id, None)).id, page=page)
            ranked = open_now or [info for info in shown if info.closed_at is not None]
            if not ranked:
                raise ChallengeError(_("No challenge has been played in this server yet: see /challenge list."))
            challenge_id = ranked[0].id
        info = await self.get(guild_id, challenge_id)
        async with self._db.sessions() as session:
            return await ranked_page(session, info, self.now(), page)

    async def standings(self, challenge_id: int, *, page: int = 0, size: int = PAGE_SIZE) -> Leaderboard:
        """A page of any server's challenge's standings, found by its number alone (a public page's).

        The same ranking as :meth:`leaderboard`; :class:`ChallengeError` when there is no such challenge.
        Whoever shows it keeps an open challenge's deal and attempts to itself, as chat does.
        """
        async with self._db.sessions() as session:
            row = await session.get(Challenge, challenge_id)
            if row is None:
                raise ChallengeError(_("There is no challenge number {number}.", number=challenge_id))
            info = ChallengeInfo.of(row, row.ranked_attempts)
            return await ranked_page(session, info, self.now(), page, size=size)

    async def own_standing(self, challenge_id: int, actor: Actor) -> Standing | None:
        """A player's own place in a challenge's standings (the same ranking as :meth:`standings`); None if unranked.

        :class:`ChallengeError` when there is no such challenge.
        """
        async with self._db.sessions() as session:
            row = await session.get(Challenge, challenge_id)
            if row is None:
                raise ChallengeError(_("There is no challenge number {number}.", number=challenge_id))
            player_id = await _player_id(session, actor)
            if player_id is None:
                return None
            return await player_standing(session, ChallengeInfo.of(row), self.now(), player_id)

    async def server_board(self, guild_id: int, *, page: int = 0) -> ServerBoard:
        """A page of the server's all-time leaderboard: wins, then win rate, then best streak."""
        async with self._db.sessions() as session:
            rows = (await session.execute(
                select(Player.display_name, Player.platform_user_id, GameRecord.player_id, GameRecord.status,
                       GameRecord.id, GameRecord.variant, GameRecord.options)
                .join(Challenge, Challenge.id == GameRecord.challenge_id)
                .join(Player, Player.id == GameRecord.player_id)
                .where(Challenge.guild_id == guild_id)
                .order_by(GameRecord.player_id, Challenge.opens_at, Challenge.id)
            )).all()
            challenges = await session.scalar(
                select(func.count()).select_from(Challenge).where(Challenge.guild_id == guild_id)
            ) or 0
        players: dict[int, list[str]] = {}
        names: dict[int, tuple[str, str]] = {}
        for name, user_id, player_id, status, game_id, variant, options in rows:
            if saved.readable(game_id, status, variant, options) and GameStatus(status).finished:
                players.setdefault(player_id, []).append(status)
                names[player_id] = (name, user_id)
        records = []
        for player_id, results in players.items():
            wins = sum(status == GameStatus.WON for status in results)
            records.append((names[player_id], len(results), wins, best_streak(results)))
        records.sort(key=lambda r: (-r[2], -(r[2] / r[1]), -r[3], r[0][0].casefold()))
        standings: list[ServerStanding] = []
        for index, ((name, user_id), played, wins, streak) in enumerate(records):
            key = (wins, wins / played, streak)
            previous = standings[-1] if standings else None
            same = previous is not None and (previous.wins, previous.win_rate, previous.best_streak) == key
            rank = previous.rank if same and previous is not None else index + 1
            standings.append(ServerStanding(rank, name, user_id, played, wins, streak))
        pages = max(1, math.ceil(len(standings) / PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        shown = tuple(standings[page * PAGE_SIZE:(page + 1) * PAGE_SIZE])
        return ServerBoard(guild_id, shown, page, pages, len(standings), challenges)

    # -- the daily challenge --------------------------------------------------------------

    async def set_daily(
        self,
        guild_id: int,
        channel_id: int,
        *,
        variant: str = DEFAULT_VARIANT,
        options: Iterable[str] = (),
        winnable: bool = False,
        hints: Rule = Rule.ALLOWED,
        undo: Rule = Rule.ALLOWED,
    ) -> DailySettings:
        """Switch a server's daily challenge on, or change it (from the next day's challenge on)."""
        try:
            cls = find_variant(variant)
            chosen = cls.check_options(options)
        except (RulesError, ValueError) as error:
            raise ChallengeError(sentence(message_of(error))) from None
        if winnable and (chosen or len(winnable_deals(cls.name)) < DAILY_LIST_MINIMUM):
            listed = [
                find_variant(name).title for name in variant_names()
                if len(winnable_deals(name)) >= DAILY_LIST_MINIMUM
            ]
            names = _("{some} and {last}", some=", ".join(listed[:-1]), last=listed[-1]) if len(listed) > 1 \
                else "".join(listed)
            raise ChallengeError(_(
                "A winnable daily challenge comes from a list of proven deals long enough not to repeat within "
                "days, which only {names} without options have: switch winnable off for {game}.",
                names=names, game=variant_title(cls.name, chosen),
            ))
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            row = await session.get(DailySchedule, guild_id)
            if row is None:
                row = DailySchedule(guild_id=guild_id, secret=secrets.token_hex(32))
                session.add(row)
            row.channel_id, row.variant, row.options = channel_id, cls.name, " ".join(chosen)
            row.winnable, row.hints, row.undo, row.enabled = winnable, hints, undo, True
            row.updated_at = self.now()
            await session.flush()
            return _settings(row)

    async def daily_off(self, guild_id: int) -> bool:
        """Switch a server's daily challenge off (today's, if open, runs to its end); False if it was not on."""
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            row = await session.get(DailySchedule, guild_id)
            if row is None or not row.enabled:
                return False
            row.enabled = False
            row.updated_at = self.now()
            return True

    async def daily(self, guild_id: int) -> DailySettings | None:
        async with self._db.sessions() as session:
            row = await session.get(DailySchedule, guild_id)
            return None if row is None else _settings(row)

    async def tick(self) -> list[Announcement]:
        """Close every challenge whose time is up, then open each server's daily challenge for today.

        A daily challenge is named as :attr:`server_say` words it for its server, and stored as said.

        What is returned was claimed in the database by this call alone: announce it. Days
        the bot missed entirely get no challenge; the one that was running when it stopped
        is closed (its standings announced) and today's opened.
        """
        now = self.now()
        announcements: list[Announcement] = []
        async with self._db.sessions() as session:
            due = list(await session.scalars(
                select(Challenge.id).where(Challenge.closed_at.is_(None), Challenge.closes_at <= now)
                .order_by(Challenge.closes_at, Challenge.id)
            ))
            schedules = list(await session.scalars(select(DailySchedule).where(DailySchedule.enabled)))
        for challenge_id in due:
            closed = await self._close(challenge_id, now)
            if closed is not None:
                announcements.append(closed)
        async with self._db.sessions() as session:
            opening = list(await session.scalars(
                select(Challenge.id).where(
                    Challenge.announced_at.is_(None), Challenge.closed_at.is_(None), Challenge.opens_at <= now
                ).order_by(Challenge.opens_at, Challenge.id)
            ))
        for challenge_id in opening:
            opened = await self._announce_opening(challenge_id, now)
            if opened is not None:
                announcements.append(opened)
        today = now.date()
        for schedule in schedules:
            opened = await self._open_daily(schedule, today, self.server_say(schedule.guild_id))
            if opened is not None:
                announcements.append(opened)
        return announcements

    async def _open_daily(self, schedule: DailySchedule, day: date, say: Say) -> Announcement | None:
        """Open a server's daily challenge for ``day`` unless it exists (made by any process)."""
        async with self._db.sessions() as session:
            exists = await session.scalar(
                select(Challenge.id).where(Challenge.guild_id == schedule.guild_id, Challenge.day == day)
            )
        if exists is not None:
            return None
        row = Challenge(
            guild_id=schedule.guild_id, kind=ChallengeKind.DAILY, name=say(daily_name(day)), variant=schedule.variant,
            options=schedule.options,
            deal=daily_deal(schedule.secret, day, schedule.variant, winnable=schedule.winnable),
            hints=schedule.hints, undo=schedule.undo, channel_id=schedule.channel_id, day=day,
            opens_at=midnight(day), closes_at=midnight(day + timedelta(days=1)), announced_at=self.now(),
            created_at=self.now(),
        )
        try:
            async with self._db.writer(), self._db.sessions() as session, session.begin():
                session.add(row)
        except IntegrityError:
            log.info("the daily challenge of server %s for %s was opened by another process", schedule.guild_id, day)
            return None
        log.info("opened %s (challenge %s) in server %s", row.name, row.id, row.guild_id)
        return Announcement(Happening.OPENED, ChallengeInfo.of(row))

    async def _announce_opening(self, challenge_id: int, now: datetime) -> Announcement | None:
        """Claim the announcement of a challenge made to open later, now open; None if claimed already."""
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            claimed = await session.execute(
                update(Challenge).where(Challenge.id == challenge_id, Challenge.announced_at.is_(None))
                .values(announced_at=now)
                .execution_options(synchronize_session=False)
            )
            if cast(CursorResult[Any], claimed).rowcount != 1:
                return None
            row = await session.get(Challenge, challenge_id)
            assert row is not None
            info = ChallengeInfo.of(row, row.ranked_attempts)
        log.info("opened %s (challenge %s) in server %s", info.name, info.id, info.guild_id)
        return Announcement(Happening.OPENED, info)

    async def _close(self, challenge_id: int, now: datetime) -> Announcement | None:
        """Claim the closing of a challenge; stop its attempts; None if someone closed it first."""
        async with self._db.writer(), self._db.sessions() as session, session.begin():
            claimed = await session.execute(
                update(Challenge).where(Challenge.id == challenge_id, Challenge.closed_at.is_(None))
                .values(closed_at=now, closes_at=_earlier(Challenge.closes_at, now))
                .execution_options(synchronize_session=False)
            )
            if cast(CursorResult[Any], claimed).rowcount != 1:
                return None
            ended = tuple(await session.scalars(
                select(GameRecord.id).where(
                    GameRecord.challenge_id == challenge_id, GameRecord.status == GameStatus.ACTIVE
                )
            ))
            if ended:
                await session.execute(
                    update(GAMES_TABLE)
                    .where(GameRecord.id.in_(ended), GameRecord.status == GameStatus.ACTIVE)
                    .values(
                        status=GameStatus.EXPIRED, finished_at=now, updated_at=now, version=GameRecord.version + 1
                    )
                )
        self._games.forget_attempts(challenge_id)
        async with self._db.sessions() as session:
            row = await session.get(Challenge, challenge_id)
            assert row is not None
            info = ChallengeInfo.of(row, row.ranked_attempts)
            board = await ranked_page(session, info, now, 0)
        log.info("closed %s (challenge %s) in server %s with %d attempts", info.name, info.id, info.guild_id,
                 board.total)
        return Announcement(Happening.CLOSED, info, board, ended)


def _earlier(column: Any, now: datetime) -> Any:
    """SQL for the earlier of a stored time and ``now``: a challenge ended early closes now."""
    return case((column > now, now), else_=column)


async def _player_id(session: AsyncSession, actor: Actor) -> int | None:
    return await session.scalar(
        select(Player.id).where(Player.platform == actor.platform, Player.platform_user_id == actor.user_id)
    )


def _settings(row: DailySchedule) -> DailySettings:
    return DailySettings(row.guild_id, row.channel_id, row.variant, tuple(row.options.split()), row.winnable,
                         Rule(row.hints), Rule(row.undo), row.enabled)


__all__ = ["DEFAULT_HOURS", "MAX_HOURS", "ChallengeError", "ChallengeService"]
