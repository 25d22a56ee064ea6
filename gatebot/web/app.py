"""The web table's application: built from the service and settings it is handed, nothing global.

One function, :func:`build_app`, makes the ``aiohttp.web.Application``: its routes in one table,
the live-board watcher opened and closed in ``cleanup_ctx``, one error boundary
(:mod:`gatebot.web.errors`), the session (aiohttp-session's encrypted cookies), the guard
(origin, CSRF token, JSON, rate; :mod:`gatebot.web.guard`) and the security headers on every
response. ``gatebot web`` serves it alone; ``gatebot run`` with WEB_PORT serves the same app from
the bot's process, over the bot's own :class:`~gatebot.service.GameService`. Beside the table, its
public pages (:mod:`gatebot.web.public`): a challenge's standings and a finished game's replay.
With DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET, the table is also an Activity inside Discord,
its player signed in by Discord's OAuth2 (:mod:`gatebot.web.activity`), and the page outside Discord
offers "Sign in with Discord" (:mod:`gatebot.web.signin`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from importlib.resources import as_file, files

from aiohttp import web
from aiohttp_session import setup as setup_sessions
from aiohttp_session.cookie_storage import EncryptedCookieStorage

from gatebot.service import GameService
from gatebot.service.challenges import ChallengeService
from gatebot.service.links import Links
from gatebot.settings import WebSettings
from gatebot.web import activity, api, public, signin, together
from gatebot.web.errors import error_boundary
from gatebot.web.guard import ACTIVITY_POLICY, RateLimit, activity_policy, add_security_headers, guard
from gatebot.web.live import Live

#: The largest request body read: a move, a new deal's choices (a 10 MB body is refused, 413).
MAX_BODY = 16 * 1024
#: How long a guest's cookie lasts without a visit (seconds): about a year.
SESSION_AGE = 400 * 24 * 3600
COOKIE = "gatebot_session"

ROUTES = [
    web.get("/", api.page, name="table"),
    web.get("/link/{token}", api.follow_link),
    web.get("/api/game", api.game),
    web.get("/api/events", api.events),
    web.post("/api/play", api.play),
    web.post(r"/api/{action:undo|auto|end|hint}", api.action),
    web.post("/api/new", api.new_game),
    web.post("/api/preferences", api.preferences),
    web.post("/api/forget", api.forget),
    web.post("/api/activity/token", activity.token),
    web.get("/signin", signin.begin),
    web.get("/signin/callback", signin.callback),
    web.post("/signin/choice", signin.choose),
    web.post("/signout", signin.sign_out),
    web.get("/api/activity/challenges", together.challenges),
    web.post("/api/activity/challenge", together.play),
    web.get(r"/challenges/{challenge:\d{1,19}}", public.challenge_page, name="challenge"),
    web.get(r"/replay/{game:\d{1,19}}", public.replay_page, name="replay"),
    web.get(r"/api/replay/{game:\d{1,19}}", public.replay_frames),
]


def build_app(
    service: GameService, settings: WebSettings, key: bytes, *, rate: RateLimit | None = None
) -> web.Application:
    """The web table over ``service``; ``key`` (32 bytes) seals the session cookies, ``rate`` limits each player.

    The same key opens the sign-in links ``/gate table`` gives (:mod:`gatebot.service.links`
    derives its own key from it).
    """
    app = web.Application(client_max_size=MAX_BODY, middlewares=[error_boundary])
    storage = _cookies(key, settings)
    setup_sessions(app, storage)
    app.middlewares.append(guard(rate or RateLimit()))
    app[api.SERVICE] = service
    app[public.CHALLENGES] = ChallengeService(service)
    app[api.LINKS] = Links(key)
    if settings.public_url is not None:
        app[signin.PUBLIC_URL] = settings.public_url
    app.add_routes(ROUTES)
    with as_file(files("gatebot.web") / "static") as static:
        app.router.add_static("/static/", static, name="static", append_version=False)
    app.on_response_prepare.append(add_security_headers)
    app.cleanup_ctx.append(_live)
    if settings.activity is not None:
        app[activity.CLIENT_ID] = settings.activity.client_id
        app[ACTIVITY_POLICY] = activity_policy(settings.activity.frame_ancestors)
        app.cleanup_ctx.append(activity.oauth_context(settings.activity))
    app.on_shutdown.append(_end_streams)
    return app


class _PartitionedCookies(EncryptedCookieStorage):
    """The session cookie of a table played inside Discord's frame: ``SameSite=None; Secure; Partitioned``.

    The Activity's page is another site's frame (``discordsays.com`` in ``discord.com``), where a
    ``SameSite=Lax`` cookie is never sent; partitioned (CHIPS), the cookie is kept for that frame
    only, apart from the same table opened on its own.
    """

    def save_cookie(self, response: web.StreamResponse, cookie_data: str, *, max_age: int | None = None) -> None:
        super().save_cookie(response, cookie_data, max_age=max_age)
        morsel = response.cookies.get(self.cookie_name)
        if cookie_data and morsel is not None:
            # Python 3.11's cookies know no Partitioned attribute: the header is written here, with it.
            response.cookies.pop(self.cookie_name)
            response.headers.add("Set-Cookie", morsel.OutputString() + "; Partitioned")


def _cookies(key: bytes, settings: WebSettings) -> EncryptedCookieStorage:
    """The session cookie: ``SameSite=Lax``, but ``None`` (and partitioned) for an Activity served over https."""
    if settings.activity is not None and settings.secure_cookies:
        return _PartitionedCookies(key, cookie_name=COOKIE, max_age=SESSION_AGE, httponly=True, samesite="None",
                                   secure=True)
    return EncryptedCookieStorage(key, cookie_name=COOKIE, max_age=SESSION_AGE, httponly=True, samesite="Lax",
                                  secure=settings.secure_cookies)


async def _end_streams(app: web.Application) -> None:
    """The table is stopping: end the live streams, which would otherwise hold the shutdown up."""
    app[api.LIVE].end_streams()


async def _live(app: web.Application) -> AsyncIterator[None]:
    """Watch the service for the live boards while the app runs."""
    live = app[api.LIVE] = Live(app[api.SERVICE])
    yield
    await live.close()
