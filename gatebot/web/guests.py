"""Who a visitor is: a guest named by their encrypted session cookie, and the token their page must send back.

A guest's id is random (:func:`secrets.token_urlsafe`) and kept only in the session, which
aiohttp-session encrypts and signs (Fernet): a cookie can't be read, guessed or forged, so a
visitor reaches only the game of the guest their cookie names. The same session holds the
page's CSRF token, given to the page in a ``<meta>`` tag and required back on every change.
"""

from __future__ import annotations

import secrets

from aiohttp import web
from aiohttp_session import Session, get_session

from gatebot.locale import Translator, translator
from gatebot.service import Actor

#: The platform web guests play on, beside ``discord`` and ``terminal``.
PLATFORM = "web"
GUEST_NAME = "Guest"
_GUEST = "guest"
_CSRF = "csrf"


async def session_of(request: web.Request) -> Session:
    """The visitor's session, with a guest id and a CSRF token in it (made now for a new visitor)."""
    session = await get_session(request)
    if not isinstance(session.get(_GUEST), str):
        session[_GUEST] = secrets.token_urlsafe(18)
    if not isinstance(session.get(_CSRF), str):
        session[_CSRF] = secrets.token_urlsafe(32)
    return session


async def known_guest(request: web.Request) -> Actor | None:
    """The guest the request's session names, or None for a visitor the session doesn't know yet."""
    session = await get_session(request)
    guest = session.get(_GUEST)
    return actor(guest, request) if isinstance(guest, str) else None


async def guest(request: web.Request) -> Actor:
    """The visitor as a player: their guest id, reading the language their browser asks for."""
    session = await session_of(request)
    return actor(session[_GUEST], request)


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
