"""Challenges in words for Discord: announcements, standings, listings, the daily settings.

Pure functions from the challenge service's values to message text, so every place that
shows a challenge — a command's answer, a scheduled post, an edited announcement — says it
the same way. Times are Discord timestamps (``<t:1736121600:R>``), which each reader sees in
their own time zone. Every text stays within Discord's 2000 characters: standings are a
page of ten rows at most, and names are cut and escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from gatebot.render.card import duration
from gatebot.service import ChallengeKind, GameStatus
from gatebot.service.challenges import (
    ChallengeInfo,
    DailySettings,
    Leaderboard,
    ServerBoard,
    ServerStanding,
    Standing,
)

MESSAGE_LIMIT = 2000
#: Longest player or challenge name shown (Discord's display names have at most 32 characters).
NAME_LIMIT = 32


# -- one challenge --------------------------------------------------------------------------


def opened_text(info: ChallengeInfo) -> str:
    """The announcement of an open challenge, with its Play button under it: never its deal number."""
    icon = "🗓️" if info.kind is ChallengeKind.DAILY else "🏁"
    return _fit(
        f"{icon} **{_name(info.name, 100)}** is open! (challenge {info.id})\n"
        f"{info.title} · {info.rules_line}\n"
        f"Closes {_stamp(info.closes_at, 'R')} ({_stamp(info.closes_at, 'f')}) · {_played(info.attempts)}\n"
        f"One attempt each: press **Play**, or use `/challenge play challenge:{info.id}`."
    )


def scheduled_text(info: ChallengeInfo) -> str:
    """The notice of a challenge made to open later; its announcement with Play comes when it opens."""
    return _fit(
        f"📅 **{_name(info.name, 100)}** (challenge {info.id}) opens {_stamp(info.opens_at, 'R')} "
        f"({_stamp(info.opens_at, 'f')}) and runs until {_stamp(info.closes_at, 'f')}.\n"
        f"{info.title} · {info.rules_line}\n"
        "One attempt each: its announcement, with a Play button, is posted here when it opens."
    )


def retired_text(info: ChallengeInfo) -> str:
    """What an announcement becomes once its challenge closed: the Play button is gone."""
    when = info.closed_at or info.closes_at
    return _fit(
        f"🔒 **{_name(info.name, 100)}** (challenge {info.id}) closed {_stamp(when, 'R')}: "
        f"{info.title} deal {info.deal} · {info.rules_line} · {_played(info.attempts)}\n"
        f"See the results with `/challenge leaderboard challenge:{info.id}`."
    )


def removed_text(info: ChallengeInfo) -> str:
    """What an announcement becomes when its server's challenges are deleted."""
    return f"🗑️ **{_name(info.name, 100)}** (challenge {info.id}) was removed by this server's admins."


def final_text(board: Leaderboard) -> str:
    """The final standings posted when a challenge closes: the deal, the top ten and how many played."""
    info = board.challenge
    lines = [
        f"🏆 **{_name(info.name, 100)}** (challenge {info.id}) has closed: "
        f"{info.title} deal {info.deal} · {info.rules_line}",
    ]
    if not board.total:
        lines.append("Nobody played it.")
        return _fit("\n".join(lines))
    lines.append(f"Final standings ({_count(board.total, 'player')}):")
    lines.extend(standing_line(standing) for standing in board.standings)
    more = board.total - len(board.standings)
    if more > 0:
        lines.append(f"…and {more} more: `/challenge leaderboard challenge:{info.id}`, or ▶ below.")
    return _fit("\n".join(lines))


def leaderboard_text(board: Leaderboard, now: datetime) -> str:
    """A page of a challenge's standings; the deal is shown only once the challenge has closed."""
    info = board.challenge
    if info.is_open(now):
        state = f"open, closes {_stamp(info.closes_at, 'R')}"
        game = info.title
    else:
        state = f"closed {_stamp(info.closed_at or info.closes_at, 'R')}"
        game = f"{info.title} deal {info.deal}"
    lines = [f"📊 **{_name(info.name, 100)}** (challenge {info.id}) — {game} · {info.rules_line} · {state}"]
    if not board.total:
        lines.append(
            "Nobody has played it yet: press Play on its announcement or use /challenge play."
            if info.is_open(now) else "Nobody played it."
        )
        return _fit("\n".join(lines))
    lines.extend(standing_line(standing) for standing in board.standings)
    lines.append(_page_line(board.page, board.pages, _played(board.total)))
    return _fit("\n".join(lines))


