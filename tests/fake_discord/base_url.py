"""Pointing discord.py at the fake: the REST base and the gateway URL.

discord.py has no constructor option for either. It builds every REST URL (bot calls, and the
interaction callbacks and webhook follow-ups, which use the same ``Route`` class) from the class
attribute ``discord.http.Route.BASE`` when each request is made, and a ``Client`` connects its
first gateway websocket to the class attribute ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``
(it never asks GET /gateway/bot; only ``AutoShardedClient`` without a shard count does). So both
class attributes are set, before ``login()``/``start()``; they are process-wide, hence the
restore function for tests.

The fake serves its gateway at ``/gateway`` on the REST base's host and port, so one setting
(the REST base) determines both: see :func:`gateway_url_for`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

#: The bot's test-only setting naming the fake's REST base (``http://127.0.0.1:PORT/api/v10``).
API_BASE_VARIABLE = "GATEBOT_DISCORD_API_BASE"
#: Where a Discord-compatible fake serves its gateway, relative to the REST base's origin.
GATEWAY_PATH = "/gateway"


def gateway_url_for(api_base: str) -> str:
    """The gateway URL that goes with a REST base: same host and port, ``ws``/``wss``, path /gateway."""
    url = yarl.URL(api_base)
    scheme = {"http": "ws", "https": "wss"}.get(url.scheme)
    if scheme is None or not url.host:
        raise ValueError(f"{api_base!r} is not an http(s) URL like http://127.0.0.1:PORT/api/v10")
    return str(url.with_scheme(scheme).with_path(GATEWAY_PATH))


def use_base_url(api_base: str, gateway_url: str | None = None) -> Callable[[], None]:
    """Send discord.py's REST calls to ``api_base`` and its gateway connection to ``gateway_url``.

    ``gateway_url`` defaults to :func:`gateway_url_for` ``(api_base)``. Call before the client
    logs in. Returns a function that puts the previous values back.
    """
    previous = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    gateway = yarl.URL(gateway_url or gateway_url_for(api_base))
    Route.BASE = api_base.rstrip("/")
    DiscordWebSocket.DEFAULT_GATEWAY = gateway

    def restore() -> None:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = previous

    return restore


@contextmanager
def pointed_at(api_base: str, gateway_url: str | None = None) -> Iterator[None]:
    """``use_base_url`` for the duration of a ``with`` block."""
    restore = use_base_url(api_base, gateway_url)
    try:
        yield
    finally:
        restore()
