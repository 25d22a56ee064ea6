"""The table inside Discord (an Activity): signing the player in with Discord's OAuth2, verified here.

In Discord's frame the page asks the Embedded App SDK to ``authorize`` (scope ``identify``) and
posts the one-time code it gets to ``POST /api/activity/token`` (with the CSRF token, as every
change). :class:`DiscordOAuth` exchanges the code at Discord's token endpoint with the
application's client id and secret (``DISCORD_CLIENT_ID``/``DISCORD_CLIENT_SECRET``: never logged,
never in a page), then asks ``/oauth2/@me`` with the access token whose it is: the application
it was granted to (it must be ours) and the user. The session is then signed in to that Discord
player exactly as a ``/gate table`` link does (:func:`gatebot.web.guests.sign_in`: the player's
row id, checked again on every request, so a forget-me ends it), and the access token goes back
to the page for the SDK's ``authenticate``. Nothing the page says about who it is is believed:
only what Discord answers to the code.

Discord's refusals and failures become one sentence each: a code that is wrong, expired or used
already; Discord unreachable or timing out; a 429 (waiting its ``retry_after``, when short, and
trying again a bounded number of times); a 5xx (tried again after a growing pause).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from gatebot.messages import N_
from gatebot.service import Actor
from gatebot.service.links import Link
from gatebot.settings import ActivitySettings
from gatebot.web.guests import CLIENT_ID, DISCORD, SERVICE, csrf_token, sign_in
from gatebot.web.refusal import Refusal

__all__ = ["CLIENT_ID", "OAUTH", "DiscordOAuth", "oauth_context", "token"]

log = logging.getLogger(__name__)

NOT_SET_UP = N_("This table isn't set up to be played inside Discord.")
BAD_CODE = N_("Discord didn't accept that sign-in (it was wrong, expired or used already): close the table and "
              "open it again.")
NO_CODE = N_("Say which sign-in to use: send the code Discord gave the page.")
UNREACHABLE = N_("Discord can't be reached just now, so you aren't signed in: try again in a moment.")
BUSY = N_("Discord is busy just now, so you aren't signed in: try again in a moment.")
MISCONFIGURED = N_("Signing in with Discord doesn't work on this table just now: please tell the bot's operator.")
SIGNED_IN = N_("The table shows your Discord game, the same one as in chat.")

#: The longest code read; Discord's are about 30 characters.
MAX_CODE = 200
#: Tries of each call to Discord (the first and two more) before its failure is the answer.
TRIES = 3
#: The longest ``retry_after`` of a 429 waited for (seconds); a longer one is answered with :data:`BUSY`.
LONGEST_WAIT = 5.0
#: The pause before the second try after a 5xx or a dropped connection (seconds), doubled for each next one.
BACKOFF = 0.5
#: How long one call to Discord may take in all (seconds), unless the settings say.
TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class DiscordUser:
    """Who Discord says the code's user is: their id and the name shown for them."""

    id: str
    name: str


