"""Servers' challenges: made, listed, played, ended and ranked, and the daily one that runs itself.

:mod:`~gatebot.service.challenges.service` is :class:`ChallengeService`, which does all that;
:mod:`~gatebot.service.challenges.info` the frozen values it answers with;
:mod:`~gatebot.service.challenges.standings` how attempts are ranked; and
:mod:`~gatebot.service.challenges.daily` which deal a daily challenge plays. Every public
name is importable from here.
"""

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
from gatebot.service.challenges.service import DEFAULT_HOURS, MAX_HOURS, ChallengeError, ChallengeService
from gatebot.service.challenges.standings import PAGE_SIZE

__all__ = [
    "DAILY_LIST_MINIMUM",
    "DEFAULT_HOURS",
    "MAX_HOURS",
    "PAGE_SIZE",
    "Announcement",
    "ChallengeError",
    "ChallengeInfo",
    "ChallengeService",
    "DailySettings",
    "Happening",
    "Leaderboard",
    "ServerBoard",
    "ServerStanding",
    "Standing",
    "daily_deal",
    "daily_name",
    "midnight",
]
