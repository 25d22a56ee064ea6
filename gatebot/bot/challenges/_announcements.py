"""Challenges in words for Discord: announcements, standings, listings, the daily settings.

Pure functions from the challenge service's values to message text, so every place that
shows a challenge — a command's answer, a scheduled post, an edited announcement — says it
the same way. Times are Discord timestamps (``<t:1736121600:R>``), which each reader sees in
their own time zone. Each is said in the language it is given: a command's answer in its
reader's, an announcement (which has no single reader) in its server's ``preferred_locale``;
names and the variant's title are shown as they come. Every text stays
within Discord's 2000 characters: standings are a page of ten rows at most, and names are cut
and escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from gatebot.bot.language import reader
from gatebot.locale import Translator
from gatebot.messages import Number, _, n_
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
#: What a text is said in when no language is given: English, gatebot's own.
ENGLISH = reader()  # names escaped, as every Discord reader's


# -- one challenge --------------------------------------------------------------------------


def opened_text(info: ChallengeInfo, language: Translator = ENGLISH) -> str:
    """The announcement of an open challenge, with its Play button under it: never its deal number."""
    say = language.say
    icon = "🗓️" if info.kind is ChallengeKind.DAILY else "🏁"
    return _fit(
        f"{icon} " + say(_("**{name}** is open! (challenge {number})", name=_name(info.name, 100), number=info.id))
        + f"\n{info.title} · {say(info.rules_line)}\n"
        + say(_("Closes {soon} ({at})", soon=_stamp(info.closes_at, "R"), at=_stamp(info.closes_at, "f")))
        + f" · {say(_played(info.attempts))}\n"
        + say(_("One attempt each: press **Play**, or use `/challenge play challenge:{number}`.", number=info.id))
    )


def scheduled_text(info: ChallengeInfo, language: Translator = ENGLISH) -> str:
    """The notice of a challenge made to open later; its announcement with Play comes when it opens."""
    say = language.say
    return _fit(
        "📅 " + say(_(
            "**{name}** (challenge {number}) opens {soon} ({at}) and runs until {until}.",
            name=_name(info.name, 100), number=info.id, soon=_stamp(info.opens_at, "R"),
            at=_stamp(info.opens_at, "f"), until=_stamp(info.closes_at, "f"),
        ))
        + f"\n{info.title} · {say(info.rules_line)}\n"
        + say(_("One attempt each: its announcement, with a Play button, is posted here when it opens."))
    )


def retired_text(info: ChallengeInfo, language: Translator = ENGLISH) -> str:
    """What an announcement becomes once its challenge closed: the Play button is gone."""
    say = language.say
    when = info.closed_at or info.closes_at
    return _fit(
        "🔒 " + say(_(
            "**{name}** (challenge {number}) closed {when}: {game} deal {deal}",
            name=_name(info.name, 100), number=info.id, when=_stamp(when, "R"), game=info.title, deal=info.deal,
        ))
        + f" · {say(info.rules_line)} · {say(_played(info.attempts))}\n"
        + say(_("See the results with `/challenge leaderboard challenge:{number}`.", number=info.id))
    )


def removed_text(info: ChallengeInfo, language: Translator = ENGLISH) -> str:
    """What an announcement becomes when its server's challenges are deleted."""
    return "🗑️ " + language.say(_(
        "**{name}** (challenge {number}) was removed by this server's admins.",
        name=_name(info.name, 100), number=info.id,
    ))


def final_text(board: Leaderboard, language: Translator = ENGLISH) -> str:
    """The final standings posted when a challenge closes: the deal, the top ten and how many played."""
    say = language.say
    info = board.challenge
    lines = [
        "🏆 " + say(_(
            "**{name}** (challenge {number}) has closed: {game} deal {deal}",
            name=_name(info.name, 100), number=info.id, game=info.title, deal=info.deal,
        )) + f" · {say(info.rules_line)}",
    ]
    if not board.total:
        lines.append(say(_("Nobody played it.")))
        return _fit("\n".join(lines))
    lines.append(say(n_("Final standings ({n} player):", "Final standings ({n} players):", board.total)))
    lines.extend(standing_line(standing, language) for standing in board.standings)
    more = board.total - len(board.standings)
    if more > 0:
        lines.append(say(_(
            "…and {more} more: `/challenge leaderboard challenge:{number}`, or ▶ below.", more=more, number=info.id
        )))
    return _fit("\n".join(lines))