class SignInError(Exception):
    """Discord refused or failed a sign-in: the status to answer and the one sentence to say."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class DiscordOAuth:
    """Discord's OAuth2 for one application: a code exchanged for an access token, and whose it is.

    ``sleep`` is how pauses are waited (tests count them); ``timeout`` bounds each call.
    """

    def __init__(
        self, settings: ActivitySettings, session: aiohttp.ClientSession, *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, timeout: float = TIMEOUT,
    ) -> None:
        self.settings = settings
        self._session = session
        self._sleep = sleep
        self._timeout = aiohttp.ClientTimeout(total=timeout)

    async def sign_in(
        self, code: str, *, redirect_uri: str | None = None, code_verifier: str | None = None,
    ) -> tuple[str, DiscordUser]:
        """The access token ``code`` is exchanged for and the Discord user it is for; :class:`SignInError` if none.

        A code from Discord's authorisation page (:mod:`gatebot.web.signin`) is sent back with the
        ``redirect_uri`` it was asked for with and the PKCE ``code_verifier`` whose challenge that
        request carried; the Activity's codes (from the SDK) have neither.
        """
        form = {
            "client_id": self.settings.client_id, "client_secret": self.settings.client_secret,
            "grant_type": "authorization_code", "code": code,
        }
        if redirect_uri is not None:
            form["redirect_uri"] = redirect_uri
        if code_verifier is not None:
            form["code_verifier"] = code_verifier
        status, data = await self._call("POST", "/oauth2/token", data=form)
        if status == 400 and data.get("error") in ("invalid_grant", "invalid_request"):
            raise SignInError(400, BAD_CODE)
        if status in (400, 401) and data.get("error") in ("invalid_client", "unauthorized_client"):
            log.error("Discord refused the Activity's OAuth2 client: check DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET")
            raise SignInError(502, MISCONFIGURED)
        token = data.get("access_token")
        if status != 200 or not isinstance(token, str) or not token or data.get("token_type") != "Bearer":
            log.warning("Discord's token endpoint answered %s without an access token", status)
            raise SignInError(400 if 400 <= status < 500 else 502, BAD_CODE if 400 <= status < 500 else UNREACHABLE)
        scopes = str(data.get("scope", "")).split()
        if "identify" not in scopes:
            raise SignInError(400, BAD_CODE)
        status, data = await self._call("GET", "/oauth2/@me", headers={"Authorization": f"Bearer {token}"})
        if status == 401:
            raise SignInError(400, BAD_CODE)
        application, user = data.get("application"), data.get("user")
        if status != 200 or not isinstance(application, dict) or not isinstance(user, dict):
            raise SignInError(502, UNREACHABLE)
        if str(application.get("id")) != self.settings.client_id:
            log.warning("an Activity sign-in's token was granted to application %s, not this one",
                        str(application.get("id"))[:20])
            raise SignInError(400, BAD_CODE)
        user_id, name = user.get("id"), user.get("global_name") or user.get("username")
        if not isinstance(user_id, str) or not user_id.isdigit() or not isinstance(name, str):
            raise SignInError(502, UNREACHABLE)
        return token, DiscordUser(user_id, name[:100])

    async def _call(self, method: str, path: str, **options: Any) -> tuple[int, dict[str, Any]]:
        """One call to Discord, tried again after a short 429 or a 5xx or a failed connection; (status, JSON object)."""
        url = self.settings.api_base.rstrip("/") + path
        for attempt in range(TRIES):
            last = attempt == TRIES - 1
            try:
                async with self._session.request(method, url, timeout=self._timeout, **options) as response:
                    try:
                        data = await response.json(content_type=None)
                    except ValueError:
                        data = None
                    status = response.status
                    header = response.headers.get("Retry-After")
            except (aiohttp.ClientError, TimeoutError) as error:
                log.warning("Discord's %s failed (%s)", path, type(error).__name__)
                if last:
                    raise SignInError(504 if isinstance(error, TimeoutError) else 502, UNREACHABLE) from None
                await self._sleep(BACKOFF * 2**attempt)
                continue
            data = data if isinstance(data, dict) else {}
            if status == 429:
                wait = _retry_after(data, header)
                log.warning("Discord's %s is rate limited for %.2f s", path, wait)
                if last or wait > LONGEST_WAIT:
                    raise SignInError(503, BUSY)
                await self._sleep(wait)
                continue
            if status >= 500:
                log.warning("Discord's %s answered %s", path, status)
                if last:
                    raise SignInError(502, UNREACHABLE)
                await self._sleep(BACKOFF * 2**attempt)
                continue
            return status, data
        raise SignInError(502, UNREACHABLE)  # not reached: the last try answers or raises


OAUTH = web.AppKey("discord_oauth", DiscordOAuth)


def _retry_after(data: dict[str, Any], header: str | None) -> float:
    """The seconds a 429 says to wait: its body's ``retry_after``, else its ``Retry-After`` header, else one."""
    for value in (data.get("retry_after"), header):
        try:
            seconds = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if seconds >= 0:
            return seconds
    return 1.0


async def token(request: web.Request) -> web.Response:
    """``POST /api/activity/token`` ``{"code": "..."}``: sign the session in as the Discord user the code is from.

    Answers the access token (for the SDK's ``authenticate``), the page's new CSRF token (a
    sign-in makes one anew), the player's name and Discord id (the page leaves them out of who else is
    here). Anything else in the body (a user id) is ignored.
    """
    oauth = request.app.get(OAUTH)
    if oauth is None:
        raise Refusal(404, NOT_SET_UP)
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        body = None
    code = body.get("code") if isinstance(body, dict) else None
    if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE or not code.isascii() or not code.isprintable():
        raise Refusal(400, NO_CODE)
    try:
        access_token, user = await oauth.sign_in(code)
    except SignInError as error:
        raise Refusal(error.status, error.message) from None
    player = await request.app[SERVICE].sign_in(Actor(DISCORD, user.id, user.name))
    await sign_in(request, Link(user.id, player, user.name), notice=SIGNED_IN)
    return web.json_response({"access_token": access_token, "csrf": await csrf_token(request), "name": user.name,
                              "id": user.id})


def oauth_context(settings: ActivitySettings) -> Callable[[web.Application], AsyncIterator[None]]:
    """A ``cleanup_ctx``: the client session the sign-ins use, open while the app runs."""

    async def context(app: web.Application) -> AsyncIterator[None]:
        async with aiohttp.ClientSession() as session:
            app[OAUTH] = DiscordOAuth(settings, session, timeout=settings.timeout)
            yield

    return context
