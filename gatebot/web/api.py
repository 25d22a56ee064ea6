"""The web table's handlers: each reads its request, asks the service once and answers with the player's view.

Every change names the version of the board the page showed (``"version": N``), the same
check the bot's buttons make: a page that is out of date gets the board as it is now (409)
and nothing is played. A visitor only ever reaches their own game, their guest's or, signed in
by a link from chat (``GET /link/<token>``), their Discord player's: no request names a game id.
"""

from __future__ import annotations

import json
from contextlib import aclosing
from importlib.resources import files
from typing import Any

from aiohttp import web

from gatebot.messages import N_, _
from gatebot.rules import DEFAULT_VARIANT
from gatebot.service import Actor, GameService, GameStatus, Reply, ReplyKind
from gatebot.service.links import LinkError, LinkExpired, Links
from gatebot.service.players import PlayerKey, player_key
from gatebot.web import signin, words
from gatebot.web.answers import answer, payload
from gatebot.web.guests import (
    CLIENT_ID,
    DISCORD,
    SERVICE,
    csrf_token,
    forget_guest,
    guest,
    guest_behind,
    known_guest,
    reader,
    sign_in,
    still_signed_in,
    take_notice,
)
from gatebot.web.live import Live
from gatebot.web.refusal import Refusal

__all__ = ["LINKS", "LIVE", "SERVICE"]

LIVE = web.AppKey("live", Live)
LINKS = web.AppKey("links", Links)

MALFORMED = N_("That request couldn't be read: send a JSON object, like {\"move\": \"3f\", \"version\": 4}.")
NO_VERSION = N_("Say which board the move is for: send the version the page shows with it.")
NO_MOVE = N_("Say which move to play, like 3f, w5 or d.")
NEW_GAME_FIELDS = N_("A new deal takes a variant, a deal number or none, a list of options and winnable true or false.")
NO_SESSION = N_("Open the table first: your page has no session yet.")
LINK_EXPIRED = N_("This link has expired: ask for a new one with /gate table in Discord.")
LINK_BROKEN = N_("This link doesn't work: ask for a new one with /gate table in Discord, and open it as it is.")
LINK_FORGOTTEN = N_("This link no longer works, since everything about you was deleted: ask for a new one with "
                    "/gate table in Discord.")
SIGNED_IN = N_("The table now shows your Discord game, the same one as in chat.")
SIGNED_IN_OVER_GUEST = N_("The table now shows your Discord game, the same one as in chat; the game you played "
                          "here as a guest stays stored for this browser.")
#: The most options a new deal may name (no variant has more than three).
MAX_OPTIONS = 8


async def page(request: web.Request) -> web.Response:
    """The table's page in the reader's language, its CSRF token in a ``<meta>`` tag (no inline script).

    Opened by Discord as the Activity (``?frame_id=…``, Activities enabled), it names the application's
    client id too, which tells the page to sign in through Discord's SDK. Outside Discord, its footer
    offers Sign in with Discord (when the table has an OAuth2 client) or Sign out (:mod:`gatebot.web.signin`).
    """
    token = await csrf_token(request)
    template = (files("gatebot.web") / "static" / "index.html").read_text(encoding="utf-8")
    in_frame = "frame_id" in request.query
    client_id = request.app.get(CLIENT_ID, "") if in_frame else ""
    account = "" if in_frame else await signin.account(request, token)
    text = (words.page(template, reader(request)).replace("__CSRF_TOKEN__", token).replace("__CLIENT_ID__", client_id)
            .replace("__ACCOUNT__", account))
    return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})


async def game(request: web.Request) -> web.Response:
    """``GET /api/game``: the visitor's game as it stands (their last one as it ended; none yet: no view)."""
    player = await guest(request)
    reply = await request.app[SERVICE].show(player)
    notice = await take_notice(request)
    if reply.kind is ReplyKind.ERROR and reply.game is None:
        data: dict[str, Any] = {"kind": "none", "view": None, "message": reader(request).say(reply.message or "")}
    else:
        data = payload(reply, reader(request))
    if notice is not None:
        data["notice"] = reader(request).say(notice)
    return web.json_response(data)


async def follow_link(request: web.Request) -> web.Response:
    """``GET /link/<token>``: sign the browser in to the Discord player a ``/gate table`` link names, then the table.

    An expired, forged or damaged link, or one made before its player was forgotten, is a page of
    one sentence saying to ask for a new link. The guest the browser had stays in its session, and
    their game stays stored; the page says that the table now shows the Discord game.
    """
    try:
        link = request.app[LINKS].open(request.match_info["token"])
    except LinkExpired:
        raise Refusal(410, LINK_EXPIRED) from None
    except LinkError:
        raise Refusal(400, LINK_BROKEN) from None
    service = request.app[SERVICE]
    if await service.player_id(Actor(DISCORD, link.user_id, link.name)) != link.player_id:
        raise Refusal(410, LINK_FORGOTTEN)
    had = await guest_behind(request)
    kept = had is not None and had.platform != DISCORD and (await service.show(had)).game is not None
    await sign_in(request, link, notice=SIGNED_IN_OVER_GUEST if kept else SIGNED_IN)
    raise web.HTTPSeeOther(request.app.router["table"].url_for())


async def play(request: web.Request) -> web.Response:
    """``POST /api/play`` ``{"move": "3f", "version": 4}``: play a move (or a line of them) typed as in chat."""
    body = await _body(request)
    move = body.get("move")
    if not isinstance(move, str) or not move.strip():
        raise Refusal(400, NO_MOVE)
    service = request.app[SERVICE]
    player = await guest(request)
    reply = await service.play(player, move, expected_version=_version(body))
    _after(request, player_key(player), reply)
    return answer(reply, reader(request))


