"""Who a visitor is: a guest, or the Discord player a sign-in link named, kept in their encrypted session cookie.

A guest's id is random (:func:`secrets.token_urlsafe`) and kept only in the session, which
aiohttp-session encrypts and signs (Fernet): a cookie can't be read, guessed or forged, so a
visitor reaches only the game of the guest their cookie names. The same session holds the
page's CSRF token, given to the page in a ``<meta>`` tag and required back on every change.

A Discord player's link (``/gate table``, :mod:`gatebot.service.links`) puts that player in the
session beside the guest: the table then plays their own saved game, the one of chat, and the
guest's game stays stored under the guest. The sign-in holds the id of the player's row when the
link was made; every request checks it against the row stored now, so after a forget-me (the
row deleted; a new one, if they play again, has a new id) the session reaches nothing of theirs
and goes back to its guest, with one sentence saying how to sign in again.
"""

from __future__ import annotations

import secrets

from aiohttp import web
from aiohttp_session import Session, get_session

from gatebot.locale import Translator, translator
from gatebot.messages import N_
from gatebot.service import Actor, GameService
from gatebot.service.links import Link
from gatebot.web.refusal import Refusal

#: The platform web guests play on, beside ``discord`` and ``terminal``.
PLATFORM = "web"
#: The platform of a player signed in by a link from chat.
DISCORD = "discord"
GUEST_NAME = "Guest"
SERVICE = web.AppKey("service", GameService)
#: The Activity's client id (public: the application's id), for the page's SDK; absent without Activities.
CLIENT_ID = web.AppKey("discord_client_id", str)
_GUEST = "guest"
_CSRF = "csrf"
#: The signed-in Discord player: their user id, their row's id when the link was made, their name.
_DISCORD, _PLAYER, _NAME = "discord", "player", "name"
#: A sentence the page says once, on its next look at the game (after a sign-in).
_NOTICE = "notice"

SIGNED_OUT = N_("This page is no longer signed in to your Discord game: ask for a new link with /gate table "
                "in Discord, or reload the page to play as a guest.")


async def session_of(request: web.Request) -> Session:
    """The visitor's session, with a guest id and a CSRF token in it (made now for a new visitor)."""
    session = await get_session(request)
    if not isinstance(session.get(_GUEST), str):
        session[_GUEST] = secrets.token_urlsafe(18)
    if not isinstance(session.get(_CSRF), str):
        session[_CSRF] = secrets.token_urlsafe(32)
    return session


def _signed_in(session: Session) -> Link | None:
    """The Discord player the session was signed in to, unchecked; None for a guest."""
    user_id, player_id, name = session.get(_DISCORD), session.get(_PLAYER), session.get(_NAME)
    if isinstance(user_id, str) and isinstance(player_id, int) and isinstance(name, str):
        return Link(user_id, player_id, name)
    return None


def _discord_actor(link: Link, request: web.Request) -> Actor:
    """The signed-in player as the service knows them.

    The browser's language says the page's sentences but is never kept as the language of their
    boards in chat (a guess, as a typed message's server's is).
    """
    return Actor(DISCORD, link.user_id, link.name, locale=reader_locale(request), guessed_locale=True)


async def rate_key(request: web.Request) -> str:
    """Whose token bucket a request takes from: the session's player, else the address (no database read)."""
    session = await get_session(request)
    link = _signed_in(session)
    if link is not None:
        return f"{DISCORD} {link.user_id}"
    guest_id = session.get(_GUEST)
    return guest_id if isinstance(guest_id, str) else f"address {request.remote}"


async def known_guest(request: web.Request) -> Actor | None:
    """The player the request's session names (checked, as :func:`guest`); None for a visitor it doesn't know yet."""
    session = await get_session(request)
    if _signed_in(session) is None and not isinstance(session.get(_GUEST), str):
        return None
    return await guest(request)


async def guest(request: web.Request) -> Actor:
    """The visitor as a player: the Discord player signed in, else their guest; reading their browser's language.

    A sign-in whose player's row is no longer the one the link named (a forget-me since) ends here:
    the session goes back to its guest and the request is refused with one sentence (403).
    """
    session = await session_of(request)
    link = _signed_in(session)
    if link is None:
        return actor(session[_GUEST], request)
    player = _discord_actor(link, request)
    if await request.app[SERVICE].player_id(player) != link.player_id:
        sign_out(session)
        raise Refusal(403, SIGNED_OUT, save_session=True)
    return player


async def still_signed_in(request: web.Request, player: Actor) -> bool:
    """Whether ``player`` (from :func:`guest`) may still see their game: a guest always, a sign-in while its row is."""
    if player.platform != DISCORD:
        return True
    link = _signed_in(await get_session(request))
    return link is not None and await request.app[SERVICE].player_id(player) == link.player_id


async def sign_in(request: web.Request, link: Link, *, notice: str) -> None:
    """Make the visitor's session ``link``'s Discord player (the guest stays in it); ``notice`` is said once.

    The CSRF token is made anew, so no token given before the sign-in works after it.
    """
    session = await session_of(request)
    session[_DISCORD], session[_PLAYER], session[_NAME] = link.user_id, link.player_id, link.name
    session[_NOTICE] = notice
    session[_CSRF] = secrets.token_urlsafe(32)


async def signed_in_link(request: web.Request) -> Link | None:
    """The Discord player the session names, unchecked (what the page offers: Sign out); None for a guest."""
    return _signed_in(await get_session(request))


async def back_to_guest(request: web.Request, *, notice: str) -> None:
    """Sign the session out of its Discord player (Sign out): it is its guest again, with a new CSRF token."""
    session = await session_of(request)
    sign_out(session)
    session[_NOTICE] = notice
    session[_CSRF] = secrets.token_urlsafe(32)


def sign_out(session: Session) -> None:
    """Drop the session's Discord player: it is its guest again."""
    for key in (_DISCORD, _PLAYER, _NAME, _NOTICE):
        session.pop(key, None)


async def guest_behind(request: web.Request) -> Actor | None:
    """The session's own guest, signed in or not (a forget-me from the page forgets them too); None if none."""
    guest_id = (await get_session(request)).get(_GUEST)
    return actor(guest_id, request) if isinstance(guest_id, str) else None


async def take_notice(request: web.Request) -> str | None:
    """The sentence left for the page to say once (after a sign-in), taken from the session; None if none."""
    session = await get_session(request)
    notice = session.pop(_NOTICE, None)
    return notice if isinstance(notice, str) else None


async def csrf_token(request: web.Request) -> str:
    """The token the visitor's page must send back as ``X-CSRF-Token`` on every change."""
    return str((await session_of(request))[_CSRF])


async def expected_csrf(request: web.Request) -> str | None:
    """The token the session holds, or None when the visitor has no session yet."""
    token = (await get_session(request)).get(_CSRF)
    return token if isinstance(token, str) else None


async def forget_guest(request: web.Request) -> None:
    """End the visitor's session: their next request is a new guest."""
    (await get_session(request)).invalidate()


def actor(guest_id: str, request: web.Request) -> Actor:
    return Actor(PLATFORM, guest_id, GUEST_NAME, locale=reader_locale(request))


def reader_locale(request: web.Request) -> str | None:
    """The first language of the browser's ``Accept-Language`` (``de-DE``), None when it names none."""
    header = request.headers.get("Accept-Language", "")
    first = header.split(",", 1)[0].split(";", 1)[0].strip()
    return first[:35] if first and first != "*" else None


def reader(request: web.Request) -> Translator:
    """The translator for the request's reader."""
    return translator(reader_locale(request))