def leaderboard_text(board: Leaderboard, now: datetime, language: Translator = ENGLISH) -> str:
    """A page of a challenge's standings; the deal is shown only once it has closed (never before it opens)."""
    say = language.say
    info = board.challenge
    if info.is_open(now):
        state = say(_("open, closes {when}", when=_stamp(info.closes_at, "R")))
        game = info.title
    elif info.is_upcoming(now):  # made to open later: its deal is as secret as an open one's
        state = say(_("not open yet: it opens {when}", when=_stamp(info.opens_at, "R")))
        game = info.title
    else:
        state = say(_("closed {when}", when=_stamp(info.closed_at or info.closes_at, "R")))
        game = say(_("{game} deal {deal}", game=info.title, deal=info.deal))
    lines = [
        "📊 " + say(_("**{name}** (challenge {number})", name=_name(info.name, 100), number=info.id))
        + f" — {game} · {say(info.rules_line)} · {state}"
    ]
    if not board.total:
        lines.append(say(
            _("Nobody has played it yet: press Play on its announcement or use /challenge play.")
            if info.is_open(now) else _("Nobody played it.")
        ))
        return _fit("\n".join(lines))
    lines.extend(standing_line(standing, language) for standing in board.standings)
    lines.append(_page_line(board.page, board.pages, say(_played(board.total)), language))
    return _fit("\n".join(lines))


def standing_line(standing: Standing, language: Translator = ENGLISH) -> str:
    """One row: rank, name, result, moves (with what hints and undos added), hints, undos, time."""
    say = language.say
    cards = n_("{n} card home", "{n} cards home", standing.score)
    if standing.won:
        result = "🏆 " + say(_("won"))
    elif standing.playing:
        result = "⏳ " + say(_("playing, {cards}", cards=cards))
    elif standing.status is GameStatus.EXPIRED:
        result = say(_("{cards} (time ran out)", cards=cards))
    else:
        result = say(cards)
    moves = say(n_("{n} move", "{n} moves", standing.moves))
    if standing.ranked_moves != standing.moves:
        moves += " " + say(_("(+{n} counted)", n=standing.ranked_moves - standing.moves))
    hints = say(n_("{n} hint", "{n} hints", standing.hints))
    undos = say(n_("{n} undo", "{n} undos", standing.undos))
    return (
        f"`{standing.rank:>2}.` **{_name(standing.name)}** — {result} · {moves} · "
        f"{hints} · {undos} · {duration(standing.seconds)}"
    )


# -- a server -------------------------------------------------------------------------------


def server_board_text(board: ServerBoard, language: Translator = ENGLISH) -> str:
    """A page of the server's all-time leaderboard: wins, games played, win rate, best streak."""
    say = language.say
    title = "📊 " + say(n_(
        "**All-time challenge leaderboard** — {n} challenge in this server",
        "**All-time challenge leaderboard** — {n} challenges in this server", board.challenges,
    ))
    if not board.total:
        return f"{title}\n" + say(_("Nobody has finished a challenge here yet."))
    lines = [title, *(server_line(standing, language) for standing in board.standings)]
    lines.append(_page_line(board.page, board.pages, say(n_("{n} player", "{n} players", board.total)), language))
    return _fit("\n".join(lines))


def server_line(standing: ServerStanding, language: Translator = ENGLISH) -> str:
    return f"`{standing.rank:>2}.` **{_name(standing.name)}** — " + language.say(n_(
        "{n} win of {played} played ({rate}) · best streak {streak}",
        "{n} wins of {played} played ({rate}) · best streak {streak}",
        standing.wins, played=standing.played, rate=Number(standing.win_rate, percent=True),
        streak=standing.best_streak,
    ))