def standing_line(standing: Standing) -> str:
    """One row: rank, name, result, moves (with what hints and undos added), hints, undos, time."""
    if standing.won:
        result = "🏆 won"
    elif standing.playing:
        result = f"⏳ playing, {_cards(standing.score)}"
    elif standing.status is GameStatus.EXPIRED:
        result = f"{_cards(standing.score)} (time ran out)"
    else:
        result = _cards(standing.score)
    moves = _count(standing.moves, "move")
    if standing.ranked_moves != standing.moves:
        moves += f" (+{standing.ranked_moves - standing.moves} counted)"
    return (
        f"`{standing.rank:>2}.` **{_name(standing.name)}** — {result} · {moves} · "
        f"{_count(standing.hints, 'hint')} · {_count(standing.undos, 'undo')} · {duration(standing.seconds)}"
    )


# -- a server -------------------------------------------------------------------------------


def server_board_text(board: ServerBoard) -> str:
    """A page of the server's all-time leaderboard: wins, games played, win rate, best streak."""
    title = f"📊 **All-time challenge leaderboard** — {_count(board.challenges, 'challenge')} in this server"
    if not board.total:
        return f"{title}\nNobody has finished a challenge here yet."
    lines = [title, *(server_line(standing) for standing in board.standings)]
    lines.append(_page_line(board.page, board.pages, _count(board.total, "player")))
    return _fit("\n".join(lines))


def server_line(standing: ServerStanding) -> str:
    return (
        f"`{standing.rank:>2}.` **{_name(standing.name)}** — {_count(standing.wins, 'win')} of "
        f"{standing.played} played ({standing.win_rate:.0%}) · best streak {standing.best_streak}"
    )


def listing_text(infos: Sequence[ChallengeInfo], now: datetime) -> str:
    """The server's open challenges, then those to open later, then the recently closed ones."""
    running = [info for info in infos if info.is_open(now)]
    upcoming = sorted((info for info in infos if info.is_upcoming(now)), key=lambda info: info.opens_at)
    closed = [info for info in infos if info.closed_at is not None]
    if not running and not upcoming and not closed:
        return (
            "This server has no challenges yet: a member with Manage Server can make one with /challenge-admin create."
        )
    lines = ["**Open challenges**"]
    lines.extend(
        f"`{info.id}` **{_name(info.name, 60)}** — {info.title} · {info.rules_line} · "
        f"closes {_stamp(info.closes_at, 'R')} · {_played(info.attempts)}"
        for info in running
    )
    if not running:
        lines.append("None right now.")
    if upcoming:
        lines.append("**To open later**")
        lines.extend(
            f"`{info.id}` **{_name(info.name, 60)}** — {info.title} · {info.rules_line} · "
            f"opens {_stamp(info.opens_at, 'R')}, closes {_stamp(info.closes_at, 'R')}"
            for info in upcoming
        )
    if closed:
        lines.append("**Recently closed**")
        lines.extend(
            f"`{info.id}` **{_name(info.name, 60)}** — {info.title} deal {info.deal} · {info.rules_line} · "
            f"closed {_stamp(info.closed_at or info.closes_at, 'R')} · {_played(info.attempts)}"
            for info in closed
        )
    return _fit("\n".join(lines))


def daily_text(settings: DailySettings | None) -> str:
    """Whether the server's daily challenge is on, where, and what it plays."""
    if settings is None or not settings.enabled:
        return (
            "The daily challenge is off: a member with Manage Server can switch it on with /challenge-admin daily on."
        )
    return (
        f"The daily challenge is on in <#{settings.channel_id}>: {_daily_game(settings)}. "
        "A new one opens every day at 00:00 UTC and runs for the day."
    )


def daily_on_text(settings: DailySettings) -> str:
    """The answer to switching the daily challenge on (or changing it)."""
    return (
        f"The daily challenge is on in <#{settings.channel_id}>: {_daily_game(settings)}. Today's opens "
        "within a minute (unless it is open already), then a new one every day at 00:00 UTC."
    )


# -- small pieces ---------------------------------------------------------------------------


def _daily_game(settings: DailySettings) -> str:
    winnable = ", a deal the solver proved winnable" if settings.winnable else ""
    return f"{settings.title}{winnable}, {settings.rules_line}"


def _stamp(moment: datetime, style: str) -> str:
    return discord.utils.format_dt(moment, style)  # type: ignore[arg-type]


def _played(count: int) -> str:
    if count == 0:
        return "nobody has played yet"
    return f"{count} {'has' if count == 1 else 'have'} played"


def _cards(score: int) -> str:
    return f"{score} card{'' if score == 1 else 's'} home"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _page_line(page: int, pages: int, total: str) -> str:
    return f"Page {page + 1} of {pages} · {total}" if pages > 1 else total[:1].upper() + total[1:] + "."


def _name(name: str, limit: int = NAME_LIMIT) -> str:
    """A name safe to show in bold: cut to ``limit`` characters, markdown and mentions escaped."""
    short = name if len(name) <= limit else name[: limit - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(short))


def _fit(text: str) -> str:
    """Within Discord's 2000 characters (never reached by ten rows; a guard, not a layout)."""
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"
