"""What every request passes before a handler: security headers, the origin and CSRF checks, the content type, a rate.

Refusals are :class:`~gatebot.web.refusal.Refusal` (a status and one sentence), which :mod:`gatebot.web.errors` turns
into a page or a JSON answer in the reader's language.
"""

from __future__ import annotations

import hmac
import time
from collections import OrderedDict
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from yarl import URL

from gatebot.messages import N_
from gatebot.web.guests import expected_csrf, rate_key
from gatebot.web.refusal import Refusal

#: The policy of every response: nothing but gatebot's own files, no inline script or style.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"
)
#: The policy of the Activity's page (the table inside Discord: ``/?frame_id=…``), when Activities are enabled.
ACTIVITY_POLICY = web.AppKey("activity_policy", str)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: A plain HTML form's body, whose ``csrf`` field may carry the token outside ``/api/``.
FORM = "application/x-www-form-urlencoded"
CROSS_SITE = N_("That request came from another site, so nothing was done: play from the table's own page.")
NO_TOKEN = N_("Your page is out of date, so nothing was done: reload it and try again.")
NOT_JSON = N_("Send the request as JSON (Content-Type: application/json).")
TOO_FAST = N_("That's a lot of requests at once: wait a moment and try again.")


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: the security headers on every response, pages, files, errors and events alike."""
    response.headers.update(SECURITY_HEADERS)
    if activity_page(request):
        response.headers["Content-Security-Policy"] = request.app[ACTIVITY_POLICY]
    if request.path.startswith("/static/"):
        response.headers.setdefault("Cache-Control", "public, max-age=3600")
    elif "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "no-store"


def activity_page(request: web.Request) -> bool:
    """Whether the request is for the table as an Activity: its page with Discord's ``frame_id``, Activities enabled."""
    return request.path == "/" and "frame_id" in request.query and ACTIVITY_POLICY in request.app


def activity_policy(frame_ancestors: tuple[str, ...]) -> str:
    """The Activity page's policy: every response's, but that Discord's client (``frame_ancestors``) may frame it."""
    return CONTENT_SECURITY_POLICY.replace("frame-ancestors 'self'", " ".join(("frame-ancestors 'self'",
                                                                               *frame_ancestors)))


def same_origin(request: web.Request) -> bool:
    """Whether a state-changing request comes from this site's own page (Sec-Fetch-Site, then Origin)."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser's cross-site request: the CSRF token still has to match
    try:
        return URL(origin).raw_authority == request.host
    except ValueError:
        return False


@dataclass(slots=True)
class Bucket:
    tokens: float
    at: float


class RateLimit:
    """A token bucket per player: ``burst`` requests at once, then ``rate`` a second."""

    def __init__(self, rate: float = 8.0, burst: int = 30, *, players: int = 10_000) -> None:
        self.rate, self.burst, self._players = rate, burst, players
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take one token from ``key``'s bucket; False when it is empty."""
        now = time.monotonic() if now is None else now
        bucket = self._buckets.pop(key, None) or Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        self._buckets[key] = bucket
        while len(self._buckets) > self._players:
            self._buckets.popitem(last=False)
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True


def guard(limit: RateLimit) -> Middleware:
    """The middleware: the API's rate per player, and for every change the origin, the CSRF token and JSON.

    The token comes in the ``X-CSRF-Token`` header, or (a plain form outside ``/api/``) as the form's ``csrf``.
    """

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.match_info.http_exception is not None:
            return await handler(request)  # no such page, or not that way: a 404 or 405 page, nothing done
        if request.path.startswith("/api/"):
            key = await rate_key(request)
            if not limit.allow(key):
                raise Refusal(429, TOO_FAST)
        if request.method not in SAFE_METHODS:
            if not same_origin(request):
                raise Refusal(403, CROSS_SITE)
            expected = await expected_csrf(request)
            sent = request.headers.get("X-CSRF-Token", "")
            if not sent and not request.path.startswith("/api/") and request.content_type == FORM:
                # A page's plain form (the sign-in's choice, Sign out) sends the token as its ``csrf`` field.
                field = (await request.post()).get("csrf")
                sent = field if isinstance(field, str) else ""
            if expected is None or not hmac.compare_digest(sent.encode(), expected.encode()):
                raise Refusal(403, NO_TOKEN)
            if request.path.startswith("/api/") and request.content_type != "application/json":
                raise Refusal(415, NOT_JSON)
        return await handler(request)

    return check
