"""The Activity's channel: the open challenge of the server the Activity was opened in, and the player's one attempt.

Discord tells the Activity's page its server and channel (the SDK's ``guildId`` and ``channelId``,
from the frame's address). The page sends the server's id here, and it is believed for one thing
only: which server's open challenges to show. Who plays is the session's signed-in Discord player
(:func:`gatebot.web.guests.guest`, signed in by Discord's OAuth2), never anything the page says.

What is checked is what chat checks once Discord has delivered a ``/challenge play`` from a server:
the challenge belongs to that server, it is open, and the player has no attempt at it yet (the
service's :meth:`~gatebot.service.challenges.ChallengeService.play`, with its sentences). What chat
gets from Discord and the table cannot check is that the player is a member of the server: a player
signed in here who sends another server's id may play that server's open challenge, once, as
themselves (their attempt counts in its standings under their own name). Only a Discord player
signed in may; a guest's page is refused.

A challenge is shown by its number, name, game, rules and closing time, never its deal (which
nobody may see until it closes).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from aiohttp import web

from gatebot.messages import N_, _, message_of
from gatebot.service.attempts import when
from gatebot.service.challenges import ChallengeError, ChallengeInfo
from gatebot.service.players import player_key
from gatebot.web.answers import answer
from gatebot.web.api import LIVE
from gatebot.web.guests import DISCORD, guest, reader
from gatebot.web.public import CHALLENGES
from gatebot.web.refusal import Refusal

__all__ = ["challenges", "play"]

NOT_SIGNED_IN = N_("A server's challenge is played as yourself: open the table from Discord to play it.")
NO_SERVER = N_("Say which server's challenge to play: send the id of the server the table was opened in.")
PLAY_FIELDS = N_("Playing a challenge takes the server's id, the challenge's number and confirm true or false.")
#: The most digits of a Discord id (a snowflake fits in 64 bits: 20 digits at most).
MAX_ID = 20


def _server(value: object) -> int:
    """A server's id as the page sends it (Discord's ids are strings of digits); one sentence if it isn't one."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.isascii() or not value.isdigit() or not 0 < len(value) <= MAX_ID:
        raise Refusal(400, NO_SERVER)
    return int(value)


def shown(info: ChallengeInfo, now: datetime, say: Callable[[str], str]) -> dict[str, Any]:
    """What the page is told of an open challenge: never its deal."""
    return {
        "id": info.id, "name": info.name, "title": info.title, "rules": say(info.rules_line),
        "closes": say(_("Closes {when}.", when=when(info.closes_at, now))), "closes_at": info.closes_at.isoformat(),
    }


async def challenges(request: web.Request) -> web.Response:
    """``GET /api/activity/challenges?guild=<id>``: the server's challenges open now, for the signed-in player."""
    player = await guest(request)
    if player.platform != DISCORD:
        raise Refusal(403, NOT_SIGNED_IN)
    guild_id = _server(request.query.get("guild"))
    service = request.app[CHALLENGES]
    now = service.now()
    say = reader(request).say
    found = await service.open_challenges(guild_id)
    return web.json_response({"challenges": [shown(info, now, say) for info in found]})


async def play(request: web.Request) -> web.Response:
    """``POST /api/activity/challenge`` ``{"guild", "challenge", "confirm"}``: start the player's one attempt.

    As ``/challenge play`` does: with a game running and no ``confirm`` the answer asks first
    (``kind`` ``confirm``); a second attempt, or one at a closed challenge, is chat's sentence.
    """
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise Refusal(400, PLAY_FIELDS)
    number, confirm = body.get("challenge"), body.get("confirm", False)
    if (number is not None and (not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 2**63)) \
            or not isinstance(confirm, bool):
        raise Refusal(400, PLAY_FIELDS)
    guild_id = _server(body.get("guild"))
    player = await guest(request)
    if player.platform != DISCORD:
        raise Refusal(403, NOT_SIGNED_IN)
    try:
        reply = await request.app[CHALLENGES].play(player, guild_id, number, confirm=confirm)
    except ChallengeError as error:
        raise Refusal(409, message_of(error)) from None
    request.app[LIVE].answered(player_key(player), reply)
    return answer(reply, reader(request))
