"""Failures Discord really produces, injected into chosen REST routes.

Real Discord fails requests in ways a bot must survive: 400 Invalid Form Body, 403 Missing
Permissions in a channel the bot can't use, 404 for a message deleted meanwhile, 429 rate
limits (with ``Retry-After`` and the ``Via`` header discord.py looks for before it retries),
500s (which discord.py retries on its own), a slow answer, and a socket closed mid-request.
A test arms a :class:`Fault` for a route (``fake.fail("PATCH /channels/{channel_id}/messages/{message_id}",
403, code=50013)``); the recording middleware consults :meth:`Faults.take` for every API request
after recording it, so a failed request is still in ``fake.requests`` with the status it got.

``processed=True`` makes the fake do the work and *then* answer with the failure: Discord
sometimes acts on a request and still reports an error (a 500 after the callback took effect),
which is the case where a bot must not tell its user that nothing happened.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from aiohttp import web

#: Discord's usual message for each status, when a test names none.
MESSAGES = {
    400: "Invalid Form Body",
    401: "401: Unauthorized",
    403: "Missing Permissions",
    404: "Unknown Message",
    429: "You are being rate limited.",
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
}


@dataclass
class Fault:
    """One armed failure: answer the next ``times`` requests of ``route`` with it."""

    route: str
    status: int = 500
    code: int = 0
    message: str | None = None
    times: int = 1
    #: Seconds to wait before answering (a slow Discord); with ``status`` 0, the request then succeeds.
    delay: float = 0.0
    #: Close the connection instead of answering (a dropped socket).
    drop: bool = False
    #: Do the request's work first, then answer with the failure.
    processed: bool = False
    #: For 429: seconds the bot is told to wait.
    retry_after: float = 0.05
    #: How many requests this fault has answered.
    hits: int = 0

    @property
    def spent(self) -> bool:
        return self.hits >= self.times

    def response(self) -> web.Response:
        """The failure as Discord sends it."""
        from tests.fake_discord.rest_common import error, json_response  # rest_common needs the state, which needs this

        text = self.message or MESSAGES.get(self.status, "Error")
        if self.status == 429:
            body = {"message": text, "retry_after": self.retry_after, "global": False, "code": self.code}
            answer = json_response(body, status=429)
            answer.headers["Retry-After"] = str(self.retry_after)
            answer.headers["Via"] = "1.1 google"  # discord.py treats a 429 without it as a Cloudflare ban
            return answer
        return error(self.status, self.code, text)


@dataclass
class Faults:
    """The armed faults of one fake Discord, consulted in arrival order."""

    armed: list[Fault] = field(default_factory=list)

    def arm(self, fault: Fault) -> Fault:
        self.armed.append(fault)
        return fault

    def take(self, route: str | None) -> Fault | None:
        """The fault that answers this request (counting it), or None to serve it normally."""
        for fault in self.armed:
            if fault.route == route and not fault.spent:
                fault.hits += 1
                return fault
        return None

    def clear(self) -> None:
        self.armed.clear()


async def apply(fault: Fault, request: web.Request, serve: web.Response | None) -> web.StreamResponse:
    """Answer ``request`` as ``fault`` says; ``serve`` is the normal answer when it was processed."""
    if fault.delay:
        await asyncio.sleep(fault.delay)
    if fault.drop:
        if request.transport is not None:
            request.transport.abort()
        return web.Response(status=500)  # never reaches the client: the socket is gone
    if fault.status == 0:
        return serve if serve is not None else web.Response(status=204)
    return fault.response()