async def action(request: web.Request) -> web.Response:
    """``POST /api/undo``, ``/api/auto``, ``/api/end``, ``/api/hint`` ``{"version": 4}``: a button of the board.

    A hint is the explained hint of chat, and nothing is played.
    """
    body = await _body(request)
    name = request.match_info["action"]
    service = request.app[SERVICE]
    player = await guest(request)
    reply = await service.act(player, name, expected_version=_version(body))
    if name != "hint":
        _after(request, player_key(player), reply)
    return answer(reply, reader(request))


async def new_game(request: web.Request) -> web.Response:
    """``POST /api/new`` ``{"variant", "deal", "options", "winnable", "confirm"}``: deal a game.

    With a game in progress and no ``confirm``, the answer asks first (``kind`` ``confirm``) and
    nothing changes; with ``confirm`` the running game is abandoned, as in chat.
    """
    body = await _body(request)
    variant = body.get("variant", DEFAULT_VARIANT)
    deal = body.get("deal")
    options = body.get("options", [])
    winnable, confirm = body.get("winnable", False), body.get("confirm", False)
    if (
        not isinstance(variant, str)
        or not (deal is None or (isinstance(deal, int) and not isinstance(deal, bool)))
        or not isinstance(options, list) or len(options) > MAX_OPTIONS
        or not all(isinstance(option, str) for option in options)
        or not isinstance(winnable, bool) or not isinstance(confirm, bool)
    ):
        raise Refusal(400, NEW_GAME_FIELDS)
    player = await guest(request)
    reply = await request.app[SERVICE].new_game(player, variant[:40], deal=deal, options=options, confirm=confirm,
                                                winnable=winnable)
    request.app[LIVE].answered(player_key(player), reply)
    return answer(reply, reader(request))


async def preferences(request: web.Request) -> web.Response:
    """``POST /api/preferences`` ``{"four_colour": true}``: how the visitor's cards are drawn, here and in chat."""
    body = await _body(request)
    four_colour = body.get("four_colour")
    if not isinstance(four_colour, bool):
        raise Refusal(400, MALFORMED)
    chosen = await request.app[SERVICE].set_preferences(await guest(request), four_colour=four_colour)
    return web.json_response({"four_colour": chosen.four_colour})


async def forget(request: web.Request) -> web.Response:
    """``POST /api/forget``: delete everything stored about the visitor, then end their session.

    Signed in by a link, that is the Discord player (their chat games too: the link proved who they
    are) and the browser's own guest.
    """
    await _body(request)
    service = request.app[SERVICE]
    player = await known_guest(request)
    forgotten = player is not None and await service.forget(player)
    behind = await guest_behind(request)
    if player is not None and behind is not None and behind != player:
        forgotten = await service.forget(behind) or forgotten
    await forget_guest(request)
    said = _("Everything about you is deleted: your games, results and settings.") if forgotten \
        else _("There was nothing stored about you.")
    return web.json_response({"message": reader(request).say(said)})


async def events(request: web.Request) -> web.StreamResponse:
    """``GET /api/events``: server-sent events, the board as stored now and then after each change to it.

    A signed-in player's sign-in is checked again before each change is sent: after a forget-me the
    stream ends, and reconnecting is refused.
    """
    player = await known_guest(request)
    if player is None:
        raise Refusal(403, NO_SESSION)
    service, live = request.app[SERVICE], request.app[LIVE]
    language = reader(request)
    stream = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                         "X-Accel-Buffering": "no"})
    await stream.prepare(request)
    try:
        async with aclosing(live.changes((player.platform, player.user_id))) as changes:
            await _send(stream, payload(await service.show(player), language))
            async for change in changes:
                if change is not None and not await still_signed_in(request, player):
                    break
                if change is None:
                    await stream.write(b": still here\n\n")
                elif isinstance(change, Reply):
                    await _send(stream, payload(change, language), event=b"offer")
                else:
                    stored = live.stored(change) or await service.show(player)
                    await _send(stream, payload(stored, language))
    except ConnectionError:
        pass  # the page went away
    return stream


async def _send(stream: web.StreamResponse, data: dict[str, Any], *, event: bytes = b"view") -> None:
    await stream.write(b"event: " + event + b"\ndata: " + json.dumps(data, separators=(",", ":")).encode() + b"\n\n")


def _after(request: web.Request, owner: PlayerKey, reply: Reply) -> None:
    """After a change: its reply kept for the owner's open pages (no second read), and the End offer asked for."""
    request.app[LIVE].answered(owner, reply)
    _offer_later(request, owner, reply)


def _offer_later(request: web.Request, owner: PlayerKey, reply: Reply) -> None:
    """After answering a change that left nothing hidden: ask whether a win is left, and offer the end if not.

    The solver may take up to about a second, so the move is answered first (as in chat) and the
    offer reaches the player's open pages as an ``offer`` event; the proof is stored with the
    game, so any later read of that position (another process's page too) has the End button.
    """
    if reply.saved and reply.game is not None and reply.status is GameStatus.ACTIVE and not reply.game.hidden_count:
        service, live = request.app[SERVICE], request.app[LIVE]
        live.later(_offer(service, live, owner, reply))


async def _offer(service: GameService, live: Live, owner: PlayerKey, reply: Reply) -> None:
    offered = await service.end_offer(reply)
    if offered is not None:
        live.tell(owner, offered)


async def _body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object; one sentence when it is malformed (and 413 past the size limit)."""
    try:
        data = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise Refusal(400, MALFORMED) from None
    if not isinstance(data, dict):
        raise Refusal(400, MALFORMED)
    return data


def _version(body: dict[str, Any]) -> int:
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise Refusal(400, NO_VERSION)
    return version