def listing_text(infos: Sequence[ChallengeInfo], now: datetime, language: Translator = ENGLISH) -> str:
    """The server's open challenges, then those to open later, then the recently closed ones."""
    say = language.say
    running = [info for info in infos if info.is_open(now)]
    upcoming = sorted((info for info in infos if info.is_upcoming(now)), key=lambda info: info.opens_at)
    closed = [info for info in infos if info.closed_at is not None]
    if not running and not upcoming and not closed:
        return say(_(
            "This server has no challenges yet: a member with Manage Server can make one with /challenge-admin create."
        ))
    lines = [say(_("**Open challenges**"))]
    lines.extend(
        f"`{info.id}` **{_name(info.name, 60)}** — {info.title} · {say(info.rules_line)} · "
        + say(_("closes {when}", when=_stamp(info.closes_at, "R"))) + f" · {say(_played(info.attempts))}"
        for info in running
    )
    if not running:
        lines.append(say(_("None right now.")))
    if upcoming:
        lines.append(say(_("**To open later**")))
        lines.extend(
            f"`{info.id}` **{_name(info.name, 60)}** — {info.title} · {say(info.rules_line)} · "
            + say(_("opens {soon}, closes {when}", soon=_stamp(info.opens_at, "R"), when=_stamp(info.closes_at, "R")))
            for info in upcoming
        )
    if closed:
        lines.append(say(_("**Recently closed**")))
        lines.extend(
            f"`{info.id}` **{_name(info.name, 60)}** — "
            + say(_("{game} deal {deal}", game=info.title, deal=info.deal)) + f" · {say(info.rules_line)} · "
            + say(_("closed {when}", when=_stamp(info.closed_at or info.closes_at, "R")))
            + f" · {say(_played(info.attempts))}"
            for info in closed
        )
    return _fit("\n".join(lines))


def daily_text(settings: DailySettings | None, language: Translator = ENGLISH) -> str:
    """Whether the server's daily challenge is on, where, and what it plays."""
    if settings is None or not settings.enabled:
        return language.say(_(
            "The daily challenge is off: a member with Manage Server can switch it on with /challenge-admin daily on."
        ))
    return language.say(_(
        "The daily challenge is on in {channel}: {game}. A new one opens every day at 00:00 UTC and runs for the day.",
        channel=_channel(settings.channel_id), game=_daily_game(settings, language),
    ))


def daily_on_text(settings: DailySettings, language: Translator = ENGLISH) -> str:
    """The answer to switching the daily challenge on (or changing it)."""
    return language.say(_(
        "The daily challenge is on in {channel}: {game}. Today's opens within a minute (unless it is open already), "
        "then a new one every day at 00:00 UTC.",
        channel=_channel(settings.channel_id), game=_daily_game(settings, language),
    ))


# -- small pieces ---------------------------------------------------------------------------


def _daily_game(settings: DailySettings, language: Translator) -> str:
    winnable = language.say(_(", a deal the solver proved winnable")) if settings.winnable else ""
    return f"{settings.title}{winnable}, {language.say(settings.rules_line)}"


def _channel(channel_id: int) -> str:
    """A channel's mention, which Discord shows as its name."""
    return "<#" + str(channel_id) + ">"


def _stamp(moment: datetime, style: str) -> str:
    return discord.utils.format_dt(moment, style)  # type: ignore[arg-type]


def _played(count: int) -> str:
    if count == 0:
        return _("nobody has played yet")
    return n_("{n} has played", "{n} have played", count)


def _page_line(page: int, pages: int, total: str, language: Translator) -> str:
    if pages > 1:
        return language.say(_("Page {page} of {pages} · {total}", page=page + 1, pages=pages, total=total))
    return total[:1].upper() + total[1:] + "."


def _name(name: str, limit: int = NAME_LIMIT) -> str:
    """A name safe to show in bold: cut to ``limit`` characters, markdown and mentions escaped."""
    short = name if len(name) <= limit else name[: limit - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(short))


def _fit(text: str) -> str:
    """Within Discord's 2000 characters (never reached by ten rows; a guard, not a layout)."""
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"
